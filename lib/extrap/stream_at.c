/*
 * stream_at — a class's value stream decided across the ladder and evaluated at the target. See
 * stream_at.h.
 */
#include "extrap/stream_at.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/geometry.h"
#include "extrap/stream_peer.h"
#include "extrap/topology.h"
#include "extrap/value.h"
#include "mpi/signature.h"
#include "util/xalloc.h"

/* the one stream every rank of the class reads at rung i; NULL with why when they read several */
static const struct run_stream *class_stream(uint32_t cls, const struct class_rungs *cr, size_t i, uint32_t sig,
					     char *why, size_t whylen)
{
	const struct run *r = cr->runs[i];
	const struct run_stream *found = NULL;
	uint32_t rank;
	RANKLIST_FOR(rank, &r->groups[cr->groups[i]].ranks) {
		if (topology_class(&cr->grids[i], rank) != cls)
			continue;
		const struct run_stream *s = run_stream_of(r, rank, sig);
		if (found && s != found) {
			snprintf(why, whylen, "its ranks read different values at p%u (rank %u unlike rank %u), not laws of "
				 "the rank", r->nranks, rank, ranklist_first(&found->ranks));
			return NULL;
		}
		found = s;
	}
	if (!found)
		snprintf(why, whylen, "no rank of the class reads its stream at p%u", r->nranks);
	return found;
}

static bool same_shape(const struct run_stream *a, const struct run_stream *b)
{
	if (a->nhead != b->nhead || a->nperiod != b->nperiod || a->nlaws != b->nlaws)
		return false;
	for (uint32_t k = 0; k < a->nlaws; k++) {
		if (a->laws[k].cell != b->laws[k].cell || a->laws[k].law.nterms != b->laws[k].law.nterms)
			return false;
		for (uint32_t t = 0; t < a->laws[k].law.nterms; t++)
			if (a->laws[k].law.terms[t].step != b->laws[k].law.terms[t].step)
				return false;
	}
	return true;
}

/* the numbers of a law's term: coef, divisor, shift, modulus (read on the grid: grid_term), then
 * step and below (a step term's threshold, decided like the cells) */
#define TERM_NUMBERS 6

/* the numbers of one stream in a fixed order: length, cells, then per law base and per term coef,
 * divisor, shift, modulus, step, below */
static uint64_t numbers(const struct run_stream *s, int64_t *out)
{
	uint64_t n = 0, cells = run_stream_cells(s);
	if (out)
		out[n] = (int64_t)s->length;
	n++;
	for (uint64_t c = 0; c < cells; c++, n++)
		if (out)
			out[n] = s->cells[c];
	for (uint32_t k = 0; k < s->nlaws; k++) {
		const struct rank_law *l = &s->laws[k].law;
		if (out)
			out[n] = l->base;
		n++;
		for (uint32_t t = 0; t < l->nterms; t++, n += TERM_NUMBERS)
			if (out) {
				out[n] = l->terms[t].coef, out[n + 1] = (int64_t)l->terms[t].divisor;
				out[n + 2] = (int64_t)l->terms[t].shift, out[n + 3] = (int64_t)l->terms[t].modulus;
				out[n + 4] = (int64_t)l->terms[t].step, out[n + 5] = (int64_t)l->terms[t].below;
			}
	}
	return n;
}

/* the numbers back into a stream of the reference's shape */
static void from_numbers(const struct run_stream *shape, const int64_t *v, struct run_stream *out)
{
	uint64_t n = 0, cells = run_stream_cells(shape);
	memset(out, 0, sizeof *out);
	out->length = (uint64_t)v[n++];
	out->nhead = shape->nhead, out->nperiod = shape->nperiod, out->nlaws = shape->nlaws;
	out->cells = xmalloc((cells + 1) * sizeof *out->cells);
	for (uint64_t c = 0; c < cells; c++)
		out->cells[c] = v[n++];
	out->laws = xcalloc(shape->nlaws + 1, sizeof *out->laws);
	for (uint32_t k = 0; k < shape->nlaws; k++) {
		struct rank_law *l = &out->laws[k].law;
		out->laws[k].cell = shape->laws[k].cell;
		l->nterms = shape->laws[k].law.nterms;
		l->base = v[n++];
		for (uint32_t t = 0; t < l->nterms; t++, n += TERM_NUMBERS)
			l->terms[t] = (struct rank_law_term){v[n], (uint64_t)v[n + 1], (uint64_t)v[n + 2],
							     (uint64_t)v[n + 3], (uint64_t)v[n + 4], (uint64_t)v[n + 5]};
	}
}

