/*
 * campaign_error — the one error value the campaign code passes around: a formatted message
 * that already names what is wrong (file, line, field, job), ready to print as is.
 */
#ifndef LADDER_CAMPAIGN_CAMPAIGN_ERROR_H
#define LADDER_CAMPAIGN_CAMPAIGN_ERROR_H

struct campaign_error {
	char msg[1536];
};

/* Set the message (printf-style). Always returns false, so callers can
 * `return campaign_error_set(...)`. */
_Bool campaign_error_set(struct campaign_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
