/*
 * run — the in-memory run: lifetime, labels, the group of a rank (a scan of the groups'
 * ranklists, or an index of every rank for readers that visit them all), time statistics, request
 * keys. See run.h; the raw format is in raw.c, the checks in check.c, the layout in layout.h.
 */
#include "run/run.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/ranklist.h"
#include "util/hash.h"
#include "util/xalloc.h"

void run_init(struct run *r) { memset(r, 0, sizeof *r); }

void run_free(struct run *r)
{
	free(r->command);
	free(r->host);
	free(r->slurm_job_id);
	free(r->tool_version);
	free(r->created);
	free(r->options);
	for (uint32_t i = 0; i < r->nlabels; i++) {
		free(r->labels[i].key);
		free(r->labels[i].value);
	}
	free(r->labels);
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
		run_stream_free(&r->streams[i]);
	free(r->streams);
	for (uint32_t i = 0; i < r->nnodes; i++)
		free(r->nodes[i].name);
	free(r->nodes);
	free(r->counts);
	free(r->time_stats);
	free(r->time);
	for (uint32_t i = 0; i < r->ntimestamps; i++) {
		free(r->timestamps[i].start);
		free(r->timestamps[i].dur);
	}
	free(r->timestamps);
	free(r->intervals);
	run_init(r);
}

uint32_t run_rank_group(const struct run *r, uint32_t rank)
{
	for (uint32_t i = 0; i < r->ngroups; i++)
		if (ranklist_contains(&r->groups[i].ranks, rank))
			return i;
	assert(!"a rank of a checked run is in a group");
	return 0;
}

uint32_t *run_group_index(const struct run *r)
{
	uint32_t *of = xmalloc((r->nranks ? r->nranks : 1) * sizeof *of), rank;
	for (uint32_t i = 0; i < r->ngroups; i++)
		RANKLIST_FOR(rank, &r->groups[i].ranks)
			of[rank] = i;
	return of;
}

void run_group_free(struct run_group *g)
{
	grammar_free(&g->g);
	ranklist_free(&g->ranks);
	free(g->durs);
	for (uint32_t k = 0; k < g->ngaps; k++)
		free(g->gaps[k].bins);
	free(g->gaps);
	memset(g, 0, sizeof *g);
}

const char *run_label(const struct run *r, const char *key)
{
	for (uint32_t i = 0; i < r->nlabels; i++)
		if (!strcmp(r->labels[i].key, key))
			return r->labels[i].value;
	return NULL;
}

void run_set_label(struct run *r, const char *key, const char *value)
{
	for (uint32_t i = 0; i < r->nlabels; i++)
		if (!strcmp(r->labels[i].key, key)) {
			free(r->labels[i].value);
			r->labels[i].value = xstrdup(value);
			return;
		}
	r->labels = xrealloc(r->labels, (r->nlabels + 1) * sizeof *r->labels);
	r->labels[r->nlabels].key = xstrdup(key);
	r->labels[r->nlabels].value = xstrdup(value);
	r->nlabels++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void run_time_stats(struct run *r, const double *time)
{
	free(r->time_stats);
	r->time_stats = xcalloc((size_t)r->nnodes * RUN_STAT_COUNT + 1, sizeof *r->time_stats);
	double *v = xmalloc((r->nranks + 1) * sizeof *v);
	for (uint32_t i = 0; i < r->nnodes; i++) {
		double *st = r->time_stats + (size_t)i * RUN_STAT_COUNT;
		uint32_t n = 0;
		for (uint32_t q = 0; q < r->nranks; q++) {
			if (!r->counts[((size_t)q * r->nnodes + i) * RUN_PC_COUNT + RUN_PC_VISITS])
				continue;
			double t = time[(size_t)q * r->nnodes + i];
			if (!n || t < st[RUN_STAT_MIN]) {
				st[RUN_STAT_MIN] = t;
				st[RUN_STAT_ARGMIN] = q;
			}
			if (!n || t > st[RUN_STAT_MAX]) {
				st[RUN_STAT_MAX] = t;
				st[RUN_STAT_ARGMAX] = q;
			}
			st[RUN_STAT_SUM] += t;
			v[n++] = t;
		}
		st[RUN_STAT_RANKS] = n;
		if (!n)
			continue;
		st[RUN_STAT_MEAN] = st[RUN_STAT_SUM] / n;
		double ss = 0;
		for (uint32_t k = 0; k < n; k++)
			ss += (v[k] - st[RUN_STAT_MEAN]) * (v[k] - st[RUN_STAT_MEAN]);
		st[RUN_STAT_STDDEV] = n > 1 ? sqrt(ss / (n - 1)) : 0;
		qsort(v, n, sizeof *v, cmp_double);
		st[RUN_STAT_MEDIAN] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
}

bool run_req_pools_by_base(const struct run *r)
{
	return r->options && strstr(r->options, "req_pools=base") != NULL;
}

uint64_t run_signature_req_key(bool by_base, uint32_t fn, uint64_t callsite, uint32_t flags,
			       const struct fn_desc *d, const int64_t *vals, uint32_t nvals)
{
	uint64_t h = hash_combine(hash_mix64(fn + 1), callsite);
	h = hash_combine(h, flags);
	PARAM_FOR (w, d, vals, nvals) {
		if (by_base && param_kind_adaptive(w.kind))
			h = hash_combine(h, (uint64_t)SV_STREAMED);
		else if (w.kind != PK_REQ_OUT)
			for (uint32_t j = 0; j < w.width; j++)
				h = hash_combine(h, (uint64_t)w.v[j]);
	}
	return h;
}

const int64_t *run_param(const struct run *r, const struct run_signature *s, enum param_kind k, const char *name,
			 uint32_t *width)
{
	const struct fn_desc *d = &r->fns[s->fn];
	PARAM_FOR (w, d, r->sigvals + s->voff, s->nvals)
		if (w.kind == k && (!name || !strcmp(w.name, name))) {
			if (width)
				*width = w.width;
			return w.v;
		}
	return NULL;
}
