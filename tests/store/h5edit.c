/*
 * h5edit — test helper that damages containers in precise ways:
 *   h5edit delete FILE OBJECT          remove one object (a missing dataset)
 *   h5edit attr FILE NAME VALUE        set a string root attribute (schema, schema_version)
 *   h5edit foreign FILE                create an HDF5 file that is not a ladder container
 *   h5edit offset FILE DATASET         print the file offset and size of DATASET's first chunk
 *   h5edit flip FILE OFFSET COUNT      invert COUNT bytes at OFFSET (flipped bytes)
 *   h5edit set FILE DATASET INDEX FIELD VALUE
 *                                      set one element (INDEX counts elements in storage order,
 *                                      whatever the rank) or, with FIELD other than '-', one field
 *                                      of a compound element, to an integer, floating or string
 *                                      VALUE (2^62 repeat counts, NaN timings, function names)
 * and finds what to change:
 *   h5edit find FILE DATASET FIELD VALUE   print the index of the first element whose FIELD
 *                                      ('-': the element) is at least the integer VALUE, or for a
 *                                      string equals VALUE; exit 1 when there is none
 *   h5edit dims FILE DATASET           print the dataset's dimensions
 * and makes hostile ones, which replace a 1-D dataset by one of the same type that
 *   h5edit external FILE DATASET TARGET    keeps its data in the file TARGET (external storage)
 *   h5edit sparse FILE DATASET N           declares N elements in chunks never written
 *   h5edit labels FILE N                   adds N labels (string attributes of /labels)
 * or replace an object by a link:
 *   h5edit softlink FILE OBJECT PATH       a soft link to PATH in the same file
 *   h5edit extlink FILE OBJECT TARGET PATH an external link to PATH in the file TARGET
 */
#include <hdf5.h>
#include <stdbool.h>
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

/* the dataset name of file, opened with its file (*f); -1 when either cannot be */
static hid_t open_dataset(const char *file, const char *name, unsigned mode, hid_t *f)
{
	*f = H5Fopen(file, mode, H5P_DEFAULT);
	hid_t d = *f < 0 ? -1 : H5Dopen2(*f, name, H5P_DEFAULT);
	if (d < 0 && *f >= 0)
		H5Fclose(*f);
	return d;
}

/* replace the 1-D dataset `name` by an empty one of the same type, extent n, made with dcpl */
static int replace_dataset(const char *file, const char *name, hsize_t n, hid_t dcpl, bool chunked)
{
	hid_t f, d = open_dataset(file, name, H5F_ACC_RDWR, &f);
	if (d < 0)
		return 1;
	hid_t type = H5Dget_type(d);
	hid_t space = H5Dget_space(d);
	hsize_t dims[1];
	if (H5Sget_simple_extent_ndims(space) != 1)
		return 1;
	H5Sget_simple_extent_dims(space, dims, NULL);
	H5Sclose(space);
	H5Dclose(d);
	H5Ldelete(f, name, H5P_DEFAULT);
	if (n)
		dims[0] = n;
	hsize_t maxdims[1] = {chunked ? H5S_UNLIMITED : dims[0]};
	space = H5Screate_simple(1, dims, maxdims);
	d = H5Dcreate2(f, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	int rc = d < 0;
	H5Dclose(d);
	H5Sclose(space);
	H5Tclose(type);
	return H5Fclose(f) < 0 || rc;
}

static int replace_by_link(const char *file, const char *name, const char *target_file, const char *path)
{
	hid_t f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);
	if (f < 0 || H5Ldelete(f, name, H5P_DEFAULT) < 0)
		return 1;
	herr_t rc = target_file ? H5Lcreate_external(target_file, path, f, name, H5P_DEFAULT, H5P_DEFAULT)
				: H5Lcreate_soft(path, f, name, H5P_DEFAULT, H5P_DEFAULT);
	return H5Fclose(f) < 0 || rc < 0;
}

/* the memory type to write VALUE into a file type: 64-bit integers of its sign, double, or the
 * file's own fixed-size string type */
