/*
 * mkwide — test helper: a raw trace whose first group's start rule refers to N more rules, each a
 * loop body of two calls repeated twice (the shape N distinct loops give), from a real raw trace:
 *
 *   mkwide BASE.raw N > WIDE.raw
 *
 * The calls are copies of a call of the base trace that has no streamed values, and the profile
 * counts them, so the result is a valid run (ladder import, then ladder validate). A reader whose
 * passes over a grammar are quadratic in its width takes minutes on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "util/file.h"
#include "util/xalloc.h"

/* a signature every rank of group 0 can call again: no streamed value, not a run of polls */
static uint32_t plain_signature(const struct run *r)
{
	for (uint32_t s = 0; s < r->nsigs; s++) {
		bool plain = !r->sigs[s].flags;
		for (uint32_t i = 0; i < r->sigs[s].nvals; i++)
			plain &= r->sigvals[r->sigs[s].voff + i] != SV_STREAMED;
		if (plain && strcmp(r->fns[r->sigs[s].fn].name, "MPI_Init") && strcmp(r->fns[r->sigs[s].fn].name, "MPI_Finalize"))
			return s;
	}
	fprintf(stderr, "mkwide: no plain signature in the base trace\n");
	exit(1);
}

/* group 0's grammar with N rules [s s] referred to as R^2 before the start rule's last symbol */
static void widen(struct grammar *g, uint32_t n, uint32_t s)
{
	struct grammar w;
	grammar_init(&w);
	uint32_t first_new = g->nrules;
	for (uint32_t r = 0; r < g->nrules; r++) {
		grammar_begin_rule(&w);
		const struct gsymbol *sym = grammar_rule_syms(g, r);
		uint64_t len = grammar_rule_len(g, r);
		for (uint64_t i = 0; i < len; i++) {
			if (r == 0 && i + 1 == len)
				for (uint32_t k = 0; k < n; k++)
					grammar_add_symbol(&w, gsym_rule_val(first_new + k), 2);
			grammar_add_symbol(&w, sym[i].val, sym[i].exp);
		}
	}
	for (uint32_t k = 0; k < n; k++) {
		grammar_begin_rule(&w);
		grammar_add_symbol(&w, s, 2);
	}
	grammar_end(&w);
	grammar_free(g);
	*g = w;
}

int main(int argc, char **argv)
{
	if (!(argc == 3)) {
		fprintf(stderr, "usage: mkwide BASE.raw N > WIDE.raw\n");
		return 2;
	}
	struct file_map in;
	struct buf out;
	char why[300];
	if (!file_map_open(argv[1], &in, why, sizeof why)) {
		fprintf(stderr, "mkwide: %s\n", why);
		return 1;
	}
	struct run r;
	if (!run_parse(&r, in.data, in.len, why, sizeof why) || !run_check(&r, why, sizeof why)) {
		fprintf(stderr, "mkwide: %s: %s\n", argv[1], why);
		return 1;
	}
	uint32_t n = (uint32_t)strtoul(argv[2], NULL, 10), s = plain_signature(&r);
	widen(&r.groups[0].g, n, s);
	/* the profile counts the 4 N new calls of every rank of the group */
	const char *fn = r.fns[r.sigs[s].fn].name;
	for (uint32_t node = 0; node < r.nnodes; node++)
		if (r.nodes[node].kind == PNODE_FUNCTION && !strcmp(r.nodes[node].name, fn)) {
			uint32_t rank;
			RANKLIST_FOR(rank, &r.groups[0].ranks)
				r.counts[((size_t)rank * r.nnodes + node) * RUN_PC_COUNT + RUN_PC_VISITS] += 4ULL * n;
			break;
		}
	buf_init(&out);
	run_serialize(&r, &out);
	fwrite(out.data, 1, out.len, stdout);
	file_map_close(&in);
	buf_free(&out);
	run_free(&r);
	return 0;
}
