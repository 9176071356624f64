/*
 * call — one recorded call becomes one MPI call statement. Each parameter's recorded values turn
 * into a C expression by its kind (signature.h); values that change from call to call are read
 * from the signature's stream into locals first, in parameter order, which is the order the stream
 * holds them. Buffers are sized last, from the count, datatype and communicator expressions the
 * function's shape (shapes.h, generated from the function table) names.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proxy/proxy.h"
#include "proxy/shapes.h"
#include "run/fn_check.h"
#include "run/share.h"
#include "util/escape.h"
#include "util/hash.h"

#define EXPR 400

struct px_call {
	struct proxy_gen *g;
	uint32_t sig;
	const struct fn_desc *d;
	const struct proxy_shape *shape;
	struct buf pre, late, post;   /* statements before the call (late: after all of pre), after it */
	char arg[PROXY_MAXP][EXPR];
	char len[PROXY_MAXP][EXPR];   /* arrays: their length */
	int64_t comm_id;              /* the call's communicator, -1 none */
	int pool;                     /* the pool of the requests it creates, -1 none */
	bool keeps;                   /* completes one of an array it keeps between calls */
	bool some;                    /* Waitsome/Testsome: one call once the wanted requests are done */
	char awaited[EXPR];           /* their array and length */
	int site;                     /* the call site's index (kept arrays) */
	char comm[EXPR];
	bool any_source, poll, failed;
	int indent;
};

static void line(struct px_call *c, struct buf *b, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(struct px_call *c, struct buf *b, const char *fmt, ...)
{
	for (int i = 0; i < c->indent; i++)
		buf_put_u8(b, '\t');
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);   /* never cut: a comment keeps its end */
	va_end(ap);
	buf_put_u8(b, '\n');
}

static bool fail(struct px_call *c, const char *why)
{
	if (!c->failed)
		px_refuse(c->g, c->sig, "%s", why);
	c->failed = true;
	return false;
}

/* ---- constants ---- */

static const char *symbolic_name(int64_t v)
{
	switch (v) {
	case SV_PROC_NULL: return "MPI_PROC_NULL";
	case SV_ANY_SOURCE: return "MPI_ANY_SOURCE";
	case SV_ANY_TAG: return "MPI_ANY_TAG";
	case SV_UNDEFINED: return "MPI_UNDEFINED";
	case SV_ROOT: return "MPI_ROOT";
	default: return "0";
	}
}

static void int_text(int64_t v, char *out)
{
	if (sv_is_symbolic(v))
		snprintf(out, EXPR, "%s", symbolic_name(v));
	else
		snprintf(out, EXPR, "%" PRId64, v);
}

static void peer_text(struct px_call *c, int64_t rel, char *out)
{
	if (sv_is_symbolic(rel))
		int_text(rel, out);
	else if (c->comm_id == COMM_ID_WORLD)
		snprintf(out, EXPR, rel ? "world_rank %c %" PRId64 : "world_rank", rel < 0 ? '-' : '+',
			 rel < 0 ? -rel : rel);
	else
		snprintf(out, EXPR, "peer(%" PRId64 ", %" PRId64 ")", c->comm_id, rel);
}

static void handle_text(enum param_kind k, const int64_t *v, char *out, size_t outlen)
{
	int64_t id = v[0];
	switch (k) {
	case PK_COMM: case PK_NEWCOMM:
		if (id == SV_NULL) snprintf(out, outlen, "MPI_COMM_NULL");
		else if (id == COMM_ID_WORLD) snprintf(out, outlen, "MPI_COMM_WORLD");
		else if (id == COMM_ID_SELF) snprintf(out, outlen, "MPI_COMM_SELF");
		else snprintf(out, outlen, "comms[%" PRId64 "]", id);
		break;
	case PK_DTYPE: case PK_DTYPES: case PK_NEWTYPE:
		if (sv_is_symbolic(id) || id <= 0) snprintf(out, outlen, "MPI_DATATYPE_NULL");
		else if (id < DTYPE_ID_FIRST_USER && ladder_dtype_names[id]) snprintf(out, outlen, "%s", ladder_dtype_names[id]);
		else snprintf(out, outlen, "types[%" PRId64 "]", id);
		break;
	case PK_OP: case PK_NEWOP:
		if (sv_is_symbolic(id) || id <= 0) snprintf(out, outlen, "MPI_OP_NULL");
		else if (id < OP_ID_FIRST_USER && ladder_op_names[id]) snprintf(out, outlen, "%s", ladder_op_names[id]);
		else snprintf(out, outlen, "ops[%" PRId64 "]", id);
		break;
	case PK_GROUP: case PK_NEWGROUP:
		if (sv_is_symbolic(id)) snprintf(out, outlen, "MPI_GROUP_NULL");
		else snprintf(out, outlen, "groups[%" PRId64 "]", id);
		break;
	default:   /* messages */
		if (sv_is_symbolic(id)) snprintf(out, outlen, "MPI_MESSAGE_NULL");
		else snprintf(out, outlen, "messages[%" PRId64 "]", id);
		break;
	}
}

