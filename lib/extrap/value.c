/*
 * value — aligned values: comparison, evaluation at the target, description. See value.h.
 */
#include "extrap/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/signature.h"
#include "util/xalloc.h"

void xval_free(struct xval *x)
{
	free(x->law);
	x->law = NULL;
}

void xval_of_law(struct xval *x, const struct law *law)
{
	memset(x, 0, sizeof *x);
	x->kind = law->nterms ? XV_LAW : XV_CONST;
	x->v = law->predicted;
	x->dim = LAW_NO_DIM;
	if (law->nterms)
		x->law = xmalloc(sizeof *x->law), *x->law = *law;
}

void xval_copy(struct xval *dst, const struct xval *src)
{
	*dst = *src;
	if (src->law) {
		dst->law = xmalloc(sizeof *dst->law);
		*dst->law = *src->law;
	}
}

bool xval_agree(struct xval *a, const struct xval *b, const struct grid *target)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case XV_STEP: {
		struct step s = a->step;
		if (!step_meet(&s, &b->step, target->ndims))
			return false;
		a->step = s;
		return true;
	}
	case XV_LAW: {   /* the same value at the target (a family member's dimension may be inferred) */
		int64_t va, vb;
		if (a->law->family || b->law->family)
			return law_eval(a->law, target, a->dim, &va) && law_eval(b->law, target, b->dim, &vb) && va == vb;
		return law_same_at(a->law, b->law, target);
	}
	case XV_GRID_DIM:
		return a->dim == b->dim;
	case XV_NRANKS:
		return true;
	default:
		return a->v == b->v;
	}
}

void step_undecided_why(uint32_t dim, char *why, size_t whylen)
{
	snprintf(why, whylen,
		 "the neighbour along dimension %u is at -1 or +1: at every rung that dimension is too small "
		 "to tell (periodic, 2 ranks or fewer) and no other call of the call site decides it; add "
		 "rungs where it has 3 ranks or more",
		 dim);
}

bool xval_eval(const struct xval *x, const struct grid *target, uint32_t cls, int64_t *out, char *why, size_t whylen)
{
	uint32_t undecided;
	switch (x->kind) {
	case XV_LAW:
		if (law_eval(x->law, target, x->dim, out))
			return true;
		snprintf(why, whylen, "the law %s gives no integer at the target", x->law->text);
		return false;
	case XV_STEP:
		if (step_offset(&x->step, target, cls, out, &undecided))
			return true;
		step_undecided_why(undecided, why, whylen);
		return false;
	case XV_NRANKS:
		*out = grid_size(target);
		return true;
	case XV_GRID_DIM:
		*out = target->dims[x->dim];
		return true;
	default:
		*out = x->v;
		return true;
	}
}

void xval_describe(const struct xval *x, uint32_t ndims, char *out, size_t outlen)
{
	char text[64];
	switch (x->kind) {
	case XV_LAW:
		snprintf(out, outlen, "%s", x->law->text);
		return;
	case XV_STEP:
		step_format(&x->step, ndims, text, sizeof text);
		snprintf(out, outlen, "the neighbour %s", text);
		return;
	case XV_NRANKS:
		snprintf(out, outlen, "P");
		return;
	case XV_GRID_DIM:
		snprintf(out, outlen, "d%d", x->dim);
		return;
	case XV_CREATOR:
		snprintf(out, outlen, "the request of call %lld", (long long)x->v);
		return;
	default:
		if (x->v == SV_PROC_NULL)
			snprintf(out, outlen, "PROC_NULL");
		else if (sv_is_symbolic(x->v))
			snprintf(out, outlen, "a symbolic value");
		else
			snprintf(out, outlen, "%lld", (long long)x->v);
	}
}
