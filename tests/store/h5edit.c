/*
 * h5edit — test helper that damages containers in precise ways:
 *   h5edit delete FILE OBJECT          remove one object (a missing dataset)
 *   h5edit attr FILE NAME VALUE        set a string root attribute (schema, schema_version)
 *   h5edit foreign FILE                create an HDF5 file that is not a ladder container
 *   h5edit offset FILE DATASET         print the file offset and size of DATASET's first chunk
 *   h5edit flip FILE OFFSET COUNT      invert COUNT bytes at OFFSET (flipped bytes)
 * and makes hostile ones, which replace a 1-D dataset by one of the same type that
 *   h5edit external FILE DATASET TARGET    keeps its data in the file TARGET (external storage)
 *   h5edit sparse FILE DATASET N           declares N elements in chunks never written
 *   h5edit labels FILE N                   adds N labels (string attributes of /labels)
 * or replace an object by a link:
 *   h5edit softlink FILE OBJECT PATH       a soft link to PATH in the same file
 *   h5edit extlink FILE OBJECT TARGET PATH an external link to PATH in the file TARGET
 * or change contents:
 *   h5edit field FILE DATASET ROW FIELD VALUE  set a float64 field of one row of a table
 *   h5edit timing10 FILE                   rewrite /timing in the layout of schema 1.0 (per-group
 *                                          tables of wall times, no bins, no CPU times), as an
 *                                          older ladder wrote it
 */
#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

/* replace the 1-D dataset `name` by an empty one of the same type, extent n, made with dcpl */
static int replace_dataset(const char *file, const char *name, hsize_t n, hid_t dcpl, bool chunked)
{
	hid_t f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t d = f < 0 ? -1 : H5Dopen2(f, name, H5P_DEFAULT);
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
	} else if (argc == 5 && !strcmp(argv[1], "softlink")) {
		rc = replace_by_link(argv[2], argv[3], NULL, argv[4]);
	} else if (argc == 6 && !strcmp(argv[1], "extlink")) {
		rc = replace_by_link(argv[2], argv[3], argv[4], argv[5]);
	}
	H5Pclose(dcpl);
	return rc;
}

/* ---- contents ---------------------------------------------------------------------------------- */

static int set_field(const char *file, const char *name, long row, const char *field, double value)
{
	hid_t f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t d = f < 0 ? -1 : H5Dopen2(f, name, H5P_DEFAULT);
	if (d < 0)
		return 1;
	hid_t space = H5Dget_space(d);
	hssize_t n = H5Sget_simple_extent_npoints(space);
	hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(double));
	H5Tinsert(t, field, 0, H5T_NATIVE_DOUBLE);
	double *v = calloc((size_t)n + 1, sizeof *v);
	int rc = row < 0 || row >= n || H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0;
	if (!rc) {
		v[row] = value;
		rc = H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0;
	}
	free(v);
	H5Tclose(t);
	H5Sclose(space);
	H5Dclose(d);
	return H5Fclose(f) < 0 || rc;
}

/* a table: a C struct described by its fields */
struct tfield { const char *name; size_t offset; hid_t type; };

static hid_t compound(size_t size, const struct tfield *fields, int n)
{
	hid_t t = H5Tcreate(H5T_COMPOUND, size);
	for (int i = 0; i < n; i++)
		H5Tinsert(t, fields[i].name, fields[i].offset, fields[i].type);
	return t;
}

/* read a whole table into a calloc'ed array; *n rows */
static void *read_rows(hid_t f, const char *name, size_t size, const struct tfield *fields, int nf, hsize_t *n)
{
	hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
	hid_t space = H5Dget_space(d);
	*n = (hsize_t)H5Sget_simple_extent_npoints(space);
	hid_t t = compound(size, fields, nf);
	void *rows = calloc(*n + 1, size);
	if (*n && H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0)
		*n = 0;
	H5Tclose(t);
	H5Sclose(space);
	H5Dclose(d);
	return rows;
}

