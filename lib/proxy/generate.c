/*
 * generate — `ladder proxy`'s driver: checks that every call of the trace can be written (refusing
 * by rank, call and reason otherwise, before any file is written), then writes DIR/proxy.c (the
 * program: value streams, one function per grammar rule, main), DIR/proxy.h (the support code,
 * runtime.inc) and DIR/Makefile.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "meet/balance.h"
#include "meet/replayable.h"
#include "proxy/proxy.h"
#include "run/ranklist.h"
#include "util/escape.h"
#include "util/file.h"
#include "util/xalloc.h"

static bool find_init(struct proxy_gen *g)
{
	const struct run *r = g->r;
	for (g->group = 0; g->group < r->ngroups; g->group++) {
		struct gwalk w;
		uint32_t t;
		gwalk_init(&w, &r->groups[g->group].g);
		bool any = gwalk_next(&w, &t);
		gwalk_free(&w);
		const char *name = any ? r->fns[r->sigs[t].fn].name : "nothing";
		if (strcmp(name, "MPI_Init") && strcmp(name, "MPI_Init_thread")) {
			snprintf(g->why, g->whylen, "rank %u: its calls start with %s, not MPI_Init",
				 r->groups[g->group].nranks ? ranklist_first(&r->groups[g->group].ranks) : 0, name);
			return false;
		}
		if (g->group == run_rank_group(r, 0))
			g->init_sig = t;
	}
	return true;
}

/* every signature a group's grammar uses, checked once per group (refusals name a rank) */
static bool check_calls(struct proxy_gen *g)
{
	const struct run *r = g->r;
	bool *seen = xmalloc(r->nsigs ? r->nsigs : 1);
	bool ok = true;
	for (g->group = 0; g->group < r->ngroups && ok; g->group++) {
		memset(seen, 0, r->nsigs ? r->nsigs : 1);
		const struct grammar *gr = &r->groups[g->group].g;
		for (uint64_t i = 0; i < gr->nsyms && ok; i++) {
			struct gsymbol s = gr->syms[i];
			if (gsym_is_rule(s) || seen[s.val])
				continue;
			seen[s.val] = true;
			ok = px_check_call(g, (uint32_t)s.val);
		}
	}
	free(seen);
	return ok;
}

static void mark_streamed(struct proxy_gen *g)
{
	const struct run *r = g->r;
	g->streamed = xcalloc(r->nsigs ? r->nsigs : 1, sizeof *g->streamed);
	for (uint32_t s = 0; s < r->nsigs; s++) {
		if (r->sigs[s].flags & SIGF_FAILED_POLL || r->fns[r->sigs[s].fn].flags & FNF_CUSTOM)
			continue;
		for (uint32_t i = 0; i < r->sigs[s].nvals; i++)
			g->streamed[s] |= r->sigvals[r->sigs[s].voff + i] == SV_STREAMED;
	}
}

/* what the proxy's calls are: the application's, those extrapolated for it, or a share of them */
static void calls_said(const struct run *r, char *out, size_t outlen)
{
	double calls, bytes;
	bool lossy;
	if (run_kept_shares(r, &calls, &bytes, &lossy))
		snprintf(out, outlen, "a share %.4f of the MPI calls (%.4f of the bytes) the application is expected to make\n"
			 " * on %u ranks (a lossy extrapolation: not the application's calls), in their order with\n"
			 " * the same", calls, bytes, r->nranks);
	else if (lossy)
		snprintf(out, outlen, "the MPI calls a lossy extrapolation kept of the application's on %u ranks (what\n"
			 " * share was not measured; not the application's calls), in their order with the same",
			 r->nranks);
	else if (r->synthetic)
		snprintf(out, outlen, "the MPI calls extrapolated for the application on %u ranks, in the same order with the same",
			 r->nranks);
	else
		snprintf(out, outlen, "the MPI calls the application made on %u ranks, in the same order with the same",
			 r->nranks);
}

