/*
 * run — the in-memory run: lifetime, raw serialization and validation. See run.h.
 */
#include "run/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/ranklist.h"
#include "util/hash.h"
#include "util/xalloc.h"

const char *const run_count_names[RUN_PC_COUNT] = {"visits", "bytes_sent", "bytes_recv", "msgs_sent",
						   "msgs_recv"};
const char *const run_count_units[RUN_PC_COUNT] = {"calls", "B", "B", "messages", "messages"};
const char *const run_stat_names[RUN_TS_COUNT] = {"ranks", "sum", "min", "max", "mean", "median",
						  "stddev", "argmin", "argmax"};
const char *const run_stat_units[RUN_TS_COUNT] = {"ranks", "s", "s", "s", "s", "s", "s", "rank", "rank"};

void run_init(struct run *r) { memset(r, 0, sizeof *r); }

void run_free(struct run *r)
{
	free(r->command);
	free(r->host);
	free(r->slurm_job_id);
	free(r->tool_version);
	free(r->created);
	free(r->options);
	for (uint32_t i = 0; i < r->nattrs; i++) {
		free(r->attrs[i].key);
		free(r->attrs[i].value);
	}
	free(r->attrs);
	for (uint32_t i = 0; i < r->nfns; i++) {
		for (uint32_t p = 0; p < r->fns[i].nparams; p++)
			free((char *)r->fns[i].params[p].name);
		free((void *)r->fns[i].params);
		free((char *)r->fns[i].name);
	}
	free(r->fns);
	for (uint32_t i = 0; i < r->nstrings; i++)
		free(r->strings[i]);
	free(r->strings);
	for (uint32_t i = 0; i < r->ncallsites; i++) {
		for (uint32_t f = 0; f < r->callsites[i].nframes; f++) {
			free(r->callsites[i].frames[f].module);
			free(r->callsites[i].frames[f].symbol);
		}
		free(r->callsites[i].frames);
	}
	free(r->callsites);
	free(r->sigs);
	free(r->sigvals);
	for (uint32_t i = 0; i < r->ngroups; i++)
		run_group_free(&r->groups[i]);
	free(r->groups);
	for (uint32_t i = 0; i < r->nstreams; i++)
		free(r->streams[i].vals);
	free(r->streams);
	for (uint32_t i = 0; i < r->nnodes; i++)
		free(r->nodes[i].name);
	free(r->nodes);
	free(r->counts);
	free(r->time_stats);
	free(r->time);
	for (uint32_t i = 0; i < r->nts; i++) {
		free(r->ts[i].start);
		free(r->ts[i].dur);
	}
	free(r->ts);
	free(r->rank_group);
	free(r->stream_first);
	run_init(r);
}

void run_group_free(struct run_group *g)
{
	grammar_free(&g->g);
	free(g->ranks);
	free(g->durs);
	for (uint32_t k = 0; k < g->ngaps; k++)
		free(g->gaps[k].bins);
	free(g->gaps);
	memset(g, 0, sizeof *g);
}

const char *run_attr(const struct run *r, const char *key)
{
	for (uint32_t i = 0; i < r->nattrs; i++)
		if (!strcmp(r->attrs[i].key, key))
			return r->attrs[i].value;
	return NULL;
}

