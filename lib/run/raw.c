/*
 * raw — the run's raw format: what the tracer writes at MPI_Finalize and `ladder import` reads.
 * Magic, version, then the sections below in order; counts and integers are LEB128 varints,
 * doubles 8 bytes little endian (util/buf.h). The header fields and the profile arrays are
 * written from their descriptions in layout.h; every other section has one put and one get.
 * Version 2 stores value streams compactly (run/stream.h) and the CPU time of gaps beside their
 * wall time; version 1 (one literal stream per rank and signature, wall times only: the CPU times
 * read as copies of them) is still read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/histogram.h"
#include "run/layout.h"
#include "run/run.h"
#include "util/xalloc.h"

/* bound for counts of items of at least `min_bytes` each */
#define LIMIT(rd, min_bytes) (reader_left(rd) / (min_bytes))

/* ---- header ---------------------------------------------------------------------------------- */

static void put_header(const struct run *r, struct buf *b)
{
	for (int i = 0; i < RUN_HEADER_FIELDS; i++) {
		const struct run_header_field *h = &run_header_fields[i];
		const char *p = (const char *)r + h->offset;
		switch (h->type) {
		case RUN_VALUE_STR: buf_put_str(b, *(char *const *)p); break;
		case RUN_VALUE_U32: buf_put_uv(b, *(const uint32_t *)p); break;
		case RUN_VALUE_BOOL: buf_put_u8(b, *(const bool *)p); break;
		case RUN_VALUE_F64: buf_put_f64(b, *(const double *)p); break;
		case RUN_VALUE_U64: buf_put_uv(b, *(const uint64_t *)p); break;
		}
	}
	buf_put_uv(b, r->nlabels);
	for (uint32_t i = 0; i < r->nlabels; i++) {
		buf_put_str(b, r->labels[i].key);
		buf_put_str(b, r->labels[i].value);
	}
}

static bool get_header(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	(void)why, (void)whylen;
	for (int i = 0; i < RUN_HEADER_FIELDS; i++) {
		const struct run_header_field *h = &run_header_fields[i];
		char *p = (char *)r + h->offset;
		switch (h->type) {
		case RUN_VALUE_STR: *(char **)p = get_str(rd); break;
		case RUN_VALUE_U32: *(uint32_t *)p = (uint32_t)get_count(rd, RUN_MAX_RANKS); break;
		case RUN_VALUE_BOOL: *(bool *)p = get_u8(rd) != 0; break;
		case RUN_VALUE_F64: *(double *)p = get_f64(rd); break;
		case RUN_VALUE_U64: *(uint64_t *)p = get_uv(rd); break;
		}
	}
	r->nlabels = (uint32_t)get_count(rd, LIMIT(rd, 2));
	r->labels = xcalloc(r->nlabels, sizeof *r->labels);
	for (uint32_t i = 0; i < r->nlabels && !rd->bad; i++) {
		r->labels[i].key = get_str(rd);
		r->labels[i].value = get_str(rd);
	}
	return true;
}

/* ---- vocabulary: functions, strings, call sites ---------------------------------------------- */

static void put_functions(const struct run *r, struct buf *b)
{
	buf_put_uv(b, r->nfns);
	for (uint32_t i = 0; i < r->nfns; i++) {
		buf_put_str(b, r->fns[i].name);
		buf_put_uv(b, r->fns[i].flags);
		buf_put_uv(b, r->fns[i].nparams);
		for (uint32_t p = 0; p < r->fns[i].nparams; p++) {
			buf_put_str(b, r->fns[i].params[p].name);
			buf_put_uv(b, r->fns[i].params[p].kind);
		}
	}
}

static bool get_functions(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	r->nfns = (uint32_t)get_count(rd, LIMIT(rd, 3));
	r->fns = xcalloc(r->nfns, sizeof *r->fns);
	for (uint32_t i = 0; i < r->nfns && !rd->bad; i++) {
		r->fns[i].name = get_str(rd);
		r->fns[i].flags = (uint32_t)get_uv(rd);
		r->fns[i].nparams = (uint32_t)get_count(rd, LIMIT(rd, 2));
		struct param_desc *pd = xcalloc(r->fns[i].nparams, sizeof *pd);
		r->fns[i].params = pd;
		for (uint32_t p = 0; p < r->fns[i].nparams && !rd->bad; p++) {
			pd[p].name = get_str(rd);
			uint64_t k = get_uv(rd);
			if (k >= PK_COUNT_OF_KINDS) {
				snprintf(why, whylen, "function %u parameter %u has unknown kind %llu", i, p,
					 (unsigned long long)k);
				return false;
			}
			pd[p].kind = (enum param_kind)k;
		}
	}
	return true;
}