/* ---- parameters read from the stream ---- */

/* where the request a call creates lives: its home, when an array takes it later (homes.c) */
static void created_request(struct px_call *c, const char *slot, char *arg)
{
	int64_t home = c->g->home ? c->g->home[c->sig] : -1;
	if (home >= 0)
		snprintf(arg, EXPR, "new_request_at(%d, %s, %" PRId64 ")", c->pool, slot, home);
	else
		snprintf(arg, EXPR, "new_request(%d, %s)", c->pool, slot);
}

static void streamed_scalar(struct px_call *c, uint32_t p, enum param_kind k)
{
	char name[64];   /* not a name proxy.h uses (count, peer, root ...) */
	snprintf(name, sizeof name, "%s_value", c->d->params[p].name);
	char *arg = c->arg[p];
	line(c, &c->pre, "long long %s = next_value(&values_%u);", name, c->sig);
	if (param_kind_width(k) == 2)
		line(c, &c->pre, "long long %s_2 = next_value(&values_%u);", name, c->sig);
	switch (k) {
	case PK_COUNT: snprintf(arg, EXPR, "count(%s)", name); break;
	case PK_AINT: snprintf(arg, EXPR, "(MPI_Aint)%s", name); break;
	case PK_PEER: snprintf(arg, EXPR, "peer(%" PRId64 ", %s)", c->comm_id, name); break;
	case PK_ROOT: snprintf(arg, EXPR, "root(%" PRId64 ", %s)", c->comm_id, name); break;
	case PK_SRC:
		line(c, &c->pre, "if (%s == RECORDED_ANY_SOURCE)", name);
		line(c, &c->pre, "\tMPI_Pcontrol(0x1add03);   /* a wildcard: post the source it matched */");
		snprintf(arg, EXPR, "peer(%" PRId64 ", %s == RECORDED_ANY_SOURCE ? %s_2 : %s)", c->comm_id, name,
			 name, name);
		break;
	case PK_REQ_OUT: created_request(c, name, arg); break;
	case PK_REQ:
		c->g->uses_pool_keys = true;
		snprintf(arg, EXPR, "%srequest_named(pool_keys, %u, %s, %s_2)",
			 strchr(c->shape->p[p].ctype, '*') ? "" : "*", c->g->npools, name, name);
		break;
	default: snprintf(arg, EXPR, "as_int(%s)", name); break;
	}
}

static const char *element_conversion(struct px_call *c, enum param_kind k, char *out)
{
	switch (k) {
	case PK_PEERS: snprintf(out, EXPR, "peer(%" PRId64 ", next_value(&values_%u))", c->comm_id, c->sig); break;
	case PK_AINTS: snprintf(out, EXPR, "(MPI_Aint)next_value(&values_%u)", c->sig); break;
	case PK_COUNTS: snprintf(out, EXPR, "count(next_value(&values_%u))", c->sig); break;
	default: snprintf(out, EXPR, "as_int(next_value(&values_%u))", c->sig); break;
	}
	return out;
}

static const char *element_type(enum param_kind k)
{
	return k == PK_AINTS ? "MPI_Aint" : k == PK_REQS ? "MPI_Request" : "int";
}

/* an array argument; one declared with rows (MPI_Group_range_incl's int ranges[][3]) gets a cast */
static void array_arg(struct px_call *c, uint32_t p, const char *name)
{
	const char *ctype = c->shape->p[p].ctype, *rows = strstr(ctype, "[][");
	if (rows)
		snprintf(c->arg[p], EXPR, "(%.*s(*)%s)%s", (int)(rows - ctype), ctype, rows + 2, name);
	else
		snprintf(c->arg[p], EXPR, "%s", name);
}

/* a request array from where its requests live (NAME_at): in the ring when they are side by side
 * there, else a copy (runtime.inc: requests_in); after all of pre, which may null positions */
static void request_array(struct px_call *c, const char *name, const char *len)
{
	line(c, &c->late, "MPI_Request %s_copy[%s + 1];", name, len);
	line(c, &c->late, "MPI_Request *%s = requests_in(%s_at, %s, %s_copy);", name, name, len, name);
	line(c, &c->post, "requests_out(%s_at, %s, %s, %s_copy);", name, len, name, name);
}

