/*
 * grid — balanced process grids for the {dims} placeholders. See grid.h.
 */
#include "campaign/grid.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* is d^k at least n (without overflow)? */
static bool power_reaches(long d, int k, long n)
{
	long v = 1;
	for (int i = 0; i < k; i++) {
		if (v >= (n + d - 1) / d)
			return true;
		v *= d;
	}
	return v >= n;
}

/* The lexicographically smallest non-increasing factorisation of n into k factors, none above
 * cap, into out; the factors are divisors of the original count, listed ascending in div. */
static bool smallest(long n, int k, long cap, const long *div, size_t ndiv, long *out)
{
	if (k == 1) {
		if (n > cap)
			return false;
		out[0] = n;
		return true;
	}
	for (size_t i = 0; i < ndiv && div[i] <= cap && div[i] <= n; i++) {
		long d = div[i];
		/* the first factor is the largest: d^k >= n */
		if (n % d || !power_reaches(d, k, n))
			continue;
		if (smallest(n / d, k - 1, d, div, ndiv, out + 1)) {
			out[0] = d;
			return true;
		}
	}
	return false;
}

bool grid_balanced(long ranks, int ndims, long *dims)
{
	if (ranks < 1 || ndims < 1 || ndims > GRID_MAX_DIMS)
		return false;
	/* the divisors of ranks, ascending: every factor of every sub-problem is one */
	long *low = NULL, *high = NULL;
	size_t nlow = 0, nhigh = 0, caplow = 0, caphigh = 0;
	for (long d = 1; d <= ranks / d; d++)
		if (ranks % d == 0) {
			XGROW(low, caplow, nlow + 1);
			low[nlow++] = d;
			if (d != ranks / d) {
				XGROW(high, caphigh, nhigh + 1);
				high[nhigh++] = ranks / d;
			}
		}
	long *div = xcalloc(nlow + nhigh, sizeof *div);
	for (size_t i = 0; i < nlow; i++)
		div[i] = low[i];
	for (size_t i = 0; i < nhigh; i++)
		div[nlow + i] = high[nhigh - 1 - i];
	bool ok = smallest(ranks, ndims, ranks, div, nlow + nhigh, dims);
	free(low);
	free(high);
	free(div);
	return ok;
}

bool grid_on_axes(long ranks, int ndims, const int *order, long *dims)
{
	long f[GRID_MAX_DIMS];
	if (!grid_balanced(ranks, ndims, f))
		return false;
	for (int i = 0; i < ndims; i++)
		dims[order ? order[i] : i] = f[i];
	return true;
}

const char *grid_axis_letter(int k)
{
	static const char *const letters[] = {"x", "y", "z"};
	return k >= 0 && k < 3 ? letters[k] : NULL;
}
