/*
 * pace — the turns of the sends a wildcard receive took, from every rank's calls. See pace.h.
 */
#include "run/pace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/events.h"
#include "util/xalloc.h"

enum p2p_role { ROLE_OTHER, ROLE_SEND, ROLE_RECV };

struct walked {               /* one rank's sends and receives */
	uint32_t *send_sig;
	int64_t *send_dest;       /* world rank, -1 when not one */
	size_t nsends, capsends;
	int64_t *wild_src;        /* the sources its wildcard receives matched (world ranks) */
	uint32_t *wild_round;     /* and their rounds */
	uint64_t *wild_at;        /* and their places among all its receives */
	size_t nwild, capwild, capround, capat;
	uint64_t nrecvs;          /* receives so far, wildcard or named */
	int64_t *named;           /* sources it receives from by name */
	size_t nnamed, capnamed;
};

static bool has_param(const struct fn_desc *d, enum param_kind k, const char *name)
{
	for (uint32_t p = 0; p < d->nparams; p++)
		if (d->params[p].kind == k && (!name || !strcmp(d->params[p].name, name)))
			return true;
	return false;
}

/* a send that a receive takes whole (MPI_Send, MPI_Isend, ...), a receive (MPI_Recv, MPI_Irecv) */
static enum p2p_role role_of(const struct fn_desc *d)
{
	if (!(d->flags & FNF_P2P) || d->flags & FNF_PERSISTENT)
		return ROLE_OTHER;
	bool dest = has_param(d, PK_PEER, "dest"), src = has_param(d, PK_SRC, NULL);
	if (dest && !src)
		return ROLE_SEND;
	if (src && !dest && has_param(d, PK_BUF, NULL))
		return ROLE_RECV;
	return ROLE_OTHER;
}

static bool any_wildcard(const struct run *r)
{
	for (uint32_t s = 0; s < r->nsigs; s++) {
		const struct run_signature *sg = &r->sigs[s];
		const int64_t *v = run_param(r, sg, PK_SRC, NULL, NULL);
		if (role_of(&r->fns[sg->fn]) == ROLE_RECV && v && (v[0] == SV_ANY_SOURCE || v[0] == SV_STREAMED))
			return true;
	}
	return false;
}

static int64_t world_of(int64_t rel, uint32_t me)
{
	return sv_is_symbolic(rel) ? -1 : rel + (int64_t)me;
}

static void add_named(struct walked *w, int64_t src)
{
	for (size_t i = 0; i < w->nnamed; i++)
		if (w->named[i] == src)
			return;
	XGROW(w->named, w->capnamed, w->nnamed + 1);
	w->named[w->nnamed++] = src;
}

/* a receive: a wildcard one's source and round (a new round when its tag or communicator
 * differs from the previous wildcard receive's), or a named source */
static void walk_recv(struct walked *w, const struct event *ev, uint32_t me, int64_t round_key[2])
{
	const int64_t *src = group_of_kind(ev->fn, ev->vals, ev->nvals, PK_SRC);
	const int64_t *tag = group_of_kind(ev->fn, ev->vals, ev->nvals, PK_TAG);
	const int64_t *comm = group_of_kind(ev->fn, ev->vals, ev->nvals, PK_COMM);
	if (!src)
		return;
	w->nrecvs++;
	if (src[0] != SV_ANY_SOURCE) {
		add_named(w, world_of(src[0], me));
		return;
	}
	int64_t key[2] = {tag ? tag[0] : 0, comm ? comm[0] : 0};
	uint32_t round = w->nwild ? w->wild_round[w->nwild - 1] : 0;
	if (w->nwild && (key[0] != round_key[0] || key[1] != round_key[1]))
		round++;
	round_key[0] = key[0], round_key[1] = key[1];
	XGROW(w->wild_src, w->capwild, w->nwild + 1);
	XGROW(w->wild_round, w->capround, w->nwild + 1);
	XGROW(w->wild_at, w->capat, w->nwild + 1);
	w->wild_at[w->nwild] = w->nrecvs;
	w->wild_src[w->nwild] = world_of(src[1], me);
	w->wild_round[w->nwild++] = round;
}

