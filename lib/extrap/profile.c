/*
 * profile — the synthetic run's profile counted from its trace. See profile.h.
 */
#include "extrap/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meet/comms.h"
#include "mpi/fninfo.h"
#include "run/events.h"
#include "run/share.h"
#include "util/xalloc.h"

struct comm_size {
	int64_t id, size;   /* size 0: not known at the target */
};

struct counting {
	const struct run *out;
	uint32_t *node_of_fn;         /* per function of out: its call path */
	struct comm_size *comms;
	uint32_t ncomms;
	struct comm_table *table;     /* per rank, when a size is not known from the creating call alone */
};

static int64_t size_of(const struct counting *c, int64_t id)
{
	if (id == COMM_ID_WORLD)
		return c->out->nranks;
	if (id == COMM_ID_SELF)
		return 1;
	for (uint32_t i = 0; i < c->ncomms; i++)
		if (c->comms[i].id == id)
			return c->comms[i].size;
	return 0;
}

/* the size of the communicator a signature creates: a Cartesian grid's product of dims, a
 * duplicate's parent's; 0 otherwise (Comm_split's depend on per-rank colors) */
static int64_t created_size(const struct counting *c, const struct run_signature *s)
{
	const char *name = c->out->fns[s->fn].name;
	const int64_t *dims = run_param(c->out, s, PK_INTS, "dims", NULL), *parent = run_param(c->out, s, PK_COMM, NULL, NULL);
	if (!strcmp(name, "MPI_Cart_create") && dims) {
		int64_t n = 1;
		for (int64_t k = 1; k <= dims[0]; k++)
			n *= dims[k];
		return n;
	}
	if (!strncmp(name, "MPI_Comm_dup", 12) || !strcmp(name, "MPI_Comm_idup"))
		return parent ? size_of(c, parent[0]) : 0;
	return 0;
}

static void find_comms(struct counting *c)
{
	const struct run *r = c->out;
	c->comms = xcalloc(r->nsigs + 1, sizeof *c->comms);
	for (uint32_t i = 0; i < r->nsigs; i++) {
		const int64_t *id = run_param(r, &r->sigs[i], PK_NEWCOMM, NULL, NULL);
		if (id && !sv_is_symbolic(id[0]))
			c->comms[c->ncomms++] = (struct comm_size){id[0], created_size(c, &r->sigs[i])};
	}
}

/* the profile's call paths: the root region and one per function the trace calls */
static bool make_nodes(const struct run *ref, struct counting *c, struct run *out, char *why, size_t whylen)
{
	for (uint32_t i = 1; i < ref->nnodes; i++)
		if (ref->nodes[i].kind == PNODE_REGION) {
			snprintf(why, whylen, "p%u has user regions (%s): calls are not placed in regions", ref->nranks,
				 ref->nodes[i].name);
			return false;
		}
	bool *used = xcalloc(out->nfns + 1, sizeof *used);
	for (uint32_t i = 0; i < out->nsigs; i++)
		used[out->sigs[i].fn] = true;
	out->nodes = xcalloc(out->nfns + 2, sizeof *out->nodes);
	out->nodes[0] = (struct run_pnode){-1, PNODE_REGION, xstrdup(ref->nnodes ? ref->nodes[0].name : "main")};
	out->nnodes = 1;
	c->node_of_fn = xcalloc(out->nfns + 1, sizeof *c->node_of_fn);
	for (uint32_t f = 0; f < out->nfns; f++)
		if (used[f]) {
			c->node_of_fn[f] = out->nnodes;
			out->nodes[out->nnodes++] = (struct run_pnode){0, PNODE_FUNCTION, xstrdup(out->fns[f].name)};
		}
	free(used);
	return true;
}

/* calls of one function by one rank with the same values (stored, SHARED arrays as stated): visits,
 * bytes, messages */
static bool count_calls(const struct counting *c, const struct fn_desc *d, const int64_t *vals, uint32_t nvals,
			uint64_t calls, uint32_t rank, uint64_t *m, char *why, size_t whylen)
{
	int id = fn_lookup(d->name);
	m[RUN_PC_VISITS] += calls;
	if (id < 0 || (uint32_t)id >= mpi_nfninfo || mpi_fninfo[id].vol == VOL_NONE)
		return true;
	const int64_t *params[FN_MAXPARAMS] = {0};
	size_t cap = 0;
	int64_t *v = NULL;   /* arrays stated by rule (run/share.h) as the rank reads them */
	nvals = share_expand(d, vals, nvals, rank, &v, &cap);
	const int64_t *comm = NULL;
	PARAM_FOR (w, d, v, nvals) {
		if (w.p < FN_MAXPARAMS)   /* the table's functions: what the accounting reads */
			params[w.p] = w.v;
		if (w.kind == PK_COMM && !comm)
			comm = w.v;
	}
	struct vol_ctx ctx = {.world_rank = rank, .rank = rank, .size = comm ? size_of(c, comm[0]) : 0};
	if (comm && !ctx.size && c->table) {   /* a split's: as the rank's colour makes it */
		ctx.size = comm_size(c->table, rank, comm[0]);
		ctx.rank = comm_rank_of(c->table, rank, comm[0], rank);
	}
	enum vol_class k = mpi_fninfo[id].vol;
	if (!ctx.size && k != VOL_SEND && k != VOL_RECV && k != VOL_SENDRECV && k != VOL_MRECV) {
		snprintf(why, whylen, "the size of the communicator %s uses at the target is not known", d->name);
		free(v);
		return false;
	}
	struct vol one = {0};
	vol_account_call((uint32_t)id, params, &ctx, &one);
	free(v);
	m[RUN_PC_BYTES_SENT] += calls * one.sent, m[RUN_PC_BYTES_RECV] += calls * one.recv;
	m[RUN_PC_MSGS_SENT] += calls * one.msgs_sent, m[RUN_PC_MSGS_RECV] += calls * one.msgs_recv;
	return true;
}

