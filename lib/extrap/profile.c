/*
 * profile — per-class laws for the profile's counts. See profile.h.
 */
#include "extrap/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/topology.h"
#include "util/xalloc.h"

/* map[i]: the rung's node with the reference node i's path, or UINT32_MAX */
static uint32_t *map_nodes(const struct run *ref, const struct run *r)
{
	uint32_t *map = xmalloc((ref->nnodes + 1) * sizeof *map);
	for (uint32_t i = 0; i < ref->nnodes; i++) {
		const struct run_pnode *a = &ref->nodes[i];
		int64_t parent = a->parent < 0 ? -1 : map[a->parent] == UINT32_MAX ? -2 : (int64_t)map[a->parent];
		map[i] = UINT32_MAX;
		for (uint32_t j = 0; parent != -2 && j < r->nnodes; j++)
			if (r->nodes[j].parent == parent && r->nodes[j].kind == a->kind && !strcmp(r->nodes[j].name, a->name)) {
				map[i] = j;
				break;
			}
	}
	return map;
}

static uint64_t count_of(const struct run *r, const uint32_t *map, uint32_t rank, uint32_t node, uint32_t metric)
{
	if (map[node] == UINT32_MAX)
		return 0;
	return r->counts[((size_t)rank * r->nnodes + map[node]) * RUN_PC_COUNT + metric];
}

/* the class's counts at one rung (all members must agree); false when the class is absent */
static bool class_counts(const struct run *ref, const struct run *r, const struct grid *g, uint32_t cls,
			 int64_t *vals, char *why, size_t whylen, bool *ok)
{
	uint32_t *map = map_nodes(ref, r);
	int64_t first = -1;
	for (uint32_t rank = 0; *ok && rank < r->nranks; rank++) {
		if (topology_class(g, rank) != cls)
			continue;
		for (uint32_t i = 0; *ok && i < ref->nnodes; i++)
			for (uint32_t m = 0; *ok && m < RUN_PC_COUNT; m++) {
				int64_t v = (int64_t)count_of(r, map, rank, i, m);
				if (first < 0)
					vals[i * RUN_PC_COUNT + m] = v;
				else if (vals[i * RUN_PC_COUNT + m] != v) {
					char name[64];
					topology_class_name(cls, g->ndims, name, sizeof name);
					snprintf(why, whylen, "profile of class %s at p%u: ranks %lld and %u differ in %s of %s",
						 name, r->nranks, (long long)first, rank, run_count_names[m], ref->nodes[i].name);
					*ok = false;
				}
			}
		if (first < 0)
			first = rank;
	}
	free(map);
	return first >= 0;
}

/* laws for every count of one class; values[node * RUN_PC_COUNT + metric] at the target */
static bool class_laws(struct run *const *rungs, const struct grid *grids, size_t n, const struct run *ref,
		       const struct grid *target, uint32_t cls, int64_t *out, char *why, size_t whylen)
{
	size_t width = (size_t)ref->nnodes * RUN_PC_COUNT, have = 0;
	int64_t *per = xmalloc((n * width + 1) * sizeof *per), *v = xmalloc((n + 1) * sizeof *v);
	struct grid *gs = xmalloc((n + 1) * sizeof *gs);
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++)
		if (class_counts(ref, rungs[i], &grids[i], cls, per + have * width, why, whylen, &ok))
			gs[have++] = grids[i];
	for (size_t k = 0; ok && k < width; k++) {
		for (size_t i = 0; i < have; i++)
			v[i] = per[i * width + k];
		struct law law;
		law_solve(v, gs, have, target, &law);
		if (law.status != LAW_OK) {
			char name[64];
			topology_class_name(cls, target->ndims, name, sizeof name);
			snprintf(why, whylen, "profile of class %s: %s of %s: %s: %s", name, run_count_names[k % RUN_PC_COUNT],
				 ref->nodes[k / RUN_PC_COUNT].name, law_status_name(law.status), law.text);
			ok = false;
		}
		out[k] = law.predicted;
	}
	free(per);
	free(v);
	free(gs);
	return ok;
}

static void copy_nodes(const struct run *ref, struct run *out)
{
	out->nnodes = ref->nnodes;
	out->nodes = xcalloc(ref->nnodes + 1, sizeof *out->nodes);
	for (uint32_t i = 0; i < ref->nnodes; i++) {
		out->nodes[i] = ref->nodes[i];
		out->nodes[i].name = xstrdup(ref->nodes[i].name);
	}
}

static void drop_profile(struct run *out)
{
	for (uint32_t i = 0; i < out->nnodes; i++)
		free(out->nodes[i].name);
	free(out->nodes);
	free(out->counts);
	free(out->time_stats);
	out->nodes = NULL, out->counts = NULL, out->time_stats = NULL, out->nnodes = 0;
}

bool extrap_profile(struct run *const *rungs, const struct grid *grids, size_t n, const struct grid *target,
		    struct run *out, char *why, size_t whylen)
{
	size_t ref = 0;
	for (size_t i = 1; i < n; i++)
		ref = rungs[i]->nranks > rungs[ref]->nranks ? i : ref;
	const struct run *rr = rungs[ref];
	if (!rr->nnodes) {
		snprintf(why, whylen, "p%u has no profile", rr->nranks);
		return false;
	}
	size_t width = (size_t)rr->nnodes * RUN_PC_COUNT;
	int64_t *laws[TOPOLOGY_MAX_CLASSES] = {0};
	bool ok = true;
	uint32_t nclasses = 1;
	for (uint32_t k = 0; k < target->ndims; k++)
		nclasses *= POS_KINDS;
	for (uint32_t cls = 0; ok && cls < nclasses; cls++) {
		int64_t lo[LAW_MAX_DIMS], hi[LAW_MAX_DIMS];
		if (!topology_class_box(target, cls, lo, hi))
			continue;
		laws[cls] = xmalloc((width + 1) * sizeof **laws);
		ok = class_laws(rungs, grids, n, rr, target, cls, laws[cls], why, whylen);
	}
	if (ok) {
		copy_nodes(rr, out);
		out->counts = xmalloc(((size_t)out->nranks * width + 1) * sizeof *out->counts);
		double *time = xcalloc((size_t)out->nranks * rr->nnodes + 1, sizeof *time);
		for (uint32_t rank = 0; rank < out->nranks; rank++) {
			const int64_t *v = laws[topology_class(target, rank)];
			for (size_t k = 0; k < width; k++)
				out->counts[(size_t)rank * width + k] = (uint64_t)v[k];
			for (uint32_t i = 0; i < rr->nnodes; i++)
				time[(size_t)rank * rr->nnodes + i] = rr->time_stats[(size_t)i * RUN_STAT_COUNT + RUN_STAT_MEAN];
		}
		run_time_stats(out, time);
		free(time);
	}
	for (uint32_t cls = 0; cls < nclasses; cls++)
		free(laws[cls]);
	if (!ok)
		drop_profile(out);
	return ok;
}