static void put_strings(const struct run *r, struct buf *b)
{
	buf_put_uv(b, r->nstrings);
	for (uint32_t i = 0; i < r->nstrings; i++)
		buf_put_str(b, r->strings[i]);
}

static bool get_strings(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	(void)why, (void)whylen;
	r->nstrings = (uint32_t)get_count(rd, LIMIT(rd, 1));
	r->strings = xcalloc(r->nstrings, sizeof *r->strings);
	for (uint32_t i = 0; i < r->nstrings && !rd->bad; i++)
		r->strings[i] = get_str(rd);
	return true;
}

static void put_callsites(const struct run *r, struct buf *b)
{
	buf_put_uv(b, r->ncallsites);
	for (uint32_t i = 0; i < r->ncallsites; i++) {
		const struct run_callsite *cs = &r->callsites[i];
		buf_put_uv(b, cs->id);
		buf_put_uv(b, cs->nframes);
		for (uint32_t f = 0; f < cs->nframes; f++) {
			buf_put_str(b, cs->frames[f].module);
			buf_put_uv(b, cs->frames[f].offset);
			buf_put_str(b, cs->frames[f].symbol);
		}
	}
}

static bool get_callsites(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	(void)why, (void)whylen;
	r->ncallsites = (uint32_t)get_count(rd, LIMIT(rd, 2));
	r->callsites = xcalloc(r->ncallsites, sizeof *r->callsites);
	for (uint32_t i = 0; i < r->ncallsites && !rd->bad; i++) {
		struct run_callsite *cs = &r->callsites[i];
		cs->id = get_uv(rd);
		cs->nframes = (uint32_t)get_count(rd, LIMIT(rd, 3));
		cs->frames = xcalloc(cs->nframes, sizeof *cs->frames);
		for (uint32_t f = 0; f < cs->nframes && !rd->bad; f++) {
			cs->frames[f].module = get_str(rd);
			cs->frames[f].offset = get_uv(rd);
			cs->frames[f].symbol = get_str(rd);
		}
	}
	return true;
}

/* ---- the trace: signatures, groups, value streams -------------------------------------------- */

static void put_signatures(const struct run *r, struct buf *b)
{
	buf_put_uv(b, r->nsigs);
	for (uint32_t i = 0; i < r->nsigs; i++) {
		const struct run_signature *s = &r->sigs[i];
		buf_put_uv(b, s->fn);
		buf_put_uv(b, s->callsite);
		buf_put_uv(b, s->flags);
		buf_put_uv(b, s->nvals);
		for (uint32_t k = 0; k < s->nvals; k++)
			buf_put_sv(b, r->sigvals[s->voff + k]);
	}
}

static bool get_signatures(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	(void)why, (void)whylen;
	r->nsigs = (uint32_t)get_count(rd, LIMIT(rd, 4));
	r->sigs = xcalloc(r->nsigs, sizeof *r->sigs);
	size_t capacity = 0;
	for (uint32_t i = 0; i < r->nsigs && !rd->bad; i++) {
		struct run_signature *s = &r->sigs[i];
		s->fn = (uint32_t)get_uv(rd);
		s->callsite = get_uv(rd);
		s->flags = (uint32_t)get_uv(rd);
		s->nvals = (uint32_t)get_count(rd, LIMIT(rd, 1));
		s->voff = r->nsigvals;
		XGROW(r->sigvals, capacity, r->nsigvals + s->nvals);
		for (uint32_t k = 0; k < s->nvals; k++)
			r->sigvals[r->nsigvals++] = get_sv(rd);
	}
	return true;
}

static void put_stats(struct buf *b, uint64_t count, double sum, double sumsq, double min, double max)
{
	buf_put_uv(b, count);
	buf_put_f64(b, sum);
	buf_put_f64(b, sumsq);
	buf_put_f64(b, min);
	buf_put_f64(b, max);
}