static bool streamed_array(struct px_call *c, uint32_t p, enum param_kind k)
{
	const char *name = c->d->params[p].name;
	if (k == PK_DTYPES || k == PK_COORDS || k == PK_WEIGHTS)
		return fail(c, "an array of datatypes, coordinates or weights that changes from call to call");
	line(c, &c->pre, "int %s_n = (int)next_value(&values_%u);", name, c->sig);
	snprintf(c->len[p], EXPR, "%s_n", name);
	if (k == PK_REQS) {
		c->g->uses_pool_keys = true;
		line(c, &c->pre, "MPI_Request *%s_at[%s_n + 1];", name, name);
		line(c, &c->pre, "for (int i = 0; i < %s_n; i++) {", name);
		line(c, &c->pre, "\tlong long key = next_value(&values_%u), slot = next_value(&values_%u);", c->sig, c->sig);
		if (c->keeps)
			line(c, &c->pre, "\t%s_at[i] = kept(%d, i, key == RECORDED_NULL ? NULL : request_named(pool_keys, %u, key, slot));",
			     name, c->site, c->g->npools);
		else
			line(c, &c->pre, "\t%s_at[i] = request_named(pool_keys, %u, key, slot);", name, c->g->npools);
		line(c, &c->pre, "}");
		request_array(c, name, c->len[p]);
	} else {
		char conv[EXPR];
		line(c, &c->pre, "%s %s[%s_n + 1];", element_type(k), name, name);
		line(c, &c->pre, "for (int i = 0; i < %s_n; i++)", name);
		line(c, &c->pre, "\t%s[i] = %s;", name, element_conversion(c, k, conv));
	}
	array_arg(c, p, name);
	return true;
}

/* ---- parameters recorded once for all calls ---- */

static int pool_index(struct px_call *c, int64_t key)
{
	struct proxy_pool *pool = px_pool_of(c->g, (uint64_t)key);
	return pool ? (int)(pool - c->g->pools) : -1;
}

static void element_text(struct px_call *c, enum param_kind k, const int64_t *v, int position, char *out)
{
	switch (k) {
	case PK_PEERS: peer_text(c, v[0], out); break;
	case PK_COORDS: snprintf(out, EXPR, "coordinate(%" PRId64 ", %d, %" PRId64 ")", c->comm_id, position, v[0]); break;
	case PK_AINTS: snprintf(out, EXPR, "%" PRId64, v[0]); break;
	case PK_DTYPES: handle_text(PK_DTYPE, v, out, EXPR); break;
	case PK_COUNTS: if (v[0] > 0) { snprintf(out, EXPR, "count(%" PRId64 ")", v[0]); break; } /* fall through */
	default: int_text(v[0], out); break;
	}
}

/* an array stated by rule (run/share.h): computed by the rank at run time */
static bool shared_array(struct px_call *c, uint32_t p, const int64_t *v)
{
	const char *name = c->d->params[p].name;
	snprintf(c->len[p], EXPR, "%" PRId64, v[1]);
	line(c, &c->pre, "int %s[%" PRId64 " + 1];", name, v[1]);
	line(c, &c->pre, "shared_array(%s, %" PRId64 ", %" PRId64 ", %d);   /* %s */", name, v[1], v[2], (int)v[3],
	     share_rule_names[v[3]]);
	array_arg(c, p, name);
	return true;
}

static bool constant_array(struct px_call *c, uint32_t p, enum param_kind k, const int64_t *v)
{
	const char *name = c->d->params[p].name;
	int64_t n = v[0];
	if (n == SV_SHARED)
		return shared_array(c, p, v);
	if (k == PK_WEIGHTS && (n == SV_UNWEIGHTED || n == SV_WEIGHTS_EMPTY)) {
		snprintf(c->arg[p], EXPR, n == SV_UNWEIGHTED ? "unweighted()" : "weights_empty()");
		return true;
	}
	if (sv_is_symbolic(n) || n < 0) {
		snprintf(c->arg[p], EXPR, "NULL");
		snprintf(c->len[p], EXPR, "0");
		return true;
	}
	snprintf(c->len[p], EXPR, "%" PRId64, n);
	int width = param_kind_width(k);
	const char *type = k == PK_DTYPES ? "MPI_Datatype" : element_type(k);
	struct buf b;
	buf_init(&b);
	char e[EXPR];
	for (int64_t i = 0; i < n; i++) {
		if (k == PK_REQS) {
			int pool = pool_index(c, v[1 + 2 * i]);
			char named[EXPR / 2];
			if (v[1 + 2 * i] == SV_NULL || pool < 0)
				snprintf(named, sizeof named, "NULL");
			else
				snprintf(named, sizeof named, "request(%d, %" PRId64 ")", pool, v[2 + 2 * i]);
			if (c->keeps)
				snprintf(e, EXPR, "kept(%d, %" PRId64 ", %s)", c->site, i, named);
			else
				snprintf(e, EXPR, "%s", named);
		} else
			element_text(c, k, v + 1 + width * i, (int)i, e);
		px_printf(&b, "%s%s", i ? ", " : "", e);
	}
	buf_put_u8(&b, 0);
	if (k == PK_REQS) {
		line(c, &c->pre, "MPI_Request *%s_at[] = {%s};", name, n ? (char *)b.data : "NULL");
		request_array(c, name, c->len[p]);
	} else if (k == PK_INTS_OUT || k == PK_INDICES_OUT)
		line(c, &c->pre, "int %s[%" PRId64 "];", name, n ? n : 1);
	else
		line(c, &c->pre, "%s %s[] = {%s};", type, name, n ? (char *)b.data : "0");
	buf_free(&b);
	array_arg(c, p, name);
	return true;
}

