/*
 * param_walk — a call's recorded values (an event's or a signature's) parameter by parameter, in
 * the order of its fn_desc: each parameter that takes values (not PK_IGNORE, not PK_STATUS) with its
 * group, as wide as group_width says (scalars their kind's width, arrays a length then elements, a
 * symbolic value such as SV_STREAMED alone, an SV_SHARED count array its four values). The walk
 * stops at the first group the values do not hold, and says so (bad). See signature.h.
 */
#include "mpi/signature.h"

struct param_walk param_walk(const struct fn_desc *d, const int64_t *vals, uint32_t nvals)
{
	return (struct param_walk){.d = d, .vals = vals, .nvals = nvals};
}

bool param_walk_next(struct param_walk *w)
{
	if (w->bad)
		return false;
	w->at += w->width;
	w->width = 0;
	while (w->next < w->d->nparams) {
		w->p = w->next++;
		w->kind = w->d->params[w->p].kind;
		if (w->kind == PK_IGNORE || w->kind == PK_STATUS)
			continue;
		w->name = w->d->params[w->p].name;
		w->width = group_width(w->kind, w->vals, w->at, w->nvals, &w->bad);
		if (w->bad)
			return false;
		w->v = w->vals + w->at;
		return true;
	}
	w->p = w->d->nparams;
	return false;
}

bool param_walk_value_at(const struct fn_desc *d, const int64_t *vals, uint32_t nvals, uint32_t j, uint32_t *p,
			 uint32_t *e)
{
	PARAM_FOR (w, d, vals, nvals)
		if (j < w.at + w.width) {
			*p = w.p, *e = j - w.at;
			return true;
		}
	return false;
}

const int64_t *group_of_kind(const struct fn_desc *d, const int64_t *vals, uint32_t n, enum param_kind k)
{
	PARAM_FOR (w, d, vals, n)
		if (w.kind == k)
			return w.v;
	return NULL;
}