static void emit_header(struct proxy_gen *g, const struct proxy_options *o)
{
	const struct run *r = g->r;
	char calls[400];
	calls_said(r, calls, sizeof calls);
	uint64_t nsyms = 0;
	for (uint32_t i = 0; i < r->ngroups; i++)
		nsyms += r->groups[i].g.nsyms;
	/* the command line and the path come from the file and the user: comment text of the escape */
	px_puts(&g->text, "/*\n * proxy.c — a proxy of `");
	c_comment_put(&g->text, r->command ? r->command : "?", r->command ? strlen(r->command) : 1);
	px_puts(&g->text, "`, written by `ladder proxy` from ");
	c_comment_put(&g->text, o->source ? o->source : "a run", strlen(o->source ? o->source : "a run"));
	px_printf(&g->text,
		  "%s.\n"
		  " *\n * It makes %s\n"
		  " * parameters, without its source or data: %u groups of ranks with identical call sequences, each\n"
		  " * a grammar (%" PRIu64 " symbols) written as one function per rule, compute between calls as\n"
		  " * calibrated CPU work from the recorded timing histograms.\n *\n"
		  " *   make && mpirun -np %u ./proxy [--compute-scale K] [--message-scale M] [--timing mean|sample]\n"
		  " *                              [--clock cpu|wall] [--seed S]%s [--json FILE]\n */\n"
		  "#define PROXY_CPU_TIMES %d   /* the run recorded the CPU time of its compute gaps */\n",
		  r->synthetic ? " (extrapolated)" : "",
		  calls, r->ngroups, nsyms, r->nranks, g->placed ? " [--placement packed|none]" : "",
		  r->cpu_time != RUN_CPU_NONE);
	px_emit_placement_define(g);
	px_puts(&g->text, "#include \"proxy.h\"\n");
	if (g->uses_pool_keys) {
		px_puts(&g->text, "\n/* the names the trace gave request pools (streamed request arrays refer to them) */\n"
				  "static const long long pool_keys[] = {");
		for (uint32_t i = 0; i < g->npools; i++)
			px_printf(&g->text, "%s%" PRId64 "LL", i ? ", " : "", (int64_t)g->pools[i].key);
		px_puts(&g->text, "};\n");
	}
}

/* DIR/NAME replaced as a whole (util/file.h: a symbolic link there is replaced, not followed; a
 * FIFO or device refused, never opened) */
static bool write_file(const char *dir, const char *name, const char *text, char *why, size_t whylen)
{
	char *path = xasprintf("%s/%s", dir, name);
	bool ok = write_file_atomic(path, text, 0644, why, whylen);
	free(path);
	return ok;
}

static const char makefile_text[] =
	"# Builds the proxy written by `ladder proxy`: make; mpirun -np N ./proxy\n"
	"MPICC ?= mpicc\nCFLAGS ?= -O1 -Wall -Wextra\n\n"
	"proxy: proxy.c proxy.h\n\t$(MPICC) $(CFLAGS) -o $@ proxy.c\n\n"
	"clean:\n\trm -f proxy\n\n.PHONY: clean\n";

static bool write_files(struct proxy_gen *g, const char *dir)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		snprintf(g->why, g->whylen, "%s: cannot create the directory: %s", dir, strerror(errno));
		return false;
	}
	buf_put_u8(&g->text, 0);   /* the escapes never write a NUL: the text ends here */
	return write_file(dir, "proxy.h", proxy_runtime_text, g->why, g->whylen) &&
	       write_file(dir, "proxy.c", (const char *)g->text.data, g->why, g->whylen) &&
	       write_file(dir, "Makefile", makefile_text, g->why, g->whylen);
}

bool proxy_generate(const struct run *r, const struct proxy_options *o, const char *dir, char *why, size_t whylen)
{
	struct proxy_gen g = {.r = r, .why = why, .whylen = whylen};
	buf_init(&g.text);
	why[0] = 0;
	bool ok = r->ngroups > 0;
	if (!ok)
		snprintf(why, whylen, "the run has no call sequences (a profile-only run)");
	ok = ok && run_calls_meet(r, why, whylen);   /* one thread per rank makes its calls */
	/* main() tests the groups' ranklists in order with the greedy box test of runtime.inc, exact
	 * for the boxes of a checked run (disjoint, each stride beyond the span inside it) */
	ok = ok && px_pools_build(&g) && find_init(&g);
	if (ok) {
		mark_streamed(&g);
		px_created_build(&g);
	}
	ok = ok && check_calls(&g);
	if (ok)
		px_find_placed(&g);
	if (ok) {
		emit_header(&g, o);
		ok = px_emit_streams(&g) && px_emit_groups(&g);
	}
	if (ok) {
		px_emit_main(&g);
		ok = write_files(&g, dir);
	}
	buf_free(&g.text);
	free(g.pools);
	free(g.streamed);
	free(g.home);
	return ok;
}
