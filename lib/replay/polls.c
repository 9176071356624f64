/*
 * polls — completion as it happened in the application, so that a trace of the replay records the
 * same completions (compare.h says what that means):
 *   - a run of n failed polls (Test*, Iprobe, Improbe, Request_get_status that found nothing) is
 *     issued n times, showing MPI only requests the application completes with a poll, and not at
 *     all when none of those is live;
 *   - a successful poll first waits (PMPI, unrecorded) until what it found is there, then is issued;
 *   - Waitany/Testany/Waitsome/Testsome complete exactly the recorded requests: the other positions
 *     of the array are hidden for the call (request_ring.c), and a successful Waitsome/Testsome waits
 *     until all of them are complete so that one call returns them all.
 *
 * A poll replayed as failed may still find something: MPI progressed before or inside it (the
 * replay runs at its own pace). Such an early completion is remembered: its requests stay known as
 * completed (request_ring.c), a probe that found its message early is counted here, and the
 * application's later successful poll of the same thing is then not issued again.
 */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "replay/issue.h"
#include "util/xalloc.h"

static int param_of(const struct fn_desc *d, enum param_kind kind)
{
	for (uint32_t p = 0; p < d->nparams; p++)
		if (d->params[p].kind == kind)
			return (int)p;
	return -1;
}

enum rp_cls rp_class_of(const struct fn_desc *d)
{
	bool poll = d->flags & FNF_POLL, flag = param_of(d, PK_FLAG_OUT) >= 0;
	bool reqs = param_of(d, PK_REQS) >= 0;
	if (reqs && param_of(d, PK_INDEX_OUT) >= 0)
		return poll ? RP_TESTANY : RP_WAITANY;
	if (reqs && param_of(d, PK_INDICES_OUT) >= 0)
		return poll ? RP_TESTSOME : RP_WAITSOME;
	if (reqs && flag)
		return RP_TESTALL;
	if (param_of(d, PK_REQ) >= 0 && flag)
		return RP_TEST;
	if (param_of(d, PK_SRC) >= 0 && flag)
		return RP_PROBE;
	return RP_PLAIN;
}

/* the recorded request names of the call (REQ or REQS): n pairs */
static int names_of(const struct rp_call *k, const int64_t **names)
{
	int p = param_of(k->d, PK_REQ);
	if (p >= 0 && k->v[p]) {
		*names = k->v[p];
		return 1;
	}
	p = param_of(k->d, PK_REQS);
	if (p < 0 || !k->v[p] || sv_is_symbolic(k->v[p][0]))
		return 0;
	*names = k->v[p] + 1;
	return (int)k->v[p][0];
}

/* of the call's requests (all, or the wanted positions): how many are live, how many complete */
static void tally(struct rp *x, const struct rp_call *k, const uint8_t *want, int *live, int *done)
{
	const int64_t *names;
	int n = names_of(k, &names);
	*live = *done = 0;
	for (int j = 0; j < n; j++) {
		MPI_Request *h = want && !want[j] ? NULL : rp_request_lookup(x, names[2 * j], names[2 * j + 1]);
		if (!h || *h == MPI_REQUEST_NULL)
			continue;
		++*live;
		*done += rp_request_done(h);
	}
}

/* ---- probes --------------------------------------------------------------------------------------- */

struct probe_key {
	int64_t comm, src, actual, tag;
};

struct early_probe {
	struct probe_key key;
	uint64_t count;
	MPI_Message *msgs;         /* MPI_Improbe: the messages found, oldest first */
	size_t nmsgs, capmsgs, first;
	UT_hash_handle hh;
};

static struct probe_key probe_key_of(const struct rp_call *k)
{
	struct probe_key key;
	memset(&key, 0, sizeof key);
	int ps = param_of(k->d, PK_SRC), pt = param_of(k->d, PK_TAG);
	key.comm = k->comm_param >= 0 && k->v[k->comm_param] ? k->v[k->comm_param][0] : SV_NULL;
	key.src = ps >= 0 && k->v[ps] ? k->v[ps][0] : SV_NULL;
	key.tag = pt >= 0 && k->v[pt] ? k->v[pt][0] : SV_NULL;
	return key;
}

/* does a probe with the call's source, tag and communicator find a message (PMPI)? */
static bool probe_finds(struct rp *x, struct rp_call *k)
{
	int ps = param_of(k->d, PK_SRC), pt = param_of(k->d, PK_TAG);
	int src = rp_src(x, k, ps), tag = pt >= 0 ? rp_int(x, k, pt) : MPI_ANY_TAG;
	MPI_Comm comm = k->comm_param >= 0 ? rp_comm(x, k, k->comm_param) : MPI_COMM_NULL;
	k->any_source = false;
	if (k->err[0] || comm == MPI_COMM_NULL)
		return true;    /* let the issuer report it */
	int flag = 0;
	PMPI_Iprobe(src, tag, comm, &flag, MPI_STATUS_IGNORE);
	return flag != 0;
}

