/*
 * compare — semantic equality of two runs. See compare.h for what is compared.
 *
 * Each rank's calls are read from both runs in step (grammar/events.h, streaming: memory does not
 * grow with the number of calls) and turned into canonical calls: failed polls and polls that
 * change nothing dropped, request names replaced by the number of the request-creating call.
 * Successful polls go to a bag shared by both sides (A adds, B takes away; only what one side is
 * ahead by is held). The other calls are cut into units: a single call, a completion group or a
 * wildcard group; units are compared in turn and the first unit that differs on a rank is that
 * rank's difference; a bag not empty at the end is one too.
 */
#include "compare/compare.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "run/events.h"
#include "run/summary.h"
#include "util/buf.h"
#include "util/xalloc.h"

enum gkind { G_NONE, G_COMPLETION, G_WILDCARD };
/* how much of two calls must agree */
enum cmode { M_ALL, M_COMPLETION_KEY, M_WILDCARD_KEY, M_WILDCARD_CALL };

struct cev {                   /* one call, canonical */
	const struct fn_desc *d;
	int64_t *v, *raw;          /* canonical values; as recorded (for printing) */
	uint32_t n;
	uint64_t req_key, call;
	enum gkind g;
};

struct unit {
	struct cev *ev;
	size_t n, cap;
};

struct reqname {
	struct {
		int64_t pool, slot;
	} key;
	int64_t ord;
	UT_hash_handle hh;
};

struct polled {               /* successful polls not matched by the other run yet */
	char *key;
	int64_t count;           /* A's minus B's */
	uint64_t call;           /* the first unmatched one */
	char *line;
	UT_hash_handle hh;
};

struct side {
	const struct run *r;
	uint32_t rank;
	enum cmp_types types;
	struct polled **bag;     /* shared by both sides */
	int sign;                /* +1 for A, -1 for B */
	struct event_iter it;
	struct reqname *names;
	int64_t next_ord;
	uint64_t calls;            /* lines of `ladder decode --rank R` read so far */
	struct cev peek;
	bool have_peek;
};

/* ---- canonical calls ------------------------------------------------------------------------------ */

static void name_set(struct side *s, int64_t pool, int64_t slot, int64_t ord)
{
	struct reqname key, *e;
	memset(&key, 0, sizeof key);
	key.key.pool = pool;
	key.key.slot = slot;
	HASH_FIND(hh, s->names, &key.key, sizeof key.key, e);
	if (!e) {
		e = xcalloc(1, sizeof *e);
		e->key = key.key;
		HASH_ADD(hh, s->names, key, sizeof e->key, e);
	}
	e->ord = ord;
}

/* a request name -> (number of its creating call, 0); null and unknown names stay as they are */
static void name_canon(struct side *s, int64_t *v)
{
	if (sv_is_symbolic(v[0]) || sv_is_symbolic(v[1]))
		return;
	struct reqname key, *e;
	memset(&key, 0, sizeof key);
	key.key.pool = v[0];
	key.key.slot = v[1];
	HASH_FIND(hh, s->names, &key.key, sizeof key.key, e);
	v[0] = e ? e->ord : SV_UNKNOWN;
	v[1] = e ? 0 : SV_UNKNOWN;
}

static int64_t *dup_vals(const int64_t *v, uint32_t n)
{
	int64_t *d = xmalloc((n ? n : 1) * sizeof *d);
	if (n)
		memcpy(d, v, n * sizeof *d);
	return d;
}