static void get_stats(struct reader *rd, uint64_t *count, double *sum, double *sumsq, double *min,
		      double *max)
{
	*count = get_uv(rd);
	*sum = get_f64(rd);
	*sumsq = get_f64(rd);
	*min = get_f64(rd);
	*max = get_f64(rd);
}

/* the CPU time of gaps (total, shortest, longest) */
static void put_cpu(struct buf *b, const struct run_cpu *c)
{
	buf_put_f64(b, c->sum);
	buf_put_f64(b, c->min);
	buf_put_f64(b, c->max);
}

static void get_cpu(struct reader *rd, struct run_cpu *c)
{
	c->sum = get_f64(rd);
	c->min = get_f64(rd);
	c->max = get_f64(rd);
}

/* a gap, with its CPU times or (raw version 1) without */
static void put_gap(struct buf *b, const struct run_gap *gp, bool cpu)
{
	buf_put_uv(b, (uint64_t)gp->prev + 1);   /* RUN_NO_PREV -> 0 */
	buf_put_uv(b, gp->sig);
	put_stats(b, gp->count, gp->sum, gp->sumsq, gp->min, gp->max);
	if (cpu)
		put_cpu(b, &gp->cpu);
	buf_put_uv(b, gp->nbins);
	for (uint32_t j = 0; j < gp->nbins; j++) {
		buf_put_sv(b, gp->bins[j].bin);
		buf_put_uv(b, gp->bins[j].count);
		buf_put_f64(b, gp->bins[j].sum);
		buf_put_f64(b, gp->bins[j].min);
		buf_put_f64(b, gp->bins[j].max);
		if (cpu)
			put_cpu(b, &gp->bins[j].cpu);
	}
}

/* a gap; without CPU times (raw version 1) they are copies of the wall times */
static void get_gap(struct reader *rd, struct run_gap *gp, bool cpu)
{
	uint64_t prev1 = get_uv(rd);
	gp->prev = prev1 == 0 ? RUN_NO_PREV : (uint32_t)(prev1 - 1);
	gp->sig = (uint32_t)get_uv(rd);
	get_stats(rd, &gp->count, &gp->sum, &gp->sumsq, &gp->min, &gp->max);
	if (cpu)
		get_cpu(rd, &gp->cpu);
	gp->nbins = (uint32_t)get_count(rd, LIMIT(rd, cpu ? 50 : 26));
	gp->bins = xcalloc(gp->nbins, sizeof *gp->bins);
	for (uint32_t j = 0; j < gp->nbins; j++) {
		gp->bins[j].bin = (int32_t)get_sv(rd);
		gp->bins[j].count = get_uv(rd);
		gp->bins[j].sum = get_f64(rd);
		gp->bins[j].min = get_f64(rd);
		gp->bins[j].max = get_f64(rd);
		if (cpu)
			get_cpu(rd, &gp->bins[j].cpu);
	}
	if (!cpu)
		run_gap_cpu_as_wall(gp);
}

/* a group's or stream's ranks: their number, then the differences of the sorted ranks */
static void put_ranks(struct buf *b, const struct ranklist *rl, uint32_t n)
{
	buf_put_uv(b, n);
	uint32_t prev = 0, rank;
	RANKLIST_FOR(rank, rl) {
		buf_put_uv(b, rank - prev);
		prev = rank;
	}
}

/* ranks as put_ranks wrote them into rl; ranks out of order (bad input) are kept as they come,
 * one box each, for run_check to name */
static uint32_t get_ranks(struct reader *rd, struct ranklist *rl)
{
	uint32_t n = (uint32_t)get_count(rd, LIMIT(rd, 1));
	uint32_t *ranks = xcalloc(n + 1, sizeof *ranks);
	uint64_t prev = 0;
	bool sorted = true;
	for (uint32_t k = 0; k < n; k++) {
		prev += get_uv(rd);
		ranks[k] = (uint32_t)(prev > UINT32_MAX ? UINT32_MAX : prev);
		sorted = sorted && (!k || ranks[k] > ranks[k - 1]);
	}
	ranklist_init(rl);
	if (sorted) {
		ranklist_from_ranks(rl, ranks, n);
	} else {
		rl->cap = rl->len = 4 * (size_t)n;
		rl->v = xmalloc(rl->len * sizeof *rl->v);
		for (uint32_t k = 0; k < n; k++)
			memcpy(rl->v + 4 * k, (int64_t[]){1, ranks[k], 1, 1}, 4 * sizeof *rl->v);
	}
	free(ranks);
	return n;
}