void rp_polls_free(struct rp *x)
{
	struct early_probe *e, *tmp;
	HASH_ITER(hh, x->early_probes, e, tmp) {
		HASH_DEL(x->early_probes, e);
		free(e->msgs);
		free(e);
	}
}

/* ---- the decisions ------------------------------------------------------------------------------ */

/* A failed poll shows MPI only the requests the application completes with a poll (a request it
 * completes in a blocking call must not complete earlier, in another call). With none of those
 * left live, the poll would succeed at once: it is not issued. Whether a live one is complete is
 * not asked: that takes MPI progress (and, oversubscribed, a yield of the processor), and progress
 * can complete requests between the question and the poll anyway. */
bool rp_poll_pointless(struct rp *x, struct rp_call *k, enum rp_cls c)
{
	if (c == RP_PROBE || c == RP_PLAIN)
		return false;
	const int64_t *names;
	int n = names_of(k, &names);
	for (int j = 0; j < n; j++) {
		MPI_Request *h = rp_request_pollable(x, names[2 * j], names[2 * j + 1]);
		if (h && *h != MPI_REQUEST_NULL)
			return false;
	}
	return true;
}

uint8_t *rp_wanted(struct rp_call *k, enum rp_cls c)
{
	const int64_t *names;
	int n = names_of(k, &names);
	uint8_t *want = rp_alloc(k, (size_t)(n ? n : 1));
	if (c == RP_WAITANY || c == RP_TESTANY) {
		int p = param_of(k->d, PK_INDEX_OUT);
		int64_t i = p >= 0 && k->v[p] ? k->v[p][0] : SV_UNDEFINED;
		if (!sv_is_symbolic(i) && i >= 0 && i < n)
			want[i] = 1;
	} else if (c == RP_WAITSOME || c == RP_TESTSOME) {
		int p = param_of(k->d, PK_INDICES_OUT);
		const int64_t *v = p >= 0 ? k->v[p] : NULL;
		for (int64_t j = 0; v && !sv_is_symbolic(v[0]) && j < v[0]; j++)
			if (v[1 + j] >= 0 && v[1 + j] < n)
				want[v[1 + j]] = 1;
	} else {
		memset(want, 1, (size_t)(n ? n : 1));
	}
	return want;
}

void rp_spin_until_done(struct rp *x, struct rp_call *k, enum rp_cls c)
{
	int live, done;
	if (c == RP_PROBE) {
		while (!probe_finds(x, k))
			;
		return;
	}
	do
		tally(x, k, k->want, &live, &done);
	while (done < live);
}

bool rp_poll_found(const struct rp_call *k, enum rp_cls c)
{
	if (c == RP_TESTSOME)
		return k->outcount > 0 && k->outcount != MPI_UNDEFINED;
	return k->flag != 0;
}

void rp_poll_early(struct rp *x, struct rp_call *k, enum rp_cls c)
{
	x->polls_early++;
	if (c != RP_PROBE)
		return;       /* completed requests are remembered by request_ring.c */
	struct probe_key key = probe_key_of(k);
	struct early_probe *e;
	HASH_FIND(hh, x->early_probes, &key, sizeof key, e);
	if (!e) {
		e = xcalloc(1, sizeof *e);
		e->key = key;
		HASH_ADD(hh, x->early_probes, key, sizeof e->key, e);
	}
	e->count++;
	if (k->msg != MPI_MESSAGE_NULL) {
		XGROW(e->msgs, e->capmsgs, e->nmsgs + 1);
		e->msgs[e->nmsgs++] = k->msg;
	}
}

bool rp_poll_already_done(struct rp *x, struct rp_call *k, enum rp_cls c)
{
	if (c == RP_PROBE) {
		struct probe_key key = probe_key_of(k);
		struct early_probe *e;
		HASH_FIND(hh, x->early_probes, &key, sizeof key, e);
		if (!e || !e->count)
			return false;
		e->count--;
		if (e->first < e->nmsgs) {   /* the message an early MPI_Improbe matched */
			for (uint32_t p = 0; p < k->d->nparams; p++)
				if (k->d->params[p].kind == PK_MSG_OUT)
					rp_out_msg(x, k, (int)p, e->msgs[e->first]);
			if (++e->first == e->nmsgs)
				e->first = e->nmsgs = 0;
		}
		return true;
	}
	const int64_t *names;
	int n = names_of(k, &names), early = 0, targets = 0;
	for (int j = 0; j < n; j++) {
		if (k->want && !k->want[j])
			continue;
		int st = rp_request_state(x, names[2 * j], names[2 * j + 1]);
		targets += st != RP_REQ_NULL;
		early += st == RP_REQ_EARLY;
	}
	if (!targets || early < targets)
		return false;
	for (int j = 0; j < n; j++)
		if (!k->want || k->want[j])
			rp_request_forget(x, names[2 * j], names[2 * j + 1]);
	return true;
}
