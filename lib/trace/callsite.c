/*
 * callsite — the call site of an MPI call: the chain of return addresses above the wrapper (depth
 * LADDER_TRACE_CALLSITE_DEPTH, 1 by default), each made position-independent as (module, offset)
 * so that every rank computes the same id despite address-space randomisation. Ids are cached
 * per return address when the depth is 1; deeper chains are unwound at every call.
 * Frames are kept for the run's call-site table, with the nearest dynamic symbol when there is one.
 */
#include <dlfcn.h>
#include <execinfo.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tracer.h"
#include "util/hash.h"
#include "util/xalloc.h"

#define MAX_DEPTH 16

struct addr_ent {                 /* return address -> module-relative frame */
	void *addr;
	uint64_t hash;
	char *module;
	uint64_t offset;
	char *symbol;
	UT_hash_handle hh;
};

struct site {                     /* callsite id -> its frames */
	uint64_t id;
	uint32_t nframes;
	struct addr_ent *frames[MAX_DEPTH];
	UT_hash_handle hh;
};

static struct addr_ent *addrs;
static struct site *sites;
static int depth = 1;

static struct addr_ent *frame_of(void *addr)
{
	struct addr_ent *e;
	HASH_FIND_PTR(addrs, &addr, e);
	if (e)
		return e;
	e = xcalloc(1, sizeof *e);
	e->addr = addr;
	Dl_info info;
	const char *module = "?";
	uintptr_t base = 0;
	if (dladdr(addr, &info) && info.dli_fname) {
		module = info.dli_fname;
		base = (uintptr_t)info.dli_fbase;
		if (info.dli_sname)
			e->symbol = xstrdup(info.dli_sname);
	}
	e->module = xstrdup(module);
	if (!e->symbol)
		e->symbol = xstrdup("");
	e->offset = (uint64_t)((uintptr_t)addr - base);
	const char *slash = strrchr(module, '/');
	const char *basename = slash ? slash + 1 : module;
	e->hash = hash_combine(hash_bytes(basename, strlen(basename), 0), e->offset);
	HASH_ADD_PTR(addrs, addr, e);
	return e;
}

static uint64_t site_of(struct addr_ent **frames, uint32_t n)
{
	uint64_t id = hash_mix64(n);
	for (uint32_t i = 0; i < n; i++)
		id = hash_combine(id, frames[i]->hash);
	struct site *s;
	HASH_FIND(hh, sites, &id, sizeof id, s);
	if (!s) {
		s = xcalloc(1, sizeof *s);
		s->id = id;
		s->nframes = n;
		memcpy(s->frames, frames, n * sizeof *frames);
		HASH_ADD(hh, sites, id, sizeof s->id, s);
	}
	return id;
}

void callsite_init(int d)
{
	depth = d < 1 ? 1 : d > MAX_DEPTH ? MAX_DEPTH : d;
	if (depth > 1) {            /* the first backtrace loads the unwinder: not inside a call */
		void *warm[4];
		backtrace(warm, 4);
	}
}

/* depth 1: return address -> call site id, direct mapped */
static struct {
	void *addr;
	uint64_t id;
} recent[512];

uint64_t callsite_of(void *ret_addr)
{
	struct addr_ent *frames[MAX_DEPTH];
	if (depth == 1) {
		size_t k = ((uintptr_t)ret_addr >> 2) & 511;
		if (recent[k].addr == ret_addr)
			return recent[k].id;
		frames[0] = frame_of(ret_addr);
		recent[k].addr = ret_addr;
		recent[k].id = site_of(frames, 1);
		return recent[k].id;
	}
	void *bt[MAX_DEPTH + 8];
	int n = backtrace(bt, MAX_DEPTH + 8);
	int start = 0;
	while (start < n && bt[start] != ret_addr)
		start++;
	if (start == n) {            /* not found (inlined wrapper?): fall back to the immediate caller */
		bt[0] = ret_addr;
		start = 0;
		n = 1;
	}
	uint32_t k = 0;
	for (int i = start; i < n && k < (uint32_t)depth; i++)
		frames[k++] = frame_of(bt[i]);
	return site_of(frames, k);
}

/* the frames of every call site seen, for the run's call-site table */
void callsite_each(void (*fn)(uint64_t id, uint32_t nframes, const char *const *modules,
			      const uint64_t *offsets, const char *const *symbols, void *arg),
		   void *arg)
{
	struct site *s, *tmp;
	HASH_ITER(hh, sites, s, tmp) {
		const char *mods[MAX_DEPTH], *syms[MAX_DEPTH];
		uint64_t offs[MAX_DEPTH];
		for (uint32_t i = 0; i < s->nframes; i++) {
			mods[i] = s->frames[i]->module;
			syms[i] = s->frames[i]->symbol;
			offs[i] = s->frames[i]->offset;
		}
		fn(s->id, s->nframes, mods, offs, syms, arg);
	}
}

void callsite_fini(void)
{
	memset(recent, 0, sizeof recent);
	struct site *s, *stmp;
	HASH_ITER(hh, sites, s, stmp) {
		HASH_DEL(sites, s);
		free(s);
	}
	struct addr_ent *e, *etmp;
	HASH_ITER(hh, addrs, e, etmp) {
		HASH_DEL(addrs, e);
		free(e->module);
		free(e->symbol);
		free(e);
	}
}
