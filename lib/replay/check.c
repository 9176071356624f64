/*
 * check — a first pass over the rank's calls, before anything is sent: every call must be one the
 * replayer can issue (a known function, no buffer at MPI_BOTTOM, no object or rank the tracer
 * could not name) and every communicator, datatype, group, message and request it uses must have
 * been created by an earlier call. A synthetic run that lacks what replay needs is refused here
 * with the call that needs it, instead of failing halfway. The pass also counts the calls of each
 * function, to place the timed window's marks counted from the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "replay/issue.h"
#include "mpi/fnids.h"
#include "util/xalloc.h"

struct seen {                 /* ids created so far, per kind */
	uint8_t *ids[PK_COUNT_OF_KINDS];
	size_t n[PK_COUNT_OF_KINDS];
};

struct reqname {
	struct {
		int64_t pool, slot;
	} key;
	UT_hash_handle hh;
};

/* which kind of id a parameter kind refers to / creates */
static enum param_kind id_kind(enum param_kind k)
{
	switch (k) {
	case PK_COMM: case PK_NEWCOMM: return PK_COMM;
	case PK_DTYPE: case PK_NEWTYPE: case PK_DTYPES: return PK_DTYPE;
	case PK_GROUP: case PK_NEWGROUP: return PK_GROUP;
	case PK_MSG: case PK_MSG_OUT: return PK_MSG;
	default: return PK_IGNORE;
	}
}

static void mark(struct seen *s, enum param_kind k, int64_t id)
{
	if (sv_is_symbolic(id) || id < 0 || id >= (1 << 24))
		return;
	if ((size_t)id >= s->n[k]) {
		size_t m = s->n[k] ? s->n[k] : 64;
		while (m <= (size_t)id)
			m *= 2;
		s->ids[k] = xrealloc(s->ids[k], m);
		memset(s->ids[k] + s->n[k], 0, m - s->n[k]);
		s->n[k] = m;
	}
	s->ids[k][id] = 1;
}

/* predefined objects need no creation */
static bool known(const struct seen *s, enum param_kind k, int64_t id)
{
	if (id == SV_NULL || id == SV_IGNORE)
		return true;
	if ((k == PK_COMM && (id == COMM_ID_WORLD || id == COMM_ID_SELF)) ||
	    (k == PK_DTYPE && id >= 0 && id < DTYPE_ID_FIRST_USER) || ((k == PK_GROUP || k == PK_MSG) && id == 0))
		return true;
	return !sv_is_symbolic(id) && id >= 0 && (size_t)id < s->n[k] && s->ids[k][id];
}

static const char *what(enum param_kind k)
{
	return k == PK_COMM ? "communicator" : k == PK_DTYPE ? "datatype" : k == PK_GROUP ? "group" : "message";
}

/* one parameter; NULL when fine, else why not */
static const char *check_param(struct seen *s, struct reqname **reqs, const struct event *ev,
			       enum param_kind k, const int64_t *v, char *why, size_t len)
{
	enum param_kind ik = id_kind(k);
	if (k == PK_BUF && v[0] == BUF_BOTTOM)
		return "a buffer at MPI_BOTTOM (absolute addresses of the application) cannot be replayed";
	if ((k == PK_PEER || k == PK_ROOT || k == PK_SRC) && v[0] == SV_UNKNOWN)
		return "a rank the tracer could not name (UNKNOWN) cannot be replayed";
	if (k == PK_PEERS)
		for (int64_t j = 0; !sv_is_symbolic(v[0]) && j < v[0]; j++)
			if (v[1 + j] == SV_UNKNOWN)
				return "a rank the tracer could not name (UNKNOWN) cannot be replayed";
	if (k == PK_COMM || k == PK_DTYPE || k == PK_GROUP || k == PK_MSG || k == PK_DTYPES) {
		int64_t n = k == PK_DTYPES ? (sv_is_symbolic(v[0]) ? 0 : v[0]) : 1;
		const int64_t *ids = k == PK_DTYPES ? v + 1 : v;
		int stride = k == PK_DTYPES ? 2 : 1;
		for (int64_t j = 0; j < n; j++) {
			int64_t id = ids[j * stride];
			if (id == SV_UNKNOWN) {
				snprintf(why, len, "its %s was created by a call the tracer did not record", what(ik));
				return why;
			}
			if (!known(s, ik, id)) {
				snprintf(why, len, "%s #%lld is used but no earlier call created it (a synthetic "
					 "run without its creation?)", what(ik), (long long)id);
				return why;
			}
		}
	}
	if (k == PK_REQ || k == PK_REQS) {
		int64_t n = k == PK_REQ ? 1 : sv_is_symbolic(v[0]) ? 0 : v[0];
		const int64_t *names = k == PK_REQ ? v : v + 1;
		for (int64_t j = 0; j < n; j++) {
			const int64_t *nm = names + 2 * j;
			if (nm[0] == SV_NULL || nm[1] == SV_NULL)
				continue;
			if (sv_is_symbolic(nm[0]) || sv_is_symbolic(nm[1]))
				return "it uses a request the tracer did not see created";
			struct reqname key, *e;
			memset(&key, 0, sizeof key);
			key.key.pool = nm[0];
			key.key.slot = nm[1];
			HASH_FIND(hh, *reqs, &key.key, sizeof key.key, e);
			if (!e) {
				snprintf(why, len, "request %08x.%lld is used but no earlier call created it",
					 (uint32_t)((uint64_t)nm[0] >> 32), (long long)nm[1]);
				return why;
			}
		}
	}
	if (k == PK_NEWCOMM || k == PK_NEWTYPE || k == PK_NEWGROUP || k == PK_MSG_OUT)
		mark(s, ik, v[0]);
	if (k == PK_REQ_OUT && !sv_is_symbolic(v[0])) {
		struct reqname *e = xcalloc(1, sizeof *e), *old;
		e->key.pool = (int64_t)ev->req_key;
		e->key.slot = v[0];
		HASH_FIND(hh, *reqs, &e->key, sizeof e->key, old);
		if (old)
			free(e);
		else
			HASH_ADD(hh, *reqs, key, sizeof e->key, e);
	}
	return NULL;
}

