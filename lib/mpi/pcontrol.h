/*
 * pcontrol — the MPI_Pcontrol levels the tracer understands: pausing, user regions and the
 * replayer's wildcard marker. The application interface (lib/trace/ladder-trace.h) wraps them
 * in macros; the tracer interprets them and the replayer issues them. Dependency-free.
 */
#ifndef LADDER_MPI_PCONTROL_H
#define LADDER_MPI_PCONTROL_H

#define LADDER_PCONTROL_PAUSE 0
#define LADDER_PCONTROL_RESUME 1
#define LADDER_PCONTROL_REGION_BEGIN 0x1add01
#define LADDER_PCONTROL_REGION_END 0x1add02
/* For ladder-replay: the next receive or probe, posted with a definite source, replays an
 * MPI_ANY_SOURCE call and is recorded as one (with that source as the actual source). Not itself
 * recorded. */
#define LADDER_PCONTROL_REPLAY_ANY_SOURCE 0x1add03

#endif
