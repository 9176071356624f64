/*
 * call_facts — what the exporters and the check that calls meet need to know of one recorded
 * call, read from its values by their parameter kinds: the communicator, the partner (absolute
 * world rank; the actual source of a wildcard receive), tag, message size, root, the bytes the
 * call moves by the project's byte accounting (mpi/volume.h), the request it creates and the
 * requests it completes.
 */
#ifndef LADDER_MEET_CALL_FACTS_H
#define LADDER_MEET_CALL_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "meet/comms.h"
#include "mpi/volume.h"
#include "run/events.h"

#define NO_VALUE INT64_MIN

struct call_facts {
	enum vol_class vol_class;   /* VOL_NONE for calls that move no data */
	uint32_t fn_flags;          /* FNF_* of the compiled-in descriptor (0 for unknown functions) */
	int64_t comm;               /* the call's communicator id, or NO_VALUE */
	int64_t dest, source;       /* partners as world ranks, or NO_VALUE (PROC_NULL, none) */
	bool any_source;            /* a wildcard receive whose actual source was not recorded */
	int64_t send_tag, recv_tag; /* or NO_VALUE */
	uint64_t send_size, recv_size;   /* point-to-point message sizes in bytes */
	int64_t root;               /* world rank, or NO_VALUE */
	struct vol vol;             /* bytes sent and received */
	int64_t request_slot;       /* slot of the request created (REQ_OUT), or NO_VALUE */
	const int64_t *requests;    /* requests used: (pool, slot) pairs */
	uint32_t nrequests;
	int64_t flag;               /* FLAG_OUT, or NO_VALUE */
	int64_t index;              /* INDEX_OUT, or NO_VALUE */
	const int64_t *indices;     /* INDICES_OUT */
	uint32_t nindices;
};

/* rank: the caller's world rank. The facts point into ev's values: valid until the next event. */
void call_facts_read(const struct event *ev, uint32_t rank, const struct comm_table *comms,
		     struct call_facts *f);

#endif