static const char *check_call(struct rp *x, struct seen *s, struct reqname **reqs,
			      const struct event *ev, char *why, size_t len)
{
	uint32_t fn = x->fnmap[ev->s->fn];
	if (fn == UINT32_MAX) {
		snprintf(why, len, "%s is not a function this replayer knows with these parameters",
			 ev->fn->name);
		return why;
	}
	if (fn == FN_MPI_Abort)
		return "the application called MPI_Abort";
	bool custom = fn == FN_MPI_Init || fn == FN_MPI_Init_thread || fn == FN_MPI_Finalize ||
		      fn == FN_MPI_Pcontrol;
	if (!custom && !rp_issuers[fn]) {
		snprintf(why, len, "%s is not declared by the MPI this replayer was built with", ev->fn->name);
		return why;
	}
	struct param_walk w = param_walk(ev->fn, ev->vals, ev->nvals);
	while (param_walk_next(&w)) {
		const char *e = check_param(s, reqs, ev, w.kind, w.v, why, len);
		if (e)
			return e;
	}
	return w.bad ? "its recorded values are malformed" : NULL;
}

static bool place_mark(struct rp *x, uint32_t fn, long nth, const uint64_t *counts, long *out,
		       const char *name)
{
	if (fn == UINT32_MAX)
		return true;
	long total = (long)counts[fn];
	*out = nth > 0 ? nth : total + nth + 1;
	if (*out < 1 || *out > total) {
		snprintf(x->err, sizeof x->err, "rank %d calls %s %ld times; there is no call %ld", x->rank,
			 name, total, nth);
		return false;
	}
	return true;
}

bool rp_check(struct rp *x)
{
	struct event_iter it;
	event_iter_init(&it, x->r, (uint32_t)x->rank);
	struct event ev;
	struct seen s;
	memset(&s, 0, sizeof s);
	struct reqname *reqs = NULL;
	uint64_t *counts = xcalloc(ladder_nfunctions, sizeof *counts);
	char why[256];
	bool ok = true;
	x->ncall = 0;
	while (ok && event_next(&it, &ev)) {
		x->ncall++;
		const char *e = check_call(x, &s, &reqs, &ev, why, sizeof why);
		x->ncall += ev.repeat - 1;
		if (e)
			ok = rp_call_error(x, &ev, e);
		else if (!(ev.s->flags & SIGF_FAILED_POLL))
			counts[x->fnmap[ev.s->fn]]++;
	}
	if (ok && it.error[0]) {
		snprintf(x->err, sizeof x->err, "rank %d: %s", x->rank, it.error);
		ok = false;
	}
	ok = ok && place_mark(x, x->from_fn, x->opt.from.nth, counts, &x->from_nth, x->opt.from.fn) &&
	     place_mark(x, x->to_fn, x->opt.to.nth, counts, &x->to_nth, x->opt.to.fn);
	struct reqname *e, *tmp;
	HASH_ITER(hh, reqs, e, tmp) {
		HASH_DEL(reqs, e);
		free(e);
	}
	for (int k = 0; k < PK_COUNT_OF_KINDS; k++)
		free(s.ids[k]);
	free(counts);
	event_iter_free(&it);
	x->ncall = 0;
	return ok;
}