static hid_t value_type(hid_t ftype, const char *value, void *buf)
{
	if (H5Tget_class(ftype) == H5T_STRING && !H5Tis_variable_str(ftype) && H5Tget_size(ftype) < 4096) {
		memset(buf, 0, H5Tget_size(ftype));
		strncpy(buf, value, H5Tget_size(ftype) - 1);
		return H5Tcopy(ftype);
	}
	if (H5Tget_class(ftype) == H5T_FLOAT) {
		*(double *)buf = strtod(value, NULL);
		return H5Tcopy(H5T_NATIVE_DOUBLE);
	}
	if (H5Tget_class(ftype) != H5T_INTEGER)
		return -1;
	if (H5Tget_sign(ftype) == H5T_SGN_NONE) {
		*(unsigned long long *)buf = strtoull(value, NULL, 0);
		return H5Tcopy(H5T_NATIVE_ULLONG);
	}
	*(long long *)buf = strtoll(value, NULL, 0);
	return H5Tcopy(H5T_NATIVE_LLONG);
}

/* the memory type of one element: the whole element, or a compound with only FIELD */
static hid_t element_type(hid_t dtype, const char *field, const char *value, void *buf)
{
	if (!strcmp(field, "-"))
		return value_type(dtype, value, buf);
	int i = H5Tget_class(dtype) == H5T_COMPOUND ? H5Tget_member_index(dtype, field) : -1;
	if (i < 0)
		return -1;
	hid_t ftype = H5Tget_member_type(dtype, (unsigned)i);
	hid_t v = value_type(ftype, value, buf);
	H5Tclose(ftype);
	if (v < 0)
		return -1;
	hid_t t = H5Tcreate(H5T_COMPOUND, H5Tget_size(v));
	H5Tinsert(t, field, 0, v);
	H5Tclose(v);
	return t;
}

static int set_element(const char *file, const char *name, hsize_t index, const char *field, const char *value)
{
	hid_t f, d = open_dataset(file, name, H5F_ACC_RDWR, &f);
	if (d < 0)
		return 1;
	hid_t dtype = H5Dget_type(d), space = H5Dget_space(d);
	int nd = H5Sget_simple_extent_ndims(space);
	hsize_t dims[8], coord[8];
	if (nd < 1 || nd > 8)
		return 1;
	H5Sget_simple_extent_dims(space, dims, NULL);
	for (int k = nd - 1; k >= 0; k--) {
		coord[k] = index % dims[k];
		index /= dims[k];
	}
	double buf[512];
	hid_t mtype = element_type(dtype, field, value, buf);
	hsize_t one[1] = {1};
	hid_t mspace = H5Screate_simple(1, one, NULL);
	int rc = index || mtype < 0 || H5Sselect_elements(space, H5S_SELECT_SET, 1, coord) < 0 ||
		 H5Dwrite(d, mtype, mspace, space, H5P_DEFAULT, buf) < 0;
	if (mtype >= 0)
		H5Tclose(mtype);
	H5Sclose(mspace);
	H5Sclose(space);
	H5Tclose(dtype);
	H5Dclose(d);
	return H5Fclose(f) < 0 || rc;
}

/* the index of the first element whose field is >= VALUE (integers) or == VALUE (strings) */
static int find_element(const char *file, const char *name, const char *field, const char *value)
{
	hid_t f, d = open_dataset(file, name, H5F_ACC_RDONLY, &f);
	if (d < 0)
		return 1;
	hid_t dtype = H5Dget_type(d), space = H5Dget_space(d);
	hssize_t n = H5Sget_simple_extent_npoints(space);
	hid_t ftype = dtype;
	if (strcmp(field, "-")) {
		int i = H5Tget_class(dtype) == H5T_COMPOUND ? H5Tget_member_index(dtype, field) : -1;
		ftype = i < 0 ? -1 : H5Tget_member_type(dtype, (unsigned)i);
	}
	bool text = ftype >= 0 && H5Tget_class(ftype) == H5T_STRING;
	size_t size = text ? H5Tget_size(ftype) + 1 : sizeof(long long);
	hid_t vtype = text ? H5Tcopy(H5T_C_S1) : H5Tcopy(H5T_NATIVE_LLONG);
	if (text) {
		H5Tset_size(vtype, size);
		H5Tset_cset(vtype, H5Tget_cset(ftype));
	}
	hid_t mtype = vtype;
	if (strcmp(field, "-")) {
		mtype = H5Tcreate(H5T_COMPOUND, size);
		H5Tinsert(mtype, field, 0, vtype);
	}
	char *all = calloc(n ? (size_t)n : 1, size);
	long long want = strtoll(value, NULL, 0);
	long long found = -1;
	if (ftype >= 0 && H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, all) >= 0)
		for (hssize_t k = 0; k < n && found < 0; k++) {
			const char *at = all + (size_t)k * size;
			if (text ? !strcmp(at, value) : *(const long long *)at >= want)
				found = k;
		}
	if (found >= 0)
		printf("%lld\n", found);
	free(all);
	return found < 0;
}

