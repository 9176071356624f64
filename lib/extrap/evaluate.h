/*
 * evaluate — an aligned class at the target: the directions its family decides (family.h), every
 * value evaluated for the class's ranks on the target grid, repetition counts too, requests named
 * by their creating call's signature there, and the calls lossy mode dropped taken out of the
 * grammar (rules left empty go with them).
 */
#ifndef LADDER_EXTRAP_EVALUATE_H
#define LADDER_EXTRAP_EVALUATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/align.h"

struct class_at {
	struct grammar g;       /* terminals: occurrence numbers of the calls kept */
	uint64_t kept, dropped; /* calls per rank of the class at the target */
	uint64_t approximated;  /* of the kept calls, those with a count approximated */
	uint64_t shared;        /* of the kept calls, those with count arrays stated by rule */
};

bool evaluate_class(struct aligned_class *a, const struct grid *target, struct class_at *out, char *why,
		    size_t whylen);
void class_at_free(struct class_at *c);

#endif
