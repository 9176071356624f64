/*
 * h5edit — test helper that damages containers in precise ways:
 *   h5edit delete FILE OBJECT          remove one object (a missing dataset)
 *   h5edit attr FILE NAME VALUE        set a string root attribute (schema, schema_version)
 *   h5edit foreign FILE                create an HDF5 file that is not a ladder container
 *   h5edit offset FILE DATASET         print the file offset and size of DATASET's first chunk
 *   h5edit flip FILE OFFSET COUNT      invert COUNT bytes at OFFSET (flipped bytes)
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int set_attr(hid_t f, const char *name, const char *value)
{
	if (H5Aexists(f, name) > 0)
		H5Adelete(f, name);
	hid_t t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, strlen(value) + 1);
	hid_t s = H5Screate(H5S_SCALAR);
	hid_t a = H5Acreate2(f, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
	int rc = a < 0 || H5Awrite(a, t, value) < 0;
	H5Aclose(a);
	H5Sclose(s);
	H5Tclose(t);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "foreign")) {
		hid_t f = H5Fcreate(argv[2], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
		hsize_t dims[1] = {4};
		int v[4] = {1, 2, 3, 4};
		hid_t s = H5Screate_simple(1, dims, NULL);
		hid_t d = H5Dcreate2(f, "temperature", H5T_NATIVE_INT, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
		H5Dclose(d);
		H5Sclose(s);
		return H5Fclose(f) < 0;
	}
	if (argc == 4 && !strcmp(argv[1], "delete")) {
		hid_t f = H5Fopen(argv[2], H5F_ACC_RDWR, H5P_DEFAULT);
		int rc = f < 0 || H5Ldelete(f, argv[3], H5P_DEFAULT) < 0;
		H5Fclose(f);
		return rc;
	}
	if (argc == 5 && !strcmp(argv[1], "attr")) {
		hid_t f = H5Fopen(argv[2], H5F_ACC_RDWR, H5P_DEFAULT);
		int rc = f < 0 || set_attr(f, argv[3], argv[4]);
		H5Fclose(f);
		return rc;
	}
	if (argc == 4 && !strcmp(argv[1], "offset")) {
		hid_t f = H5Fopen(argv[2], H5F_ACC_RDONLY, H5P_DEFAULT);
		hid_t d = f < 0 ? -1 : H5Dopen2(f, argv[3], H5P_DEFAULT);
		if (d < 0)
			return 1;
		haddr_t addr = 0;
		hsize_t size = 0;
		hsize_t offset[4] = {0, 0, 0, 0};
		unsigned mask;
		if (H5Dget_chunk_info_by_coord(d, offset, &mask, &addr, &size) < 0)
			addr = H5Dget_offset(d);
		printf("%llu %llu\n", (unsigned long long)addr, (unsigned long long)size);
		H5Dclose(d);
		H5Fclose(f);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "flip")) {
		FILE *f = fopen(argv[2], "r+b");
		long at = atol(argv[3]), n = atol(argv[4]);
		if (!f || fseek(f, at, SEEK_SET))
			return 1;
		unsigned char buf[256];
		size_t got = fread(buf, 1, n > 256 ? 256 : (size_t)n, f);
		for (size_t i = 0; i < got; i++)
			buf[i] ^= 0xff;
		fseek(f, at, SEEK_SET);
		int rc = fwrite(buf, 1, got, f) != got || (long)got != n;
		return fclose(f) || rc;
	}
	fprintf(stderr, "usage: h5edit delete FILE OBJECT | attr FILE NAME VALUE | foreign FILE | offset FILE DATASET | flip FILE OFFSET COUNT\n");
	return 2;
}
