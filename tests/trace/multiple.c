/* Test program: MPI_THREAD_MULTIPLE with MPI calls from two threads of every rank. Each thread
 * exchanges messages with the same thread of the partner rank (ranks paired 0-1, 2-3, ...) on
 * its own tag; the order of the two threads' calls differs from run to run. Prints
 * "provided=<level> sum=<n>" on rank 0. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static int rank, partner;

static void *exchange(void *arg)
{
	int tag = (int)(long)arg;
	long sum = 0;
	for (int i = 0; i < 50; i++) {
		long out = rank * 100 + i, in = 0;
		MPI_Sendrecv(&out, 1, MPI_LONG, partner, tag, &in, 1, MPI_LONG, partner, tag, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		sum += in;
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int provided, size;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	long total = 0;
	if (provided == MPI_THREAD_MULTIPLE && partner < size) {
		pthread_t t[2];
		for (long i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, exchange, (void *)(i + 1));
		for (int i = 0; i < 2; i++) {
			void *part;
			pthread_join(t[i], &part);
			total += (long)part;
		}
	}
	long all = 0;
	MPI_Reduce(&total, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("provided=%d sum=%ld\n", provided, all);
	MPI_Finalize();
	return 0;
}