/* a pointer to somewhere the program does not look at, of the parameter's declared type */
static bool scratch_text(struct px_call *c, uint32_t p)
{
	const char *ctype = c->shape->p[p].ctype;
	char base[128];
	snprintf(base, sizeof base, "%s", ctype);
	char *bracket = strchr(base, '[');
	if (bracket) {
		if (bracket[1] != ']')
			return fail(c, "an output array of fixed size");
		strcpy(bracket, "*");
	}
	size_t n = strlen(base);
	while (n && base[n - 1] == ' ')
		base[--n] = 0;
	if (!n || base[n - 1] != '*')
		return fail(c, "an unrecorded parameter that is not a pointer");
	if (!bracket && !strcmp(base, "int *")) {   /* may be read too (MPI_Pack's position): start at 0 */
		line(c, &c->pre, "int %s = 0;", c->d->params[p].name);
		snprintf(c->arg[p], EXPR, "&%s", c->d->params[p].name);
	} else
		snprintf(c->arg[p], EXPR, "(%s)(scratch + %u * 4096)", base, p % 16);
	return true;
}

static const char *string_of(struct px_call *c, int64_t id);

/* a C string literal of a recorded string id (c_literal_put, of at most its first 96 bytes), or NULL */
static void string_literal(struct px_call *c, int64_t id, char *arg)
{
	const char *s = string_of(c, id);
	if (!s) {
		snprintf(arg, EXPR, "NULL");
		return;
	}
	size_t n = strlen(s);
	struct buf b;
	buf_init(&b);
	c_literal_put(&b, s, n < 96 ? n : 96);   /* 4 bytes at most for each: fits EXPR */
	buf_put_u8(&b, 0);
	snprintf(arg, EXPR, "%s", (char *)b.data);
	buf_free(&b);
}

/* a communicator, datatype, group or op the program will have: predefined or created by a call */
static bool handle_known(struct px_call *c, enum param_kind k, int64_t id)
{
	static const char *const what[] = {"communicator", "datatype", "group", "op"};
	int which = k == PK_COMM ? PX_COMM : k == PK_DTYPE ? PX_TYPE : k == PK_GROUP ? PX_GROUP : k == PK_OP ? PX_OP : -1;
	int64_t first = k == PK_COMM ? COMM_ID_FIRST_USER : k == PK_DTYPE ? DTYPE_ID_FIRST_USER
		      : k == PK_OP ? OP_ID_FIRST_USER : 0;
	if (which < 0 || sv_is_symbolic(id) || id < first)
		return true;
	if (id < PROXY_MAX_HANDLES && c->g->created[which][id])
		return true;
	px_refuse(c->g, c->sig, "%s #%" PRId64 " is used but no call of the run created it", what[which], id);
	c->failed = true;
	return false;
}

