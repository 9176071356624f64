/*
 * backoff — the polling interval: it starts at the minimum, grows by half each time nothing
 * changed, up to the maximum, and drops back to the minimum when something happens. The load a
 * campaign puts on the scheduler is then one query per interval, whatever the number of jobs.
 */
#ifndef LADDER_CAMPAIGN_BACKOFF_H
#define LADDER_CAMPAIGN_BACKOFF_H

struct backoff {
	double min, max, cur;
};

void backoff_init(struct backoff *b, double min, double max);
/* the next interval after a quiet round */
double backoff_next(struct backoff *b);
/* back to the minimum (something changed); returns it */
double backoff_reset(struct backoff *b);

#endif