static void canon(struct side *s, const struct event *ev, struct cev *c)
{
	c->d = ev->fn;
	c->n = ev->nvals;
	c->req_key = ev->req_key;
	c->raw = dup_vals(ev->vals, ev->nvals);
	c->v = dup_vals(ev->vals, ev->nvals);
	c->g = G_NONE;
	bool reqs = false, indices = false, any = false;
	PARAM_FOR (w, c->d, c->v, c->n) {
		enum param_kind k = w.kind;
		int64_t *v = c->v + w.at;
		if (k == PK_REQ_OUT && !sv_is_symbolic(v[0])) {
			name_set(s, (int64_t)ev->req_key, v[0], s->next_ord);
			v[0] = s->next_ord++;
		} else if (k == PK_REQ) {
			name_canon(s, v);
		} else if (k == PK_REQS && !sv_is_symbolic(v[0])) {
			reqs = true;
			for (int64_t j = 0; j < v[0]; j++)
				name_canon(s, v + 1 + 2 * j);
		} else if (k == PK_DTYPE && s->types == CMP_TYPES_BY_MEANING) {
			v[0] = dtype_meaning_id(v[0]);
		} else if (k == PK_DTYPES && s->types == CMP_TYPES_BY_MEANING && !sv_is_symbolic(v[0])) {
			for (int64_t j = 0; j < v[0]; j++)
				v[1 + 2 * j] = dtype_meaning_id(v[1 + 2 * j]);
		}
		indices |= k == PK_INDEX_OUT || k == PK_INDICES_OUT;
		any |= k == PK_SRC && v[0] == SV_ANY_SOURCE;
	}
	bool poll = c->d->flags & FNF_POLL;
	c->g = reqs && indices && !poll ? G_COMPLETION : any && !poll ? G_WILDCARD : G_NONE;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void cev_free(struct cev *c)
{
	free(c->v);
	free(c->raw);
	c->v = c->raw = NULL;
}

static char *line_of(const struct side *s, const struct cev *c);

/* a poll that changes nothing, found or not (MPI_Iprobe, MPI_Request_get_status) */
static bool observes(const struct fn_desc *d)
{
	if (!(d->flags & FNF_POLL) || (d->flags & FNF_COMPLETE))
		return false;
	for (uint32_t p = 0; p < d->nparams; p++)
		if (d->params[p].kind == PK_MSG_OUT)
			return false;
	return true;
}

/* the requests a completion call completed: at the index, at the indices, or all (*n of them) */
static int64_t *completed(const struct cev *c, size_t *n)
{
	const int64_t *req = group_of_kind(c->d, c->v, c->n, PK_REQ), *reqs = group_of_kind(c->d, c->v, c->n, PK_REQS);
	const int64_t *idx = group_of_kind(c->d, c->v, c->n, PK_INDEX_OUT);
	const int64_t *many = group_of_kind(c->d, c->v, c->n, PK_INDICES_OUT);
	int64_t len = reqs && !sv_is_symbolic(reqs[0]) ? reqs[0] : 0;
	int64_t *out = xcalloc((size_t)len + 2, sizeof *out);
	*n = 0;
	if (req && !sv_is_symbolic(req[0]))
		out[(*n)++] = req[0];
	for (int64_t j = 0; j < len; j++) {
		bool hit = !idx && !many;    /* Testall: every request */
		if (idx)
			hit = idx[0] == j;
		for (int64_t q = 0; many && !sv_is_symbolic(many[0]) && q < many[0]; q++)
			hit |= many[1 + q] == j;
		if (hit && !sv_is_symbolic(reqs[1 + 2 * j]))
			out[(*n)++] = reqs[1 + 2 * j];
	}
	return out;
}

static void bag_add(struct side *s, const struct cev *c, char *key)
{
	struct polled *e;
	HASH_FIND_STR(*s->bag, key, e);
	if (!e) {
		e = xcalloc(1, sizeof *e);
		e->key = key;
		HASH_ADD_KEYPTR(hh, *s->bag, e->key, strlen(e->key), e);
	} else {
		free(key);
	}
	if (!e->count) {   /* unmatched from now on: remember the first */
		free(e->line);
		e->line = line_of(s, c);
		e->call = c->call;
	}
	e->count += s->sign;
	if (!e->count) {
		HASH_DEL(*s->bag, e);
		free(e->key);
		free(e->line);
		free(e);
	}
}

/* A successful poll counts what it completed, each request by its creating call; one that
 * completed nothing (a probe, a test of null requests) counts as itself. */
static void bag_poll(struct side *s, const struct cev *c)
{
	size_t n;
	int64_t *done = completed(c, &n);
	for (size_t j = 0; j < n; j++)
		bag_add(s, c, xasprintf("request %" PRId64, done[j]));
	free(done);
	if (n)
		return;
	struct buf b;
	buf_init(&b);
	buf_put(&b, c->d->name, strlen(c->d->name));
	for (uint32_t j = 0; j < c->n; j++) {
		char t[24];
		int len = snprintf(t, sizeof t, " %" PRId64, c->v[j]);
		buf_put(&b, t, (size_t)len);
	}
	buf_put_u8(&b, 0);
	bag_add(s, c, (char *)b.data);
}

/* the next call that is neither a failed poll nor a successful one (those go to the bag) */
static bool read_cev(struct side *s, struct cev *c)
{
	if (s->have_peek) {
		*c = s->peek;
		s->have_peek = false;
		return true;
	}
	struct event ev;
	while (event_next(&s->it, &ev)) {
		s->calls += ev.repeat;
		if ((ev.s->flags & SIGF_FAILED_POLL) || observes(ev.fn))
			continue;
		canon(s, &ev, c);
		c->call = s->calls;
		if (!(c->d->flags & FNF_POLL))
			return true;
		bag_poll(s, c);
		cev_free(c);
	}
	return false;
}

static const struct cev *peek_cev(struct side *s)
{
	if (!s->have_peek)
		s->have_peek = read_cev(s, &s->peek);
	return s->have_peek ? &s->peek : NULL;
}

/* the first parameter in which two calls differ (-1: none; nparams: the calls' shapes differ) */
static int first_diff(const struct cev *a, const struct cev *b, enum cmode m)
{
	if (strcmp(a->d->name, b->d->name) || a->d->nparams != b->d->nparams)
		return 0;
	/* both calls' values in lockstep, as groups of a's parameters */
	struct param_walk x = param_walk(a->d, a->v, a->n), y = param_walk(a->d, b->v, b->n);
	while (param_walk_next(&x)) {
		if (!param_walk_next(&y))
			return (int)x.p;
		enum param_kind k = x.kind;
		uint32_t wa = x.width, wb = y.width;
		bool skip = (m == M_COMPLETION_KEY && (k == PK_REQS || k == PK_INDEX_OUT || k == PK_INDICES_OUT)) ||
			    (m == M_WILDCARD_KEY && k == PK_REQ_OUT);
		if (k == PK_SRC && (m == M_WILDCARD_KEY || m == M_WILDCARD_CALL))
			wa = wb = 1;   /* the source, not the actual source */
		if (!skip && (wa != wb || memcmp(x.v, y.v, wa * sizeof *a->v)))
			return (int)x.p;
	}
	if (x.bad)
		return (int)x.p;
	param_walk_next(&y);   /* past its last group: a's parameters are all walked */
	return x.at == a->n && y.at == b->n ? -1 : (int)a->d->nparams;
}

static enum cmode key_mode(enum gkind g)
{
	return g == G_COMPLETION ? M_COMPLETION_KEY : g == G_WILDCARD ? M_WILDCARD_KEY : M_ALL;
}

static void unit_clear(struct unit *u)
{
	for (size_t i = 0; i < u->n; i++)
		cev_free(&u->ev[i]);
	u->n = 0;
}

/* a single call, or a whole completion or wildcard group */
static bool next_unit(struct side *s, struct unit *u)
{
	unit_clear(u);
	XGROW(u->ev, u->cap, 1);
	if (!read_cev(s, &u->ev[0]))
		return false;
	u->n = 1;
	const struct cev *nx;
	while (u->ev[0].g != G_NONE && (nx = peek_cev(s)) && nx->g == u->ev[0].g &&
	       first_diff(&u->ev[0], nx, key_mode(nx->g)) < 0) {
		XGROW(u->ev, u->cap, u->n + 1);
		read_cev(s, &u->ev[u->n++]);
	}
	return true;
}

/* ---- what a group did ------------------------------------------------------------------------------- */

/* the values of parameter kind k of a call (NULL: none) */
static const int64_t *param_vals(const struct cev *c, enum param_kind want)
{
	return group_of_kind(c->d, c->v, c->n, want);
}

/* completion group: the completed requests; wildcard group: the actual sources (world ranks) */
static int64_t *group_multiset(const struct unit *u, uint32_t rank, size_t *n)
{
	size_t cap = 0;
	int64_t *out = NULL;
	*n = 0;
	for (size_t e = 0; e < u->n; e++) {
		const struct cev *c = &u->ev[e];
		if (c->g == G_WILDCARD) {
			const int64_t *src = param_vals(c, PK_SRC);
			XGROW(out, cap, *n + 1);
			out[(*n)++] = src && !sv_is_symbolic(src[1]) ? src[1] + rank : src ? src[1] : SV_UNKNOWN;
			continue;
		}
		const int64_t *reqs = param_vals(c, PK_REQS), *idx = param_vals(c, PK_INDEX_OUT);
		const int64_t *list = idx, *many = param_vals(c, PK_INDICES_OUT);
		int64_t count = idx ? 1 : 0;
		if (many) {
			list = many + 1;
			count = sv_is_symbolic(many[0]) ? 0 : many[0];
		}
		for (int64_t j = 0; reqs && list && j < count; j++) {
			int64_t at = list[j];
			if (sv_is_symbolic(at) || at < 0 || at >= reqs[0])
				continue;
			XGROW(out, cap, *n + 1);
			out[(*n)++] = reqs[1 + 2 * at];
		}
	}
	if (*n)
		qsort(out, *n, sizeof *out, cmp_i64);
	return out;
}

static char *multiset_text(const int64_t *v, size_t n, bool requests)
{
	struct buf b;
	buf_init(&b);
	buf_put(&b, "{", 1);
	for (size_t i = 0; i < n && i < 16; i++) {
		char t[48];
		int len = sv_is_symbolic(v[i]) ? snprintf(t, sizeof t, "%s?", i ? "," : "")
			  : snprintf(t, sizeof t, "%s%s%" PRId64, i ? "," : "", requests ? "#" : "", requests ? v[i] + 1 : v[i]);
		buf_put(&b, t, (size_t)len);
	}
	if (n > 16)
		buf_put(&b, ",...", 4);
	buf_put(&b, "}", 2);
	return (char *)b.data;
}

/* ---- differences ------------------------------------------------------------------------------------ */

static char *line_of(const struct side *s, const struct cev *c)
{
	if (!c)
		return NULL;
	struct buf b;
	buf_init(&b);
	struct event_view v = {c->d, c->raw, c->n, s->rank, (const char *const *)s->r->strings,
			       s->r->nstrings, c->req_key};
	event_format(&v, &b);
	buf_put_u8(&b, 0);
	return (char *)b.data;
}

static void add_diff(struct cmp_result *res, const struct side *sa, const struct side *sb,
		     const struct cev *a, const struct cev *b, char *why)
{
	res->equal = false;
	res->ndiffs++;
	if (res->kept >= res->max_diffs) {
		free(why);
		return;
	}
	struct cmp_diff *d = &res->diffs[res->kept++];
	d->rank = sa->rank;
	d->a_call = a ? a->call : 0;
	d->b_call = b ? b->call : 0;
	d->a_line = line_of(sa, a);
	d->b_line = line_of(sb, b);
	d->why = why;
}

static void add_diff_raw(struct cmp_result *res, struct cmp_diff *d)
{
	res->equal = false;
	res->ndiffs++;
	if (res->kept < res->max_diffs) {
		res->diffs[res->kept++] = *d;
		return;
	}
	free(d->a_line);
	free(d->b_line);
	free(d->why);
}

static char *param_why(const struct cev *a, const struct cev *b, int p)
{
	if (strcmp(a->d->name, b->d->name))
		return xstrdup("different functions");
	if (p >= (int)a->d->nparams)
		return xstrdup("different parameters");
	enum param_kind k = a->d->params[p].kind;
	if (k == PK_REQ || k == PK_REQS)
		return xasprintf("%s: not the same requests (requests are compared by the call that created "
				 "them)", a->d->params[p].name);
	return xasprintf("parameter %s differs", a->d->params[p].name);
}

/* compare one unit of each side; false (with a difference added) when they differ */
static bool same_units(struct cmp_result *res, const struct side *sa, const struct side *sb,
		       const struct unit *ua, const struct unit *ub)
{
	const struct cev *a = &ua->ev[0], *b = &ub->ev[0];
	int p = a->g == b->g ? first_diff(a, b, key_mode(a->g)) : 0;
	if (p >= 0) {
		add_diff(res, sa, sb, a, b, param_why(a, b, p));
		return false;
	}
	if (a->g == G_NONE)
		return true;
	if (a->g == G_WILDCARD) {
		if (ua->n != ub->n) {
			add_diff(res, sa, sb, a, b,
				 xasprintf("a group of %zu wildcard calls in A, of %zu in B", ua->n, ub->n));
			return false;
		}
		for (size_t i = 0; i < ua->n; i++)
			if ((p = first_diff(&ua->ev[i], &ub->ev[i], M_WILDCARD_CALL)) >= 0) {
				add_diff(res, sa, sb, &ua->ev[i], &ub->ev[i], param_why(&ua->ev[i], &ub->ev[i], p));
				return false;
			}
	}
	size_t na, nb;
	int64_t *ma = group_multiset(ua, sa->rank, &na), *mb = group_multiset(ub, sb->rank, &nb);
	bool same = na == nb && (!na || !memcmp(ma, mb, na * sizeof *ma));
	if (!same) {
		bool reqs = a->g == G_COMPLETION;
		char *ta = multiset_text(ma, na, reqs), *tb = multiset_text(mb, nb, reqs);
		add_diff(res, sa, sb, a, b,
			 xasprintf("%s differ within the group of %zu and %zu calls: A %s, B %s",
				   reqs ? "completed requests (numbered by creating call)" : "actual sources",
				   ua->n, ub->n, ta, tb));
		free(ta);
		free(tb);
	}
	free(ma);
	free(mb);
	return same;
}

static void side_init(struct side *s, const struct run *r, uint32_t rank, enum cmp_types types, struct polled **bag,
		      int sign)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	s->rank = rank;
	s->types = types;
	s->bag = bag;
	s->sign = sign;
	event_iter_init(&s->it, r, rank);
}

