/*
 * clock — the clock a replay keeps compute gaps on (replay/timing.c), its default and the help
 * text that says why it is the default; shared by ladder-replay and `ladder replay`, which has
 * no MPI headers.
 */
#ifndef LADDER_REPLAY_CLOCK_H
#define LADDER_REPLAY_CLOCK_H

/* the thread's CPU time, or wall time */
enum rp_clock { RP_CLOCK_CPU, RP_CLOCK_WALL };
#define RP_CLOCK_DEFAULT RP_CLOCK_CPU
/* the help line of --clock cpu|wall (one paragraph; the help wraps it) */
#define RP_CLOCK_HELP \
	"cpu (default): compute each gap until the thread used its recorded CPU time, so a node shared " \
	"by more ranks than cores stretches it as it did the application's; wall: wait its recorded " \
	"wall time, which already holds the traced ranks' waiting for a core. cpu is the default: it " \
	"replays closer on oversubscribed nodes and where the ranks per core differ from the traced " \
	"run's (a ladder's rungs, an extrapolated target): stencil2d, cg, ft at 16 ranks on 2 cores " \
	"99/97/96% against 79/50/64% of the app's time (bench/run replay). Runs without CPU times " \
	"replay in wall time"

#endif