static void group_serialize(const struct run_group *g, struct buf *b, bool cpu)
{
	grammar_serialize(&g->g, b);
	put_ranks(b, &g->ranks, g->nranks);
	buf_put_uv(b, g->ndurs);
	for (uint32_t k = 0; k < g->ndurs; k++) {
		const struct run_dur *d = &g->durs[k];
		buf_put_uv(b, d->sig);
		put_stats(b, d->count, d->sum, d->sumsq, d->min, d->max);
	}
	buf_put_uv(b, g->ngaps);
	for (uint32_t k = 0; k < g->ngaps; k++)
		put_gap(b, &g->gaps[k], cpu);
}

void run_group_serialize(const struct run_group *g, struct buf *b) { group_serialize(g, b, true); }

static bool group_parse(struct run_group *g, struct reader *rd, bool cpu)
{
	if (!grammar_parse(&g->g, rd))
		return false;
	g->nranks = get_ranks(rd, &g->ranks);
	g->ndurs = (uint32_t)get_count(rd, LIMIT(rd, 34));
	g->durs = xcalloc(g->ndurs, sizeof *g->durs);
	for (uint32_t k = 0; k < g->ndurs; k++) {
		struct run_dur *d = &g->durs[k];
		d->sig = (uint32_t)get_uv(rd);
		get_stats(rd, &d->count, &d->sum, &d->sumsq, &d->min, &d->max);
	}
	g->ngaps = (uint32_t)get_count(rd, LIMIT(rd, cpu ? 60 : 36));
	g->gaps = xcalloc(g->ngaps, sizeof *g->gaps);
	for (uint32_t k = 0; k < g->ngaps && !rd->bad; k++)
		get_gap(rd, &g->gaps[k], cpu);
	return !rd->bad;
}

bool run_group_parse(struct run_group *g, struct reader *rd) { return group_parse(g, rd, true); }

static void groups_serialize(const struct run *r, struct buf *b, bool cpu)
{
	buf_put_uv(b, r->ngroups);
	for (uint32_t i = 0; i < r->ngroups; i++)
		group_serialize(&r->groups[i], b, cpu);
}

static void put_groups(const struct run *r, struct buf *b) { groups_serialize(r, b, true); }
static void put_groups_v1(const struct run *r, struct buf *b) { groups_serialize(r, b, false); }

/* the groups, their gaps with CPU times or (raw version 1) without */
static bool groups_parse(struct run *r, struct reader *rd, bool cpu, char *why, size_t whylen)
{
	r->ngroups = (uint32_t)get_count(rd, LIMIT(rd, 4));
	r->groups = xcalloc(r->ngroups, sizeof *r->groups);
	for (uint32_t i = 0; i < r->ngroups && !rd->bad; i++)
		if (!group_parse(&r->groups[i], rd, cpu)) {
			snprintf(why, whylen, "truncated group %u", i);
			return false;
		}
	return true;
}

static bool get_groups(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	return groups_parse(r, rd, true, why, whylen);
}

static bool get_groups_v1(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	return groups_parse(r, rd, false, why, whylen);
}

/* a law's term count with this flag: each term has a fifth number, its step's threshold + 1 or 0
 * (a reader that does not know steps refuses the law as too long) */
#define RAW_LAW_STEPS (1u << 16)

/* a stream: signature, its ranks (sorted: differences), length, head and period cells, laws */
static void put_law(struct buf *b, const struct stream_law *l)
{
	bool steps = false;
	for (uint32_t t = 0; t < l->law.nterms; t++)
		steps = steps || l->law.terms[t].step;
	buf_put_uv(b, l->cell);
	buf_put_sv(b, l->law.base);
	buf_put_uv(b, l->law.nterms | (steps ? RAW_LAW_STEPS : 0));
	for (uint32_t t = 0; t < l->law.nterms; t++) {
		const struct rank_law_term *x = &l->law.terms[t];
		buf_put_sv(b, x->coef);
		buf_put_uv(b, x->divisor);
		buf_put_uv(b, x->shift);
		buf_put_uv(b, x->modulus);
		if (steps)
			buf_put_uv(b, x->step ? x->below + 1 : 0);
	}
}