static void side_free(struct side *s)
{
	struct reqname *e, *tmp;
	HASH_ITER(hh, s->names, e, tmp) {
		HASH_DEL(s->names, e);
		free(e);
	}
	if (s->have_peek)
		cev_free(&s->peek);
	event_iter_free(&s->it);
}

static void compare_rank(const struct run *a, const struct run *b, uint32_t rank, enum cmp_types types,
			 struct cmp_result *res)
{
	struct side sa, sb;
	struct polled *bag = NULL, *e, *tmp;
	side_init(&sa, a, rank, types, &bag, 1);
	side_init(&sb, b, rank, types, &bag, -1);
	struct unit ua = {0}, ub = {0};
	bool same = true;
	for (;;) {
		bool ha = next_unit(&sa, &ua), hb = next_unit(&sb, &ub);
		res->a_calls += ua.n;
		res->b_calls += ub.n;
		if (!ha && !hb)
			break;
		if (!ha || !hb) {
			add_diff(res, &sa, &sb, ha ? &ua.ev[0] : NULL, hb ? &ub.ev[0] : NULL,
				 xasprintf("%s has no more calls", ha ? "B" : "A"));
			same = false;
			break;
		}
		if (!(same = same_units(res, &sa, &sb, &ua, &ub)))
			break;
	}
	if (same && bag) {   /* a successful poll one run made and the other did not */
		struct cmp_diff d = {rank, bag->count > 0 ? bag->call : 0, bag->count < 0 ? bag->call : 0,
				     bag->count > 0 ? xstrdup(bag->line) : NULL,
				     bag->count < 0 ? xstrdup(bag->line) : NULL,
				     xasprintf("successful polls differ: %s has %lld more like this, %u kind%s in all",
					       bag->count > 0 ? "A" : "B", (long long)(bag->count > 0 ? bag->count : -bag->count),
					       HASH_COUNT(bag), HASH_COUNT(bag) == 1 ? "" : "s")};
		add_diff_raw(res, &d);
	}
	HASH_ITER(hh, bag, e, tmp) {
		HASH_DEL(bag, e);
		free(e->key);
		free(e->line);
		free(e);
	}
	const char *err = sa.it.error[0] ? sa.it.error : sb.it.error[0] ? sb.it.error : NULL;
	if (err) {
		res->equal = false;
		if (!res->header)
			res->header = xasprintf("%s: %s", sa.it.error[0] ? "A" : "B", err);
		if (!res->unwalkable) {
			res->unwalkable = sa.it.error[0] ? 1 : 2;
			res->walk_error = xstrdup(err);
		}
	}
	unit_clear(&ua);
	unit_clear(&ub);
	free(ua.ev);
	free(ub.ev);
	side_free(&sa);
	side_free(&sb);
}