/* a signature whose bytes or messages depend on values it streams: counted call by call */
static bool streams_volume(const struct run *out, const struct run_signature *s)
{
	int id = fn_lookup(out->fns[s->fn].name);
	if (id < 0 || (uint32_t)id >= mpi_nfninfo || mpi_fninfo[id].vol == VOL_NONE)
		return false;
	for (uint32_t i = 0; i < s->nvals; i++)
		if (out->sigvals[s->voff + i] == SV_STREAMED)
			return true;
	return false;
}

/* the calls of streamed signatures by one rank, each with its values from the rank's streams */
static bool count_streamed(const struct counting *c, const bool *streamed, uint32_t rank, char *why, size_t whylen)
{
	struct run *out = (struct run *)c->out;
	struct event_iter it;
	struct event ev;
	bool ok = true;
	event_iter_init(&it, out, rank);
	while (ok && event_next(&it, &ev))
		if (streamed[ev.sig])
			ok = count_calls(c, ev.fn, ev.vals, ev.nvals, ev.repeat, rank,
					 out->counts + ((size_t)rank * out->nnodes + c->node_of_fn[ev.s->fn]) * RUN_PC_COUNT,
					 why, whylen);
	if (ok && it.error[0]) {
		snprintf(why, whylen, "rank %u: %s", rank, it.error);
		ok = false;
	}
	event_iter_free(&it);
	return ok;
}

static bool count_group(const struct counting *c, const struct run_group *g, struct run *out, char *why, size_t whylen)
{
	uint64_t *calls = xcalloc(out->nsigs + 1, sizeof *calls);
	uint32_t *used = xmalloc((out->nsigs + 1) * sizeof *used), nused = 0;
	bool *streamed = xcalloc(out->nsigs + 1, sizeof *streamed), any = false;
	grammar_terminal_counts(&g->g, calls, out->nsigs);
	for (uint32_t s = 0; s < out->nsigs; s++)
		if (calls[s] && !(streamed[s] = streams_volume(out, &out->sigs[s])))
			used[nused++] = s;
		else
			any = any || calls[s];
	bool ok = true;
	uint32_t rank;
	RANKLIST_FOR(rank, &g->ranks) {
		for (uint32_t u = 0; ok && u < nused; u++) {
			const struct run_signature *s = &out->sigs[used[u]];
			ok = count_calls(c, &out->fns[s->fn], out->sigvals + s->voff, s->nvals, calls[used[u]], rank,
					 out->counts + ((size_t)rank * out->nnodes + c->node_of_fn[s->fn]) * RUN_PC_COUNT,
					 why, whylen);
		}
		if (ok && any)
			ok = count_streamed(c, streamed, rank, why, whylen);
	}
	free(calls);
	free(used);
	free(streamed);
	return ok;
}

/* exclusive times: the largest rung's mean per call path of the same name */
static void times_of(const struct run *ref, struct run *out)
{
	double *mean = xcalloc(out->nnodes + 1, sizeof *mean), *time;
	for (uint32_t i = 0; i < out->nnodes; i++)
		for (uint32_t j = 0; j < ref->nnodes; j++)
			if (ref->nodes[j].kind == out->nodes[i].kind && !strcmp(ref->nodes[j].name, out->nodes[i].name))
				mean[i] = ref->time_stats[(size_t)j * RUN_STAT_COUNT + RUN_STAT_MEAN];
	time = xmalloc(((size_t)out->nranks * out->nnodes + 1) * sizeof *time);
	for (size_t q = 0; q < out->nranks; q++)
		memcpy(time + q * out->nnodes, mean, out->nnodes * sizeof *mean);
	run_time_stats(out, time);
	free(time);
	free(mean);
}

static void drop_profile(struct run *out)
{
	for (uint32_t i = 0; i < out->nnodes; i++)
		free(out->nodes[i].name);
	free(out->nodes);
	free(out->counts);
	free(out->time_stats);
	out->nodes = NULL, out->counts = NULL, out->time_stats = NULL, out->nnodes = 0;
}

bool extrap_profile(const struct run *ref, struct run *out, char *why, size_t whylen)
{
	struct counting c = {.out = out};
	bool ok = make_nodes(ref, &c, out, why, whylen);
	struct comm_table table;
	if (ok) {
		find_comms(&c);
		bool unknown = false;
		for (uint32_t i = 0; i < c.ncomms; i++)
			unknown = unknown || !c.comms[i].size;
		if (unknown)   /* a checked run (add_profile): its streams give split colours */
			comm_table_build(c.table = &table, out);
		out->counts = xcalloc((size_t)out->nranks * out->nnodes * RUN_PC_COUNT + 1, sizeof *out->counts);
	}
	for (uint32_t g = 0; ok && g < out->ngroups; g++)
		ok = count_group(&c, &out->groups[g], out, why, whylen);
	if (ok)
		times_of(ref, out);
	else
		drop_profile(out);
	free(c.node_of_fn);
	free(c.comms);
	if (c.table)
		comm_table_free(c.table);
	return ok;
}