static bool constant_scalar(struct px_call *c, uint32_t p, enum param_kind k, const int64_t *v)
{
	char *arg = c->arg[p];
	bool pointer = strchr(c->shape->p[p].ctype, '*') != NULL;
	switch (k) {
	case PK_COUNT:
		if (v[0] > 0)
			snprintf(arg, EXPR, "count(%" PRId64 ")", v[0]);
		else
			int_text(v[0], arg);
		return true;
	case PK_AINT: snprintf(arg, EXPR, "%" PRId64, sv_is_symbolic(v[0]) ? 0 : v[0]); return true;
	case PK_PEER:
		if (v[0] == SV_UNKNOWN)
			return fail(c, "a peer recorded as UNKNOWN (not a member of the communicator)");
		peer_text(c, v[0], arg);
		return true;
	case PK_SRC:
		if (v[0] == SV_ANY_SOURCE && !sv_is_symbolic(v[1])) {
			c->any_source = true;   /* post the source it matched: the run stays deterministic */
			peer_text(c, v[1], arg);
		} else
			peer_text(c, v[0], arg);
		return true;
	case PK_ROOT:
		if (v[0] == SV_UNKNOWN)
			return fail(c, "a root recorded as UNKNOWN");
		if (sv_is_symbolic(v[0]) || c->comm_id == COMM_ID_WORLD)
			int_text(v[0], arg);
		else
			snprintf(arg, EXPR, "root(%" PRId64 ", %" PRId64 ")", c->comm_id, v[0]);
		return true;
	case PK_COMM: case PK_DTYPE: case PK_OP: case PK_GROUP: case PK_MSG: {
		char h[EXPR / 2];
		if (!handle_known(c, k, v[0]))
			return false;
		handle_text(k, v, h, sizeof h);
		snprintf(arg, EXPR, "%s%s", pointer ? "&" : "", h);
		return true;
	}
	case PK_NEWCOMM: case PK_NEWTYPE: case PK_NEWGROUP: case PK_NEWOP: case PK_MSG_OUT: {
		char h[EXPR / 2];
		if (sv_is_symbolic(v[0])) {   /* MPI returned a null handle: any place will do */
			snprintf(arg, EXPR, "(%s)(scratch + %u * 4096)", c->shape->p[p].ctype, p % 16);
			return true;
		}
		if (v[0] < 0 || v[0] >= (k == PK_NEWCOMM ? PROXY_MAX_COMMS : PROXY_MAX_HANDLES))
			return fail(c, "a handle id beyond the program's tables");
		handle_text(k == PK_MSG_OUT ? PK_MSG : k, v, h, sizeof h);
		snprintf(arg, EXPR, "&%s", h);
		if (k == PK_NEWCOMM)
			line(c, &c->post, "comm_created(%" PRId64 ");", v[0]);
		return true;
	}
	case PK_INFO: snprintf(arg, EXPR, v[0] ? "an_info()" : "MPI_INFO_NULL"); return true;
	case PK_REQ_OUT: {
		char slot[32];
		snprintf(slot, sizeof slot, "%" PRId64, v[0]);
		created_request(c, slot, arg);
		return true;
	}
	case PK_REQ: {
		int pool = pool_index(c, v[0]);
		if (v[0] == SV_NULL || pool < 0)
			snprintf(arg, EXPR, "%srequest(-1, -1)", pointer ? "" : "*");
		else
			snprintf(arg, EXPR, "%srequest(%d, %" PRId64 ")", pointer ? "" : "*", pool, v[1]);
		return true;
	}
	case PK_STRING:
		string_literal(c, v[0], arg);
		return true;
	case PK_FLAG_OUT:
		if (c->poll) {
			snprintf(arg, EXPR, "&flag");
			return true;
		}
		return scratch_text(c, p);
	case PK_INT_OUT: case PK_SIZE_OUT: case PK_SELF_OUT: case PK_PEER_OUT: case PK_INDEX_OUT:
		return scratch_text(c, p);
	default:
		int_text(v[0], arg);
		return true;
	}
}

static const char *string_of(struct px_call *c, int64_t id)
{
	if (sv_is_symbolic(id))
		return NULL;
	const struct run *r = c->g->r;
	for (uint32_t i = 0; i < r->nstrings; i++) {
		const char *s = r->strings[i];
		if ((int64_t)(hash_bytes(s, strlen(s), 0) & INT64_MAX) == id)
			return s;
	}
	return "";
}

/* ---- buffers: sized from the expressions of their count, datatype and communicator ---- */

static bool buffer_text(struct px_call *c, uint32_t p, const int64_t *v)
{
	const struct proxy_param_shape *sh = &c->shape->p[p];
	char text[4 * EXPR];
	if (v && v[0] == BUF_IN_PLACE)
		snprintf(text, sizeof text, "MPI_IN_PLACE");
	else if (v && v[0] == BUF_BOTTOM)   /* refused by parameter_text */
		snprintf(text, sizeof text, "MPI_BOTTOM");
	else if (v && v[0] == BUF_NULL)
		snprintf(text, sizeof text, "NULL");
	else if (sh->count < 0)
		snprintf(text, sizeof text, "buffer(%s, 0)", sh->send ? "SEND" : "RECV");
	else if (c->d->params[sh->count].kind == PK_INT)   /* a size in bytes */
		snprintf(text, sizeof text, "buffer(%s, %s)", sh->send ? "SEND" : "RECV", c->arg[sh->count]);
	else if (sh->dtype >= 0 && c->d->params[sh->dtype].kind == PK_DTYPES) {   /* byte displacements */
		bool aints = sh->displs >= 0 && c->d->params[sh->displs].kind == PK_AINTS;
		const char *displs = sh->displs >= 0 ? c->arg[sh->displs] : "NULL";
		snprintf(text, sizeof text, "typed_buffer_w(%s, %s, %s, %s, %s, %s)", sh->send ? "SEND" : "RECV",
			 c->arg[sh->count], aints ? "NULL" : displs, aints ? displs : "NULL", c->arg[sh->dtype],
			 c->len[sh->count][0] ? c->len[sh->count] : "0");
	} else {
		char n[2 * EXPR + 64];
		if (c->d->params[sh->count].kind == PK_COUNTS)
			snprintf(n, sizeof n, "span(%s, %s, %s)", c->arg[sh->count],
				 sh->displs >= 0 ? c->arg[sh->displs] : "NULL", c->len[sh->count][0] ? c->len[sh->count] : "0");
		else {
			const char *mult = sh->mult == PROXY_MULT_SIZE ? " * comm_size(%s)"
					 : sh->mult == PROXY_MULT_ONE ? "" : " * degree_bound(%s)";
			char m[EXPR + 32];
			snprintf(m, sizeof m, mult, c->comm[0] ? c->comm : "MPI_COMM_WORLD");
			snprintf(n, sizeof n, "%s%s", c->arg[sh->count], m);
		}
		snprintf(text, sizeof text, "typed_buffer(%s, %s, %s)", sh->send ? "SEND" : "RECV", n,
			 sh->dtype >= 0 ? c->arg[sh->dtype] : "MPI_BYTE");
	}
	if (strlen(text) >= EXPR)
		return fail(c, "a buffer's size expression is too long");
	memcpy(c->arg[p], text, strlen(text) + 1);
	return true;
}

