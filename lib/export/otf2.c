/*
 * otf2 — OTF2 archives through the OTF2 library. See otf2.h.
 *
 * Events go first, rank by rank (each location's writer is closed before the next opens, so only
 * one buffer is alive); the global definitions follow, once every location's event count and the
 * trace's length are known.
 */
#include "export/otf2.h"

#include <errno.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uthash.h>

#include "meet/call_facts.h"
#include "meet/comms.h"
#include "export/timeline.h"
#include "mpi/signature.h"
#include "util/log.h"
#include "util/xalloc.h"

#define NS_PER_SECOND 1000000000.0

/* ---- OTF2 plumbing ------------------------------------------------------------------------- */

static OTF2_FlushType flush_before(void *user, OTF2_FileType type, OTF2_LocationRef location,
				   void *caller, bool final)
{
	return OTF2_FLUSH;
}

static OTF2_TimeStamp flush_after(void *user, OTF2_FileType type, OTF2_LocationRef location)
{
	return 0;
}

static OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = flush_before,
					      .otf2_post_flush = flush_after};

static uint64_t ticks(double seconds)
{
	return seconds > 0 ? (uint64_t)(seconds * NS_PER_SECOND) : 0;
}

/* ---- what MPI records a call gets ----------------------------------------------------------- */