static void put_streams(const struct run *r, struct buf *b)
{
	buf_put_uv(b, r->nstreams);
	for (uint32_t i = 0; i < r->nstreams; i++) {
		const struct run_stream *s = &r->streams[i];
		buf_put_uv(b, s->sig);
		put_ranks(b, &s->ranks, s->nranks);
		buf_put_uv(b, s->length);
		buf_put_uv(b, s->nhead);
		buf_put_uv(b, s->nperiod);
		for (uint64_t k = 0; k < run_stream_cells(s); k++)
			buf_put_sv(b, s->cells[k]);
		buf_put_uv(b, s->nlaws);
		for (uint32_t k = 0; k < s->nlaws; k++)
			put_law(b, &s->laws[k]);
	}
}

static bool get_law(struct reader *rd, struct stream_law *l, char *why, size_t whylen)
{
	l->cell = get_uv(rd);
	l->law.base = get_sv(rd);
	uint64_t n = get_uv(rd);
	bool steps = n & RAW_LAW_STEPS;
	n &= ~(uint64_t)RAW_LAW_STEPS;
	if (n > RANK_LAW_MAX_TERMS) {
		snprintf(why, whylen, "a law of %llu terms (at most %d)", (unsigned long long)n, RANK_LAW_MAX_TERMS);
		return false;
	}
	l->law.nterms = (uint32_t)n;
	for (uint32_t t = 0; t < l->law.nterms; t++) {
		struct rank_law_term *x = &l->law.terms[t];
		x->coef = get_sv(rd);
		x->divisor = get_uv(rd);
		x->shift = get_uv(rd);
		x->modulus = get_uv(rd);
		uint64_t below = steps ? get_uv(rd) : 0;
		x->step = below != 0, x->below = below ? below - 1 : 0;
	}
	return true;
}

static bool get_stream(struct run_stream *s, struct reader *rd, char *why, size_t whylen)
{
	s->sig = (uint32_t)get_uv(rd);
	s->nranks = get_ranks(rd, &s->ranks);
	s->length = get_uv(rd);
	s->nhead = get_count(rd, LIMIT(rd, 1));
	s->nperiod = get_count(rd, LIMIT(rd, 1));
	if (s->nhead + s->nperiod > LIMIT(rd, 1)) {   /* a cell takes at least one byte */
		snprintf(why, whylen, "truncated value streams");
		s->nhead = s->nperiod = 0;
		return false;
	}
	s->cells = xmalloc((run_stream_cells(s) + 1) * sizeof *s->cells);
	for (uint64_t k = 0; k < run_stream_cells(s); k++)
		s->cells[k] = get_sv(rd);
	s->nlaws = (uint32_t)get_count(rd, LIMIT(rd, 3));
	s->laws = xcalloc(s->nlaws + 1, sizeof *s->laws);
	for (uint32_t k = 0; k < s->nlaws && !rd->bad; k++)
		if (!get_law(rd, &s->laws[k], why, whylen))
			return false;
	return true;
}

static bool get_streams(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	r->nstreams = (uint32_t)get_count(rd, LIMIT(rd, 6));
	r->streams = xcalloc(r->nstreams + 1, sizeof *r->streams);
	for (uint32_t i = 0; i < r->nstreams && !rd->bad; i++)
		if (!get_stream(&r->streams[i], rd, why, whylen))
			return false;
	return true;
}

/* version 1: one literal stream per rank and signature */
static void put_streams_v1(const struct run *r, struct buf *b)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		n += r->streams[i].nranks;
	buf_put_uv(b, n);
	for (uint32_t i = 0; i < r->nstreams; i++) {
		const struct run_stream *s = &r->streams[i];
		uint32_t rank;
		RANKLIST_FOR(rank, &s->ranks) {
			buf_put_uv(b, rank);
			buf_put_uv(b, s->sig);
			buf_put_uv(b, s->length);
			for (uint64_t v = 0; v < s->length; v++)
				buf_put_sv(b, run_stream_value(s, rank, v));
		}
	}
}

