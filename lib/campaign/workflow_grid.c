/*
 * workflow_grid — the 'grid' field of a workflow and its {dims} placeholders. See workflow_grid.h.
 */
#include "campaign/workflow_grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

_Static_assert(GRID_MAX_DIMS <= 10, "an axis index is one digit");

/* the axis s names, x, y, z or an index 0..ndims-1 (one digit: ndims <= GRID_MAX_DIMS <= 10); -1
 * when it names none */
static int axis_of(const char *s, int ndims)
{
	int k = -1;
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, grid_axis_letter(i)))
			k = i;
	if (s[0] >= '0' && s[0] <= '9' && !s[1])
		k = s[0] - '0';
	return k < ndims ? k : -1;
}

/* the names of a grid's axes for messages: "x, y or 0..1", "x, y, z or 0..4" */
static void axes_hint(int ndims, char *out, size_t len)
{
	size_t off = 0;
	for (int k = 0; k < ndims && k < 3 && off < len; k++)
		off += (size_t)snprintf(out + off, len - off, "%s%s", k ? ", " : "", grid_axis_letter(k));
	if (off < len)
		snprintf(out + off, len - off, " or 0..%d", ndims - 1);
}

static bool read_order(struct yaml_spec *y, yaml_node_t *n, struct workflow *w)
{
	char axes[128];
	axes_hint(w->grid_ndims, axes, sizeof axes);
	if (!yaml_spec_is_seq(n) || yaml_spec_seq_len(n) != (size_t)w->grid_ndims)
		return yaml_spec_fail(y, n, "grid.order", "expected a list of the %d axes (%s), each once: the axis taking "
				      "the largest factor first", w->grid_ndims, axes);
	bool seen[GRID_MAX_DIMS] = {false};
	for (int i = 0; i < w->grid_ndims; i++) {
		char f[64];
		snprintf(f, sizeof f, "grid.order[%d]", i);
		const char *s;
		if (!yaml_spec_scalar(y, yaml_spec_seq_item(y, n, (size_t)i), f, &s))
			return false;
		int k = axis_of(s, w->grid_ndims);
		if (k < 0)
			return yaml_spec_fail(y, yaml_spec_seq_item(y, n, (size_t)i), f, "'%s' is not an axis of a %d-D grid "
					      "(expected %s)", s, w->grid_ndims, axes);
		if (seen[k])
			return yaml_spec_fail(y, yaml_spec_seq_item(y, n, (size_t)i), f, "axis '%s' is listed twice (each of "
					      "%s once)", s, axes);
		seen[k] = true;
		w->grid_order[i] = k;
	}
	return true;
}

bool workflow_grid_read(struct yaml_spec *y, yaml_node_t *n, struct workflow *w)
{
	w->grid_line = yaml_spec_line(n);
	yaml_node_t *dims = n, *order = NULL;
	const char *field = "grid";
	if (yaml_spec_is_map(n)) {
		static const char *const keys[] = {"dimensions", "order", NULL};
		if (!yaml_spec_map(y, n, "grid", keys))
			return false;
		dims = yaml_spec_get(y, n, "dimensions");
		order = yaml_spec_get(y, n, "order");
		field = "grid.dimensions";
		if (!dims)
			return yaml_spec_fail(y, n, field, "missing (how many dimensions the process grid has, 1..%d)",
					      GRID_MAX_DIMS);
	} else if (!yaml_spec_is_scalar(n)) {
		return yaml_spec_fail(y, n, "grid", "expected the number of dimensions (1..%d), or a mapping with "
				      "'dimensions' and 'order'", GRID_MAX_DIMS);
	}
	long nd;
	if (!yaml_spec_long(y, dims, field, 1, GRID_MAX_DIMS, &nd))
		return false;
	w->grid_ndims = (int)nd;
	for (int i = 0; i < w->grid_ndims; i++)
		w->grid_order[i] = i;
	return !order || read_order(y, order, w);
}

bool workflow_grid_like(const char *name)
{
	return !strncmp(name, "dims", 4) && (!name[4] || name[4] == '.');
}

bool workflow_grid_placeholder(const struct workflow *w, const char *name)
{
	if (!w->grid_ndims || !workflow_grid_like(name))
		return false;
	if (!name[4])
		return true;
	return axis_of(name + 5, w->grid_ndims) >= 0;
}

void workflow_grid_names(const struct workflow *w, char *out, size_t len)
{
	size_t off = (size_t)snprintf(out, len, "{dims}");
	for (int k = 0; k < w->grid_ndims && k < 3 && off < len; k++)
		off += (size_t)snprintf(out + off, len - off, " {dims.%s}", grid_axis_letter(k));
	for (int k = 0; k < w->grid_ndims && off < len; k++)
		off += (size_t)snprintf(out + off, len - off, " {dims.%d}", k);
}

void workflow_grid_vars(const struct workflow *w, long p, struct template_vars *tv)
{
	long dims[GRID_MAX_DIMS];
	if (!w->grid_ndims || !grid_on_axes(p, w->grid_ndims, w->grid_order, dims))
		return;
	struct buf b;
	buf_init(&b);
	for (int k = 0; k < w->grid_ndims; k++) {
		char v[32], name[32];
		int n = snprintf(v, sizeof v, "%s%ld", k ? "x" : "", dims[k]);
		buf_put(&b, v, (size_t)n);
		snprintf(v, sizeof v, "%ld", dims[k]);
		snprintf(name, sizeof name, "dims.%d", k);
		template_vars_set(tv, name, v);
		if (grid_axis_letter(k)) {
			snprintf(name, sizeof name, "dims.%s", grid_axis_letter(k));
			template_vars_set(tv, name, v);
		}
	}
	buf_put_u8(&b, 0);
	template_vars_set(tv, "dims", (char *)b.data);
	buf_free(&b);
}
