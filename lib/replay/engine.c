/*
 * engine — one rank's replay: walk its calls (grammar/events.h) and issue each after its compute
 * gap, through the generated issuer of its function (issue.h); polls and completions are made to
 * happen as they happened in the application (polls.c).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/fninfo.h"
#include "replay/issue.h"
#include "mpi/fnids.h"
#include "mpi/pcontrol.h"
#include "util/buf.h"
#include "util/cpuclock.h"
#include "util/xalloc.h"

#define NO_SLOT UINT32_MAX

void rp_fail(struct rp_call *k, const char *fmt, ...)
{
	if (k->err[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->err, sizeof k->err, fmt, ap);
	va_end(ap);
}

/* ---- set-up ----------------------------------------------------------------------------------- */

static bool same_kinds(const struct fn_desc *a, const struct fn_desc *b)
{
	if (a->nparams != b->nparams)
		return false;
	for (uint32_t p = 0; p < a->nparams; p++)
		if (a->params[p].kind != b->params[p].kind)
			return false;
	return true;
}

bool rp_init(struct rp *x, const struct run *r, int rank, int size, const struct rp_options *o)
{
	memset(x, 0, sizeof *x);
	x->r = r;
	x->opt = *o;
	x->rank = rank;
	x->size = size;
	x->group = run_rank_group(r, rank);
	x->fnmap = xmalloc((r->nfns ? r->nfns : 1) * sizeof *x->fnmap);
	for (uint32_t i = 0; i < r->nfns; i++) {
		int id = fn_lookup(r->fns[i].name);
		bool ok = id >= 0 && same_kinds(&r->fns[i], &ladder_functions[id]);
		x->fnmap[i] = ok ? (uint32_t)id : UINT32_MAX;
	}
	x->stats = xcalloc(ladder_nfunctions, sizeof *x->stats);
	rp_handles_init(x);
	rp_requests_init(x);
	rp_lookahead_init(x);
	rp_payload_init(x);
	x->gaps = rp_gaps_new(r, x->group, o, rank);
	x->prev_sig = RUN_NO_PREV;
	x->from_fn = o->from.fn[0] ? (uint32_t)fn_lookup(o->from.fn) : UINT32_MAX;
	x->to_fn = o->to.fn[0] ? (uint32_t)fn_lookup(o->to.fn) : UINT32_MAX;
	return true;
}

void rp_free(struct rp *x)
{
	rp_lookahead_free(x);
	rp_requests_free(x);
	rp_polls_free(x);
	rp_handles_free(x);
	rp_payload_free(x);
	rp_gaps_free(x->gaps);
	free(x->fnmap);
	free(x->stats);
	memset(x, 0, sizeof *x);
}

/* ---- one call ----------------------------------------------------------------------------------- */

static int64_t scaled(int64_t v, double m, bool count)
{
	if (sv_is_symbolic(v) || m == 1.0)
		return v;
	int64_t s = llround((double)v * m);
	return count && v > 0 && s < 1 ? 1 : s;
}

/* the call's values (counts scaled), each parameter's group, its communicator */
static void prepare(struct rp *x, struct rp_call *k, const struct event *ev)
{
	k->ev = ev;
	k->fn = x->fnmap[ev->s->fn];
	k->d = &ladder_functions[k->fn];
	if (ev->nvals > k->capvals) {
		k->capvals = ev->nvals * 2;
		k->vals = xrealloc(k->vals, k->capvals * sizeof *k->vals);
	}
	if (ev->nvals)
		memcpy(k->vals, ev->vals, ev->nvals * sizeof *k->vals);
	k->nvals = ev->nvals;
	k->comm_param = -1;
	k->ci = NULL;
	memset(k->v, 0, sizeof k->v);
	struct param_walk w = param_walk(k->d, k->vals, k->nvals);
	while (param_walk_next(&w)) {
		uint32_t p = w.p;
		enum param_kind kind = w.kind;
		if (p >= RP_MAXP)
			break;
		int64_t *g = k->vals + w.at;
		k->v[p] = g;
		if (kind == PK_COUNT)
			g[0] = scaled(g[0], x->opt.message_scale, true);
		if ((kind == PK_COUNTS || kind == PK_DISPLS) && !sv_is_symbolic(g[0]))
			for (int64_t j = 1; j <= g[0]; j++)
				g[j] = scaled(g[j], x->opt.message_scale, kind == PK_COUNTS);
		if (kind == PK_COMM && k->comm_param < 0) {
			k->comm_param = (int)p;
			k->ci = rp_comm_of(x, g[0]);
		}
	}
	k->mode = RP_AS_RECORDED;
	k->want = NULL;
	k->any_source = false;
	k->deadline = 0;
	k->flag = k->index = k->outcount = 0;
	k->msg = MPI_MESSAGE_NULL;
	k->new_at = NO_SLOT;
	k->reqs_n = 0;
	k->err[0] = 0;
	if (w.bad)
		rp_fail(k, "its recorded values are malformed");
}