static bool get_streams_v1(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	(void)why, (void)whylen;
	uint32_t n = (uint32_t)get_count(rd, LIMIT(rd, 3));
	for (uint32_t i = 0; i < n && !rd->bad; i++) {
		uint32_t rank = (uint32_t)get_uv(rd), sig = (uint32_t)get_uv(rd);
		uint64_t nvals = get_count(rd, LIMIT(rd, 1));
		int64_t *vals = xmalloc((nvals ? nvals : 1) * sizeof *vals);
		for (uint64_t k = 0; k < nvals; k++)
			vals[k] = get_sv(rd);
		run_add_stream(r, sig, rank, nvals, nvals, 0, vals);
		free(vals);
	}
	return true;
}

/* ---- profile: call paths, then the arrays of layout.h ---------------------------------------- */

static void put_callpaths(const struct run *r, struct buf *b)
{
	buf_put_uv(b, r->nnodes);
	for (uint32_t i = 0; i < r->nnodes; i++) {
		buf_put_sv(b, r->nodes[i].parent);
		buf_put_u8(b, r->nodes[i].kind);
		buf_put_str(b, r->nodes[i].name);
	}
}

static bool get_callpaths(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	(void)why, (void)whylen;
	r->nnodes = (uint32_t)get_count(rd, LIMIT(rd, 3));
	r->nodes = xcalloc(r->nnodes, sizeof *r->nodes);
	for (uint32_t i = 0; i < r->nnodes && !rd->bad; i++) {
		r->nodes[i].parent = (int32_t)get_sv(rd);
		r->nodes[i].kind = get_u8(rd);
		r->nodes[i].name = get_str(rd);
	}
	return true;
}

static void put_profile_arrays(const struct run *r, struct buf *b)
{
	for (int a = 0; a < RUN_PROFILE_ARRAYS; a++) {
		const struct run_array *ar = &run_profile_arrays[a];
		const void *data = run_array_data(r, ar);
		if (ar->optional)
			buf_put_u8(b, data != NULL);
		uint64_t n = data ? run_array_length(r, ar) : 0;
		for (uint64_t i = 0; i < n; i++) {
			if (ar->type == RUN_VALUE_U64)
				buf_put_uv(b, ((const uint64_t *)data)[i]);
			else
				buf_put_f64(b, ((const double *)data)[i]);
		}
	}
}

static bool get_profile_arrays(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	for (int a = 0; a < RUN_PROFILE_ARRAYS && !rd->bad; a++) {
		const struct run_array *ar = &run_profile_arrays[a];
		if (ar->optional && !get_u8(rd))
			continue;
		uint64_t n = run_array_length(r, ar);
		size_t smallest = ar->type == RUN_VALUE_U64 ? 1 : 8;   /* bytes per element */
		if (n > reader_left(rd) / smallest) {
			snprintf(why, whylen, "truncated profile (%s)", ar->dataset);
			return false;
		}
		void **slot = run_array_slot(r, ar);
		*slot = xmalloc((n ? n : 1) * 8);
		for (uint64_t i = 0; i < n; i++) {
			if (ar->type == RUN_VALUE_U64)
				((uint64_t *)*slot)[i] = get_uv(rd);
			else
				((double *)*slot)[i] = get_f64(rd);
		}
	}
	return true;
}

static void put_timestamps(const struct run *r, struct buf *b)
{
	buf_put_uv(b, r->ntimestamps);
	for (uint32_t i = 0; i < r->ntimestamps; i++) {
		const struct run_timestamps *t = &r->timestamps[i];
		buf_put_uv(b, t->rank);
		buf_put_uv(b, t->n);
		for (uint64_t k = 0; k < t->n; k++) {
			buf_put_f64(b, t->start[k]);
			buf_put_f64(b, t->dur[k]);
		}
	}
}

static bool get_timestamps(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	(void)why, (void)whylen;
	r->ntimestamps = (uint32_t)get_count(rd, LIMIT(rd, 2));
	r->timestamps = xcalloc(r->ntimestamps, sizeof *r->timestamps);
	for (uint32_t i = 0; i < r->ntimestamps && !rd->bad; i++) {
		struct run_timestamps *t = &r->timestamps[i];
		t->rank = (uint32_t)get_uv(rd);
		t->n = get_count(rd, LIMIT(rd, 16));
		t->start = xmalloc((t->n ? t->n : 1) * sizeof(double));
		t->dur = xmalloc((t->n ? t->n : 1) * sizeof(double));
		for (uint64_t k = 0; k < t->n; k++) {
			t->start[k] = get_f64(rd);
			t->dur[k] = get_f64(rd);
		}
	}
	return true;
}

