/*
 * event_json — one event as a JSON object, built from the tokens the text form prints. See
 * event_json.h.
 */
#include "export/event_json.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/buf.h"

/* a token as a JSON value: a name as a string, a number as a number */
static json_t *token_json(const struct event_view *ev, enum param_kind k, const int64_t *v, struct buf *tmp)
{
	buf_reset(tmp);
	event_token(ev, k, v, tmp);
	buf_put(tmp, "", 1);
	const char *text = (const char *)tmp->data;
	if (event_token_is_name(k, v[0]))
		return json_string(text);
	char *end;
	long long n = strtoll(text, &end, 10);
	return *end ? json_string(text) : json_integer(n);
}

static json_t *array_json(const struct event_view *ev, enum param_kind k, const int64_t *v, struct buf *tmp)
{
	if (sv_is_symbolic(v[0]))
		return token_json(ev, PK_INT, v, tmp);
	json_t *a = json_array();
	enum param_kind e = param_kind_element(k);
	for (int64_t i = 0; i < v[0]; i++)
		json_array_append_new(a, token_json(ev, e, v + 1 + i * param_kind_width(k), tmp));
	return a;
}

static json_t *any_source_json(const struct event_view *ev, const int64_t *v)
{
	json_t *actual = sv_is_symbolic(v[1]) ? json_string("?") : json_integer(v[1] + (int64_t)ev->rank);
	return json_pack("{s:b, s:o}", "any", 1, "actual", actual);
}

static json_t *string_json(const struct event_view *ev, int64_t id)
{
	const char *s = event_string(ev, id);
	if (s)
		return json_string(s);
	char name[40];
	snprintf(name, sizeof name, "string#%lld", (long long)id);
	return json_string(name);
}

static json_t *value_json(const struct event_view *ev, enum param_kind k, const int64_t *v, uint32_t w,
			  struct buf *tmp)
{
	if (w == 1 && v[0] == SV_STREAMED)
		return json_string("STREAMED");
	if (k == PK_SRC && v[0] == SV_ANY_SOURCE)
		return any_source_json(ev, v);
	if (k == PK_STRING)
		return string_json(ev, v[0]);
	if (param_kind_is_array(k))
		return array_json(ev, k, v, tmp);
	return token_json(ev, k, v, tmp);
}

json_t *event_json(const struct event_view *ev)
{
	const struct fn_desc *fn = ev->fn;
	json_t *o = json_object();
	json_object_set_new(o, "fn", json_string(fn->name));
	struct buf tmp;
	buf_init(&tmp);
	struct param_walk w = param_walk(fn, ev->vals, ev->nvals);
	while (param_walk_next(&w))
		json_object_set_new(o, w.name, value_json(ev, w.kind, w.v, w.width, &tmp));
	if (w.bad || w.at != ev->nvals)
		json_object_set_new(o, "malformed", json_true());
	buf_free(&tmp);
	return o;
}
