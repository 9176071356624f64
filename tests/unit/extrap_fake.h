/* Hand-made runs for the extrapolation unit tests: a run of a grid of ranks whose signatures are
 * calls of a few functions (a receive, a send, a rooted reduction, a wait), so that aligned
 * classes can be built and checked without tracing anything. Header-only: each test program
 * includes it once. */
#ifndef LADDER_TESTS_EXTRAP_FAKE_H
#define LADDER_TESTS_EXTRAP_FAKE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/align.h"
#include "extrap/law.h"
#include "run/run.h"

enum { FAKE_RECV, FAKE_SEND, FAKE_REDUCE, FAKE_NFNS };

static const struct param_desc fake_recv[] = {{"count", PK_COUNT}, {"source", PK_SRC}, {"tag", PK_TAG}};
static const struct param_desc fake_send[] = {{"count", PK_COUNT}, {"dest", PK_PEER}, {"tag", PK_TAG}};
static const struct param_desc fake_reduce[] = {{"recvbuf", PK_BUF}, {"count", PK_COUNT}, {"root", PK_ROOT}};
static const struct fn_desc fake_fns[FAKE_NFNS] = {
	{"MPI_Irecv", FNF_P2P, 3, fake_recv},
	{"MPI_Send", FNF_P2P, 3, fake_send},
	{"MPI_Reduce", FNF_COLLECTIVE, 3, fake_reduce},
};

#define FAKE_SIGS 64

struct fake_run {
	struct run r;
	struct run_signature sigs[FAKE_SIGS];
	int64_t vals[FAKE_SIGS * 8];
	struct grid grid;
};

static inline void fake_init(struct fake_run *f, struct grid g)
{
	memset(f, 0, sizeof *f);
	f->grid = g;
	f->r.nranks = (uint32_t)grid_size(&g);
	f->r.fns = (struct fn_desc *)fake_fns;
	f->r.nfns = FAKE_NFNS;
	f->r.sigs = f->sigs;
	f->r.sigvals = f->vals;
}

/* a signature of fn from call site `site`: count, peer (relative; a receive's actual source is the
 * same), tag; a reduction: recvbuf, count, root */
static inline uint32_t fake_sig(struct fake_run *f, uint32_t fn, uint64_t site, int64_t a, int64_t b, int64_t c)
{
	int64_t *v = f->vals + f->r.nsigvals;
	uint32_t n = 0;
	v[n++] = a;
	v[n++] = b;
	if (fn == FAKE_RECV)
		v[n++] = b;   /* the actual source */
	v[n++] = c;
	f->sigs[f->r.nsigs] = (struct run_signature){fn, site, 0, n, f->r.nsigvals};
	f->r.nsigvals += n;
	return f->r.nsigs++;
}

/* an occurrence of signature sig (the same at every rung of `runs`), its values as given */
static inline void fake_occurrence(struct occurrence *o, uint32_t fn, uint64_t site, const uint32_t *rung_sigs,
				   size_t nrungs, const struct xval *x, uint32_t nvals)
{
	memset(o, 0, sizeof *o);
	o->fn = fn, o->callsite = site, o->nvals = nvals;
	o->x = calloc(nvals + 1, sizeof *o->x);
	for (uint32_t j = 0; j < nvals; j++)
		xval_copy(&o->x[j], &x[j]);
	o->rung_sigs = malloc(nrungs * sizeof *o->rung_sigs);
	memcpy(o->rung_sigs, rung_sigs, nrungs * sizeof *rung_sigs);
	o->ref_sig = rung_sigs[nrungs - 1];
}

/* an aligned class of nocc occurrences, one flat rule over them, over runs (the last the largest) */
static inline void fake_class(struct aligned_class *a, uint32_t cls, struct fake_run *runs, size_t nrungs,
			      uint32_t nocc)
{
	memset(a, 0, sizeof *a);
	a->cls = cls;
	a->nrungs = nrungs;
	a->runs = malloc(nrungs * sizeof *a->runs);
	a->groups = calloc(nrungs, sizeof *a->groups);
	a->grids = malloc(nrungs * sizeof *a->grids);
	for (size_t i = 0; i < nrungs; i++)
		a->runs[i] = &runs[i].r, a->grids[i] = runs[i].grid;
	a->ref = &runs[nrungs - 1].r;
	a->occ = calloc(nocc + 1, sizeof *a->occ);
	a->nocc = nocc;
	grammar_init(&a->g);
	grammar_begin_rule(&a->g);
	for (uint32_t i = 0; i < nocc; i++)
		grammar_add_symbol(&a->g, i, 1);
	grammar_end(&a->g);
	a->reps = calloc(nocc + 1, sizeof *a->reps);
	a->symdrop = calloc(nocc + 1, sizeof *a->symdrop);
	for (uint32_t i = 0; i < nocc; i++)
		a->reps[i] = (struct xval){.kind = XV_CONST, .v = 1};
}

static inline struct xval xconst(int64_t v) { return (struct xval){.kind = XV_CONST, .v = v}; }
static inline struct xval xpending(void) { return (struct xval){.kind = XV_PENDING}; }
static inline struct xval xstep(uint8_t m0, uint8_t m1, uint8_t m2)
{
	return (struct xval){.kind = XV_STEP, .step = {{m0, m1, m2}}};
}

#endif
