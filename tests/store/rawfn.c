/*
 * rawfn — test helper: a raw trace whose function table names one function, or one parameter of
 * it, otherwise (hostile names for the readers to refuse):
 *
 *   rawfn BASE.raw FUNCTION NAME > OUT.raw          the function renamed
 *   rawfn BASE.raw FUNCTION PARAM NAME > OUT.raw    its parameter number PARAM renamed
 *
 * The rest of the trace is written as it was read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "util/file.h"
#include "util/xalloc.h"

int main(int argc, char **argv)
{
	if (!(argc == 4 || argc == 5)) {
		fprintf(stderr, "usage: rawfn BASE.raw FUNCTION [PARAM] NAME > OUT.raw\n");
		return 2;
	}
	struct file_map in;
	struct buf out;
	char why[300];
	if (!file_map_open(argv[1], &in, why, sizeof why)) {
		fprintf(stderr, "rawfn: %s\n", why);
		return 1;
	}
	struct run r;
	if (!run_parse(&r, in.data, in.len, why, sizeof why)) {
		fprintf(stderr, "rawfn: %s: %s\n", argv[1], why);
		return 1;
	}
	uint32_t i = 0;
	while (i < r.nfns && strcmp(r.fns[i].name, argv[2]))
		i++;
	if (i == r.nfns) {
		fprintf(stderr, "rawfn: %s: no function %s\n", argv[1], argv[2]);
		return 1;
	}
	const char *name = argv[argc - 1];
	if (argc == 4) {
		r.fns[i].name = name;
	} else {
		uint32_t p = (uint32_t)strtoul(argv[3], NULL, 10);
		if (p >= r.fns[i].nparams) {
			fprintf(stderr, "rawfn: %s has %u parameters\n", argv[2], r.fns[i].nparams);
			return 1;
		}
		((struct param_desc *)r.fns[i].params)[p].name = name;
	}
	buf_init(&out);
	run_serialize(&r, &out);
	fwrite(out.data, 1, out.len, stdout);
	return 0;
}
