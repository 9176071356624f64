/*
 * campaign_error — formatted error messages for the campaign code. See campaign_error.h.
 */
#include "campaign/campaign_error.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

bool campaign_error_set(struct campaign_error *e, const char *fmt, ...)
{
	if (!e)
		return false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return false;
}
