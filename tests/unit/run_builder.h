/* run_builder — runs built in memory for unit tests: signatures from values, each group of ranks
 * its own call sequence (Sequitur), checked with run_check. Include after cmocka.h. */
#ifndef LADDER_TEST_RUN_BUILDER_H
#define LADDER_TEST_RUN_BUILDER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/sequitur.h"
#include "run/run.h"
#include "util/xalloc.h"

#define RB_MAX_GROUPS 8

struct rb {                      /* a run under construction: one group of all ranks unless rb_groups */
	struct run r;
	size_t capfns, capsigs, capvals, capgaps[RB_MAX_GROUPS];
	struct sequitur *seq[RB_MAX_GROUPS];
	uint32_t *of_rank;           /* each rank's group */
	uint32_t ngroups, cur;       /* groups, the one rb_call appends to */
};

static inline void rb_init(struct rb *b, uint32_t nranks)
{
	memset(b, 0, sizeof *b);
	run_init(&b->r);
	b->of_rank = xcalloc(nranks ? nranks : 1, sizeof *b->of_rank);
	b->r.nranks = nranks;
	b->r.streams = xcalloc(1, sizeof *b->r.streams);
	b->seq[0] = sequitur_new();
	b->ngroups = 1;
}

/* rank q in group of_rank[q] (groups 0 .. n-1); rb_switch chooses the group calls go to */
static inline void rb_groups(struct rb *b, const uint32_t *of_rank, uint32_t n)
{
	assert_true(n <= RB_MAX_GROUPS);
	memcpy(b->of_rank, of_rank, b->r.nranks * sizeof *of_rank);
	for (uint32_t i = 1; i < n; i++)
		b->seq[i] = sequitur_new();
	b->ngroups = n;
}

static inline void rb_switch(struct rb *b, uint32_t group) { b->cur = group; }

static inline uint32_t rb_fn(struct rb *b, const char *name)
{
	for (uint32_t i = 0; i < b->r.nfns; i++)
		if (!strcmp(b->r.fns[i].name, name))
			return i;
	int id = fn_lookup(name);
	assert_true(id >= 0);
	const struct fn_desc *d = &ladder_functions[id];
	XGROW(b->r.fns, b->capfns, b->r.nfns + 1);
	struct param_desc *p = xcalloc(d->nparams + 1, sizeof *p);
	for (uint32_t k = 0; k < d->nparams; k++)
		p[k] = (struct param_desc){xstrdup(d->params[k].name), d->params[k].kind};
	b->r.fns[b->r.nfns] = (struct fn_desc){xstrdup(d->name), d->flags, d->nparams, p};
	return b->r.nfns++;
}

/* a signature (once) and a call of it on every rank of the current group, repeated; its index */
static inline uint32_t rb_call(struct rb *b, const char *fn, const int64_t *vals, uint32_t n, int repeat)
{
	uint32_t f = rb_fn(b, fn), sig = b->r.nsigs;
	for (uint32_t s = 0; s < b->r.nsigs; s++)
		if (b->r.sigs[s].fn == f && b->r.sigs[s].nvals == n &&
		    (!n || !memcmp(b->r.sigvals + b->r.sigs[s].voff, vals, n * sizeof *vals)))
			sig = s;
	if (sig == b->r.nsigs) {
		XGROW(b->r.sigs, b->capsigs, b->r.nsigs + 1);
		XGROW(b->r.sigvals, b->capvals, b->r.nsigvals + n + 1);
		if (n)
			memcpy(b->r.sigvals + b->r.nsigvals, vals, n * sizeof *vals);
		b->r.sigs[sig] = (struct run_signature){f, 1000 + sig, 0, n, b->r.nsigvals};
		b->r.nsigvals += n;
		b->r.nsigs++;
	}
	for (int i = 0; i < repeat; i++)
		sequitur_append(b->seq[b->cur], sig);
	return sig;
}

/* a compute gap before the calls of sig in group g: count gaps of `wall` and `cpu` seconds in all */
static inline void rb_gap(struct rb *b, uint32_t g, uint32_t sig, uint64_t count, double wall, double cpu)
{
	struct run_group *grp = &b->r.groups[g];
	XGROW(grp->gaps, b->capgaps[g], grp->ngaps + 1);
	struct run_bin *bin = xcalloc(1, sizeof *bin);   /* one bin holding them all */
	*bin = (struct run_bin){0, count, wall, 0, wall, {cpu, 0, cpu}};
	grp->gaps[grp->ngaps++] = (struct run_gap){RUN_NO_PREV, sig, count, wall, 0, 0, wall, {cpu, 0, cpu}, 1, bin};
}

/* the groups' grammars and ranks; then rb_gap, then rb_check */
static inline void rb_groups_done(struct rb *b)
{
	b->r.ngroups = b->ngroups;
	b->r.groups = xcalloc(b->ngroups, sizeof *b->r.groups);
	for (uint32_t i = 0; i < b->ngroups; i++) {
		struct run_group *g = &b->r.groups[i];
		sequitur_export(b->seq[i], &g->g);
		sequitur_free(b->seq[i]);
		uint32_t *ranks = xmalloc(b->r.nranks * sizeof *ranks);
		for (uint32_t q = 0; q < b->r.nranks; q++)
			if (b->of_rank[q] == i)
				ranks[g->nranks++] = q;
		ranklist_from_ranks(&g->ranks, ranks, g->nranks);
		free(ranks);
	}
	free(b->of_rank);
}

static inline void rb_check(struct rb *b)
{
	char why[256];
	if (!run_check(&b->r, why, sizeof why))
		fail_msg("%s", why);
}

static inline void rb_finish(struct rb *b)
{
	rb_groups_done(b);
	rb_check(b);
}

#endif
