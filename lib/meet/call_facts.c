/*
 * call_facts — one call's communication facts from its values. See call_facts.h.
 */
#include "meet/call_facts.h"

#include <string.h>

#include "mpi/fninfo.h"
#include "mpi/signature.h"

static int64_t world_of(int64_t relative, uint32_t rank)
{
	return sv_is_symbolic(relative) ? NO_VALUE : relative + (int64_t)rank;
}

static int64_t plain(int64_t v)
{
	return sv_is_symbolic(v) ? NO_VALUE : v;
}

/* one parameter group: what its kind tells */
static void read_group(struct call_facts *f, enum param_kind k, const int64_t *v, uint32_t rank,
		       bool *after_dest)
{
	switch (k) {
	case PK_COMM:
		if (f->comm == NO_VALUE)
			f->comm = plain(v[0]);
		return;
	case PK_PEER:
		f->dest = world_of(v[0], rank);
		*after_dest = true;
		return;
	case PK_SRC:
		f->source = world_of(v[0] == SV_ANY_SOURCE ? v[1] : v[0], rank);
		f->any_source = v[0] == SV_ANY_SOURCE && f->source == NO_VALUE;
		*after_dest = false;
		return;
	case PK_TAG:     /* a tag follows the partner it goes with */
		if (*after_dest)
			f->send_tag = plain(v[0]);
		else
			f->recv_tag = plain(v[0]);
		return;
	case PK_ROOT:
		f->root = plain(v[0]);
		return;
	case PK_REQ_OUT:
		f->request_slot = plain(v[0]);
		return;
	case PK_REQ:
		f->requests = v;
		f->nrequests = 1;
		return;
	case PK_REQS:
		f->requests = v + 1;
		f->nrequests = sv_is_symbolic(v[0]) || v[0] < 0 ? 0 : (uint32_t)v[0];
		return;
	case PK_FLAG_OUT:
		f->flag = plain(v[0]);
		return;
	case PK_INDEX_OUT:
		f->index = plain(v[0]);
		return;
	case PK_INDICES_OUT:
		f->indices = v + 1;
		f->nindices = sv_is_symbolic(v[0]) || v[0] < 0 ? 0 : (uint32_t)v[0];
		return;
	default:
		return;
	}
}

static void account(struct call_facts *f, const struct mpi_fninfo *info, const int64_t *const *groups,
		    uint32_t rank, const struct comm_table *comms)
{
	const int64_t *args[VOL_MAXARGS] = {0};
	for (int a = 0; a < VOL_MAXARGS && info->vol_args[a] >= 0; a++)
		args[a] = groups[info->vol_args[a]];
	struct vol_ctx q = {0};
	q.world_rank = rank;
	if (f->comm != NO_VALUE) {
		q.size = comm_size(comms, rank, f->comm);
		q.rank = comm_rank_of(comms, rank, f->comm, rank);
	}
	vol_account(info->vol, args, &q, &f->vol);
	struct vol one = {0};
	switch (info->vol) {
	case VOL_SEND:
		f->send_size = f->vol.sent;
		break;
	case VOL_RECV: case VOL_MRECV:
		f->recv_size = f->vol.recv;
		break;
	case VOL_SENDRECV:
		vol_account(VOL_SEND, args, &q, &one);
		f->send_size = one.sent;
		f->recv_size = f->vol.recv;
		break;
	default:
		break;
	}
}

/* the function's id in ladder's table: fn_lookup searches the table name by name, too slow for
 * every call of an export, so the id found for a descriptor is kept and checked by its name */
static int function_id(const struct fn_desc *d)
{
	static struct {
		const struct fn_desc *d;
		int id;
	} kept[64];
	size_t h = ((uintptr_t)d / sizeof *d) % (sizeof kept / sizeof *kept);
	if (kept[h].d == d && kept[h].id >= 0 && !strcmp(ladder_functions[kept[h].id].name, d->name))
		return kept[h].id;
	kept[h].d = d;
	kept[h].id = fn_lookup(d->name);
	return kept[h].id;
}

void call_facts_read(const struct event *ev, uint32_t rank, const struct comm_table *comms,
		     struct call_facts *f)
{
	memset(f, 0, sizeof *f);
	f->comm = f->dest = f->source = f->send_tag = f->recv_tag = f->root = NO_VALUE;
	f->request_slot = f->flag = f->index = NO_VALUE;
	const struct fn_desc *d = ev->fn;
	const int64_t *groups[FN_MAXPARAMS] = {0};
	bool after_dest = false;
	PARAM_FOR (w, d, ev->vals, ev->nvals) {
		if (w.p < FN_MAXPARAMS)   /* the table's functions: what the accounting reads */
			groups[w.p] = w.v;
		read_group(f, w.kind, w.v, rank, &after_dest);
	}
	int id = function_id(d);
	if (id < 0 || (uint32_t)id >= mpi_nfninfo)
		return;
	f->fn_flags = ladder_functions[id].flags;
	f->vol_class = mpi_fninfo[id].vol;
	if (f->vol_class != VOL_NONE)
		account(f, &mpi_fninfo[id], groups, rank, comms);
}
