/*
 * stream_fold — the head and period of a value stream: the split of v[0..n) into a head and a
 * period repeated to the end (the last repetition may be partial) with the fewest cells. A loop
 * whose values repeat every k iterations folds to one period of k iterations after whatever came
 * before the loop, so its stream costs the same for 100 or 100,000 iterations.
 *
 * The suffixes of v are the prefixes of v reversed; the prefix function of the reversed values
 * (Knuth-Morris-Pratt) gives the smallest period of every suffix in one linear pass, and the best
 * split is the suffix L minimising (n - L) + period(L).
 */
#include "run/stream.h"

#include <stdlib.h>

#include "util/xalloc.h"

void stream_fold(const int64_t *v, uint64_t n, uint64_t *nhead, uint64_t *nperiod)
{
	*nhead = n;
	*nperiod = 0;
	if (n < 2)
		return;
	/* w[i] = v[n - 1 - i]; border[i]: the longest proper border of w[0..i] */
	uint64_t *border = xmalloc(n * sizeof *border);
	border[0] = 0;
	uint64_t best = n;
	for (uint64_t i = 1; i < n; i++) {
		uint64_t k = border[i - 1];
		while (k && v[n - 1 - i] != v[n - 1 - k])
			k = border[k - 1];
		if (v[n - 1 - i] == v[n - 1 - k])
			k++;
		border[i] = k;
		uint64_t len = i + 1, period = len - k, cost = (n - len) + period;
		if (period < len && (cost < best || (cost == best && best < n))) {
			best = cost;
			*nhead = n - len;
			*nperiod = period;
		}
	}
	free(border);
}