/* ---- one call ---- */

/* Waitany, Waitsome, Testany, Testsome: the array keeps only the requests the application completed
 * in this call (its recorded index or indices), so the program completes the same requests in the
 * same calls whatever the timing; the other positions are passed as null and not written back */
static bool completion_mask(struct px_call *c, uint32_t p, enum param_kind k, const int64_t *v)
{
	int reqs = -1;
	for (uint32_t q = 0; q < c->d->nparams; q++)
		if (c->d->params[q].kind == PK_REQS)
			reqs = (int)q;
	if (reqs < 0 || !c->len[reqs][0])
		return fail(c, "a completion call without its request array");
	const char *array = c->arg[reqs], *len = c->len[reqs];
	if (k == PK_INDEX_OUT) {
		if (v[0] == SV_STREAMED)
			line(c, &c->pre, "int completed = as_int(next_value(&values_%u));   /* the request it completed */", c->sig);
		else
			line(c, &c->pre, "int completed = %d;   /* the request it completed */",
			     sv_is_symbolic(v[0]) ? -1 : (int)v[0]);
	} else if (v[0] == SV_STREAMED) {
		line(c, &c->pre, "int ncompleted = (int)next_value(&values_%u);", c->sig);
		line(c, &c->pre, "int completed[ncompleted + 1];   /* the requests it completed */");
		line(c, &c->pre, "for (int i = 0; i < ncompleted; i++)");
		line(c, &c->pre, "	completed[i] = as_int(next_value(&values_%u));", c->sig);
	} else {
		int64_t n = sv_is_symbolic(v[0]) || v[0] < 0 ? 0 : v[0];
		struct buf b;
		buf_init(&b);
		for (int64_t i = 0; i < n; i++)
			px_printf(&b, "%s%" PRId64, i ? ", " : "", v[1 + i]);
		buf_put_u8(&b, 0);
		line(c, &c->pre, "int ncompleted = %" PRId64 ";", n);
		line(c, &c->pre, "int completed[] = {%s};   /* the requests it completed */", n ? (char *)b.data : "-1");
		buf_free(&b);
	}
	line(c, &c->pre, "for (int i = 0; i < %s; i++) {   /* the others are null for the call */", len);
	if (k == PK_INDEX_OUT)
		line(c, &c->pre, "	if (i != completed)");
	else {
		line(c, &c->pre, "	int wanted = 0;");
		line(c, &c->pre, "	for (int j = 0; j < ncompleted; j++)");
		line(c, &c->pre, "		wanted |= completed[j] == i;");
		line(c, &c->pre, "	if (!wanted)");
	}
	line(c, &c->pre, "		%s_at[i] = NULL;", array);
	line(c, &c->pre, "}");
	c->some = k == PK_INDICES_OUT;
	snprintf(c->awaited, sizeof c->awaited, "%s, %s", array, len);
	return scratch_text(c, p);
}