/* the error message: rank, call number, the call as `ladder decode` prints it, the reason */
bool rp_call_error(struct rp *x, const struct event *ev, const char *why)
{
	struct buf line;
	buf_init(&line);
	struct event_view v = {ev->fn, ev->vals, ev->nvals, (uint32_t)x->rank,
			       (const char *const *)x->r->strings, x->r->nstrings, ev->req_key};
	event_format(&v, &line);
	snprintf(x->err, sizeof x->err, "rank %d, call %llu (%.*s%s): %s", x->rank,
		 (unsigned long long)x->ncall, line.len > 160 ? 160 : (int)line.len, (char *)line.data,
		 line.len > 160 ? "..." : "", why);
	buf_free(&line);
	return false;
}

static void account(struct rp *x, struct rp_call *k)
{
	const struct mpi_fninfo *info = &mpi_fninfo[k->fn];
	struct rp_stat *st = &x->stats[k->fn];
	st->calls++;
	if (k->d->flags & FNF_START) {         /* a persistent request's bytes, at each start */
		for (uint32_t p = 0; p < k->d->nparams; p++) {
			const int64_t *v = k->v[p];
			enum param_kind kind = k->d->params[p].kind;
			if (!v || (kind != PK_REQ && kind != PK_REQS))
				continue;
			int n = kind == PK_REQ ? 1 : sv_is_symbolic(v[0]) ? 0 : (int)v[0];
			for (int j = 0; j < n; j++) {
				const int64_t *name = kind == PK_REQ ? v : v + 1 + 2 * j;
				struct vol b = rp_request_vol(x, name[0], name[1]);
				st->sent += b.sent;
				st->recv += b.recv;
			}
		}
		return;
	}
	if (info->vol == VOL_NONE)
		return;
	struct vol_ctx q = {0};
	q.world_rank = x->rank;
	if (k->ci) {
		q.inter = k->ci->inter;
		q.size = k->ci->inter ? k->ci->remote_size : k->ci->size;
		q.rank = k->ci->rank;
		q.indeg = k->ci->indeg;
		q.outdeg = k->ci->outdeg;
	}
	struct vol b = {0};
	vol_account_call(k->fn, k->v, &q, &b);
	if (k->d->flags & FNF_PERSISTENT) {
		for (uint32_t p = 0; p < k->d->nparams; p++)
			if (k->d->params[p].kind == PK_REQ_OUT && k->v[p])
				rp_request_set_vol(x, (int64_t)k->ev->req_key, k->v[p][0], &b);
		return;
	}
	st->sent += b.sent;
	st->recv += b.recv;
}

static bool issue(struct rp *x, struct rp_call *k)
{
	int rc = rp_issuers[k->fn](x, k);
	double end = rp_now();
	if (rc == RP_CANNOT)
		return rp_call_error(x, k->ev, k->err);
	if (rc != MPI_SUCCESS) {
		char msg[MPI_MAX_ERROR_STRING];
		int len = 0;
		PMPI_Error_string(rc, msg, &len);
		char why[MPI_MAX_ERROR_STRING + 32];
		snprintf(why, sizeof why, "MPI returned an error: %s", msg);
		return rp_call_error(x, k->ev, why);
	}
	if (!x->t_first)
		x->t_first = k->t_start;
	x->t_last = end;
	rp_mark_end(x, end);
	x->stats[k->fn].time += end - k->t_start;
	account(x, k);
	rp_requests_after(x, k);
	rp_forget(x, k, mpi_fninfo[k->fn].flags);
	rp_call_blocks_free(k);
	return true;
}

/* ---- the loop ------------------------------------------------------------------------------------ */

static double gap_before(struct rp *x, uint32_t sig)
{
	bool missing;
	double g = rp_gap(x->gaps, x->prev_sig, sig, &missing);
	if (!x->opt.no_compute)
		x->gaps_modeled += rp_gap_modeled(x->gaps, x->prev_sig, sig, x->opt.compute_scale, x->modeled);
	x->prev_sig = sig;
	x->gaps_missing += missing;
	if (x->opt.no_compute)
		return 0;
	g *= x->opt.compute_scale;
	x->compute += g;
	return rp_gap_after_lateness(x, g);
}

static bool mark_hit(uint32_t mark_fn, long *left, uint32_t fn)
{
	return fn == mark_fn && *left > 0 && --*left == 0;
}