/* number j at every rung, decided and evaluated at the target */
static bool decide(const struct class_rungs *cr, const int64_t *all, uint64_t count, uint64_t j,
		   const struct grid *target, int64_t *out, char *why, size_t whylen)
{
	int64_t *v = xmalloc(cr->n * sizeof *v);
	for (size_t i = 0; i < cr->n; i++)
		v[i] = all[i * count + j];
	struct law law;
	law_solve(v, cr->grids, cr->n, target, &law);
	free(v);
	if (law.status == LAW_OK) {
		*out = law.predicted;
		return true;
	}
	snprintf(why, whylen, "its stream's %s %llu: %s: %s", j == 0 ? "length" : "number", (unsigned long long)j,
		 law_status_name(law.status), law.text);
	return false;
}

/* the dimension whose stride the term divides by at every rung, or -1 */
static int term_dim(const struct class_rungs *cr, const struct run_stream *const *at, uint32_t k, uint32_t t)
{
	for (uint32_t j = 0; j < cr->grids[0].ndims; j++) {
		bool all = true;
		for (size_t i = 0; all && i < cr->n; i++)
			all = (int64_t)at[i]->laws[k].law.terms[t].divisor == grid_stride(&cr->grids[i], j) &&
			      (cr->grids[i].dims[j] > 1 || j + 1 == cr->grids[i].ndims);
		if (all)
			return (int)j;
	}
	return -1;
}

/* one number of a term read on the grid: x(rung) = a * unit(rung) + b, the same a and b at every
 * rung (unit a stride or a size of dimension j), evaluated at the target. Where the unit is the
 * same at every rung, b is 0 (a size or stride of the grid: a modulus d_j stays d_j) or x a
 * constant. */
static bool grid_number(const struct class_rungs *cr, const int64_t *x, const int64_t *unit, int64_t unit_at,
			int64_t *out)
{
	bool varies = false, same = true;
	for (size_t i = 1; i < cr->n; i++)
		varies = varies || unit[i] != unit[0], same = same && x[i] == x[0];
	for (int64_t a = -2; a <= 2; a++) {
		int64_t b = varies ? x[0] - a * unit[0] : 0;
		bool all = varies || (a && x[0] == a * unit[0]);
		for (size_t i = 0; all && i < cr->n; i++)
			all = x[i] == a * unit[i] + b;
		if (all) {
			*out = a * unit_at + b;
			return true;
		}
	}
	*out = x[0];
	return same && !varies;
}

/* a periodic neighbour's shift along a dimension of one size d at every rung, read as a move on
 * the grid: 0 stays, 1 is the neighbour at +1, d - 1 the one at -1 (d - 1 on the target's
 * dimension, never the constant it happens to be at the rungs). Where d varies across the rungs
 * the shift is a multiple of d plus a constant (grid_number); on a dimension of 2 or less, where
 * +1 and -1 are one rank, the constant (the caller decides the direction). Any other shift is no
 * move by -1, 0 or +1 and, d being the same at every rung, cannot be told from d minus a constant:
 * *ambiguous, false. */
static bool grid_shift(const struct class_rungs *cr, const int64_t *x, const int64_t *size, int64_t size_at,
		       int64_t *out, bool *ambiguous)
{
	bool varies = false, same = true;
	for (size_t i = 1; i < cr->n; i++)
		varies = varies || size[i] != size[0], same = same && x[i] == x[0];
	if (varies || size[0] <= 2)
		return grid_number(cr, x, size, size_at, out);
	if (!same)
		return false;
	if (x[0] == 0 || x[0] == 1 || x[0] == size[0] - 1) {
		*out = x[0] == size[0] - 1 ? size_at - 1 : x[0];
		return true;
	}
	*ambiguous = true;
	return false;
}

/* a law's term as coordinate j of the rank's grid (ScalaExtrap §3.1's topology, not a fit): its
 * divisor the stride of j, its modulus j's size, its shift a move on the grid (grid_shift), its
 * coefficient a multiple of the stride plus a constant, the same at every rung; read on the target
 * grid into term (false: no such reading; *ambiguous too when the shift is no move and cannot be
 * told from a constant) */
