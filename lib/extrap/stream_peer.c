/*
 * stream_peer — a streamed relative peer as a move on the grid. See stream_peer.h.
 */
#include "extrap/stream_peer.h"

#include "extrap/geometry.h"
#include "extrap/topology.h"
#include "mpi/signature.h"

static bool relative_peer(enum param_kind k) { return k == PK_PEER || k == PK_SRC || k == PK_PEER_OUT; }

/* whether the c-th value a call of signature sig streams is a relative peer: false when the calls
 * stream a varying number of values (an array, a failed poll's count) */
static bool cell_is_peer(const struct run *r, uint32_t sig, uint64_t c)
{
	const struct run_signature *s = &r->sigs[sig];
	const struct fn_desc *d = &r->fns[s->fn];
	const int64_t *vals = r->sigvals + s->voff;
	uint64_t width = 0;
	if (s->flags & SIGF_FAILED_POLL)
		return false;
	PARAM_FOR (w, d, vals, s->nvals) {
		if (vals[w.at] != SV_STREAMED)
			continue;
		if (param_kind_is_array(w.kind))
			return false;
		width += w.width;
	}
	if (!width)
		return false;
	c %= width;
	PARAM_FOR (w, d, vals, s->nvals) {
		if (vals[w.at] != SV_STREAMED)
			continue;
		if (c < w.width)
			return relative_peer(w.kind);
		c -= w.width;
	}
	return false;
}

/* the first rank of class cls on grid g (its box's lowest corner), or -1 */
static int64_t class_rank(const struct grid *g, uint32_t cls)
{
	int64_t lo[LAW_MAX_DIMS], hi[LAW_MAX_DIMS], rank = 0;
	if (!topology_class_box(g, cls, lo, hi))
		return -1;
	for (uint32_t k = 0; k < g->ndims; k++)
		rank = rank * g->dims[k] + lo[k];
	return rank;
}

/* cell c's value at rung i as the class's first rank reads it: a law of the rank evaluated there */
static bool cell_value(const struct class_rungs *cr, const struct run_stream *s, size_t i, uint32_t cls, uint64_t c,
		       int64_t *v)
{
	*v = s->cells[c];
	for (uint32_t k = 0; k < s->nlaws; k++) {
		if (s->laws[k].cell != c)
			continue;
		int64_t rank = class_rank(&cr->grids[i], cls);
		if (rank < 0)
			return false;
		*v = rank_law_eval(&s->laws[k].law, (uint64_t)rank);
	}
	return true;
}

bool stream_peer_at_target(uint32_t cls, const struct class_rungs *cr, const uint32_t *sigs,
			   const struct run_stream *const *at, uint64_t c, const struct grid *target, int64_t *out)
{
	struct step move, here;
	for (uint32_t k = 0; k < target->ndims; k++)
		if (cr->periodic[k])   /* a periodic dimension's wrap: its laws (stream_at.c) and families decide */
			return false;
	for (size_t i = 0; i < cr->n; i++) {
		int64_t v;
		if (at[i]->nhead || c >= run_stream_cells(at[i]) || !cell_is_peer(cr->runs[i], sigs[i], c) ||
		    !cell_value(cr, at[i], i, cls, c, &v))
			return false;
		if (sv_is_symbolic(v) || !step_of_offset(&cr->grids[i], cr->periodic, cls, v, &here))
			return false;
		if (i == 0)
			move = here;
		else if (!step_meet(&move, &here, target->ndims))
			return false;
	}
	uint32_t undecided;
	return cr->n > 0 && step_offset(&move, target, cls, out, &undecided);
}
