/*
 * emit — writing the program's text: printf into a buffer, refusals that name the call, and the
 * names and comments a call site gives (the innermost frame with a symbol).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proxy/proxy.h"

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

void px_callsite_text(const struct proxy_gen *g, uint32_t sig, struct buf *b)
{
	const struct run_signature *s = &g->r->sigs[sig];
	px_puts(b, g->r->fns[s->fn].name);
	const struct run_frame *f = named_frame(g->r, s->callsite);
	if (!f)
		return;
	char text[256];
	if (f->symbol && f->symbol[0])
		snprintf(text, sizeof text, " from %s (%s+0x%llx)", f->symbol, basename_of(f->module ? f->module : "?"),
			 (unsigned long long)f->offset);
	else
		snprintf(text, sizeof text, " at %s+0x%llx", basename_of(f->module ? f->module : "?"),
			 (unsigned long long)f->offset);
	/* a comment must not end early */
	for (char *c = text; *c; c++)
		if (c[0] == '*' && c[1] == '/')
			c[0] = '?';
	px_puts(b, text);
}

void px_callsite_name(const struct proxy_gen *g, uint32_t sig, char *out, size_t outlen)
{
	const struct run_frame *f = named_frame(g->r, g->r->sigs[sig].callsite);
	size_t n = 0;
	if (f && f->symbol)
		for (const char *c = f->symbol; *c && n + 1 < outlen && n < 40; c++) {
			bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_';
			if (!ok)
				break;
			out[n++] = *c;
		}
	out[n] = 0;
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