static bool grid_term(const struct class_rungs *cr, const struct run_stream *const *at, uint32_t k, uint32_t t,
		      const struct grid *target, struct rank_law_term *term, uint32_t *undecided, bool *ambiguous)
{
	int j = term_dim(cr, at, k, t);
	if (j < 0 || cr->n < 2)
		return false;
	int64_t *x = xmalloc(4 * cr->n * sizeof *x), *stride = x + cr->n, *size = x + 2 * cr->n, *m = x + 3 * cr->n;
	int64_t shift, coef, modulus;
	for (size_t i = 0; i < cr->n; i++) {
		const struct rank_law_term *r = &at[i]->laws[k].law.terms[t];
		stride[i] = grid_stride(&cr->grids[i], (uint32_t)j), size[i] = cr->grids[i].dims[j];
		x[i] = (int64_t)r->shift, m[i] = (int64_t)r->modulus;
	}
	bool ok = grid_number(cr, m, size, target->dims[j], &modulus) &&
		  grid_shift(cr, x, size, target->dims[j], &shift, ambiguous);
	bool two = target->dims[j] > 2;   /* a move by 1 on a dimension of 2 at every rung: -1 or +1 */
	for (size_t i = 0; i < cr->n; i++)
		two = two && size[i] == 2;
	if (ok && two && shift % 2)
		*undecided = (uint32_t)j;
	for (size_t i = 0; i < cr->n; i++)
		x[i] = at[i]->laws[k].law.terms[t].coef;
	ok = ok && grid_number(cr, x, stride, grid_stride(target, (uint32_t)j), &coef) && shift >= 0 && modulus >= 0;
	if (ok)
		*term = (struct rank_law_term){coef, (uint64_t)grid_stride(target, (uint32_t)j), (uint64_t)shift,
					       (uint64_t)modulus, 0, 0};
	free(x);
	return ok;
}

/* where law k's numbers start, after the length and the cells */
static uint64_t law_offset(const struct run_stream *s, uint32_t k)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < k; i++)
		n += 1 + TERM_NUMBERS * (uint64_t)s->laws[i].law.nterms;
	return n;
}

/* the slot of the signature's values that cell c of a stream without a head fills: the c-th
 * streamed value of a call */
static uint32_t cell_slot(const struct run *r, uint32_t sig, uint64_t c)
{
	const struct run_signature *s = &r->sigs[sig];
	for (uint32_t j = 0; j < s->nvals; j++)
		if (r->sigvals[s->voff + j] == SV_STREAMED && c-- == 0)
			return j;
	return UINT32_MAX;
}

static bool rank_laws_equal(const struct rank_law *a, const struct rank_law *b)
{
	if (a->base != b->base || a->nterms != b->nterms)
		return false;
	for (uint32_t t = 0; t < a->nterms; t++)
		if (memcmp(&a->terms[t], &b->terms[t], sizeof a->terms[t]))
			return false;
	return true;
}

/* law k of the class's streams is, at every rung, a law in the grid coordinates (alike.h) fitted
 * over every rank of every rung, or the share of an uneven decomposition (remainder_law.h): that
 * law on the target grid, in out */
static bool coord_known(const struct class_rungs *cr, const uint32_t *sigs, const struct run_stream *const *at,
			uint32_t k, const struct grid *target, struct rank_law *out)
{
	if (!cr->coord || at[0]->nhead)
		return false;
	const struct run_signature *s = &cr->runs[0]->sigs[sigs[0]];
	const struct alike_law *l = alike_law_of(cr->coord, s->fn, s->callsite, alike_tags(cr->runs[0], sigs[0]),
						 cell_slot(cr->runs[0], sigs[0], at[0]->laws[k].cell));
	for (size_t i = 0; l && i < cr->n; i++) {
		struct rank_law x;
		if (l->remainder)
			remainder_law_at(&l->rem, &cr->grids[i], &x);
		else
			coord_law_at(&l->law, &cr->grids[i], &x);
		if (!rank_laws_equal(&x, &at[i]->laws[k].law))
			return false;
	}
	if (l && l->remainder)
		remainder_law_at(&l->rem, target, out);
	else if (l)
		coord_law_at(&l->law, target, out);
	return l != NULL;
}