static void result_init(struct cmp_result *res, uint32_t max_diffs)
{
	memset(res, 0, sizeof *res);
	res->equal = true;
	res->max_diffs = max_diffs;
	res->diffs = xcalloc(max_diffs ? max_diffs : 1, sizeof *res->diffs);
}

bool compare_runs(const struct run *a, const struct run *b, uint32_t max_diffs, enum cmp_types types,
		  struct cmp_result *res)
{
	result_init(res, max_diffs);
	if (a->nranks != b->nranks) {
		res->equal = false;
		res->header = xasprintf("A has %u ranks, B has %u", a->nranks, b->nranks);
		return false;
	}
	for (uint32_t q = 0; q < a->nranks; q++)
		compare_rank(a, b, q, types, res);
	return res->equal;
}

/* ---- counts ----------------------------------------------------------------------------------------- */

static bool counted_only(const char *name) { return fn_lookup(name) < 0; }

static bool polls(const char *name)
{
	int id = fn_lookup(name);
	return id >= 0 && (ladder_functions[id].flags & FNF_POLL);
}

static void count_diff(struct cmp_result *res, uint32_t rank, const char *name, const struct fn_count *x,
		       const struct fn_count *y)
{
	static const struct fn_count none = {NULL, 0, 0, 0};
	x = x ? x : &none;
	y = y ? y : &none;
	bool poll = polls(name);
	if ((poll || x->calls == y->calls) && x->bytes_sent == y->bytes_sent && x->bytes_recv == y->bytes_recv)
		return;
	res->equal = false;
	res->ndiffs++;
	if (res->kept >= res->max_diffs)
		return;
	struct cmp_diff *d = &res->diffs[res->kept++];
	d->rank = rank;
	d->a_line = xasprintf("%s calls=%.0f bytes_sent=%.0f bytes_recv=%.0f", name, x->calls, x->bytes_sent,
			      x->bytes_recv);
	d->b_line = xasprintf("%s calls=%.0f bytes_sent=%.0f bytes_recv=%.0f", name, y->calls, y->bytes_sent,
			      y->bytes_recv);
	d->why = xasprintf("%s: %s", name, poll ? "volumes differ" : "calls or volumes differ");
}

