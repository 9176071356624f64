/*
 * format — one event as a line of text, the same in the tracer's raw log and in `ladder decode`
 * (see event_format in mpi/signature.h), and the tokens of its values for writers of other forms.
 */
#include "mpi/signature.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/hash.h"

/* ---- formatting ------------------------------------------------------------------------------ */

static const char *symbolic_name(int64_t v)
{
	switch (v) {
	case SV_PROC_NULL: return "PROC_NULL";
	case SV_ANY_SOURCE: return "ANY_SOURCE";
	case SV_ANY_TAG: return "ANY_TAG";
	case SV_STREAMED: return "STREAMED";
	case SV_SHARED: return "SHARED";
	case SV_UNDEFINED: return "UNDEFINED";
	case SV_ROOT: return "ROOT";
	case SV_UNKNOWN: return "UNKNOWN";
	case SV_NULL: return "NULL";
	case SV_UNWEIGHTED: return "UNWEIGHTED";
	case SV_WEIGHTS_EMPTY: return "WEIGHTS_EMPTY";
	case SV_IGNORE: return "IGNORE";
	default: return "SYMBOLIC";
	}
}

const char *sv_text(int64_t v, char *buf, size_t len)
{
	if (sv_is_symbolic(v))
		return symbolic_name(v);
	snprintf(buf, len, "%" PRId64, v);
	return buf;
}

static void put_s(struct buf *b, const char *s) { buf_put(b, s, strlen(s)); }

/* v in decimal as "%" PRId64 prints it (numbers are most of a line: no printf per value) */
static void put_decimal(struct buf *b, int64_t v)
{
	char tmp[24];
	char *end = tmp + sizeof tmp, *p = end;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	buf_put(b, p, (size_t)(end - p));
}

static void put_int(struct buf *b, int64_t v)
{
	if (sv_is_symbolic(v))
		put_s(b, symbolic_name(v));
	else
		put_decimal(b, v);
}

static void put_rank(struct buf *b, int64_t rel, uint32_t me)
{
	if (sv_is_symbolic(rel))
		put_s(b, symbolic_name(rel));
	else
		put_decimal(b, rel + (int64_t)me);
}

static void put_handle(struct buf *b, const char *what, int64_t id)
{
	if (sv_is_symbolic(id)) {
		put_s(b, symbolic_name(id));
	} else {
		put_s(b, what);
		put_s(b, "#");
		put_decimal(b, id);
	}
}

static void put_comm(struct buf *b, int64_t id)
{
	if (id == COMM_ID_WORLD)
		put_s(b, "WORLD");
	else if (id == COMM_ID_SELF)
		put_s(b, "SELF");
	else
		put_handle(b, "comm", id);
}

static void put_dtype(struct buf *b, int64_t id, int64_t size)
{
	if (id > 0 && id < DTYPE_ID_FIRST_USER && ladder_dtype_names[id])
		put_s(b, ladder_dtype_names[id]);
	else
		put_handle(b, "type", id);
	put_s(b, ":");
	put_decimal(b, size);
}

static void put_op(struct buf *b, int64_t id)
{
	if (id > 0 && id < OP_ID_FIRST_USER && ladder_op_names[id])
		put_s(b, ladder_op_names[id]);
	else
		put_handle(b, "op", id);
}

/* a request as POOL.SLOT: "%08" PRIx32 ".%" PRId64 */
static void put_pool_slot(struct buf *b, uint32_t pool, int64_t slot)
{
	static const char hex[] = "0123456789abcdef";
	char text[9];
	for (int i = 7; i >= 0; i--, pool >>= 4)
		text[i] = hex[pool & 15];
	text[8] = '.';
	buf_put(b, text, sizeof text);
	put_decimal(b, slot);
}

static void put_req(struct buf *b, int64_t creator, int64_t slot)
{
	if (sv_is_symbolic(slot) || sv_is_symbolic(creator))
		put_s(b, symbolic_name(sv_is_symbolic(slot) ? slot : creator));
	else
		put_pool_slot(b, (uint32_t)((uint64_t)creator >> 32), slot);
}

/* ---- one parameter's value as tokens ----------------------------------------------------------- */

bool event_token_is_name(enum param_kind k, int64_t first)
{
	switch (k) {
	case PK_BUF: case PK_COMM: case PK_NEWCOMM: case PK_DTYPE: case PK_NEWTYPE: case PK_OP:
	case PK_NEWOP: case PK_GROUP: case PK_NEWGROUP: case PK_MSG: case PK_MSG_OUT: case PK_INFO:
	case PK_REQ: case PK_REQ_OUT:
		return true;
	default:
		return sv_is_symbolic(first);
	}
}

