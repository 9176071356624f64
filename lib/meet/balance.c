/*
 * balance — the counts of a run's point-to-point and collective calls, matched per communicator
 * instance. See balance.h.
 */
#include "meet/balance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "meet/call_facts.h"
#include "meet/comms.h"
#include "run/events.h"
#include "util/hash.h"
#include "meet/replayable.h"
#include "util/xalloc.h"

#define ANY INT64_MIN   /* a key's sender or tag taken as any */
#define COLLECTIVE (INT64_MIN + 1)   /* a key's tag: the member's collective calls (dst ANY) */

struct key {
	int64_t inst, src, dst, tag;
};

struct tally {
	struct key k;
	uint64_t sent, received;
	struct meet_call first_send, first_receive;   /* the first call on each side */
	UT_hash_handle hh;
};

static void remember(struct meet_call *c, uint32_t rank, uint32_t sig)
{
	if (!c->known)
		*c = (struct meet_call){true, rank, sig};
}

static struct tally *tally_at(struct tally **all, int64_t inst, int64_t src, int64_t dst, int64_t tag)
{
	struct key k;
	memset(&k, 0, sizeof k);
	k.inst = inst, k.src = src, k.dst = dst, k.tag = tag;
	struct tally *t;
	HASH_FIND(hh, *all, &k, sizeof k, t);
	if (!t) {
		t = xcalloc(1, sizeof *t);
		t->k = k;
		HASH_ADD(hh, *all, k, sizeof k, t);
	}
	return t;
}

/* a message from src to dst: the exact key, the sender's any tag, and any sender to dst */
static void count_message(struct tally **all, int64_t inst, int64_t src, int64_t dst, int64_t tag, bool send,
			  uint32_t rank, uint32_t sig)
{
	int64_t keys[3][2] = {{src, tag}, {src, ANY}, {ANY, ANY}};
	for (int i = src == NO_VALUE ? 2 : tag == NO_VALUE ? 1 : 0; i < 3; i++) {
		struct tally *t = tally_at(all, inst, keys[i][0] == NO_VALUE ? ANY : keys[i][0], dst, keys[i][1]);
		if (send)
			t->sent++, remember(&t->first_send, rank, sig);
		else
			t->received++, remember(&t->first_receive, rank, sig);
	}
}

static void count_call(struct tally **all, const struct comm_table *comms, uint32_t rank, uint32_t sig,
		       const struct call_facts *f)
{
	int64_t inst = f->comm == NO_VALUE ? 0 : comm_instance_of(comms, rank, f->comm);
	bool sends = f->vol_class == VOL_SEND || f->vol_class == VOL_SENDRECV;
	bool receives = f->vol_class == VOL_RECV || f->vol_class == VOL_MRECV || f->vol_class == VOL_SENDRECV;
	if (sends && f->dest != NO_VALUE)
		count_message(all, inst, rank, f->dest, f->send_tag, true, rank, sig);
	if (receives && (f->source != NO_VALUE || f->any_source || f->vol_class == VOL_MRECV))
		count_message(all, inst, f->source, rank, f->recv_tag, false, rank, sig);   /* NO_VALUE: PROC_NULL or any */
	if ((f->fn_flags & FNF_COLLECTIVE) && f->comm != NO_VALUE && inst >= 0) {
		struct tally *t = tally_at(all, inst, rank, ANY, COLLECTIVE);
		t->sent++;
		remember(&t->first_send, rank, sig);
	}
}

static void comm_name(const struct comm_table *comms, int64_t inst, char *out, size_t outlen)
{
	if (inst == 0)
		snprintf(out, outlen, "MPI_COMM_WORLD");
	else
		snprintf(out, outlen, "communicator comm#%lld of %u ranks", (long long)comms->instances[inst].id,
			 comms->instances[inst].n);
}

/* false with why (and the call without its counterpart in *call) when the tally's messages do not meet */
static bool tally_meets(const struct tally *t, const struct comm_table *comms, struct meet_call *call, char *why,
			size_t whylen)
{
	bool whole = t->k.src == ANY;   /* every sender to dst: equal; finer keys: no receive without a send */
	if (t->k.tag == COLLECTIVE || (whole ? t->sent == t->received : t->received <= t->sent))
		return true;
	char comm[96], tag[32] = "", src[48] = "the ranks together";
	comm_name(comms, t->k.inst, comm, sizeof comm);
	if (t->k.tag != ANY)
		snprintf(tag, sizeof tag, " with tag %lld", (long long)t->k.tag);
	if (!whole)
		snprintf(src, sizeof src, "rank %lld", (long long)t->k.src);
	*call = t->sent > t->received ? t->first_send : t->first_receive;
	snprintf(why, whylen, "%s send%s %llu message%s%s to rank %lld over %s, which receives %llu", src,
		 whole ? "" : "s", (unsigned long long)t->sent, t->sent == 1 ? "" : "s", tag, (long long)t->k.dst,
		 comm, (unsigned long long)t->received);
	return false;
}