/* the gap, then the call; the marks of the timed window */
static bool replay_call(struct rp *x, struct rp_call *k, const struct event *ev, enum rp_cls c)
{
	x->ncall++;
	bool to = mark_hit(x->to_fn, &x->to_left, k->fn);
	k->deadline = x->g_prev_end + gap_before(x, ev->sig);
	bool poll = c == RP_TEST || c == RP_TESTALL || c == RP_TESTANY || c == RP_TESTSOME ||
		    (c == RP_PROBE && (k->d->flags & FNF_POLL));
	if (c == RP_WAITANY || c == RP_TESTANY || c == RP_WAITSOME || c == RP_TESTSOME) {
		k->mode = RP_FORCE;
		k->want = rp_wanted(k, c);
	} else if (c == RP_TEST || c == RP_TESTALL) {
		k->want = rp_wanted(k, c);
	}
	if ((poll || c == RP_WAITANY || c == RP_WAITSOME) && rp_poll_already_done(x, k, c)) {
		rp_wait_gap(x, k->deadline);   /* found by an earlier poll: not again */
		k->t_start = rp_now();
		rp_mark_end(x, k->t_start);
		rp_call_blocks_free(k);
	} else {
		if (poll || c == RP_WAITSOME) {
			rp_wait_gap(x, k->deadline);
			k->deadline = 0;
			rp_spin_until_done(x, k, c);
		}
		if (!issue(x, k))
			return false;
	}
	if (to)
		x->t_to = k->t_start;
	if (mark_hit(x->from_fn, &x->from_left, k->fn))
		x->t_from = x->t_prev_end;
	return true;
}

static bool replay_event(struct rp *x, struct rp_call *k, const struct event *ev)
{
	prepare(x, k, ev);
	enum rp_cls c = rp_class_of(k->d);
	if (!(ev->s->flags & SIGF_FAILED_POLL))
		return replay_call(x, k, ev, c);
	for (uint64_t n = 0; n < ev->repeat; n++) {
		x->ncall++;
		double until = x->g_prev_end + gap_before(x, ev->sig);
		if (rp_poll_pointless(x, k, c)) {
			x->polls_skipped++;
			rp_wait_gap(x, until);
			rp_mark_end(x, rp_now());
			continue;
		}
		prepare(x, k, ev);
		k->mode = RP_FAILED_POLL;
		k->deadline = until;
		if (!issue(x, k))
			return false;
		if (rp_poll_found(k, c))
			rp_poll_early(x, k, c);
	}
	return true;
}

/* MPI_Pcontrol is hand-written in the tracer: region names travel as a variadic argument */
static bool replay_pcontrol(struct rp *x, struct rp_call *k, const struct event *ev)
{
	prepare(x, k, ev);
	x->ncall++;
	int level = rp_int(x, k, 0);
	const char *name = k->d->nparams > 1 ? rp_string(x, k, 1) : NULL;
	if (k->err[0])
		return rp_call_error(x, ev, k->err);
	rp_wait_gap(x, x->g_prev_end + gap_before(x, ev->sig));
	if (level == LADDER_PCONTROL_REGION_BEGIN || level == LADDER_PCONTROL_REGION_END)
		MPI_Pcontrol(level, name ? name : "");
	else
		MPI_Pcontrol(level);
	x->t_last = rp_now();
	rp_mark_end(x, x->t_last);
	x->stats[k->fn].calls++;
	return true;
}

bool rp_run(struct rp *x)
{
	struct event_iter it;
	event_iter_init(&it, x->r, (uint32_t)x->rank);
	struct event ev;
	struct rp_call k;
	memset(&k, 0, sizeof k);
	bool ok = true;
	x->from_left = x->from_nth;
	x->to_left = x->to_nth;
	x->cpu_start = cpuclock_read();
	rp_mark_end(x, rp_now());
	for (x->nev = 0; ok && event_next(&it, &ev); x->nev++) {
		rp_lookahead_at(x, x->nev);
		uint32_t fn = x->fnmap[ev.s->fn];
		if (fn == FN_MPI_Init || fn == FN_MPI_Init_thread) {   /* made before the run was read */
			x->ncall++;
			x->prev_sig = ev.sig;
			x->stats[fn].calls++;
			if (mark_hit(x->from_fn, &x->from_left, fn))
				x->t_from = x->t_prev_end;
			continue;
		}
		if (fn == FN_MPI_Finalize) {
			x->ncall++;
			if (mark_hit(x->to_fn, &x->to_left, fn))
				x->t_to = x->t_prev_end;
			x->stats[fn].calls++;
			break;
		}
		if (fn == FN_MPI_Pcontrol)
			ok = replay_pcontrol(x, &k, &ev);
		else
			ok = replay_event(x, &k, &ev);
	}
	if (ok && it.error[0]) {
		snprintf(x->err, sizeof x->err, "rank %d: %s", x->rank, it.error);
		ok = false;
	}
	if (!x->t_first)
		x->t_first = x->t_last = x->t_prev_end;
	if (!x->opt.from.fn[0])
		x->t_from = x->t_first;
	if (!x->opt.to.fn[0])
		x->t_to = x->t_last;
	x->cpu_end = cpuclock_read();
	rp_call_blocks_free(&k);
	free(k.blocks);
	free(k.vals);
	event_iter_free(&it);
	return ok;
}
