/*
 * mw — master-worker with dynamic work assignment. Rank 0 hands out tasks; workers (ranks 1..P-1)
 * ask for work, compute, and return results. Each iteration is a round over all tasks:
 *   worker: MPI_Send "ready" (16 bytes) to rank 0; then repeatedly MPI_Recv a task (8 bytes, any tag)
 *           and, unless it is the stop message, compute it and MPI_Send the result (16 bytes);
 *   master: MPI_Recv from MPI_ANY_SOURCE (tag = the round) and answer the sender with the next task,
 *           or with a stop message once every task is handed out, until every worker has stopped.
 * Which worker runs which task, and in what order results arrive, is not deterministic; the totals
 * are: per round T + W worker sends and master receives (16 bytes each), T + W master sends and
 * worker receives (8 bytes each), for T tasks and W = P - 1 workers. --expect prints totals only.
 *
 * Task g costs 64 * (1 + hash(g) % 8) cells of K busy-work units (--compute, at least 1 unit per
 * cell); its result depends on g only and the master sums the results order-independently, so the
 * checksum does not depend on the rank count. --size N tasks per round (strong) or per worker (weak).
 */
#include <stdio.h>

#include "common.h"

enum { TAG_TASK = 1, TAG_STOP = 2 };

static long tasks(const struct params *p, int P)
{
	return p->scaling == SCALING_STRONG ? p->size : p->size * (P - 1);
}

static int mw_check(const struct params *p, int P, char *msg, size_t len)
{
	if (P < 2) {
		snprintf(msg, len, "needs at least 2 ranks (a master and a worker), got %d", P);
		return -1;
	}
	if (p->iterations > 32767) { /* the round is the message tag; MPI guarantees tags up to 32767 */
		snprintf(msg, len, "--iterations %ld is more than 32767 rounds", p->iterations);
		return -1;
	}
	return 0;
}

static void mw_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t msgs = (uint64_t)p->iterations * (uint64_t)(tasks(p, P) + P - 1);
	expect_add(t, 0, "MPI_Send", 2 * msgs, 16 * msgs + 8 * msgs, 0);
	expect_add(t, 0, "MPI_Recv", 2 * msgs, 0, 16 * msgs + 8 * msgs);
}

static uint64_t task_result(uint64_t g, long units)
{
	uint64_t h = mix64(g);
	long cells = 64 * (1 + (long)(h % 8));
	for (long c = 0; c < cells; c++)
		h = busywork(h ^ (uint64_t)c, units > 0 ? units : 1);
	return h;
}

static void master(const struct params *p, struct run *r, long round)
{
	const long T = tasks(p, r->size);
	long next = 0;
	int active = r->size - 1;
	while (active > 0) {
		uint64_t msg[2]; /* {0, 0} when ready, else {task + 1, result} */
		MPI_Status st;
		MPI_Recv(msg, 2, MPI_UINT64_T, MPI_ANY_SOURCE, (int)round, MPI_COMM_WORLD, &st);
		if (msg[0])
			r->checksum += cell_term(msg[0] - 1, msg[1]);
		int64_t task = next < T ? round * T + next++ : -1;
		MPI_Send(&task, 1, MPI_INT64_T, st.MPI_SOURCE, task >= 0 ? TAG_TASK : TAG_STOP, MPI_COMM_WORLD);
		if (task < 0)
			active--;
	}
}

static void worker(const struct params *p, struct run *r, long round)
{
	uint64_t msg[2] = {0, 0};
	for (;;) {
		MPI_Send(msg, 2, MPI_UINT64_T, 0, (int)round, MPI_COMM_WORLD);
		int64_t task;
		MPI_Status st;
		MPI_Recv(&task, 1, MPI_INT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		if (st.MPI_TAG == TAG_STOP)
			return;
		compute_begin(r);
		msg[0] = (uint64_t)task + 1;
		msg[1] = task_result((uint64_t)task, p->compute);
		compute_end(r);
	}
}

static void mw_run(const struct params *p, struct run *r)
{
	loop_begin(r);
	for (long round = 0; round < p->iterations; round++) {
		if (r->rank == 0)
			master(p, r, round);
		else
			worker(p, r, round);
	}
	loop_end(r);
}

int main(int argc, char **argv)
{
	const struct app app = {
		.name = "mw",
		.summary = "Master-worker: MPI_ANY_SOURCE receives at rank 0 and dynamic task assignment; "
			   "--expect gives totals over ranks.",
		.size_help = "tasks per round (global for strong scaling, per worker for weak)",
		.rule = "P >= 2",
		.default_size = 1000,
		.groups = 0,
		.totals_only = 1,
		.check = mw_check,
		.expect = mw_expect,
		.run = mw_run,
	};
	return app_main(&app, argc, argv);
}
