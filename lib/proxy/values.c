/*
 * values — a signature's recorded values, parameter by parameter, and the request pools: every
 * signature that creates requests names them (pool key, slot); the program keeps a pool per key.
 */
#include <stdlib.h>

#include "proxy/proxy.h"
#include "util/xalloc.h"

const int64_t *px_group_values(const struct proxy_gen *g, uint32_t sig, uint32_t p, uint32_t *width)
{
	const struct run_signature *s = &g->r->sigs[sig];
	*width = 0;
	PARAM_FOR (w, &g->r->fns[s->fn], g->r->sigvals + s->voff, s->nvals)
		if (w.p == p) {
			*width = w.width;
			return w.v;
		}
	return NULL;
}

struct proxy_pool *px_pool_of(struct proxy_gen *g, uint64_t key)
{
	for (uint32_t i = 0; i < g->npools; i++)
		if (g->pools[i].key == key)
			return &g->pools[i];
	return NULL;
}

bool px_pools_build(struct proxy_gen *g)
{
	const struct run *r = g->r;
	for (uint32_t s = 0; s < r->nsigs; s++) {
		const struct run_signature *sg = &r->sigs[s];
		const struct fn_desc *d = &r->fns[sg->fn];
		bool creates = false;
		for (uint32_t p = 0; p < d->nparams; p++)
			creates |= d->params[p].kind == PK_REQ_OUT;
		if (!creates)
			continue;
		uint64_t key = run_signature_req_key(run_req_pools_by_base(r), sg->fn, sg->callsite, sg->flags, d,
						     r->sigvals + sg->voff, sg->nvals);
		if (px_pool_of(g, key))
			continue;
		g->pools = xrealloc(g->pools, (g->npools + 1) * sizeof *g->pools);
		g->pools[g->npools++] = (struct proxy_pool){.key = key, .sig = s};
	}
	return true;
}

void px_created_build(struct proxy_gen *g)
{
	const struct run *r = g->r;
	bool *called = xcalloc(r->nsigs ? r->nsigs : 1, sizeof *called);   /* a signature may exist uncalled */
	for (uint32_t i = 0; i < r->ngroups; i++)
		for (uint64_t j = 0; j < r->groups[i].g.nsyms; j++)
			if (!gsym_is_rule(r->groups[i].g.syms[j]))
				called[r->groups[i].g.syms[j].val] = true;
	for (uint32_t s = 0; s < r->nsigs; s++) {
		if (!called[s])
			continue;
		const struct fn_desc *d = &r->fns[r->sigs[s].fn];
		for (uint32_t p = 0; p < d->nparams; p++) {
			enum param_kind k = d->params[p].kind;
			int which = k == PK_NEWCOMM ? PX_COMM : k == PK_NEWTYPE ? PX_TYPE : k == PK_NEWGROUP ? PX_GROUP
				  : k == PK_NEWOP ? PX_OP : -1;
			uint32_t w;
			const int64_t *v = which >= 0 ? px_group_values(g, s, p, &w) : NULL;
			if (v && v[0] >= 0 && v[0] < PROXY_MAX_HANDLES && !sv_is_symbolic(v[0]))
				g->created[which][v[0]] = true;
		}
	}
	free(called);
}
