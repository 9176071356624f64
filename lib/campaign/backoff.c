/*
 * backoff — a growing polling interval. See backoff.h.
 */
#include "campaign/backoff.h"

void backoff_init(struct backoff *b, double min, double max)
{
	if (min <= 0)
		min = 1;
	if (max < min)
		max = min;
	b->min = min;
	b->max = max;
	b->cur = min;
}

double backoff_next(struct backoff *b)
{
	double v = b->cur;
	b->cur *= 1.5;
	if (b->cur > b->max)
		b->cur = b->max;
	return v;
}

double backoff_reset(struct backoff *b)
{
	b->cur = b->min;
	return backoff_next(b);
}