/* every member of every instance made as many collective calls over it as its first member */
static bool collectives_meet(struct tally **all, const struct comm_table *comms, struct meet_call *call, char *why,
			     size_t whylen)
{
	for (uint32_t i = 0; i < comms->ninstances; i++) {
		const struct comm_instance *c = &comms->instances[i];
		uint64_t first = 0;
		for (uint32_t m = 0; m < c->n; m++) {
			uint32_t rank = c->ranks ? c->ranks[m] : m;
			const struct tally *t = tally_at(all, i, rank, ANY, COLLECTIVE);
			uint64_t n = t->sent;
			if (m && n != first) {
				*call = t->first_send;
				char comm[96];
				comm_name(comms, i, comm, sizeof comm);
				snprintf(why, whylen, "rank %u makes %llu collective calls over %s, rank %u %llu", rank,
					 (unsigned long long)n, comm, c->ranks ? c->ranks[0] : 0,
					 (unsigned long long)first);
				return false;
			}
			first = m ? first : n;
		}
	}
	return true;
}

/* Per-peer arrays (an Alltoallv's send and receive counts): what every rank sends each peer in
 * bytes must be what that peer expects from it. Summed over the calls per ordered pair (i, j)
 * without a table of P^2 pairs: each pair's difference is weighted by a hash of (i, j) into one
 * fingerprint, zero when every pair agrees; per rank, the bytes sent to it and expected by it
 * name the first rank that disagrees. */
struct arrays_check {
	uint64_t fingerprint;
	int64_t *sent_to, *expected_by;   /* per world rank */
};

static uint64_t pair_weight(uint32_t from, uint32_t to) { return hash_mix64(((uint64_t)from << 32 | to) + 1); }

/* the array of parameter name and the size of the datatype of parameter type, or NULL */
static const int64_t *sized_array(const struct event *ev, const char *name, const char *type, int64_t *size)
{
	const int64_t *out = NULL;
	struct param_walk w = param_walk(ev->fn, ev->vals, ev->nvals);
	while (param_walk_next(&w)) {
		if (w.kind == PK_COUNTS && !strcmp(w.name, name) && !sv_is_symbolic(w.v[0]))
			out = w.v;
		if (w.width == 2 && !strcmp(w.name, type))
			*size = w.v[1];
	}
	return w.bad ? NULL : out;
}

static void count_arrays(struct arrays_check *c, const struct comm_table *comms, uint32_t rank, const struct event *ev)
{
	int64_t ssize = 0, rsize = 0;
	const int64_t *send = sized_array(ev, "sendcounts", "sendtype", &ssize);
	const int64_t *recv = sized_array(ev, "recvcounts", "recvtype", &rsize);
	const int64_t *comm = group_of_kind(ev->fn, ev->vals, ev->nvals, PK_COMM);
	int64_t inst = comm ? comm_instance_of(comms, rank, comm[0]) : -1;
	if (!send || !recv || inst < 0)
		return;
	const struct comm_instance *ci = &comms->instances[inst];
	for (int64_t k = 0; k < send[0] && k < (int64_t)ci->n; k++) {
		uint32_t peer = ci->ranks ? ci->ranks[k] : (uint32_t)k;
		c->fingerprint += pair_weight(rank, peer) * (uint64_t)(send[1 + k] * ssize);
		c->sent_to[peer] += send[1 + k] * ssize;
	}
	for (int64_t k = 0; k < recv[0] && k < (int64_t)ci->n; k++) {
		uint32_t peer = ci->ranks ? ci->ranks[k] : (uint32_t)k;
		c->fingerprint -= pair_weight(peer, rank) * (uint64_t)(recv[1 + k] * rsize);
		c->expected_by[rank] += recv[1 + k] * rsize;
	}
}

static bool arrays_meet(const struct arrays_check *c, uint32_t nranks, char *why, size_t whylen)
{
	for (uint32_t j = 0; j < nranks; j++)
		if (c->sent_to[j] != c->expected_by[j]) {
			snprintf(why, whylen, "the ranks' per-peer send counts give rank %u %lld bytes, its receive counts "
				 "expect %lld", j, (long long)c->sent_to[j], (long long)c->expected_by[j]);
			return false;
		}
	if (c->fingerprint)
		snprintf(why, whylen, "some rank's per-peer send counts differ from what the peer's receive counts expect "
			 "of it (each rank's totals agree)");
	return !c->fingerprint;
}

/* A rank's requests, each created by a nonblocking call and completed by a Wait or Test that
 * names it (or freed): keyed by the signature's request pool and the slot. */
struct pending {
	int64_t key[2];   /* pool, slot */
	struct meet_call made;
	UT_hash_handle hh;
};

struct requests {
	struct pending *open;
	uint64_t unfinished;          /* replaced while open, or open at the end */
	struct meet_call first;       /* the first unfinished request's call */
};

