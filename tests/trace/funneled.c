/* Test program: MPI_THREAD_FUNNELED — worker threads compute, only the main thread calls MPI.
 * Prints "provided=<level> sum=<n>" on rank 0. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static long partial[4];

static void *work(void *arg)
{
	long id = (long)arg, s = 0;
	for (long i = 0; i < 100000; i++)
		s += (i * (id + 1)) % 7;
	partial[id] = s;
	return NULL;
}

int main(int argc, char **argv)
{
	int provided;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	long total = 0;
	for (int it = 0; it < 5; it++) {
		pthread_t t[4];
		for (long i = 0; i < 4; i++)
			pthread_create(&t[i], NULL, work, (void *)i);
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
		long local = partial[0] + partial[1] + partial[2] + partial[3], sum;
		MPI_Allreduce(&local, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
		total += sum;
	}
	if (rank == 0)
		printf("provided=%d sum=%ld\n", provided, total);
	MPI_Finalize();
	return 0;
}
