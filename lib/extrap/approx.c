/*
 * approx — the values lossy mode gives counts the ladder does not state exactly (align.h).
 *
 * A count without a law across the ladder is approximated: a count the caller sends, as at the
 * reference rung on the class's first rank (a streamed one, its mean there); a collective's
 * count, the largest the ladder shows for the call on any rank, which every rank computes alike.
 *
 * A count a rank receives into point to point must hold the message it meets, and in lossy mode
 * that message may come from a rank of another class whose counts were taken elsewhere. MPI lets
 * a receive be larger than its message, never smaller: a receive count that is a constant (or
 * approximated) becomes the largest value the ladder shows for any receive of its function at its
 * call site, on any rank at any rung. Counts with a law are left as they are: their sends follow
 * the same law.
 */
#include "extrap/align.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/fninfo.h"
#include "mpi/signature.h"
#include "run/events.h"
#include "util/xalloc.h"

/* the mean of value j over rank's calls of signature sig */
static int64_t stream_mean(const struct run *r, uint32_t rank, uint32_t sig, uint32_t j)
{
	struct event_iter it;
	struct event ev;
	double sum = 0, n = 0;
	event_iter_init(&it, r, rank);
	while (event_next(&it, &ev))
		if (ev.sig == sig && j < ev.nvals)
			sum += (double)ev.vals[j] * (double)ev.repeat, n += (double)ev.repeat;
	event_iter_free(&it);
	return n > 0 ? llround(sum / n) : 0;
}

/* the larger of max and value j of the signatures of r in want, on any rank */
static int64_t largest(const struct run *r, const bool *want, uint32_t j, int64_t max)
{
	bool streamed = false;
	for (uint32_t s = 0; s < r->nsigs; s++) {
		int64_t v = want[s] ? r->sigvals[r->sigs[s].voff + j] : SV_BASE;
		streamed = streamed || v == SV_STREAMED;
		max = !sv_is_symbolic(v) && v > max ? v : max;
	}
	for (uint32_t rank = 0; streamed && rank < r->nranks; rank++) {
		struct event_iter it;
		struct event ev;
		event_iter_init(&it, r, rank);
		while (event_next(&it, &ev))
			if (want[ev.sig] && !sv_is_symbolic(ev.vals[j]) && ev.vals[j] > max)
				max = ev.vals[j];
		event_iter_free(&it);
	}
	return max;
}

/* the largest value j of occurrence o's calls on the ladder: of its signature at each rung, or
 * (site) of every signature of its function at its call site */
static int64_t ladder_largest(const struct aligned_class *a, uint32_t o, uint32_t j, bool site)
{
	int64_t max = INT64_MIN;
	const char *fn = a->ref->fns[a->occ[o].fn].name;
	for (size_t q = 0; q < a->nrungs; q++) {
		const struct run *r = a->runs[q];
		bool *want = xcalloc(r->nsigs + 1, sizeof *want);
		for (uint32_t s = 0; s < r->nsigs; s++)
			want[s] = s == a->occ[o].rung_sigs[q] ||
				  (site && r->sigs[s].callsite == a->occ[o].callsite && j < r->sigs[s].nvals &&
				   !strcmp(r->fns[r->sigs[s].fn].name, fn));
		max = largest(r, want, j, max);
		free(want);
	}
	return max == INT64_MIN ? 0 : max;
}

/* the parameter value j of occurrence o belongs to (-1 when none) */
static int param_of(const struct aligned_class *a, uint32_t o, uint32_t j)
{
	const struct fn_desc *d = &a->ref->fns[a->occ[o].fn];
	const struct run_signature *s = &a->ref->sigs[a->occ[o].ref_sig];
	uint32_t p, e;
	return param_walk_value_at(d, a->ref->sigvals + s->voff, s->nvals, j, &p, &e) ? (int)p : -1;
}

/* is value j of occurrence o a collective's count? */
static bool collective_count(const struct aligned_class *a, uint32_t o, uint32_t j)
{
	const struct fn_desc *d = &a->ref->fns[a->occ[o].fn];
	int p = param_of(a, o, j);
	return (d->flags & FNF_COLLECTIVE) && p >= 0 && d->params[p].kind == PK_COUNT;
}

/* is value j of occurrence o the count a point-to-point receive takes, by the byte accounting's
 * table (mpi/fninfo.h: recv and mrecv read it first, sendrecv fourth)? */
static bool received_into(const struct aligned_class *a, uint32_t o, uint32_t j)
{
	int id = fn_lookup(a->ref->fns[a->occ[o].fn].name), p = param_of(a, o, j);
	if (id < 0 || (uint32_t)id >= mpi_nfninfo || p < 0)
		return false;
	const struct mpi_fninfo *f = &mpi_fninfo[id];
	if (f->vol == VOL_RECV || f->vol == VOL_MRECV)
		return f->vol_args[0] == p;
	return f->vol == VOL_SENDRECV && f->vol_args[3] == p;
}

void aligned_class_approximate(struct aligned_class *a, uint32_t o, uint32_t j, const char *why)
{
	struct occurrence *oc = &a->occ[o];
	int64_t v;
	if (collective_count(a, o, j)) {
		v = ladder_largest(a, o, j, false);
	} else {
		size_t q = 0;
		while (a->runs[q] != a->ref)
			q++;
		v = a->ref->sigvals[a->ref->sigs[oc->rung_sigs[q]].voff + j];
		if (v == SV_STREAMED)
			v = stream_mean(a->ref, ranklist_first(&a->ref->groups[a->ref_group].ranks), oc->rung_sigs[q], j);
	}
	xval_free(&oc->x[j]);
	oc->x[j] = (struct xval){.kind = XV_CONST, .v = v};
	oc->approximated = true;
	if (!a->first_approximated[0])
		snprintf(a->first_approximated, sizeof a->first_approximated, "%s", why);
}

void aligned_class_receive_room(struct aligned_class *a)
{
	for (uint32_t o = 0; a->lossy && o < a->nocc; o++)
		for (uint32_t j = 0; !a->occ[o].dropped && j < a->occ[o].nvals; j++) {
			struct xval *x = &a->occ[o].x[j];
			if (x->kind != XV_CONST || sv_is_symbolic(x->v) || !received_into(a, o, j))
				continue;
			int64_t v = ladder_largest(a, o, j, true);
			if (v > x->v) {
				x->v = v;
				a->occ[o].approximated = true;
			}
		}
}