bool compare_counts(const struct run *a, const struct run *b, uint32_t max_diffs, struct cmp_result *res)
{
	result_init(res, max_diffs);
	if (a->nranks != b->nranks || !a->nnodes || !b->nnodes) {
		res->equal = false;
		res->header = a->nranks != b->nranks ? xasprintf("A has %u ranks, B has %u", a->nranks, b->nranks)
			      : xasprintf("%s has no profile to count from", a->nnodes ? "B" : "A");
		return false;
	}
	struct buf skipped;
	buf_init(&skipped);
	for (uint32_t q = 0; q < a->nranks; q++) {
		struct fn_count *ca, *cb;
		uint32_t na = run_function_counts(a, q, &ca), nb = run_function_counts(b, q, &cb), i = 0, j = 0;
		while (i < na || j < nb) {   /* both sorted by name */
			int c = i == na ? 1 : j == nb ? -1 : strcmp(ca[i].name, cb[j].name);
			const char *name = c <= 0 ? ca[i].name : cb[j].name;
			if (counted_only(name)) {
				if (!memmem(skipped.data ? (char *)skipped.data : "", skipped.len, name, strlen(name))) {
					buf_put(&skipped, skipped.len ? ", " : "", skipped.len ? 2 : 0);
					buf_put(&skipped, name, strlen(name));
				}
			} else {
				count_diff(res, q, name, c <= 0 ? &ca[i] : NULL, c >= 0 ? &cb[j] : NULL);
				res->a_calls += (uint64_t)(c <= 0 ? ca[i].calls : 0);
				res->b_calls += (uint64_t)(c >= 0 ? cb[j].calls : 0);
			}
			i += c <= 0;
			j += c >= 0;
		}
		free(ca);
		free(cb);
	}
	if (skipped.len) {
		buf_put_u8(&skipped, 0);
		res->note = xasprintf("not compared (counted, not recorded by the tracer): %s", (char *)skipped.data);
	}
	buf_free(&skipped);
	return res->equal;
}

