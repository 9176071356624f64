/*
 * cerr — formatted error messages for the campaign code. See cerr.h.
 */
#include "campaign/cerr.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

bool cerr_set(struct cerr *e, const char *fmt, ...)
{
	if (!e)
		return false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return false;
}
