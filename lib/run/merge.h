/*
 * merge — combining what ranks recorded into one run, the pure half of the tracer's merge at
 * MPI_Finalize (Pilgrim §2.5): the vocabulary (call signatures, call sites, strings, profile
 * call paths) as sets that merge by content, and groups (grammar, ranks, timing) that merge when
 * their grammars are identical. Both serialize, so a binomial tree of pairwise merges carries
 * them; the tracer moves them with MPI, tests simulate the tree for any rank count.
 */
#ifndef LADDER_RUN_MERGE_H
#define LADDER_RUN_MERGE_H

#include <stdint.h>
#include <uthash.h>

#include "run/run.h"
#include "util/buf.h"

struct vsig {
	uint64_t hash;
	uint32_t fn, flags, nvals, index;
	uint64_t callsite;
	int64_t *vals;
	struct vsig *collide;
	UT_hash_handle hh;
};

struct vsite {
	uint64_t id;
	uint32_t nframes;
	char **modules, **symbols;
	uint64_t *offsets;
	UT_hash_handle hh;
};

struct vstr {
	char *s;
	UT_hash_handle hh;
};

struct vnode {
	char *key;                 /* "parent kind name" */
	int32_t parent;
	uint8_t kind;
	char *name;
	uint32_t index;
	UT_hash_handle hh;
};

struct vocab {
	struct vsig **sigs;
	uint32_t nsigs;
	size_t capsigs;
	struct vsig *sig_index;
	struct vsite *sites;
	struct vstr *strs;
	struct vnode **nodes;
	uint32_t nnodes;
	size_t capnodes;
	struct vnode *node_index;
};

struct groups {
	struct run_group *g;
	uint32_t n, cap;
	uint64_t *hash;
	uint32_t maxbins;      /* bins per gap histogram */
};

uint32_t vocab_add_sig(struct vocab *v, uint32_t fn, uint32_t flags, uint64_t callsite,
		       const int64_t *vals, uint32_t n);
struct vsig *vocab_find_sig(struct vocab *v, uint32_t fn, uint32_t flags, uint64_t callsite,
			    const int64_t *vals, uint32_t n);
void vocab_add_site(struct vocab *v, uint64_t id, uint32_t n, const char *const *mods,
		    const uint64_t *offs, const char *const *syms);
void vocab_add_string(const char *str, void *arg);   /* arg: the vocab */
uint32_t vocab_add_node(struct vocab *v, int32_t parent, uint8_t kind, const char *name);
struct vnode *vocab_find_node(const struct vocab *v, int32_t parent, uint8_t kind, const char *name);
void vocab_serialize(void *acc, struct buf *b);      /* acc: the vocab */
void vocab_merge(void *acc, struct reader *rd);      /* add a serialized vocab */
void vocab_free(struct vocab *v);

/* the order of a group's durations (by signature) and gaps (by previous, signature) */
int run_dur_order(const void *a, const void *b);
int run_gap_order(const void *a, const void *b);

/* add a group (moved in: g is emptied); identical grammars merge */
void groups_add(struct groups *gs, struct run_group *g);
void groups_serialize(void *acc, struct buf *b);
void groups_merge(void *acc, struct reader *rd);
void groups_free(struct groups *gs);

#endif
