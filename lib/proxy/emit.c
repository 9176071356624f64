/*
 * emit — writing the program's text: printf into a buffer, refusals that name the call, and the
 * names and comments a call site gives (the innermost frame with a symbol).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proxy/proxy.h"
#include "util/escape.h"

void px_printf(struct buf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		buf_put(b, small, (size_t)n);
		return;
	}
	char big[n + 1];
	va_start(ap, fmt);
	vsnprintf(big, sizeof big, fmt, ap);
	va_end(ap);
	buf_put(b, big, (size_t)n);
}

void px_puts(struct buf *b, const char *s) { buf_put(b, s, strlen(s)); }

static const struct run_callsite *callsite_of(const struct run *r, uint64_t id)
{
	for (uint32_t i = 0; i < r->ncallsites; i++)
		if (r->callsites[i].id == id)
			return &r->callsites[i];
	return NULL;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static const struct run_frame *named_frame(const struct run *r, uint64_t id)
{
	const struct run_callsite *cs = callsite_of(r, id);
	for (uint32_t i = 0; cs && i < cs->nframes; i++)
		if (cs->frames[i].symbol && cs->frames[i].symbol[0] && strncmp(cs->frames[i].symbol, "MPI_", 4) &&
		    strncmp(cs->frames[i].symbol, "PMPI_", 5))
			return &cs->frames[i];
	return cs && cs->nframes ? &cs->frames[0] : NULL;
}

const struct fn_desc *px_function(const struct proxy_gen *g, uint32_t sig)
{
	int id = fn_lookup(g->r->fns[g->r->sigs[sig].fn].name);
	return id < 0 ? NULL : &ladder_functions[id];
}

/* a prefix of a file's string, through the comment escape */
static void comment_part(struct buf *b, const char *s, size_t most)
{
	size_t n = strlen(s);
	c_comment_put(b, s, n < most ? n : most);
	if (n > most)
		px_puts(b, "...");
}

void px_callsite_text(const struct proxy_gen *g, uint32_t sig, struct buf *b)
{
	const struct run_signature *s = &g->r->sigs[sig];
	const struct fn_desc *d = px_function(g, sig);
	if (d)
		px_puts(b, d->name);
	else   /* not ladder's: the file's name, as comment text */
		comment_part(b, g->r->fns[s->fn].name, 120);
	const struct run_frame *f = named_frame(g->r, s->callsite);
	if (!f)
		return;
	if (f->symbol && f->symbol[0]) {
		px_puts(b, " from ");
		comment_part(b, f->symbol, 120);
		px_puts(b, " (");
	} else
		px_puts(b, " at ");
	comment_part(b, basename_of(f->module ? f->module : "?"), 120);
	px_printf(b, "+0x%llx%s", (unsigned long long)f->offset, f->symbol && f->symbol[0] ? ")" : "");
}

bool px_refuse(struct proxy_gen *g, uint32_t sig, const char *fmt, ...)
{
	char reason[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	uint32_t rank = 0;
	if (g->group < g->r->ngroups && g->r->groups[g->group].nranks)
		rank = ranklist_first(&g->r->groups[g->group].ranks);
	struct buf site;
	buf_init(&site);
	px_callsite_text(g, sig, &site);
	buf_put_u8(&site, 0);
	snprintf(g->why, g->whylen, "rank %u, %s: %s", rank, (char *)site.data, reason);
	buf_free(&site);
	return false;
}
