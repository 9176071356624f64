/*
 * fn_check — the run's functions against ladder's MPI function table (see the header).
 */
#include "run/fn_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/escape.h"
#include "util/xalloc.h"

/* "name:kind,..." of a function's parameters, as the container writes them */
static void param_list(const struct fn_desc *d, struct buf *b)
{
	buf_reset(b);
	for (uint32_t p = 0; p < d->nparams; p++)
		buf_printf(b, "%s%s:%s", p ? "," : "", d->params[p].name, param_kind_name(d->params[p].kind));
	buf_put_u8(b, 0);
}

/* what is wrong with function i given ladder's entry for its name (NULL: none), into line */
static bool differs(const struct fn_desc *f, uint32_t i, int id, struct buf *mine, struct buf *theirs,
		    char *line, size_t n)
{
	if (id < 0) {
		char *name = term_escaped(f->name);
		snprintf(line, n, "/trace/functions: function %u is '%.64s', not an MPI function ladder traces", i, name);
		free(name);
		return true;
	}
	const struct fn_desc *d = &ladder_functions[id];
	param_list(f, mine);
	param_list(d, theirs);
	char *escaped = term_escaped((char *)mine->data);
	buf_reset(mine);
	buf_put(mine, escaped, strlen(escaped) + 1);
	free(escaped);
	if (strcmp((char *)mine->data, (char *)theirs->data)) {
		snprintf(line, n, "/trace/functions: %s has parameters '%.160s', ladder's table says '%.160s'", d->name,
			 (char *)mine->data, (char *)theirs->data);
		return true;
	}
	if (f->flags != d->flags) {
		snprintf(line, n, "/trace/functions: %s has flags %u, ladder's table says %u", d->name, f->flags, d->flags);
		return true;
	}
	return false;
}

bool run_function_is_ladders(const struct fn_desc *f)
{
	int id = fn_lookup(f->name);
	if (id < 0)
		return false;
	const struct fn_desc *d = &ladder_functions[id];
	if (f->nparams != d->nparams || f->flags != d->flags)
		return false;
	for (uint32_t p = 0; p < d->nparams; p++)
		if (f->params[p].kind != d->params[p].kind || strcmp(f->params[p].name, d->params[p].name))
			return false;
	return true;
}

uint64_t run_check_functions(const struct run *r, uint32_t max_lines,
			     void (*report)(const char *what, void *arg), void *arg)
{
	uint32_t *first = xmalloc((ladder_nfunctions + 1) * sizeof *first);   /* row naming each entry */
	for (uint32_t k = 0; k <= ladder_nfunctions; k++)
		first[k] = UINT32_MAX;
	struct buf mine, theirs;
	buf_init(&mine);
	buf_init(&theirs);
	uint64_t ndiffs = 0;
	char line[512];
	for (uint32_t i = 0; i < r->nfns; i++) {
		int id = fn_lookup(r->fns[i].name);
		bool bad = differs(&r->fns[i], i, id, &mine, &theirs, line, sizeof line);
		if (!bad && first[id] != UINT32_MAX) {
			snprintf(line, sizeof line, "/trace/functions: functions %u and %u are both %s", first[id], i,
				 r->fns[i].name);
			bad = true;
		}
		if (id >= 0 && first[id] == UINT32_MAX)
			first[id] = i;
		if (bad && ++ndiffs <= max_lines)
			report(line, arg);
	}
	if (ndiffs > max_lines) {
		snprintf(line, sizeof line, "... and %llu more functions that differ from ladder's table",
			 (unsigned long long)(ndiffs - max_lines));
		report(line, arg);
	}
	buf_free(&mine);
	buf_free(&theirs);
	free(first);
	return ndiffs;
}