static int print_dims(const char *file, const char *name)
{
	hid_t f, d = open_dataset(file, name, H5F_ACC_RDONLY, &f);
	if (d < 0)
		return 1;
	hid_t space = H5Dget_space(d);
	hsize_t dims[8];
	int nd = H5Sget_simple_extent_dims(space, dims, NULL);
	for (int k = 0; k < nd; k++)
		printf("%s%llu", k ? " " : "", (unsigned long long)dims[k]);
	printf("\n");
	return nd < 0;
}

static int hostile(int argc, char **argv)
{
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	int rc = 2;
	if (argc == 5 && !strcmp(argv[1], "external")) {
		H5Pset_external(dcpl, argv[4], 0, H5F_UNLIMITED);
		rc = replace_dataset(argv[2], argv[3], 0, dcpl, false);
	} else if (argc == 5 && !strcmp(argv[1], "sparse")) {
		hsize_t chunk[1] = {1024};
		H5Pset_chunk(dcpl, 1, chunk);
		rc = replace_dataset(argv[2], argv[3], strtoull(argv[4], NULL, 10), dcpl, true);
	} else if (argc == 4 && !strcmp(argv[1], "labels")) {
		hid_t f = H5Fopen(argv[2], H5F_ACC_RDWR, H5P_DEFAULT);
		hid_t g = f < 0 ? -1 : H5Gopen2(f, "labels", H5P_DEFAULT);
		rc = g < 0;
		for (long i = 0; i < atol(argv[3]) && !rc; i++) {
			char name[32];
			snprintf(name, sizeof name, "label%06ld", i);
			rc = set_attr(g, name, name);
		}
		H5Gclose(g);
		rc |= H5Fclose(f) < 0;
	} else if (argc == 6 && !strcmp(argv[1], "find")) {
		rc = find_element(argv[2], argv[3], argv[4], argv[5]);
	} else if (argc == 4 && !strcmp(argv[1], "dims")) {
		rc = print_dims(argv[2], argv[3]);
	} else if (argc == 7 && !strcmp(argv[1], "set")) {
		rc = set_element(argv[2], argv[3], strtoull(argv[4], NULL, 10), argv[5], argv[6]);
	} else if (argc == 5 && !strcmp(argv[1], "softlink")) {
		rc = replace_by_link(argv[2], argv[3], NULL, argv[4]);
	} else if (argc == 6 && !strcmp(argv[1], "extlink")) {
		rc = replace_by_link(argv[2], argv[3], argv[4], argv[5]);
	}
	H5Pclose(dcpl);
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
		hid_t f, d = open_dataset(argv[2], argv[3], H5F_ACC_RDONLY, &f);
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
	int rc = hostile(argc, argv);
	if (rc == 2)
		fprintf(stderr, "usage: h5edit delete FILE OBJECT | attr FILE NAME VALUE | foreign FILE | offset FILE DATASET | "
			"flip FILE OFFSET COUNT | set FILE DATASET INDEX FIELD|- VALUE | find FILE DATASET FIELD|- VALUE | dims FILE DATASET | external FILE DATASET TARGET | sparse FILE DATASET N | "
			"softlink FILE OBJECT PATH | extlink FILE OBJECT TARGET PATH\n");
	return rc;
}