static bool walk_rank(const struct run *r, uint32_t rank, struct walked *w, char *why, size_t whylen)
{
	struct event_iter it;
	struct event ev;
	int64_t round_key[2] = {0, 0};
	event_iter_init(&it, r, rank);
	while (!it.error[0] && event_next(&it, &ev)) {
		enum p2p_role role = role_of(ev.fn);
		if (role == ROLE_RECV)
			walk_recv(w, &ev, rank, round_key);
		if (role != ROLE_SEND)
			continue;
		const int64_t *dest = group_of_kind(ev.fn, ev.vals, ev.nvals, PK_PEER);
		XGROW(w->send_sig, w->capsends, w->nsends + 1);
		w->send_dest = xrealloc(w->send_dest, w->capsends * sizeof *w->send_dest);
		w->send_sig[w->nsends] = ev.sig;
		w->send_dest[w->nsends++] = dest ? world_of(dest[0], rank) : -1;
	}
	bool ok = !it.error[0];
	if (!ok)
		snprintf(why, whylen, "%s", it.error);
	event_iter_free(&it);
	return ok;
}

void run_gap_mean(const struct run_group *g, uint32_t sig, double *wall, double *cpu)
{
	double count = 0;
	*wall = *cpu = 0;
	for (uint32_t i = 0; i < g->ngaps; i++)
		if (g->gaps[i].sig == sig) {
			*wall += g->gaps[i].sum;
			*cpu += g->gaps[i].cpu.sum;
			count += (double)g->gaps[i].count;
		}
	if (count > 0)
		*wall /= count, *cpu /= count;
}

struct pairing {              /* the state of pacing one receiver's senders */
	const struct run *r;
	struct walked *w;
	int32_t **send_turns;     /* per rank, per send: the turns of its gap, -1 not paired */
	uint32_t *owner;          /* per rank: the receiver pacing it, UINT32_MAX none */
	uint32_t *group_of;       /* per rank: its group (run_group_index) */
};

static bool named_by(const struct walked *w, int64_t src)
{
	for (size_t i = 0; i < w->nnamed; i++)
		if (w->named[i] == src)
			return true;
	return false;
}

/* may sender s be paced by receiver rc: a valid rank no one paces yet, never received from by
 * name, whose sends to rc pair one to one with rc's wildcard receives from it */
static bool pairs(const struct pairing *pg, uint32_t rc, int64_t s)
{
	if (s < 0 || s >= (int64_t)pg->r->nranks || s == rc || pg->owner[s] != UINT32_MAX ||
	    named_by(&pg->w[rc], s))
		return false;
	size_t sends = 0, recvs = 0;
	for (size_t i = 0; i < pg->w[s].nsends; i++)
		sends += pg->w[s].send_dest[i] == rc;
	for (size_t k = 0; k < pg->w[rc].nwild; k++)
		recvs += pg->w[rc].wild_src[k] == s;
	return sends == recvs;
}

/* the turns of each wildcard receive of rc (-1 when its sender is left alone) */
static int32_t *turns_of_receives(const struct pairing *pg, uint32_t rc, uint64_t *total)
{
	const struct walked *w = &pg->w[rc];
	uint32_t n = pg->r->nranks;
	int32_t *turns = xmalloc((w->nwild ? w->nwild : 1) * sizeof *turns);
	int8_t *ok = xcalloc(n, 1);   /* 0 not decided, 1 paired, -1 left alone */
	size_t *last = xmalloc(n * sizeof *last);
	*total = 0;
	for (size_t k = 0; k < w->nwild; k++) {
		int64_t s = w->wild_src[k];
		if (s >= 0 && s < n && !ok[s])
			ok[s] = pairs(pg, rc, s) ? 1 : -1;
		if (s < 0 || s >= n || ok[s] < 0) {
			turns[k] = -1;
			continue;
		}
		bool again = ok[s] == 2 && w->wild_round[last[s]] == w->wild_round[k];
		turns[k] = again ? (int32_t)(w->wild_at[k] - w->wild_at[last[s]]) : 0;
		*total += (uint64_t)turns[k];
		ok[s] = 2, last[s] = k;
	}
	free(ok);
	free(last);
	return turns;
}

/* n sends none of which is paired yet */
static int32_t *unpaired(size_t n)
{
	int32_t *t = xmalloc((n ? n : 1) * sizeof *t);
	for (size_t i = 0; i < n; i++)
		t[i] = -1;
	return t;
}

