/*
 * error — filling a struct model_error. See error.h.
 */
#include "model/error.h"

#include <stdarg.h>
#include <stdio.h>

void model_error_set(struct model_error *err, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
}