void event_token(const struct event_view *ev, enum param_kind k, const int64_t *v, struct buf *b)
{
	static const char *const buffers[] = {"user", "IN_PLACE", "BOTTOM", "NULL"};
	switch (k) {
	case PK_BUF: put_s(b, v[0] >= 0 && v[0] <= 3 ? buffers[v[0]] : "?"); return;
	case PK_PEER: case PK_PEER_OUT: case PK_SELF_OUT: case PK_SRC: put_rank(b, v[0], ev->rank); return;
	case PK_COMM: case PK_NEWCOMM: put_comm(b, v[0]); return;
	case PK_DTYPE: put_dtype(b, v[0], v[1]); return;
	case PK_NEWTYPE: put_handle(b, "type", v[0]); return;
	case PK_OP: case PK_NEWOP: put_op(b, v[0]); return;
	case PK_GROUP: case PK_NEWGROUP: put_handle(b, "group", v[0]); return;
	case PK_MSG: case PK_MSG_OUT: put_handle(b, "msg", v[0]); return;
	case PK_INFO: put_s(b, v[0] ? "set" : "null"); return;
	case PK_REQ: put_req(b, v[0], v[1]); return;
	case PK_REQ_OUT: put_req(b, (int64_t)ev->req_key, v[0]); return;
	default: put_int(b, v[0]); return;
	}
}


/* a receive from MPI_ANY_SOURCE with the source it matched (v[1], relative; symbolic: unknown) */
static void put_any_source(struct buf *b, const int64_t *v, uint32_t me)
{
	char actual[32];
	if (sv_is_symbolic(v[1]))
		snprintf(actual, sizeof actual, "?");
	else
		snprintf(actual, sizeof actual, "%" PRId64, v[1] + (int64_t)me);
	buf_printf(b, "ANY_SOURCE@%-*s", ACTUAL_SOURCE_WIDTH, actual);
}

const char *event_string(const struct event_view *ev, int64_t id)
{
	for (uint32_t i = 0; i < ev->nstrings && ev->strings; i++)
		if ((int64_t)(hash_bytes(ev->strings[i], strlen(ev->strings[i]), 0) & INT64_MAX) == id)
			return ev->strings[i];
	return NULL;
}

/* a string by its text when the event's string table has it, else by its id */
static void put_string(struct buf *b, const struct event_view *ev, int64_t id)
{
	const char *s = event_string(ev, id);
	if (s)
		buf_printf(b, "\"%s\"", s);
	else
		buf_printf(b, "string#%" PRId64, id);
}

enum param_kind param_kind_element(enum param_kind k)
{
	switch (k) {
	case PK_DTYPES: return PK_DTYPE;
	case PK_REQS: return PK_REQ;
	case PK_PEERS: return PK_PEER;
	default: return PK_INT;
	}
}

/* an array: [e0,e1,...] (v[0] elements), or its symbolic value; coordinates signed */
static void put_array(struct buf *b, const struct event_view *ev, enum param_kind k, const int64_t *v)
{
	if (sv_is_symbolic(v[0])) {
		event_token(ev, PK_INT, v, b);
		return;
	}
	put_s(b, "[");
	for (int64_t i = 0; i < v[0]; i++) {
		if (i)
			put_s(b, ",");
		const int64_t *e = v + 1 + i * param_kind_width(k);
		if (k == PK_COORDS)
			buf_printf(b, "%+" PRId64, e[0]);
		else
			event_token(ev, param_kind_element(k), e, b);
	}
	put_s(b, "]");
}

/* One parameter's value (w values at v) as text. */
static void put_value(struct buf *b, const struct event_view *ev, enum param_kind k,
		      const int64_t *v, uint32_t w)
{
	if (w == 1 && v[0] == SV_STREAMED)     /* should not happen after substitution */
		put_s(b, "STREAMED");
	else if (k == PK_SRC && v[0] == SV_ANY_SOURCE)
		put_any_source(b, v, ev->rank);
	else if (k == PK_STRING)
		put_string(b, ev, v[0]);
	else if (param_kind_is_array(k))
		put_array(b, ev, k, v);
	else
		event_token(ev, k, v, b);
}

void event_format(const struct event_view *ev, struct buf *out)
{
	const struct fn_desc *fn = ev->fn;
	put_s(out, fn->name);
	struct param_walk w = param_walk(fn, ev->vals, ev->nvals);
	while (param_walk_next(&w)) {
		put_s(out, " ");
		put_s(out, w.name);
		put_s(out, "=");
		put_value(out, ev, w.kind, w.v, w.width);
	}
	if (w.bad || w.at != ev->nvals)
		put_s(out, " <malformed>");
}