void run_set_attr(struct run *r, const char *key, const char *value)
{
	for (uint32_t i = 0; i < r->nattrs; i++)
		if (!strcmp(r->attrs[i].key, key)) {
			free(r->attrs[i].value);
			r->attrs[i].value = xstrdup(value);
			return;
		}
	r->attrs = xrealloc(r->attrs, (r->nattrs + 1) * sizeof *r->attrs);
	r->attrs[r->nattrs].key = xstrdup(key);
	r->attrs[r->nattrs].value = xstrdup(value);
	r->nattrs++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void run_time_stats(struct run *r, const double *time)
{
	free(r->time_stats);
	r->time_stats = xcalloc((size_t)r->nnodes * RUN_TS_COUNT + 1, sizeof *r->time_stats);
	double *v = xmalloc((r->nranks + 1) * sizeof *v);
	for (uint32_t i = 0; i < r->nnodes; i++) {
		double *st = r->time_stats + (size_t)i * RUN_TS_COUNT;
		uint32_t n = 0;
		for (uint32_t q = 0; q < r->nranks; q++) {
			if (!r->counts[((size_t)q * r->nnodes + i) * RUN_PC_COUNT + RUN_PC_VISITS])
				continue;
			double t = time[(size_t)q * r->nnodes + i];
			if (!n || t < st[RUN_TS_MIN]) {
				st[RUN_TS_MIN] = t;
				st[RUN_TS_ARGMIN] = q;
			}
			if (!n || t > st[RUN_TS_MAX]) {
				st[RUN_TS_MAX] = t;
				st[RUN_TS_ARGMAX] = q;
			}
			st[RUN_TS_SUM] += t;
			v[n++] = t;
		}
		st[RUN_TS_RANKS] = n;
		if (!n)
			continue;
		st[RUN_TS_MEAN] = st[RUN_TS_SUM] / n;
		double ss = 0;
		for (uint32_t k = 0; k < n; k++)
			ss += (v[k] - st[RUN_TS_MEAN]) * (v[k] - st[RUN_TS_MEAN]);
		st[RUN_TS_STDDEV] = n > 1 ? sqrt(ss / (n - 1)) : 0;
		qsort(v, n, sizeof *v, cmp_double);
		st[RUN_TS_MEDIAN] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
}

uint64_t run_signature_req_key(uint32_t fn, uint64_t callsite, uint32_t flags,
			       const struct fn_desc *d, const int64_t *vals, uint32_t nvals)
{
	uint64_t h = hash_combine(hash_mix64(fn + 1), callsite);
	h = hash_combine(h, flags);
	uint32_t i = 0;
	bool bad = false;
	for (uint32_t p = 0; p < d->nparams && !bad; p++) {
		enum param_kind k = d->params[p].kind;
		if (k == PK_IGNORE || k == PK_STATUS)
			continue;
		uint32_t w = group_width(k, vals, i, nvals, &bad);
		if (k != PK_REQ_OUT)
			for (uint32_t j = 0; j < w; j++)
				h = hash_combine(h, (uint64_t)vals[i + j]);
		i += w;
	}
	return h;
}

/* ---- raw serialization ------------------------------------------------------------------------ */

static void put_stats(struct buf *b, uint64_t count, double sum, double sumsq, double min, double max)
{
	buf_put_uv(b, count);
	buf_put_f64(b, sum);
	buf_put_f64(b, sumsq);
	buf_put_f64(b, min);
	buf_put_f64(b, max);
}

void run_group_serialize(const struct run_group *g, struct buf *b)
{
	grammar_serialize(&g->g, b);
	buf_put_uv(b, g->nranks);
	uint32_t prev = 0;
	for (uint32_t k = 0; k < g->nranks; k++) {   /* sorted: store differences */
		buf_put_uv(b, g->ranks[k] - prev);
		prev = g->ranks[k];
	}
	buf_put_uv(b, g->ndurs);
	for (uint32_t k = 0; k < g->ndurs; k++) {
		const struct run_dur *d = &g->durs[k];
		buf_put_uv(b, d->sig);
		put_stats(b, d->count, d->sum, d->sumsq, d->min, d->max);
	}
	buf_put_uv(b, g->ngaps);
	for (uint32_t k = 0; k < g->ngaps; k++) {
		const struct run_gap *gp = &g->gaps[k];
		buf_put_uv(b, (uint64_t)gp->prev + 1);   /* RUN_NO_PREV -> 0 */
		buf_put_uv(b, gp->sig);
		put_stats(b, gp->count, gp->sum, gp->sumsq, gp->min, gp->max);
		buf_put_uv(b, gp->nbins);
		for (uint32_t j = 0; j < gp->nbins; j++) {
			buf_put_sv(b, gp->bins[j].bin);
			buf_put_uv(b, gp->bins[j].count);
			buf_put_f64(b, gp->bins[j].sum);
			buf_put_f64(b, gp->bins[j].min);
			buf_put_f64(b, gp->bins[j].max);
		}
	}
}

void run_serialize(const struct run *r, struct buf *b)
{
	buf_put(b, RUN_RAW_MAGIC, strlen(RUN_RAW_MAGIC));
	buf_put_uv(b, RUN_RAW_VERSION);
	buf_put_uv(b, r->nranks);
	buf_put_str(b, r->command);
	buf_put_str(b, r->host);
	buf_put_str(b, r->slurm_job_id);
	buf_put_str(b, r->tool_version);
	buf_put_str(b, r->created);
	buf_put_str(b, r->options);
	buf_put_f64(b, r->t_start);
	buf_put_f64(b, r->t_end);
	buf_put_u8(b, r->synthetic);
	buf_put_uv(b, r->nattrs);
	for (uint32_t i = 0; i < r->nattrs; i++) {
		buf_put_str(b, r->attrs[i].key);
		buf_put_str(b, r->attrs[i].value);
	}
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
	buf_put_uv(b, r->nstrings);
	for (uint32_t i = 0; i < r->nstrings; i++)
		buf_put_str(b, r->strings[i]);
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
	buf_put_uv(b, r->ngroups);
	for (uint32_t i = 0; i < r->ngroups; i++)
		run_group_serialize(&r->groups[i], b);
	buf_put_uv(b, r->nstreams);
	for (uint32_t i = 0; i < r->nstreams; i++) {
		const struct run_stream *s = &r->streams[i];
		buf_put_uv(b, s->rank);
		buf_put_uv(b, s->sig);
		buf_put_uv(b, s->nvals);
		for (uint64_t k = 0; k < s->nvals; k++)
			buf_put_sv(b, s->vals[k]);
	}
	buf_put_uv(b, r->nnodes);
	for (uint32_t i = 0; i < r->nnodes; i++) {
		buf_put_sv(b, r->nodes[i].parent);
		buf_put_u8(b, r->nodes[i].kind);
		buf_put_str(b, r->nodes[i].name);
	}
	uint64_t ncounts = (uint64_t)r->nranks * r->nnodes * RUN_PC_COUNT;
	for (uint64_t i = 0; i < ncounts; i++)
		buf_put_uv(b, r->counts[i]);
	for (uint64_t i = 0; i < (uint64_t)r->nnodes * RUN_TS_COUNT; i++)
		buf_put_f64(b, r->time_stats[i]);
	buf_put_u8(b, r->time != NULL);
	for (uint64_t i = 0; r->time && i < (uint64_t)r->nranks * r->nnodes; i++)
		buf_put_f64(b, r->time[i]);
	buf_put_uv(b, r->nts);
	for (uint32_t i = 0; i < r->nts; i++) {
		buf_put_uv(b, r->ts[i].rank);
		buf_put_uv(b, r->ts[i].n);
		for (uint64_t k = 0; k < r->ts[i].n; k++) {
			buf_put_f64(b, r->ts[i].start[k]);
			buf_put_f64(b, r->ts[i].dur[k]);
		}
	}
}

#define FAIL(...)                                      \
	do {                                           \
		snprintf(why, whylen, __VA_ARGS__);    \
		goto fail;                             \
	} while (0)

/* bound for counts of items of at least `min_bytes` each */
#define LIMIT(rd, min_bytes) (reader_left(rd) / (min_bytes))

static void get_stats(struct reader *rd, uint64_t *count, double *sum, double *sumsq, double *min,
		      double *max)
{
	*count = get_uv(rd);
	*sum = get_f64(rd);
	*sumsq = get_f64(rd);
	*min = get_f64(rd);
	*max = get_f64(rd);
}

bool run_group_parse(struct run_group *g, struct reader *rd)
{
	if (!grammar_parse(&g->g, rd))
		return false;
	g->nranks = (uint32_t)get_count(rd, LIMIT(rd, 1));
	g->ranks = xcalloc(g->nranks, sizeof *g->ranks);
	uint64_t prev = 0;
	for (uint32_t k = 0; k < g->nranks; k++) {
		prev += get_uv(rd);
		g->ranks[k] = (uint32_t)(prev > UINT32_MAX ? UINT32_MAX : prev);
	}
	g->ndurs = (uint32_t)get_count(rd, LIMIT(rd, 34));
	g->durs = xcalloc(g->ndurs, sizeof *g->durs);
	for (uint32_t k = 0; k < g->ndurs; k++) {
		struct run_dur *d = &g->durs[k];
		d->sig = (uint32_t)get_uv(rd);
		get_stats(rd, &d->count, &d->sum, &d->sumsq, &d->min, &d->max);
	}
	g->ngaps = (uint32_t)get_count(rd, LIMIT(rd, 36));
	g->gaps = xcalloc(g->ngaps, sizeof *g->gaps);
	for (uint32_t k = 0; k < g->ngaps && !rd->bad; k++) {
		struct run_gap *gp = &g->gaps[k];
		uint64_t prev1 = get_uv(rd);
		gp->prev = prev1 == 0 ? RUN_NO_PREV : (uint32_t)(prev1 - 1);
		gp->sig = (uint32_t)get_uv(rd);
		get_stats(rd, &gp->count, &gp->sum, &gp->sumsq, &gp->min, &gp->max);
		gp->nbins = (uint32_t)get_count(rd, LIMIT(rd, 26));
		gp->bins = xcalloc(gp->nbins, sizeof *gp->bins);
		for (uint32_t j = 0; j < gp->nbins; j++) {
			gp->bins[j].bin = (int32_t)get_sv(rd);
			gp->bins[j].count = get_uv(rd);
			gp->bins[j].sum = get_f64(rd);
			gp->bins[j].min = get_f64(rd);
			gp->bins[j].max = get_f64(rd);
		}
	}
	return !rd->bad;
}

bool run_parse(struct run *r, const void *data, size_t len, char *why, size_t whylen)
{
	run_init(r);
	struct reader rd_, *rd = &rd_;
	reader_init(rd, data, len);
	char magic[sizeof RUN_RAW_MAGIC];
	if (!get_bytes(rd, magic, strlen(RUN_RAW_MAGIC)) || memcmp(magic, RUN_RAW_MAGIC, strlen(RUN_RAW_MAGIC)))
		FAIL("not a ladder raw trace (bad magic)");
	uint64_t version = get_uv(rd);
	if (version != RUN_RAW_VERSION)
		FAIL("raw trace version %llu, this ladder reads version %d", (unsigned long long)version,
		     RUN_RAW_VERSION);
	r->nranks = (uint32_t)get_count(rd, 1u << 30);
	r->command = get_str(rd);
	r->host = get_str(rd);
	r->slurm_job_id = get_str(rd);
	r->tool_version = get_str(rd);
	r->created = get_str(rd);
	r->options = get_str(rd);
	r->t_start = get_f64(rd);
	r->t_end = get_f64(rd);
	r->synthetic = get_u8(rd);
	r->nattrs = (uint32_t)get_count(rd, LIMIT(rd, 2));
	r->attrs = xcalloc(r->nattrs, sizeof *r->attrs);
	for (uint32_t i = 0; i < r->nattrs && !rd->bad; i++) {
		r->attrs[i].key = get_str(rd);
		r->attrs[i].value = get_str(rd);
	}
	if (rd->bad)
		FAIL("truncated header");
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
			if (k >= PK_COUNT_OF_KINDS)
				FAIL("function %u parameter %u has unknown kind %llu", i, p,
				     (unsigned long long)k);
			pd[p].kind = (enum param_kind)k;
		}
	}
	if (rd->bad)
		FAIL("truncated function table");
	r->nstrings = (uint32_t)get_count(rd, LIMIT(rd, 1));
	r->strings = xcalloc(r->nstrings, sizeof *r->strings);
	for (uint32_t i = 0; i < r->nstrings && !rd->bad; i++)
		r->strings[i] = get_str(rd);
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
	if (rd->bad)
		FAIL("truncated call-site table");
	r->nsigs = (uint32_t)get_count(rd, LIMIT(rd, 4));
	r->sigs = xcalloc(r->nsigs, sizeof *r->sigs);
	size_t capv = 0;
	for (uint32_t i = 0; i < r->nsigs && !rd->bad; i++) {
		struct run_signature *s = &r->sigs[i];
		s->fn = (uint32_t)get_uv(rd);
		s->callsite = get_uv(rd);
		s->flags = (uint32_t)get_uv(rd);
		s->nvals = (uint32_t)get_count(rd, LIMIT(rd, 1));
		s->voff = r->nsigvals;
		XGROW(r->sigvals, capv, r->nsigvals + s->nvals);
		for (uint32_t k = 0; k < s->nvals; k++)
			r->sigvals[r->nsigvals++] = get_sv(rd);
	}
	if (rd->bad)
		FAIL("truncated signature table");
	r->ngroups = (uint32_t)get_count(rd, LIMIT(rd, 4));
	r->groups = xcalloc(r->ngroups, sizeof *r->groups);
	for (uint32_t i = 0; i < r->ngroups && !rd->bad; i++)
		if (!run_group_parse(&r->groups[i], rd))
			FAIL("truncated group %u", i);
	if (rd->bad)
		FAIL("truncated group table");
	r->nstreams = (uint32_t)get_count(rd, LIMIT(rd, 3));
	r->streams = xcalloc(r->nstreams, sizeof *r->streams);
	for (uint32_t i = 0; i < r->nstreams && !rd->bad; i++) {
		struct run_stream *s = &r->streams[i];
		s->rank = (uint32_t)get_uv(rd);
		s->sig = (uint32_t)get_uv(rd);
		s->nvals = get_count(rd, LIMIT(rd, 1));
		s->vals = xmalloc((s->nvals ? s->nvals : 1) * sizeof *s->vals);
		for (uint64_t k = 0; k < s->nvals; k++)
			s->vals[k] = get_sv(rd);
	}
	if (rd->bad)
		FAIL("truncated value streams");
	r->nnodes = (uint32_t)get_count(rd, LIMIT(rd, 3));
	r->nodes = xcalloc(r->nnodes, sizeof *r->nodes);
	for (uint32_t i = 0; i < r->nnodes && !rd->bad; i++) {
		r->nodes[i].parent = (int32_t)get_sv(rd);
		r->nodes[i].kind = get_u8(rd);
		r->nodes[i].name = get_str(rd);
	}
	uint64_t ncounts = (uint64_t)r->nranks * r->nnodes * RUN_PC_COUNT;
	uint64_t nstats = (uint64_t)r->nnodes * RUN_TS_COUNT;
	if (rd->bad || ncounts > reader_left(rd) || nstats > reader_left(rd) / 8)
		FAIL("truncated profile");
	r->counts = xmalloc((ncounts ? ncounts : 1) * sizeof *r->counts);
	for (uint64_t i = 0; i < ncounts; i++)
		r->counts[i] = get_uv(rd);
	r->time_stats = xmalloc((nstats ? nstats : 1) * sizeof *r->time_stats);
	for (uint64_t i = 0; i < nstats; i++)
		r->time_stats[i] = get_f64(rd);
	if (get_u8(rd)) {
		uint64_t nt = (uint64_t)r->nranks * r->nnodes;
		if (nt > reader_left(rd) / 8)
			FAIL("truncated profile times");
		r->time = xmalloc((nt ? nt : 1) * sizeof *r->time);
		for (uint64_t i = 0; i < nt; i++)
			r->time[i] = get_f64(rd);
	}
	r->nts = (uint32_t)get_count(rd, LIMIT(rd, 2));
	r->ts = xcalloc(r->nts, sizeof *r->ts);
	for (uint32_t i = 0; i < r->nts && !rd->bad; i++) {
		r->ts[i].rank = (uint32_t)get_uv(rd);
		r->ts[i].n = get_count(rd, LIMIT(rd, 16));
		r->ts[i].start = xmalloc((r->ts[i].n ? r->ts[i].n : 1) * sizeof(double));
		r->ts[i].dur = xmalloc((r->ts[i].n ? r->ts[i].n : 1) * sizeof(double));
		for (uint64_t k = 0; k < r->ts[i].n; k++) {
			r->ts[i].start[k] = get_f64(rd);
			r->ts[i].dur[k] = get_f64(rd);
		}
	}
	if (rd->bad)
		FAIL("truncated timestamps");
	if (reader_left(rd))
		FAIL("%zu unexpected bytes after the end", reader_left(rd));
	if (!r->command || !r->host || !r->slurm_job_id || !r->tool_version || !r->created || !r->options)
		FAIL("truncated header");
	return true;
fail:
	run_free(r);
	return false;
}