/* the senders of rc get the turns of their sends to it, and one length of a turn */
static void pace_receiver(struct pairing *pg, struct run_pace *p, uint32_t rc)
{
	const struct run *r = pg->r;
	uint64_t total = 0;
	int32_t *turns = turns_of_receives(pg, rc, &total);
	size_t *next = xcalloc(r->nranks, sizeof *next);   /* per sender: its next send to look at */
	double wall = 0, cpu = 0;
	for (size_t k = 0; k < pg->w[rc].nwild && total; k++) {
		if (turns[k] < 0)
			continue;
		uint32_t s = (uint32_t)pg->w[rc].wild_src[k];
		struct walked *ws = &pg->w[s];
		while (ws->send_dest[next[s]] != rc)
			next[s]++;
		size_t i = next[s]++;
		if (!pg->send_turns[s])
			pg->send_turns[s] = unpaired(ws->nsends);
		pg->send_turns[s][i] = turns[k];
		pg->owner[s] = rc;
		double mw, mc;
		run_gap_mean(&r->groups[pg->group_of[s]], ws->send_sig[i], &mw, &mc);
		wall += mw, cpu += mc;
		p->paced[pg->group_of[s] * p->nsigs + ws->send_sig[i]] = true;
	}
	for (uint32_t s = 0; s < r->nranks && total; s++)
		if (pg->owner[s] == rc) {
			p->ranks[s].wall = wall / (double)total;
			p->ranks[s].cpu = cpu / (double)total;
			p->ranks[s].receiver = rc;
		}
	free(next);
	free(turns);
}

/* each rank's table: one entry per call of a paced signature of its group */
static void fill_tables(struct pairing *pg, struct run_pace *p)
{
	for (uint32_t s = 0; s < p->nranks; s++) {
		struct pace_rank *pr = &p->ranks[s];
		const struct walked *ws = &pg->w[s];
		if (!pg->send_turns[s])
			continue;
		pr->turns = xmalloc((ws->nsends ? ws->nsends : 1) * sizeof *pr->turns);
		for (size_t i = 0; i < ws->nsends; i++)
			if (run_pace_is_paced(p, pg->group_of[s], ws->send_sig[i]))
				pr->turns[pr->n++] = pg->send_turns[s][i];
		p->npaced++;
	}
}

static void walked_free(struct walked *w)
{
	free(w->send_sig);
	free(w->send_dest);
	free(w->wild_src);
	free(w->wild_round);
	free(w->wild_at);
	free(w->named);
}

static bool walk_bounded(const struct run *r, char *why, size_t whylen)
{
	uint64_t calls = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		const struct run_group *g = &r->groups[i];
		if (g->length == UINT64_MAX || (g->length && g->nranks > (PACE_MAX_CALLS - calls) / g->length)) {
			snprintf(why, whylen, "the ranks make more than %llu calls to walk for pairing wildcard "
				 "receives with their sends", (unsigned long long)PACE_MAX_CALLS);
			return false;
		}
		calls += g->length * g->nranks;
	}
	return true;
}

static void pace_init(struct run_pace *p, const struct run *r)
{
	memset(p, 0, sizeof *p);
	p->nranks = r->nranks, p->nsigs = r->nsigs;
	p->paced = xcalloc((size_t)r->ngroups * r->nsigs + 1, sizeof *p->paced);
}

bool run_pace_build(const struct run *r, struct run_pace *p, char *why, size_t whylen)
{
	pace_init(p, r);
	if (!any_wildcard(r))
		return true;
	if (!walk_bounded(r, why, whylen))
		return false;
	p->ranks = xcalloc(r->nranks ? r->nranks : 1, sizeof *p->ranks);   /* per rank only when pacing */
	struct pairing pg = {r, xcalloc(r->nranks, sizeof *pg.w), xcalloc(r->nranks, sizeof *pg.send_turns),
			     xmalloc(r->nranks * sizeof *pg.owner), run_group_index(r)};
	memset(pg.owner, 0xff, r->nranks * sizeof *pg.owner);
	bool ok = true;
	for (uint32_t k = 0; k < r->nranks && ok; k++)
		ok = walk_rank(r, k, &pg.w[k], why, whylen);
	for (uint32_t k = 0; k < r->nranks && ok; k++)
		if (pg.w[k].nwild)
			pace_receiver(&pg, p, k);
	if (ok)
		fill_tables(&pg, p);
	for (uint32_t k = 0; k < r->nranks; k++) {
		walked_free(&pg.w[k]);
		free(pg.send_turns[k]);
	}
	free(pg.w);
	free(pg.send_turns);
	free(pg.owner);
	free(pg.group_of);
	if (!ok) {   /* nothing paced */
		run_pace_free(p);
		pace_init(p, r);
	}
	return ok;
}

bool run_pace_is_paced(const struct run_pace *p, uint32_t group, uint32_t sig)
{
	return p->paced && sig < p->nsigs && p->paced[(size_t)group * p->nsigs + sig];
}

void run_pace_free(struct run_pace *p)
{
	for (uint32_t k = 0; p->ranks && k < p->nranks; k++)
		free(p->ranks[k].turns);
	free(p->ranks);
	free(p->paced);
	memset(p, 0, sizeof *p);
}