/* write a table chunked and compressed, as the store does */
static int write_rows(hid_t loc, const char *name, size_t size, const struct tfield *fields, int nf, const void *rows,
		      hsize_t n)
{
	hsize_t dims[1] = {n}, maxdims[1] = {H5S_UNLIMITED}, chunk[1] = {1024};
	hid_t space = H5Screate_simple(1, dims, maxdims);
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_chunk(dcpl, 1, chunk);
	H5Pset_shuffle(dcpl);
	H5Pset_deflate(dcpl, 6);
	hid_t t = compound(size, fields, nf);
	hid_t d = H5Dcreate2(loc, name, t, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	int rc = d < 0 || (n && H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0);
	H5Dclose(d);
	H5Tclose(t);
	H5Pclose(dcpl);
	H5Sclose(space);
	return rc;
}

#define TF(type, member, h5type) {#member, offsetof(type, member), h5type}

struct hist { uint64_t count; double sum, sum_squares, min, max; };
struct use { uint32_t group; uint8_t kind; uint32_t previous, signature; uint64_t count; uint32_t histogram; };
struct gap10 { uint32_t group, previous, signature; uint64_t count; double sum, sum_squares, min, max; uint64_t bin_offset; uint32_t bin_count; };
struct dur10 { uint32_t group, signature; uint64_t count; double sum, sum_squares, min, max; };
struct bin10 { int32_t bin; uint64_t count; double sum, min, max; };

/* a row of 1.0 from a group's use of a 1.1 histogram: its sums scaled to its count */
static void scaled(const struct hist *h, uint64_t count, double *sum, double *sumsq)
{
	double k = h->count ? (double)count / (double)h->count : 0;
	*sum = h->sum * k;
	*sumsq = h->sum_squares * k;
}

static int timing10(const char *file)
{
	const struct tfield hf[] = {TF(struct hist, count, H5T_NATIVE_UINT64), TF(struct hist, sum, H5T_NATIVE_DOUBLE),
		TF(struct hist, sum_squares, H5T_NATIVE_DOUBLE), TF(struct hist, min, H5T_NATIVE_DOUBLE),
		TF(struct hist, max, H5T_NATIVE_DOUBLE)};
	const struct tfield uf[] = {TF(struct use, group, H5T_NATIVE_UINT32), TF(struct use, kind, H5T_NATIVE_UINT8),
		TF(struct use, previous, H5T_NATIVE_UINT32), TF(struct use, signature, H5T_NATIVE_UINT32),
		TF(struct use, count, H5T_NATIVE_UINT64), TF(struct use, histogram, H5T_NATIVE_UINT32)};
	const struct tfield gf10[] = {TF(struct gap10, group, H5T_NATIVE_UINT32),
		TF(struct gap10, previous, H5T_NATIVE_UINT32), TF(struct gap10, signature, H5T_NATIVE_UINT32),
		TF(struct gap10, count, H5T_NATIVE_UINT64), TF(struct gap10, sum, H5T_NATIVE_DOUBLE),
		TF(struct gap10, sum_squares, H5T_NATIVE_DOUBLE), TF(struct gap10, min, H5T_NATIVE_DOUBLE),
		TF(struct gap10, max, H5T_NATIVE_DOUBLE), TF(struct gap10, bin_offset, H5T_NATIVE_UINT64),
		TF(struct gap10, bin_count, H5T_NATIVE_UINT32)};
	const struct tfield df10[] = {TF(struct dur10, group, H5T_NATIVE_UINT32),
		TF(struct dur10, signature, H5T_NATIVE_UINT32), TF(struct dur10, count, H5T_NATIVE_UINT64),
		TF(struct dur10, sum, H5T_NATIVE_DOUBLE), TF(struct dur10, sum_squares, H5T_NATIVE_DOUBLE),
		TF(struct dur10, min, H5T_NATIVE_DOUBLE), TF(struct dur10, max, H5T_NATIVE_DOUBLE)};
	const struct tfield bf10[] = {TF(struct bin10, bin, H5T_NATIVE_INT32), TF(struct bin10, count, H5T_NATIVE_UINT64),
		TF(struct bin10, sum, H5T_NATIVE_DOUBLE), TF(struct bin10, min, H5T_NATIVE_DOUBLE),
		TF(struct bin10, max, H5T_NATIVE_DOUBLE)};
	hid_t f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);
	if (f < 0)
		return 1;
	hsize_t nh, nu, ng = 0, nd = 0;
	struct hist *h = read_rows(f, "timing/histograms", sizeof *h, hf, 5, &nh);
	struct use *u = read_rows(f, "timing/group_histograms", sizeof *u, uf, 6, &nu);
	struct gap10 *g10 = calloc(nu + 1, sizeof *g10);
	struct dur10 *d10 = calloc(nu + 1, sizeof *d10);
	int rc = 0;
	for (hsize_t i = 0; i < nu && !rc; i++) {
		rc = u[i].histogram >= nh;
		const struct hist *x = &h[rc ? 0 : u[i].histogram];
		if (u[i].kind == 0) {
			g10[ng] = (struct gap10){u[i].group, u[i].previous, u[i].signature, u[i].count, 0, 0, x->min, x->max, 0, 0};
			scaled(x, u[i].count, &g10[ng].sum, &g10[ng].sum_squares);
			ng++;
		} else {
			d10[nd] = (struct dur10){u[i].group, u[i].signature, u[i].count, 0, 0, x->min, x->max};
			scaled(x, u[i].count, &d10[nd].sum, &d10[nd].sum_squares);
			nd++;
		}
	}
	hid_t timing = H5Gopen2(f, "timing", H5P_DEFAULT);
	static const char *const gone[] = {"histograms", "histogram_bins", "group_histograms"};
	for (int i = 0; i < 3 && !rc; i++)
		rc = H5Ldelete(timing, gone[i], H5P_DEFAULT) < 0;
	rc = rc || H5Adelete(timing, "cpu_time") < 0 || write_rows(timing, "durations", sizeof *d10, df10, 7, d10, nd) ||
	     write_rows(timing, "gaps", sizeof *g10, gf10, 10, g10, ng) ||
	     write_rows(timing, "gap_bins", sizeof(struct bin10), bf10, 5, NULL, 0) || set_attr(f, "schema_version", "1.0");
	H5Gclose(timing);
	free(h), free(u), free(g10), free(d10);
	return H5Fclose(f) < 0 || rc;
}

int main(int argc, char **argv)
{
	if (argc == 7 && !strcmp(argv[1], "field"))
		return set_field(argv[2], argv[3], atol(argv[4]), argv[5], strtod(argv[6], NULL));
	if (argc == 3 && !strcmp(argv[1], "timing10"))
		return timing10(argv[2]);
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
	int rc = hostile(argc, argv);
	if (rc == 2)
		fprintf(stderr, "usage: h5edit delete FILE OBJECT | attr FILE NAME VALUE | foreign FILE | offset FILE DATASET | "
			"flip FILE OFFSET COUNT | external FILE DATASET TARGET | sparse FILE DATASET N | "
			"softlink FILE OBJECT PATH | extlink FILE OBJECT TARGET PATH | field FILE DATASET ROW FIELD VALUE | "
			"timing10 FILE\n");
	return rc;
}