/* a term of a rank law whose shift is no move on the grid (grid_shift): law NULL when none */
struct no_move {
	const struct rank_law *law;   /* at the first rung */
	uint32_t term, dim;
};

/* why a shift that is no grid move is refused, with the law that has it */
static void no_move_why(const struct no_move *m, const struct class_rungs *cr, char *why, size_t whylen)
{
	char law[200];
	rank_law_format(m->law, law, sizeof law);
	int64_t d = cr->grids[0].dims[m->dim], shift = (int64_t)m->law->terms[m->term].shift;
	snprintf(why, whylen,
		 "its peer law %s (at p%u) moves %lld along dimension %u, which is %lld wide at every rung that has "
		 "the class: that is no move to a neighbour at -1, 0 or +1, and a constant %lld cannot be told from "
		 "d%+lld there; add a rung where dimension %u has another width", law, cr->runs[0]->nranks,
		 (long long)shift, m->dim, (long long)d, (long long)shift, (long long)(shift - d), m->dim);
}

/* the numbers of the stream that are not laws the grid coordinates give (coord_known): skip[j];
 * *undecided the lowest dimension a term moves along by 1 where it has 2 ranks at every rung (a
 * neighbour at -1 or +1), else UINT32_MAX; *no_move the first term whose shift is no move on the
 * grid */
static void coord_numbers(uint32_t cls, const struct class_rungs *cr, const uint32_t *sigs,
			  const struct run_stream *const *at, const struct grid *target, bool *skip, struct rank_law *known,
			  bool *is_known, uint32_t *undecided, struct no_move *no_move)
{
	*undecided = UINT32_MAX;
	uint64_t j = 1 + run_stream_cells(at[0]);
	for (uint32_t k = 0; k < at[0]->nlaws; k++) {
		uint64_t width = 1 + TERM_NUMBERS * (uint64_t)at[0]->laws[k].law.nterms;
		is_known[k] = coord_known(cr, sigs, at, k, target, &known[k]);
		for (uint64_t i = 0; i < width; i++)
			skip[j + i] = is_known[k];
		uint32_t nterms = at[0]->laws[k].law.nterms, dims[RANK_LAW_MAX_TERMS];
		bool read[RANK_LAW_MAX_TERMS], ambiguous[RANK_LAW_MAX_TERMS], all = true;
		for (uint32_t t = 0; !is_known[k] && t < nterms; t++) {   /* terms read on the grid */
			dims[t] = UINT32_MAX, ambiguous[t] = false;
			read[t] = grid_term(cr, at, k, t, target, &known[k].terms[t], &dims[t], &ambiguous[t]);
			all = all && read[t] && dims[t] == UINT32_MAX;
		}
		int64_t peer;   /* else a peer that is one move on the grid (stream_peer.h) */
		if (!is_known[k] && !all && stream_peer_at_target(cls, cr, sigs, at, at[0]->laws[k].cell, target, &peer)) {
			known[k] = (struct rank_law){.base = peer};
			is_known[k] = true;
			for (uint64_t i = 0; i < width; i++)
				skip[j + i] = true;
		}
		for (uint32_t t = 0; !is_known[k] && t < nterms; t++) {
			if (dims[t] < *undecided)
				*undecided = dims[t];
			if (ambiguous[t] && !no_move->law) {
				no_move->law = &at[0]->laws[k].law, no_move->term = t;
				no_move->dim = (uint32_t)term_dim(cr, at, k, t);
			}
			for (uint64_t i = 0; i < 4; i++)   /* a step's step and below are decided as numbers */
				skip[j + 1 + TERM_NUMBERS * t + i] = read[t];
		}
		j += width;
	}
}