/* ---- what the gaps' CPU times are ------------------------------------------------------------- */

static void put_cpu_time(const struct run *r, struct buf *b) { buf_put_u8(b, r->cpu_time); }

static bool get_cpu_time(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	r->cpu_time = get_u8(rd);
	if (r->cpu_time > RUN_CPU_EVERY) {
		snprintf(why, whylen, "unknown kind of CPU times %u", r->cpu_time);
		return false;
	}
	return true;
}

/* version 1 has no CPU times */
static void put_cpu_time_v1(const struct run *r, struct buf *b) { (void)r, (void)b; }

static bool get_cpu_time_v1(struct run *r, struct reader *rd, char *why, size_t whylen)
{
	(void)rd, (void)why, (void)whylen;
	r->cpu_time = RUN_CPU_NONE;
	return true;
}

/* ---- the sections, in the order of the format ------------------------------------------------ */

typedef void raw_putter(const struct run *r, struct buf *b);
typedef bool raw_getter(struct run *r, struct reader *rd, char *why, size_t whylen);

static const struct raw_section {
	const char *what;   /* for "truncated WHAT" */
	raw_putter *put;
	/* false with a message in why for what is wrong beyond truncation (checked after each) */
	raw_getter *get;
	raw_putter *put_v1;   /* version 1, when it differs */
	raw_getter *get_v1;
} raw_sections[] = {
	{"header", put_header, get_header, NULL, NULL},
	{"function table", put_functions, get_functions, NULL, NULL},
	{"string table", put_strings, get_strings, NULL, NULL},
	{"call-site table", put_callsites, get_callsites, NULL, NULL},
	{"signature table", put_signatures, get_signatures, NULL, NULL},
	{"group table", put_groups, get_groups, put_groups_v1, get_groups_v1},
	{"value streams", put_streams, get_streams, put_streams_v1, get_streams_v1},
	{"profile", put_callpaths, get_callpaths, NULL, NULL},
	{"profile", put_profile_arrays, get_profile_arrays, NULL, NULL},
	{"timestamps", put_timestamps, get_timestamps, NULL, NULL},
	{"CPU times", put_cpu_time, get_cpu_time, put_cpu_time_v1, get_cpu_time_v1},
};

void run_serialize_version(const struct run *r, uint32_t version, struct buf *b)
{
	buf_put(b, RUN_RAW_MAGIC, strlen(RUN_RAW_MAGIC));
	buf_put_uv(b, version);
	for (size_t i = 0; i < sizeof raw_sections / sizeof *raw_sections; i++) {
		raw_putter *put = version == 1 && raw_sections[i].put_v1 ? raw_sections[i].put_v1 : raw_sections[i].put;
		put(r, b);
	}
}

void run_serialize(const struct run *r, struct buf *b) { run_serialize_version(r, RUN_RAW_VERSION, b); }

bool run_parse(struct run *r, const void *data, size_t len, char *why, size_t whylen)
{
	run_init(r);
	struct reader rd;
	reader_init(&rd, data, len);
	char magic[sizeof RUN_RAW_MAGIC];
	if (!get_bytes(&rd, magic, strlen(RUN_RAW_MAGIC)) || memcmp(magic, RUN_RAW_MAGIC, strlen(RUN_RAW_MAGIC))) {
		snprintf(why, whylen, "not a ladder raw trace (bad magic)");
		return false;
	}
	uint64_t version = get_uv(&rd);
	if (version < 1 || version > RUN_RAW_VERSION) {
		snprintf(why, whylen, "raw trace version %llu, this ladder reads versions 1 to %d",
			 (unsigned long long)version, RUN_RAW_VERSION);
		return false;
	}
	for (size_t i = 0; i < sizeof raw_sections / sizeof *raw_sections; i++) {
		raw_getter *get = version == 1 && raw_sections[i].get_v1 ? raw_sections[i].get_v1 : raw_sections[i].get;
		bool ok = get(r, &rd, why, whylen);
		if (ok && rd.bad)
			snprintf(why, whylen, "truncated %s", raw_sections[i].what);
		if (!ok || rd.bad) {
			run_free(r);
			return false;
		}
	}
	if (reader_left(&rd)) {
		snprintf(why, whylen, "%zu unexpected bytes after the end", reader_left(&rd));
		run_free(r);
		return false;
	}
	return true;
}