static const struct {
	const char *name;
	OTF2_CollectiveOp op;
} collective_ops[] = {
	{"MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER}, {"MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST},
	{"MPI_Gather", OTF2_COLLECTIVE_OP_GATHER}, {"MPI_Gatherv", OTF2_COLLECTIVE_OP_GATHERV},
	{"MPI_Scatter", OTF2_COLLECTIVE_OP_SCATTER}, {"MPI_Scatterv", OTF2_COLLECTIVE_OP_SCATTERV},
	{"MPI_Allgather", OTF2_COLLECTIVE_OP_ALLGATHER}, {"MPI_Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
	{"MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL}, {"MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
	{"MPI_Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW}, {"MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
	{"MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE}, {"MPI_Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
	{"MPI_Scan", OTF2_COLLECTIVE_OP_SCAN}, {"MPI_Exscan", OTF2_COLLECTIVE_OP_EXSCAN},
	{"MPI_Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
};

static int collective_op(const char *name)
{
	for (size_t i = 0; i < sizeof collective_ops / sizeof collective_ops[0]; i++)
		if (!strcmp(collective_ops[i].name, name))
			return (int)collective_ops[i].op;
	return -1;
}

/* A nonblocking send or receive waiting for its completion. */
struct pending_request {
	struct {
		int64_t pool, slot;
	} key;
	uint64_t id;                  /* OTF2's request id */
	bool receive;
	int64_t peer, comm, tag;      /* receives: what the completion reports */
	uint64_t size;
	UT_hash_handle hh;
};

/* One rank's writing state. */
struct location {
	OTF2_EvtWriter *w;
	uint32_t rank;
	const struct comm_table *comms;
	const int64_t *comm_ref;      /* comm table index -> OTF2 comm ref (same order) */
	struct pending_request *pending;
	uint64_t next_request, events;
};

/* OTF2's communicators are the instances, then MPI_COMM_SELF */
static OTF2_CommRef comm_ref(const struct location *l, int64_t comm)
{
	if (comm == COMM_ID_SELF)
		return (OTF2_CommRef)l->comms->ninstances;
	int64_t in = comm_instance_of(l->comms, l->rank, comm);
	return in < 0 ? OTF2_UNDEFINED_COMM : (OTF2_CommRef)in;
}

static uint32_t rank_in(const struct location *l, int64_t comm, int64_t world)
{
	if (world == NO_VALUE)
		return OTF2_UNDEFINED_UINT32;
	int64_t r = comm_rank_of(l->comms, l->rank, comm, (uint32_t)world);
	return r < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)r;
}

static uint32_t tag_of(int64_t tag)
{
	return tag == NO_VALUE || tag < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)tag;
}

static void remember_request(struct location *l, const struct event *ev, const struct call_facts *f,
			     OTF2_TimeStamp t)
{
	if ((f->vol_class == VOL_RECV ? f->source : f->dest) == NO_VALUE)
		return;     /* to or from MPI_PROC_NULL: no message */
	struct pending_request *p = xcalloc(1, sizeof *p);
	p->key.pool = (int64_t)ev->req_key;
	p->key.slot = f->request_slot;
	p->id = l->next_request++;
	p->receive = f->vol_class == VOL_RECV;
	p->comm = f->comm;
	p->peer = p->receive ? f->source : f->dest;
	p->tag = p->receive ? f->recv_tag : f->send_tag;
	p->size = p->receive ? f->recv_size : f->send_size;
	struct pending_request *old = NULL;
	HASH_FIND(hh, l->pending, &p->key, sizeof p->key, old);
	if (old) {
		HASH_DEL(l->pending, old);
		free(old);
	}
	HASH_ADD(hh, l->pending, key, sizeof p->key, p);
	OTF2_CommRef c = comm_ref(l, p->comm);
	if (p->receive)
		OTF2_EvtWriter_MpiIrecvRequest(l->w, NULL, t, p->id);
	else
		OTF2_EvtWriter_MpiIsend(l->w, NULL, t, rank_in(l, p->comm, p->peer), c, tag_of(p->tag),
					p->size, p->id);
	l->events++;
}

static void complete_request(struct location *l, const int64_t *name, OTF2_TimeStamp t)
{
	struct pending_request *p = NULL;
	struct {
		int64_t pool, slot;
	} key = {name[0], name[1]};
	if (sv_is_symbolic(key.pool) || sv_is_symbolic(key.slot))
		return;
	HASH_FIND(hh, l->pending, &key, sizeof key, p);
	if (!p)
		return;
	if (p->receive)
		OTF2_EvtWriter_MpiIrecv(l->w, NULL, t, rank_in(l, p->comm, p->peer), comm_ref(l, p->comm),
					tag_of(p->tag), p->size, p->id);
	else
		OTF2_EvtWriter_MpiIsendComplete(l->w, NULL, t, p->id);
	l->events++;
	HASH_DEL(l->pending, p);
	free(p);
}

/* Wait, Waitall, Waitany, Waitsome, Test*: which of the listed requests completed */
static void complete_requests(struct location *l, const struct call_facts *f, OTF2_TimeStamp t)
{
	if (f->flag == 0)
		return;
	if (f->index != NO_VALUE) {
		if (f->index >= 0 && (uint64_t)f->index < f->nrequests)
			complete_request(l, f->requests + 2 * f->index, t);
		return;
	}
	if (f->indices) {
		for (uint32_t i = 0; i < f->nindices; i++)
			if (f->indices[i] >= 0 && (uint64_t)f->indices[i] < f->nrequests)
				complete_request(l, f->requests + 2 * f->indices[i], t);
		return;
	}
	for (uint32_t i = 0; i < f->nrequests; i++)
		complete_request(l, f->requests + 2 * i, t);
}

/* the MPI records between a call's Enter (t0) and Leave (t1) */
static void write_mpi_records(struct location *l, const struct event *ev, const struct call_facts *f,
			      OTF2_TimeStamp t0, OTF2_TimeStamp t1)
{
	OTF2_CommRef c = comm_ref(l, f->comm);
	if (f->fn_flags & FNF_COMPLETE) {
		complete_requests(l, f, t1);
		return;
	}
	if ((f->fn_flags & FNF_P2P) && !(f->fn_flags & FNF_PERSISTENT) && f->request_slot != NO_VALUE) {
		if (f->vol_class == VOL_SEND || f->vol_class == VOL_RECV)
			remember_request(l, ev, f, t0);
		return;
	}
	if ((f->vol_class == VOL_SEND || f->vol_class == VOL_SENDRECV) && f->dest != NO_VALUE) {
		OTF2_EvtWriter_MpiSend(l->w, NULL, t0, rank_in(l, f->comm, f->dest), c, tag_of(f->send_tag),
				       f->send_size);
		l->events++;
	}
	if ((f->vol_class == VOL_RECV || f->vol_class == VOL_SENDRECV) && f->source != NO_VALUE) {
		OTF2_EvtWriter_MpiRecv(l->w, NULL, t1, rank_in(l, f->comm, f->source), c,
				       tag_of(f->recv_tag), f->recv_size);
		l->events++;
	}
	int op = collective_op(ev->fn->name);
	if (op >= 0) {
		OTF2_EvtWriter_MpiCollectiveBegin(l->w, NULL, t0);
		OTF2_EvtWriter_MpiCollectiveEnd(l->w, NULL, t1, (OTF2_CollectiveOp)op, c,
						rank_in(l, f->comm, f->root), f->vol.sent, f->vol.recv);
		l->events += 2;
	}
}

/* ---- events -------------------------------------------------------------------------------- */

static bool write_location(OTF2_Archive *archive, const struct run *r, struct location *l,
			   const struct export_options *o, struct export_stats *st, double *end,
			   char *why, size_t whylen)
{
	l->w = OTF2_Archive_GetEvtWriter(archive, l->rank);
	if (!l->w) {
		snprintf(why, whylen, "OTF2 could not open the event writer of rank %u", l->rank);
		return false;
	}
	struct timeline t;
	timeline_init(&t, r, l->rank);
	struct timed_event te;
	uint64_t written = 0;
	while (!export_rank_full(o, written) && timeline_next(&t, &te)) {
		if (export_past_window(o, te.start))
			break;
		if (!export_in_window(o, te.start, te.start + te.dur))
			continue;
		struct call_facts f;
		call_facts_read(&te.ev, l->rank, l->comms, &f);
		OTF2_TimeStamp t0 = ticks(te.start), t1 = ticks(te.start + te.dur);
		OTF2_RegionRef region = (OTF2_RegionRef)te.ev.s->fn;
		OTF2_EvtWriter_Enter(l->w, NULL, t0, region);
		write_mpi_records(l, &te.ev, &f, t0, t1);
		OTF2_EvtWriter_Leave(l->w, NULL, t1, region);
		l->events += 2;
		written++;
		if (te.start + te.dur > *end)
			*end = te.start + te.dur;
	}
	bool ok = !timeline_error(&t);
	if (!ok)
		snprintf(why, whylen, "%s", timeline_error(&t));
	if (!t.recorded)
		st->recorded_times = false;
	timeline_free(&t);
	struct pending_request *p, *tmp;
	HASH_ITER(hh, l->pending, p, tmp) {
		HASH_DEL(l->pending, p);
		free(p);
	}
	st->events += written;
	st->ranks++;
	return OTF2_Archive_CloseEvtWriter(archive, l->w) == OTF2_SUCCESS && ok;
}

/* ---- definitions ---------------------------------------------------------------------------- */

struct defs {
	OTF2_GlobalDefWriter *w;
	uint32_t next_string;
};

static OTF2_StringRef string(struct defs *d, const char *s)
{
	OTF2_StringRef id = d->next_string++;
	OTF2_GlobalDefWriter_WriteString(d->w, id, s ? s : "");
	return id;
}

static OTF2_RegionRole region_role(const struct fn_desc *f)
{
	if (!strcmp(f->name, "MPI_Barrier"))
		return OTF2_REGION_ROLE_BARRIER;
	if (f->flags & FNF_COLLECTIVE)
		return OTF2_REGION_ROLE_COLL_OTHER;
	if (f->flags & FNF_P2P)
		return OTF2_REGION_ROLE_POINT2POINT;
	return OTF2_REGION_ROLE_FUNCTION;
}

/* the selected ranks only: a location is a file of its own in the archive */
static void define_locations(struct defs *d, const struct run *r, const struct export_options *o,
			     const uint64_t *events)
{
	OTF2_GlobalDefWriter_WriteSystemTreeNode(d->w, 0, string(d, r->host && r->host[0] ? r->host : "host"),
						 string(d, "machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	uint32_t group = 0;   /* location groups are numbered densely, locations by rank */
	for (uint32_t q = 0; q < r->nranks; q++) {
		if (!export_rank_selected(o, q))
			continue;
		char name[32];
		snprintf(name, sizeof name, "MPI rank %u", q);
		OTF2_StringRef s = string(d, name);
		OTF2_GlobalDefWriter_WriteLocationGroup(d->w, group, s, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
							OTF2_UNDEFINED_LOCATION_GROUP);
		OTF2_GlobalDefWriter_WriteLocation(d->w, q, s, OTF2_LOCATION_TYPE_CPU_THREAD, events[q], group);
		group++;
	}
}

static void define_regions(struct defs *d, const struct run *r)
{
	OTF2_StringRef empty = string(d, "");
	OTF2_StringRef mpi = string(d, "MPI");
	for (uint32_t i = 0; i < r->nfns; i++) {
		OTF2_StringRef name = string(d, r->fns[i].name);
		OTF2_GlobalDefWriter_WriteRegion(d->w, i, name, name, empty, region_role(&r->fns[i]),
						 OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, mpi, 0, 0);
	}
}

/* group 0: the locations of MPI_COMM_WORLD; then one group and one comm per communicator instance */
static void define_communicators(struct defs *d, const struct run *r, const struct comm_table *comms)
{
	uint64_t *members = xcalloc(r->nranks ? r->nranks : 1, sizeof *members);
	for (uint32_t q = 0; q < r->nranks; q++)
		members[q] = q;   /* location q is rank q */
	OTF2_GlobalDefWriter_WriteGroup(d->w, 0, string(d, "MPI_COMM_WORLD locations"),
					OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
					r->nranks, members);
	for (uint32_t i = 0; i < comms->ninstances; i++) {
		const struct comm_instance *m = &comms->instances[i];
		char name[64];
		if (i == 0)
			snprintf(name, sizeof name, "MPI_COMM_WORLD");
		else if (m->ranks && m->n)
			snprintf(name, sizeof name, "comm#%lld with rank %u", (long long)m->id, m->ranks[0]);
		else
			snprintf(name, sizeof name, "comm#%lld", (long long)m->id);
		uint32_t n = m->ranks ? m->n : r->nranks;
		for (uint32_t k = 0; k < n; k++)
			members[k] = m->ranks ? m->ranks[k] : k;
		OTF2_StringRef s = string(d, name);
		OTF2_GlobalDefWriter_WriteGroup(d->w, i + 1, s, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
						OTF2_GROUP_FLAG_NONE, n, members);
		OTF2_GlobalDefWriter_WriteComm(d->w, i, s, i + 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	}
	OTF2_StringRef self = string(d, "MPI_COMM_SELF");
	OTF2_GlobalDefWriter_WriteGroup(d->w, comms->ninstances + 1, self, OTF2_GROUP_TYPE_COMM_SELF,
					OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, NULL);
	OTF2_GlobalDefWriter_WriteComm(d->w, comms->ninstances, self, comms->ninstances + 1,
				       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	free(members);
}

static bool write_definitions(OTF2_Archive *archive, const struct run *r, const struct comm_table *comms,
			      const struct export_options *o, const uint64_t *events, double end)
{
	struct defs d = {OTF2_Archive_GetGlobalDefWriter(archive), 0};
	if (!d.w)
		return false;
	OTF2_GlobalDefWriter_WriteClockProperties(d.w, (uint64_t)NS_PER_SECOND, ticks(r->t_start), ticks(end),
						  OTF2_UNDEFINED_TIMESTAMP);
	OTF2_GlobalDefWriter_WriteParadigm(d.w, OTF2_PARADIGM_MPI, string(&d, "MPI"), OTF2_PARADIGM_CLASS_PROCESS);
	define_locations(&d, r, o, events);
	define_regions(&d, r);
	define_communicators(&d, r, comms);
	return true;
}

/* every location needs its (here empty) local definitions */
static bool write_local_definitions(OTF2_Archive *archive, const struct run *r, const struct export_options *o)
{
	if (OTF2_Archive_OpenDefFiles(archive) != OTF2_SUCCESS)
		return false;
	for (uint32_t q = 0; q < r->nranks; q++) {
		if (!export_rank_selected(o, q))
			continue;
		OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(archive, q);
		if (!w || OTF2_Archive_CloseDefWriter(archive, w) != OTF2_SUCCESS)
			return false;
	}
	return OTF2_Archive_CloseDefFiles(archive) == OTF2_SUCCESS;
}

/* ---- the archive ---------------------------------------------------------------------------- */

static bool prepare_directory(const char *dir, char *why, size_t whylen)
{
	if (mkdir(dir, 0777) == 0)
		return true;
	if (errno != EEXIST) {
		snprintf(why, whylen, "%s: cannot create the archive directory: %s", dir, strerror(errno));
		return false;
	}
	struct stat sb;
	if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {   /* a file, a device: OTF2 cannot write into it */
		snprintf(why, whylen, "%s: exists and is not a directory; the OTF2 archive needs a directory", dir);
		return false;
	}
	char probe[4096];
	snprintf(probe, sizeof probe, "%s/traces.otf2", dir);
	if (stat(probe, &sb) == 0) {
		snprintf(why, whylen, "%s: already holds an OTF2 archive (traces.otf2); remove it or choose "
			 "another directory", dir);
		return false;
	}
	return true;
}

static bool write_events(OTF2_Archive *archive, const struct run *r, const struct comm_table *comms,
			 const struct export_options *o, struct export_stats *st, uint64_t *events,
			 double *end, char *why, size_t whylen)
{
	if (OTF2_Archive_OpenEvtFiles(archive) != OTF2_SUCCESS) {
		snprintf(why, whylen, "OTF2 could not open the event files");
		return false;
	}
	bool ok = true;
	for (uint32_t q = 0; q < r->nranks && ok; q++) {
		if (!export_rank_selected(o, q))
			continue;
		struct location l = {.rank = q, .comms = comms};
		ok = write_location(archive, r, &l, o, st, end, why, whylen);
		events[q] = l.events;
		progress_update("export", (long)q + 1, (long)r->nranks);
	}
	progress_end();
	if (OTF2_Archive_CloseEvtFiles(archive) != OTF2_SUCCESS && ok) {
		snprintf(why, whylen, "OTF2 could not close the event files");
		ok = false;
	}
	return ok;
}

bool export_otf2(const struct run *r, const char *dir, const struct export_options *o,
		 struct export_stats *st, char *why, size_t whylen)
{
	memset(st, 0, sizeof *st);
	st->recorded_times = true;
	if (!prepare_directory(dir, why, whylen))
		return false;
	OTF2_Archive *archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
						  OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!archive) {
		snprintf(why, whylen, "%s: OTF2 could not create the archive", dir);
		return false;
	}
	OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(archive);
	OTF2_Archive_SetCreator(archive, "ladder export " LADDER_VERSION);
	struct comm_table comms;
	comm_table_build(&comms, r);
	uint64_t *events = xcalloc(r->nranks ? r->nranks : 1, sizeof *events);
	double end = 0;
	bool ok = write_events(archive, r, &comms, o, st, events, &end, why, whylen);
	if (ok && !write_local_definitions(archive, r, o)) {
		snprintf(why, whylen, "%s: OTF2 could not write the local definitions", dir);
		ok = false;
	}
	if (ok && !write_definitions(archive, r, &comms, o, events, end)) {
		snprintf(why, whylen, "%s: OTF2 could not write the global definitions", dir);
		ok = false;
	}
	OTF2_Archive_SetProperty(archive, "LADDER::TIMESTAMPS",
				 export_timestamps_kind(st->recorded_times && st->events), true);
	OTF2_Archive_SetProperty(archive, "LADDER::SYNTHETIC_RUN", r->synthetic ? "true" : "false", true);
	if (OTF2_Archive_Close(archive) != OTF2_SUCCESS && ok) {
		snprintf(why, whylen, "%s: OTF2 could not close the archive", dir);
		ok = false;
	}
	free(events);
	comm_table_free(&comms);
	return ok;
}