bool stream_at_target(uint32_t cls, const struct class_rungs *cr, const uint32_t *sigs, const struct grid *target,
		      struct run_stream *out, char *why, size_t whylen)
{
	const struct run_stream **at = xmalloc(cr->n * sizeof *at);
	bool ok = true;
	memset(out, 0, sizeof *out);
	for (size_t i = 0; ok && i < cr->n; i++) {
		ok = (at[i] = class_stream(cls, cr, i, sigs[i], why, whylen)) != NULL;
		if (ok && i && !same_shape(at[0], at[i])) {
			snprintf(why, whylen, "its stream has a different shape at p%u than at p%u (head, period or laws "
				 "of the rank)", cr->runs[i]->nranks, cr->runs[0]->nranks);
			ok = false;
		}
	}
	uint64_t count = ok ? numbers(at[0], NULL) : 0;
	int64_t *all = xmalloc((cr->n * count + 1) * sizeof *all), *v = xcalloc(count + 1, sizeof *v);
	for (size_t i = 0; ok && i < cr->n; i++)
		numbers(at[i], all + i * count);
	bool *skip = xcalloc(count + 1, sizeof *skip), *is_known = NULL;
	struct rank_law *known = NULL;
	if (ok) {
		is_known = xcalloc(at[0]->nlaws + 1, sizeof *is_known);
		known = xcalloc(at[0]->nlaws + 1, sizeof *known);
		uint32_t undecided;
		struct no_move no_move = {0};
		coord_numbers(cls, cr, sigs, at, target, skip, known, is_known, &undecided, &no_move);
		if (undecided != UINT32_MAX) {
			step_undecided_why(undecided, why, whylen);
			ok = false;
		} else if (no_move.law) {
			no_move_why(&no_move, cr, why, whylen);
			ok = false;
		}
	}
	for (uint64_t j = 0; ok && j < count; j++)   /* a cell that is a peer: a move on the grid (stream_peer.h) */
		ok = skip[j] || (j && j <= run_stream_cells(at[0]) && stream_peer_at_target(cls, cr, sigs, at, j - 1, target, &v[j])) ||
		     decide(cr, all, count, j, target, &v[j], why, whylen);
	if (ok)
		from_numbers(at[0], v, out);
	for (uint32_t k = 0; ok && k < out->nlaws; k++) {
		if (is_known[k])
			out->laws[k].law = known[k];
		for (uint32_t t = 0; !is_known[k] && t < out->laws[k].law.nterms; t++)
			if (skip[1 + run_stream_cells(at[0]) + law_offset(at[0], k) + 1 + TERM_NUMBERS * t]) {
				struct rank_law_term *x = &out->laws[k].law.terms[t];
				uint64_t step = x->step, below = x->below;
				*x = known[k].terms[t];
				x->step = step, x->below = below;
			}
	}
	free(skip);
	free(is_known);
	free(known);
	for (uint32_t k = 0; ok && k < out->nlaws; k++)
		ok = rank_law_check(&out->laws[k].law, why, whylen);
	if (!ok)
		run_stream_free(out);
	free(at);
	free(all);
	free(v);
	return ok;
}

/* cell value x of the side without a neighbour beyond its edge (MPI_PROC_NULL) and y of the other:
 * is y a move across that edge from the interior (stream_at.h)? null_low: the low side's is */
static bool edge_move(const struct stream_sides *sides, int64_t x, int64_t y, bool null_low)
{
	bool open[LAW_MAX_DIMS] = {false};   /* a side with MPI_PROC_NULL beyond it does not wrap */
	struct step move;
	return sides && x == SV_PROC_NULL && !sv_is_symbolic(y) &&
	       step_of_offset(sides->grid, open, sides->cls, y, &move) &&
	       move.mask[sides->dim] == (null_low ? STEP_NEG : STEP_POS);
}

struct run_stream *stream_at_unite(const struct run_stream *a, const struct run_stream *b,
				   const struct stream_sides *sides)
{
	if (!a || !b || !same_shape(a, b) || a->length != b->length)
		return NULL;
	uint64_t n = numbers(a, NULL), cells = run_stream_cells(a);
	int64_t *va = xmalloc((n + 1) * sizeof *va), *vb = xmalloc((n + 1) * sizeof *vb);
	numbers(a, va);
	numbers(b, vb);
	bool same = true;
	for (uint64_t j = 0; same && j < n; j++) {
		if (va[j] == vb[j])
			continue;
		bool cell = j >= 1 && j <= cells;   /* numbers: the length, then the cells, then the laws */
		if (cell && edge_move(sides, va[j], vb[j], true))
			va[j] = vb[j];
		else
			same = cell && edge_move(sides, vb[j], va[j], false);
	}
	struct run_stream *out = NULL;
	if (same) {
		out = xmalloc(sizeof *out);
		from_numbers(a, va, out);
	}
	free(va);
	free(vb);
	return out;
}
