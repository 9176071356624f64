/*
 * ladder-trace.h — the optional application interface of libladder-trace.so: user regions and
 * pausing, carried by MPI_Pcontrol so that an application using it still builds and runs without
 * the tracer (MPI_Pcontrol is then a no-op).
 *
 *   LADDER_REGION_BEGIN("solve");  ...  LADDER_REGION_END("solve");
 *   LADDER_PAUSE();  ...untraced...  LADDER_RESUME();
 *
 * Regions nest; each is a call path of the profile with its own exclusive time.
 */
#ifndef LADDER_TRACE_H
#define LADDER_TRACE_H

#include <mpi.h>

/* the levels (shared with the replayer); found next to this header in the source tree */
#include "../mpi/pcontrol.h"

#define LADDER_REGION_BEGIN(name) MPI_Pcontrol(LADDER_PCONTROL_REGION_BEGIN, (const char *)(name))
#define LADDER_REGION_END(name) MPI_Pcontrol(LADDER_PCONTROL_REGION_END, (const char *)(name))
#define LADDER_PAUSE() MPI_Pcontrol(LADDER_PCONTROL_PAUSE)
#define LADDER_RESUME() MPI_Pcontrol(LADDER_PCONTROL_RESUME)

#endif