static void finish_request(struct requests *q, const int64_t *name)
{
	if (sv_is_symbolic(name[0]) || sv_is_symbolic(name[1]))
		return;
	struct pending *p = NULL;
	int64_t key[2] = {name[0], name[1]};
	HASH_FIND(hh, q->open, key, sizeof key, p);
	if (p) {
		HASH_DEL(q->open, p);
		free(p);
	}
}

static void unfinished(struct requests *q, const struct pending *p)
{
	if (!q->unfinished++)
		q->first = p->made;
}

/* a nonblocking call made a request; a Wait or Test that succeeded, or a Request_free, ends those it names */
static void track_requests(struct requests *q, uint32_t rank, const struct event *ev, const struct call_facts *f)
{
	if (f->fn_flags & (FNF_COMPLETE | FNF_FREE)) {
		if (f->flag == 0)   /* a Test that found nothing finished */
			return;
		if (f->index != NO_VALUE) {
			if (f->index >= 0 && (uint64_t)f->index < f->nrequests)
				finish_request(q, f->requests + 2 * f->index);
		} else if (f->indices) {
			for (uint32_t i = 0; i < f->nindices; i++)
				if (f->indices[i] >= 0 && (uint64_t)f->indices[i] < f->nrequests)
					finish_request(q, f->requests + 2 * f->indices[i]);
		} else {
			for (uint32_t i = 0; i < f->nrequests; i++)
				finish_request(q, f->requests + 2 * i);
		}
		return;
	}
	if ((f->fn_flags & FNF_PERSISTENT) || f->request_slot == NO_VALUE)
		return;
	struct pending *p = xcalloc(1, sizeof *p), *old = NULL;
	p->key[0] = (int64_t)ev->req_key, p->key[1] = f->request_slot;
	p->made = (struct meet_call){true, rank, ev->sig};
	HASH_FIND(hh, q->open, p->key, sizeof p->key, old);
	if (old) {   /* its slot taken again: the earlier request was never completed */
		unfinished(q, old);
		HASH_DEL(q->open, old);
		free(old);
	}
	HASH_ADD(hh, q->open, key, sizeof p->key, p);
}

/* the requests the rank left open at its end */
static void close_requests(struct requests *q)
{
	struct pending *p, *tmp;
	HASH_ITER(hh, q->open, p, tmp) {
		unfinished(q, p);
		HASH_DEL(q->open, p);
		free(p);
	}
}

bool run_calls_balanced(const struct run *r, struct meet_call *call, char *why, size_t whylen)
{
	struct comm_table comms;
	comm_table_build(&comms, r);
	struct arrays_check arrays = {0, xcalloc(r->nranks + 1, sizeof(int64_t)), xcalloc(r->nranks + 1, sizeof(int64_t))};
	struct tally *all = NULL, *t, *tmp;
	struct requests requests = {0};
	*call = (struct meet_call){0};
	for (uint32_t rank = 0; rank < r->nranks; rank++) {
		struct event_iter it;
		struct event ev;
		struct call_facts f;
		event_iter_init(&it, r, rank);
		uint64_t before = requests.unfinished;
		while (event_next(&it, &ev)) {   /* repeats are failed polls: no message */
			call_facts_read(&ev, rank, &comms, &f);
			count_call(&all, &comms, rank, ev.sig, &f);
			track_requests(&requests, rank, &ev, &f);
			if (ev.fn->flags & FNF_COLLECTIVE)
				count_arrays(&arrays, &comms, rank, &ev);
		}
		close_requests(&requests);
		if (requests.unfinished && !before)
			snprintf(why, whylen, "rank %u leaves %llu of its requests incomplete (made by %s, never waited "
				 "for, tested to completion or freed)", rank,
				 (unsigned long long)(requests.unfinished - before),
				 r->fns[r->sigs[requests.first.sig].fn].name);
		event_iter_free(&it);
	}
	bool ok = !requests.unfinished;
	if (!ok)
		*call = requests.first;
	for (int fineness = 2; fineness >= 0; fineness--)   /* the finest key that does not meet is said */
		HASH_ITER(hh, all, t, tmp)
			if ((t->k.src != ANY) + (t->k.tag != ANY) == fineness)
				ok = ok && tally_meets(t, &comms, call, why, whylen);
	ok = ok && collectives_meet(&all, &comms, call, why, whylen) && arrays_meet(&arrays, r->nranks, why, whylen);
	free(arrays.sent_to);
	free(arrays.expected_by);
	HASH_ITER(hh, all, t, tmp) {
		HASH_DEL(all, t);
		free(t);
	}
	comm_table_free(&comms);
	return ok;
}

bool run_p2p_balanced(const struct run *r, char *why, size_t whylen)
{
	struct meet_call call;
	return run_calls_balanced(r, &call, why, whylen);
}

bool run_calls_meet(const struct run *r, char *why, size_t whylen)
{
	if (!run_replayable(r, why, whylen))
		return false;
	char unmet[400];
	if (!r->synthetic || r->nranks > BALANCE_MAX_RANKS || run_p2p_balanced(r, unmet, sizeof unmet))
		return true;
	snprintf(why, whylen, "not replayable: calls do not meet: %s", unmet);
	return false;
}