/* ---- output ----------------------------------------------------------------------------------------- */

static void print_side(FILE *out, const char *tag, uint64_t call, const char *line)
{
	if (call)
		fprintf(out, "  %s call %-7" PRIu64 " %s\n", tag, call, line ? line : "");
	else
		fprintf(out, "  %s %s\n", tag, line ? line : "(no such call)");
}

void cmp_result_print(const struct cmp_result *res, const char *a_name, const char *b_name, FILE *out)
{
	fprintf(out, "A: %s\nB: %s\n", a_name, b_name);
	if (res->header)
		fprintf(out, "differ: %s\n", res->header);
	for (uint32_t i = 0; i < res->kept; i++) {
		const struct cmp_diff *d = &res->diffs[i];
		fprintf(out, "rank %u: %s\n", d->rank, d->why);
		print_side(out, "A", d->a_call, d->a_line);
		print_side(out, "B", d->b_call, d->b_line);
	}
	if (res->ndiffs > res->kept)
		fprintf(out, "... and %u more\n", res->ndiffs - res->kept);
	if (res->note)
		fprintf(out, "note: %s\n", res->note);
	if (res->equal)
		fprintf(out, "equal: %" PRIu64 " calls compared on each side\n", res->a_calls);
	else if (res->ndiffs)
		fprintf(out, "differ: %u difference%s\n", res->ndiffs, res->ndiffs == 1 ? "" : "s");
}

void cmp_result_free(struct cmp_result *res)
{
	for (uint32_t i = 0; i < res->kept; i++) {
		free(res->diffs[i].a_line);
		free(res->diffs[i].b_line);
		free(res->diffs[i].why);
	}
	free(res->diffs);
	free(res->header);
	free(res->walk_error);
	free(res->note);
	memset(res, 0, sizeof *res);
}