/* ---- validation ------------------------------------------------------------------------------ */

static int cmp_stream(const void *a, const void *b)
{
	const struct run_stream *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

bool run_check(struct run *r, char *why, size_t whylen)
{
	if (r->nranks == 0)
		FAIL("rank count is 0");
	for (uint32_t i = 0; i < r->nfns; i++)
		if (!r->fns[i].name || !r->fns[i].name[0])
			FAIL("function %u has no name", i);
	for (uint32_t i = 0; i < r->nsigs; i++) {
		const struct run_signature *s = &r->sigs[i];
		if (s->fn >= r->nfns)
			FAIL("signature %u refers to function %u, but there are %u", i, s->fn, r->nfns);
		if (s->voff + s->nvals > r->nsigvals)
			FAIL("signature %u has values beyond the value table", i);
		/* the values must parse as the function's parameter groups */
		const struct fn_desc *d = &r->fns[s->fn];
		uint32_t k = 0;
		bool bad = false;
		for (uint32_t p = 0; p < d->nparams && !bad; p++) {
			enum param_kind kind = d->params[p].kind;
			if (kind == PK_IGNORE || kind == PK_STATUS)
				continue;
			k += group_width(kind, r->sigvals + s->voff, k, s->nvals, &bad);
		}
		if (bad || k != s->nvals)
			FAIL("signature %u (%s) has %u values that do not match the parameters of %s", i,
			     d->name, s->nvals, d->name);
	}
	free(r->rank_group);
	r->rank_group = xmalloc(r->nranks * sizeof *r->rank_group);
	for (uint32_t k = 0; k < r->nranks; k++)
		r->rank_group[k] = UINT32_MAX;
	char gwhy[200];
	for (uint32_t i = 0; i < r->ngroups; i++) {
		struct run_group *g = &r->groups[i];
		if (!grammar_check(&g->g, r->nsigs, gwhy, sizeof gwhy))
			FAIL("group %u: %s", i, gwhy);
		for (uint32_t k = 0; k < g->nranks; k++) {
			if (g->ranks[k] >= r->nranks)
				FAIL("group %u lists rank %u, but the run has %u ranks", i, g->ranks[k], r->nranks);
			if (k && g->ranks[k] <= g->ranks[k - 1])
				FAIL("group %u: ranks are not sorted", i);
			if (r->rank_group[g->ranks[k]] != UINT32_MAX)
				FAIL("rank %u is in groups %u and %u", g->ranks[k], r->rank_group[g->ranks[k]], i);
			r->rank_group[g->ranks[k]] = i;
		}
		/* a group expands to at most the calls its ranks made (failed polls count more than
		 * one call each): the bound on any walk of it */
		if (r->nnodes && g->nranks) {
			uint64_t calls = 0, first = g->ranks[0];
			for (uint32_t n = 0; n < r->nnodes; n++)
				if (r->nodes[n].kind == PNODE_FUNCTION)
					calls += r->counts[(first * r->nnodes + n) * RUN_PC_COUNT + RUN_PC_VISITS];
			uint64_t events = grammar_expanded_length(&g->g);
			if (events > calls)
				FAIL("group %u: its grammar expands to %llu calls, but rank %llu made %llu", i,
				     (unsigned long long)events, (unsigned long long)first, (unsigned long long)calls);
		}
		for (uint32_t k = 0; k < g->ndurs; k++)
			if (g->durs[k].sig >= r->nsigs)
				FAIL("group %u: duration of unknown signature %u", i, g->durs[k].sig);
		for (uint32_t k = 0; k < g->ngaps; k++) {
			const struct run_gap *gp = &g->gaps[k];
			if (gp->sig >= r->nsigs || (gp->prev != RUN_NO_PREV && gp->prev >= r->nsigs))
				FAIL("group %u: gap histogram of unknown signature", i);
			uint64_t n = 0;
			for (uint32_t j = 0; j < gp->nbins; j++)
				n += gp->bins[j].count;
			if (n != gp->count)
				FAIL("group %u: gap histogram %u holds %llu samples in its bins, %llu in total",
				     i, k, (unsigned long long)n, (unsigned long long)gp->count);
		}
	}
	for (uint32_t k = 0; k < r->nranks; k++)
		if (r->rank_group[k] == UINT32_MAX)
			FAIL("rank %u belongs to no group", k);
	for (uint32_t i = 0; i < r->nstreams; i++)
		if (r->streams[i].rank >= r->nranks || r->streams[i].sig >= r->nsigs)
			FAIL("value stream %u refers to rank %u / signature %u", i, r->streams[i].rank,
			     r->streams[i].sig);
	qsort(r->streams, r->nstreams, sizeof *r->streams, cmp_stream);
	for (uint32_t i = 1; i < r->nstreams; i++)
		if (!cmp_stream(&r->streams[i - 1], &r->streams[i]))
			FAIL("two value streams for rank %u, signature %u", r->streams[i].rank, r->streams[i].sig);
	free(r->stream_first);
	r->stream_first = xcalloc(r->nranks + 1, sizeof *r->stream_first);
	for (uint32_t i = 0; i < r->nstreams; i++)
		r->stream_first[r->streams[i].rank + 1]++;
	for (uint32_t k = 0; k < r->nranks; k++)
		r->stream_first[k + 1] += r->stream_first[k];
	for (uint32_t i = 0; i < r->nnodes; i++) {
		if (r->nodes[i].parent >= (int32_t)i || r->nodes[i].parent < -1)
			FAIL("profile call path %u has parent %d (parents come first)", i, r->nodes[i].parent);
		if (r->nodes[i].kind > PNODE_UNKNOWN)
			FAIL("profile call path %u has unknown kind %u", i, r->nodes[i].kind);
	}
	for (uint32_t i = 0; i < r->nnodes; i++) {
		const double *st = r->time_stats + (size_t)i * RUN_TS_COUNT;
		for (int k = 0; k < RUN_TS_COUNT; k++)
			if (!isfinite(st[k]) || st[k] < 0)
				FAIL("time statistic '%s' of call path %u is %g (must be finite and non-negative)",
				     run_stat_names[k], i, st[k]);
		if (st[RUN_TS_RANKS] > r->nranks || (st[RUN_TS_RANKS] > 0 &&
		    (st[RUN_TS_ARGMIN] >= r->nranks || st[RUN_TS_ARGMAX] >= r->nranks)))
			FAIL("time statistics of call path %u name ranks beyond the run's %u", i, r->nranks);
	}
	for (uint64_t i = 0; r->time && i < (uint64_t)r->nranks * r->nnodes; i++)
		if (!isfinite(r->time[i]) || r->time[i] < 0)
			FAIL("profile time %llu is %g (must be finite and non-negative)", (unsigned long long)i,
			     r->time[i]);
	for (uint32_t i = 0; i < r->nts; i++)
		if (r->ts[i].rank >= r->nranks)
			FAIL("timestamps of rank %u, but the run has %u ranks", r->ts[i].rank, r->nranks);
	return true;
fail:
	return false;
}