static bool parameter_text(struct px_call *c, uint32_t p)
{
	enum param_kind k = c->d->params[p].kind;
	const char *ctype = c->shape->p[p].ctype;
	if (k == PK_BUF) {
		uint32_t w;
		const int64_t *v = px_group_values(c->g, c->sig, p, &w);
		if (v && v[0] == BUF_BOTTOM)
			return fail(c, "a buffer at MPI_BOTTOM: its datatype holds addresses of the application's memory");
		return true;
	}
	if (k == PK_STATUS) {   /* the last status is kept for MPI_Get_count and its kin */
		snprintf(c->arg[p], EXPR, strncmp(c->d->params[p].name, "array_of", 8) ? "&last_status"
											: "MPI_STATUSES_IGNORE");
		return true;
	}
	if (k == PK_IGNORE) {
		if (strstr(ctype, "MPI_User_function")) {
			snprintf(c->arg[p], EXPR, "reduce_nothing");
			return true;
		}
		if (!strcmp(ctype, "int")) {
			snprintf(c->arg[p], EXPR, "0");
			return true;
		}
		if (strstr(ctype, "MPI_Status")) {   /* MPI_Get_count, MPI_Get_elements, MPI_Test_cancelled */
			snprintf(c->arg[p], EXPR, "&last_status");
			return true;
		}
		return scratch_text(c, p);
	}
	uint32_t width = 0;
	const int64_t *v = px_group_values(c->g, c->sig, p, &width);
	if (!v)
		return fail(c, "values are missing");
	if (c->keeps && (k == PK_INDEX_OUT || k == PK_INDICES_OUT))
		return completion_mask(c, p, k, v);
	if (v[0] == SV_STREAMED) {
		if (k == PK_INDICES_OUT || k == PK_INTS_OUT) {   /* read past what MPI will say */
			line(c, &c->pre, "for (long i = 0, n = next_value(&values_%u); i < n; i++)", c->sig);
			line(c, &c->pre, "\t(void)next_value(&values_%u);   /* %s */", c->sig, c->d->params[p].name);
			return scratch_text(c, p);
		}
		if (param_kind_is_array(k))
			return streamed_array(c, p, k);
		switch (k) {
		case PK_COMM: case PK_DTYPE: case PK_OP: case PK_GROUP: case PK_MSG: case PK_NEWCOMM:
		case PK_NEWTYPE: case PK_NEWGROUP: case PK_NEWOP: case PK_MSG_OUT: case PK_STRING:
			return fail(c, "a handle or string that changes from call to call");
		default:
			if (param_kind_is_output(k) && k != PK_REQ_OUT) {   /* read past what MPI will say */
				for (int i = 0; i < param_kind_width(k); i++)
					line(c, &c->pre, "(void)next_value(&values_%u);   /* %s */", c->sig, c->d->params[p].name);
				return constant_scalar(c, p, k, (const int64_t[]){0, 0});
			}
			streamed_scalar(c, p, k);
			return true;
		}
	}
	if (param_kind_is_array(k))
		return constant_array(c, p, k, v);
	return constant_scalar(c, p, k, v);
}

static bool prepare(struct px_call *c)
{
	struct proxy_gen *g = c->g;
	const struct run_signature *s = &g->r->sigs[c->sig];
	c->d = px_function(g, c->sig);
	c->comm_id = -1;
	c->pool = -1;
	if (!c->d || !(c->shape = proxy_shape_of(c->d->name)))
		return px_refuse(g, c->sig, "a function ladder's table does not know");
	if (g->r->fns[s->fn].nparams != c->d->nparams)
		return px_refuse(g, c->sig, "recorded with %u parameters, ladder's table has %u", g->r->fns[s->fn].nparams,
				 c->d->nparams);
	if (!run_function_is_ladders(&g->r->fns[s->fn]))
		return px_refuse(g, c->sig, "recorded with parameters or flags other than ladder's table has");
	if (!c->shape->present)
		return px_refuse(g, c->sig, "the MPI library the proxy was built for does not declare it");
	if (c->shape->nparams != c->d->nparams)
		return px_refuse(g, c->sig, "recorded with %u parameters, ladder's table has %u", c->d->nparams,
				 c->shape->nparams);
	if (!strcmp(c->d->name, "MPI_Intercomm_create"))
		return px_refuse(g, c->sig, "intercommunicators are not supported (peers are ranks of the remote group)");
	c->poll = (c->d->flags & FNF_POLL) != 0;
	c->keeps = !strcmp(c->d->name, "MPI_Waitany") || !strcmp(c->d->name, "MPI_Waitsome") ||
		   !strcmp(c->d->name, "MPI_Testany") || !strcmp(c->d->name, "MPI_Testsome");
	for (uint32_t i = 0; i < g->r->ncallsites; i++)
		if (g->r->callsites[i].id == s->callsite)
			c->site = (int)i;
	for (uint32_t p = 0; p < c->d->nparams && c->comm_id < 0; p++) {
		if (c->d->params[p].kind != PK_COMM)
			continue;
		uint32_t w;
		const int64_t *v = px_group_values(g, c->sig, p, &w);
		if (!v || v[0] == SV_STREAMED)
			return px_refuse(g, c->sig, "its communicator changes from call to call");
		c->comm_id = sv_is_symbolic(v[0]) ? -1 : v[0];
		handle_text(PK_COMM, v, c->comm, sizeof c->comm);
	}
	for (uint32_t p = 0; p < c->d->nparams; p++)
		if (c->d->params[p].kind == PK_REQ_OUT) {
			uint64_t key = run_signature_req_key(run_req_pools_by_base(g->r), s->fn, s->callsite,
							     s->flags, c->d, g->r->sigvals + s->voff, s->nvals);
			c->pool = pool_index(c, (int64_t)key);
		}
	for (uint32_t p = 0; p < c->d->nparams; p++)
		if (!parameter_text(c, p))
			return false;
	for (uint32_t p = 0; p < c->d->nparams; p++) {
		uint32_t w;
		if (c->d->params[p].kind == PK_BUF && !buffer_text(c, p, px_group_values(g, c->sig, p, &w)))
			return false;
	}
	return true;
}

