/* Test program: an MPI application with its own HDF5 (serial), writing a file per rank while
 * communicating. Prints "hdf5 <major>.<minor>.<release> ok" on rank 0. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	char name[256];
	snprintf(name, sizeof name, "%s.%d.h5", argc > 1 ? argv[1] : "ownhdf5", rank);
	hid_t f = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	hsize_t dims[1] = {16};
	int data[16];
	for (int i = 0; i < 16; i++)
		data[i] = rank * 100 + i;
	hid_t s = H5Screate_simple(1, dims, NULL);
	hid_t d = H5Dcreate2(f, "data", H5T_NATIVE_INT, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
	H5Dclose(d);
	H5Sclose(s);
	int ok = H5Fclose(f) >= 0, all;
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	unsigned maj, min, rel;
	H5get_libversion(&maj, &min, &rel);
	if (rank == 0)
		printf("hdf5 %u.%u.%u %s\n", maj, min, rel, all ? "ok" : "FAILED");
	MPI_Finalize();
	return all ? 0 : 1;
}
