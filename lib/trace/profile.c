/*
 * profile — per call path: visits, exclusive time, bytes and messages sent and received (the
 * Extra-P input). A call path is a chain of user regions (MPI_Pcontrol, ladder-trace.h) ending in
 * a region or an MPI function. The root region "main" spans MPI_Init to MPI_Finalize; its
 * exclusive time is the computation outside MPI and outside user regions. Time the tracer itself
 * spends is excluded from every region.
 */
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "trace/tracer.h"
#include "util/xalloc.h"

struct pkey {
	int32_t parent;
	uint32_t kind;
	uint64_t name;     /* function id, string hash, or unknown-function index */
};

struct pnode {
	struct pkey key;
	uint32_t index;
	double m[PM_COUNT];
	UT_hash_handle hh;
};

struct frame {
	uint32_t node;
	double t_enter, child_time;
	uint64_t name;
};

static struct pnode **nodes;
static uint32_t nnodes, capnodes;
static struct pnode *index_;
static struct frame *stack;
static uint32_t depth, capdepth;

static uint32_t node_get(int32_t parent, uint32_t kind, uint64_t name)
{
	struct pkey k;
	memset(&k, 0, sizeof k);
	k.parent = parent;
	k.kind = kind;
	k.name = name;
	struct pnode *n;
	HASH_FIND(hh, index_, &k, sizeof k, n);
	if (n)
		return n->index;
	n = xcalloc(1, sizeof *n);
	n->key = k;
	n->index = nnodes;
	HASH_ADD(hh, index_, key, sizeof n->key, n);
	if (nnodes == capnodes) {
		capnodes = capnodes ? 2 * capnodes : 32;
		nodes = xrealloc(nodes, capnodes * sizeof *nodes);
	}
	nodes[nnodes++] = n;
	return n->index;
}

void profile_start(double now)
{
	capdepth = 16;
	stack = xmalloc(capdepth * sizeof *stack);
	depth = 1;
	stack[0].node = node_get(-1, PNODE_REGION, trace_intern("main"));
	stack[0].t_enter = now;
	stack[0].child_time = 0;
	stack[0].name = trace_intern("main");
}

void trace_profile_call(struct tcall *c, double dur, struct profile_hint *hint)
{
	if (!depth)
		return;
	struct frame *top = &stack[depth - 1];
	if (!hint->valid || hint->region != top->node) {
		hint->node = node_get((int32_t)top->node, PNODE_FUNCTION, c->fn);   /* may move nodes */
		hint->region = top->node;
		hint->valid = true;
	}
	struct pnode *n = nodes[hint->node];
	n->m[RUN_PC_VISITS] += 1;
	n->m[PM_TIME] += dur;
	n->m[RUN_PC_BYTES_SENT] += (double)c->bytes_sent;
	n->m[RUN_PC_BYTES_RECV] += (double)c->bytes_recv;
	n->m[RUN_PC_MSGS_SENT] += c->msgs_sent;
	n->m[RUN_PC_MSGS_RECV] += c->msgs_recv;
	top->child_time += dur;
}

void profile_overhead(double t)
{
	if (depth)
		stack[depth - 1].child_time += t;
}

void profile_unknown(int idx)
{
	if (!depth)
		return;
	uint32_t i = node_get((int32_t)stack[depth - 1].node, PNODE_UNKNOWN, (uint64_t)idx);
	nodes[i]->m[RUN_PC_VISITS] += 1;
}

static void close_frame(double now)
{
	struct frame *f = &stack[--depth];
	struct pnode *n = nodes[f->node];
	double incl = now - f->t_enter;
	n->m[RUN_PC_VISITS] += 1;
	n->m[PM_TIME] += incl - f->child_time > 0 ? incl - f->child_time : 0;
	if (depth)
		stack[depth - 1].child_time += incl;
}

void profile_region_begin(uint64_t name, double now)
{
	if (!depth)
		return;
	if (depth == capdepth) {
		capdepth *= 2;
		stack = xrealloc(stack, capdepth * sizeof *stack);
	}
	stack[depth].node = node_get((int32_t)stack[depth - 1].node, PNODE_REGION, name);
	stack[depth].t_enter = now;
	stack[depth].child_time = 0;
	stack[depth].name = name;
	depth++;
}

/* Close the innermost region of that name (and any left open inside it); a region that is not
 * open is ignored. */
void profile_region_end(uint64_t name, double now)
{
	for (uint32_t d = depth; d > 1; d--)
		if (stack[d - 1].name == name) {
			while (depth >= d)
				close_frame(now);
			return;
		}
}

void profile_stop(double now)
{
	while (depth)
		close_frame(now);
}

uint32_t profile_nodes(void) { return nnodes; }

/* the node's parent, kind and name, and its metrics */
void profile_node(uint32_t i, int32_t *parent, uint8_t *kind, const char **name, const double **m)
{
	struct pnode *n = nodes[i];
	*parent = n->key.parent;
	*kind = (uint8_t)n->key.kind;
	if (n->key.kind == PNODE_FUNCTION)
		*name = ladder_functions[n->key.name].name;
	else if (n->key.kind == PNODE_UNKNOWN)
		*name = trace_unknown_names[n->key.name];
	else
		*name = trace_string((int64_t)n->key.name);
	*m = n->m;
}

void profile_fini(void)
{
	struct pnode *n, *tmp;
	HASH_ITER(hh, index_, n, tmp) {
		HASH_DEL(index_, n);
		free(n);
	}
	free(nodes);
	free(stack);
	nodes = NULL;
	stack = NULL;
	nnodes = capnodes = depth = capdepth = 0;
}