static void call_text(struct px_call *c, struct buf *b)
{
	px_printf(b, "%s(", c->d->name);
	for (uint32_t p = 0; p < c->d->nparams; p++)
		px_printf(b, "%s%s", p ? ", " : "", c->arg[p]);
	px_puts(b, ");");
}

static bool custom_call(struct px_call *c, struct proxy_gen *g)
{
	const char *name = c->d->name;
	if (!strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread"))
		line(c, &g->text, "/* %s: made by main() before the group's calls */", name);
	else if (!strcmp(name, "MPI_Finalize"))
		line(c, &g->text, "finish();   /* reports the time, then MPI_Finalize */");
	else if (!strcmp(name, "MPI_Pcontrol")) {
		uint32_t w;
		const int64_t *level = px_group_values(g, c->sig, 0, &w), *region = px_group_values(g, c->sig, 1, &w);
		if (!level || sv_is_symbolic(level[0]))
			return px_refuse(g, c->sig, "its level changes from call to call");
		char literal[EXPR];
		string_literal(c, region ? region[0] : SV_NULL, literal);
		if (strcmp(literal, "NULL"))
			line(c, &g->text, "MPI_Pcontrol(%" PRId64 ", %s);", level[0], literal);
		else
			line(c, &g->text, "MPI_Pcontrol(%" PRId64 ");", level[0]);
	} else
		return px_refuse(g, c->sig, "the application called it; a proxy cannot reproduce it");
	return true;
}

static bool with_call(struct proxy_gen *g, uint32_t sig, int indent, bool write)
{
	struct px_call c = {.g = g, .sig = sig, .indent = indent + 1};
	buf_init(&c.pre);
	buf_init(&c.late);
	buf_init(&c.post);
	bool ok = true;
	const struct run_signature *s = &g->r->sigs[sig];
	const struct fn_desc *d = px_function(g, sig);   /* ladder's own: its name is safe to print */
	if (!d)
		return px_refuse(g, sig, "a function ladder's table does not know");
	struct buf site;
	buf_init(&site);
	px_callsite_text(g, sig, &site);
	buf_put_u8(&site, 0);
	if (d->flags & FNF_CUSTOM) {
		c.d = d;
		c.indent = indent;
		if (write) {
			line(&c, &g->text, "/* %s */", (char *)site.data);
			ok = custom_call(&c, g);
		} else if (!strcmp(d->name, "MPI_Abort"))
			ok = px_refuse(g, sig, "the application called it; a proxy cannot reproduce it");
	} else if (s->flags & SIGF_FAILED_POLL) {
		c.indent = indent;
		if (write)
			line(&c, &g->text, "/* %s: polls that found nothing (timing, left out) */", (char *)site.data);
	} else if ((ok = prepare(&c)) && write) {
		c.indent = indent;
		line(&c, &g->text, "/* %s */", (char *)site.data);
		bool block = c.pre.len || c.late.len || c.post.len || c.poll || c.any_source || c.some;
		if (block)
			line(&c, &g->text, "{");
		buf_put(&g->text, c.pre.data, c.pre.len);
		buf_put(&g->text, c.late.data, c.late.len);
		c.indent = block ? indent + 1 : indent;
		struct buf call;
		buf_init(&call);
		call_text(&c, &call);
		buf_put_u8(&call, 0);
		if (c.some) {
			line(&c, &g->text, "await_all(%s);   /* then one call completes them, as in the application */",
			     c.awaited);
			line(&c, &g->text, "%s", (char *)call.data);
		} else if (c.poll) {
			line(&c, &g->text, "int flag = 0;");
			line(&c, &g->text, "do {   /* it found what it polled for */");
			if (c.any_source)
				line(&c, &g->text, "\tMPI_Pcontrol(0x1add03);   /* a wildcard: post the source it matched */");
			line(&c, &g->text, "\t%s", (char *)call.data);
			line(&c, &g->text, "} while (!flag);");
		} else {
			if (c.any_source)
				line(&c, &g->text, "MPI_Pcontrol(0x1add03);   /* a wildcard: post the source it matched */");
			line(&c, &g->text, "%s", (char *)call.data);
		}
		buf_free(&call);
		buf_put(&g->text, c.post.data, c.post.len);
		c.indent = indent;
		if (block)
			line(&c, &g->text, "}");
	}
	buf_free(&site);
	buf_free(&c.pre);
	buf_free(&c.late);
	buf_free(&c.post);
	return ok;
}

bool px_check_call(struct proxy_gen *g, uint32_t sig) { return with_call(g, sig, 0, false); }
bool px_emit_call(struct proxy_gen *g, uint32_t sig, int indent) { return with_call(g, sig, indent, true); }
