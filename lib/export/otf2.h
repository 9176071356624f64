/*
 * otf2 — a run as an OTF2 archive (the format of Vampir, Scalasca and Score-P), written with the
 * OTF2 library: one location per rank, a region per MPI function, Enter/Leave per call with OTF2's
 * MPI records inside (MpiSend/MpiRecv, MpiIsend/MpiIsendComplete, MpiIrecvRequest/MpiIrecv,
 * MpiCollectiveBegin/End with their communicators, partners, tags, roots and sizes), every
 * communicator defined with its members. The archive's property LADDER::TIMESTAMPS says whether
 * the times were recorded or synthesized (see timeline.h). Events are written rank by rank through
 * OTF2's buffered writers: memory does not depend on the number of calls.
 */
#ifndef LADDER_EXPORT_OTF2_H
#define LADDER_EXPORT_OTF2_H

#include <stdbool.h>
#include <stddef.h>

#include "export/export.h"
#include "run/run.h"

/* dir: the archive's directory (created; must not exist or be empty). The archive is
 * DIR/traces.otf2. False with a message in why. */
bool export_otf2(const struct run *r, const char *dir, const struct export_options *o,
		 struct export_stats *st, char *why, size_t whylen);

#endif
