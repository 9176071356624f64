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

/* law l's one value on every rank of class cls on grid g (its box's ranks that are of the class),
 * in *v; false when the class has no rank or the law differs among its ranks */
static bool class_value(const struct grid *g, uint32_t cls, const struct rank_law *l, int64_t *v)
{
	int64_t lo[LAW_MAX_DIMS], hi[LAW_MAX_DIMS], c[LAW_MAX_DIMS];
	bool any = false;
	if (!topology_class_box(g, cls, lo, hi))
		return false;
	for (uint32_t k = 0; k < g->ndims; k++)
		c[k] = lo[k];
	for (;;) {
		int64_t rank = grid_rank_of(g, c);
		if (topology_class(g, rank) == cls) {
			int64_t x = rank_law_eval(l, (uint64_t)rank);
			if (any && x != *v)
				return false;
			*v = x, any = true;
		}
		int k = (int)g->ndims - 1;
		while (k >= 0 && ++c[k] > hi[k])
			c[k] = lo[k], k--;
		if (k < 0)
			return any;
	}
}

/* cell c's value at rung i for the class's ranks: a law of the rank that gives them one value */
static bool cell_value(const struct class_rungs *cr, const struct run_stream *s, size_t i, uint32_t cls, uint64_t c,
		       int64_t *v)
{
	*v = s->cells[c];
	for (uint32_t k = 0; k < s->nlaws; k++)
		if (s->laws[k].cell == c && !class_value(&cr->grids[i], cls, &s->laws[k].law, v))
			return false;
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
