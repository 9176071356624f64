/*
 * cerr — the one error value the campaign code passes around: a formatted message that already
 * names what is wrong (file, line, field, job), ready to print as is.
 */
#ifndef LADDER_CAMPAIGN_CERR_H
#define LADDER_CAMPAIGN_CERR_H

struct cerr {
	char msg[1536];
};

/* Set the message (printf-style). Always returns false, so callers can `return cerr_set(...)`. */
_Bool cerr_set(struct cerr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
