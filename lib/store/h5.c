/*
 * h5 — tables, arrays and attributes over HDF5, with one-line errors. See h5.h.
 */
#include "store/h5.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/log.h"
#include "util/xalloc.h"

#define DEFLATE_LEVEL 6

/* copies, not the callers' strings: the crash handler reads them after those may be freed */
static char current_file[4096];
static char partial_file[4096];

const char *h5_current_file(void) { return current_file[0] ? current_file : NULL; }

const char *h5_partial_file(void) { return partial_file[0] ? partial_file : NULL; }

static void remember(char *slot, size_t size, const char *path)
{
	size_t n = strlen(path);
	if (n >= size)
		n = size - 1;
	memcpy(slot, path, n);
	slot[n] = 0;
}

void h5_quiet(void)
{
	if (!log_debug_enabled())
		H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void h5_fail(struct h5_err *e, const char *file, const char *fmt, ...)
{
	char what[500];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(e->msg, sizeof e->msg, "%s: %s", file, what);
	if (log_debug_enabled())
		H5Eprint2(H5E_DEFAULT, stderr);
}

static hid_t fapl(void)
{
	hid_t p = H5Pcreate(H5P_FILE_ACCESS);
	/* the 1.10 format: checksummed metadata and compact chunk indexes */
	H5Pset_libver_bounds(p, H5F_LIBVER_V110, H5F_LIBVER_V110);
	return p;
}

/* Containers are small: a group keeps up to COMPACT_LINKS links and attributes in its object
 * header (beyond, HDF5 gives it a heap and a B-tree of their own, ~1.3 KiB each), and no object
 * records modification times. */
#define COMPACT_LINKS 64

static void compact_group(hid_t gcpl)
{
	H5Pset_link_phase_change(gcpl, COMPACT_LINKS, COMPACT_LINKS * 3 / 4);
	H5Pset_attr_phase_change(gcpl, COMPACT_LINKS, COMPACT_LINKS * 3 / 4);
	H5Pset_obj_track_times(gcpl, false);
}

static hid_t create_file(const char *path, bool once, struct h5_err *e)
{
	h5_quiet();
	remember(current_file, sizeof current_file, path);
	remember(partial_file, sizeof partial_file, path);
	hid_t p = fapl(), c = H5Pcreate(H5P_FILE_CREATE);
	compact_group(c);
	if (once)   /* nothing is ever freed: no free-space tracking, no aggregation blocks left over */
		H5Pset_file_space_strategy(c, H5F_FSPACE_STRATEGY_NONE, false, 1);
	hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, c, p);
	H5Pclose(c);
	H5Pclose(p);
	if (f < 0)
		h5_fail(e, path, "cannot create the file (%s)", errno ? strerror(errno) : "HDF5 error");
	return f;
}

hid_t h5_create(const char *path, struct h5_err *e) { return create_file(path, false, e); }

hid_t h5_create_once(const char *path, struct h5_err *e) { return create_file(path, true, e); }

void h5_mark_partial(const char *path) { remember(partial_file, sizeof partial_file, path); }

hid_t h5_open(const char *path, bool write, struct h5_err *e)
{
	h5_quiet();
	remember(current_file, sizeof current_file, path);
	struct stat st;
	if (stat(path, &st)) {
		h5_fail(e, path, "%s", strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		h5_fail(e, path, "is a directory, not a container file");
		return -1;
	}
	if (st.st_size == 0) {
		h5_fail(e, path, "is empty (0 bytes), not a container file");
		return -1;
	}
	htri_t is = H5Fis_hdf5(path);
	if (is <= 0) {
		h5_fail(e, path, "is not an HDF5 file (no HDF5 signature)");
		return -1;
	}
	hid_t p = fapl();
	H5Pset_libver_bounds(p, H5F_LIBVER_EARLIEST, H5F_LIBVER_V110);
	hid_t f = H5Fopen(path, write ? H5F_ACC_RDWR : H5F_ACC_RDONLY, p);
	H5Pclose(p);
	if (f < 0)
		h5_fail(e, path, "cannot be opened: the file is truncated or damaged (%lld bytes)",
			(long long)st.st_size);
	return f;
}

bool h5_finish(hid_t file)
{
	bool ok = H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0;
	if (H5Fclose(file) < 0)
		ok = false;
	partial_file[0] = 0;
	return ok;
}

hid_t h5_group(hid_t loc, const char *name)
{
	if (H5Lexists(loc, name, H5P_DEFAULT) > 0)
		return H5Gopen2(loc, name, H5P_DEFAULT);
	hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
	compact_group(gcpl);
	hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
	H5Pclose(gcpl);
	return g;
}

bool h5_exists(hid_t loc, const char *path)
{
	/* check each component: H5Lexists needs the parents to exist */
	char buf[512];
	snprintf(buf, sizeof buf, "%s", path);
	char *p = buf[0] == '/' ? buf + 1 : buf;
	for (;;) {
		char *slash = strchr(p, '/');
		if (slash)
			*slash = 0;
		if (H5Lexists(loc, buf, H5P_DEFAULT) <= 0)
			return false;
		if (!slash)
			return true;
		*slash = '/';
		p = slash + 1;
	}
}

static hid_t str_type(void)
{
	hid_t t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, H5T_VARIABLE);
	H5Tset_cset(t, H5T_CSET_UTF8);
	return t;
}

static hid_t numeric_type(enum h5_ftype f)
{
	switch (f) {
	case F_U8: return H5T_NATIVE_UINT8;
	case F_U32: return H5T_NATIVE_UINT32;
	case F_I32: return H5T_NATIVE_INT32;
	case F_U64: return H5T_NATIVE_UINT64;
	case F_I64: return H5T_NATIVE_INT64;
	case F_F64: return H5T_NATIVE_DOUBLE;
	case F_STR: break;
	}
	return -1;
}

static size_t numeric_size(enum h5_ftype f) { return H5Tget_size(numeric_type(f)); }

static hid_t fixed_str_type(size_t n)
{
	hid_t t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, n ? n : 1);
	H5Tset_strpad(t, H5T_STR_NULLTERM);
	H5Tset_cset(t, H5T_CSET_UTF8);
	return t;
}

/*
 * Tables are written packed: numbers, then strings as fixed-length fields as long as the table's
 * longest value (variable-length strings cost a global-heap collection per dataset). Reading
 * accepts fixed or variable-length strings: the rows are read into a packed buffer laid out after
 * the file's field sizes, then copied into the C structs.
 */
struct packed {
	hid_t type;
	size_t size;
	size_t *off;        /* per field, offset in the packed row */
	size_t *strlen_;    /* per string field: fixed length, or 0 for variable length */
};

static void packed_free(struct packed *p)
{
	if (p->type >= 0)
		H5Tclose(p->type);
	free(p->off);
	free(p->strlen_);
}

/* strlen_ gives each string field's length (0: variable); builds the packed compound */
static void packed_build(struct packed *p, const struct h5_table *t, const size_t *strlens)
{
	p->off = xcalloc(t->nfields, sizeof *p->off);
	p->strlen_ = xcalloc(t->nfields, sizeof *p->strlen_);
	size_t size = 0;
	for (size_t i = 0; i < t->nfields; i++) {
		p->off[i] = size;
		if (t->fields[i].type == F_STR) {
			p->strlen_[i] = strlens[i];
			size += strlens[i] ? strlens[i] : sizeof(char *);
		} else {
			size += numeric_size(t->fields[i].type);
		}
	}
	p->size = size ? size : 1;
	p->type = H5Tcreate(H5T_COMPOUND, p->size);
	for (size_t i = 0; i < t->nfields; i++) {
		hid_t ft = t->fields[i].type != F_STR ? H5Tcopy(numeric_type(t->fields[i].type))
			   : p->strlen_[i] ? fixed_str_type(p->strlen_[i]) : str_type();
		H5Tinsert(p->type, t->fields[i].name, p->off[i], ft);
		H5Tclose(ft);
	}
}

/* Chunked, shuffled, deflated, checksummed. Datasets are written whole, once: their extent is
 * fixed (a fixed extent gives a single chunk a one-entry index and several chunks a fixed array,
 * where an extensible one costs an extensible-array index of ~0.5 KiB even for a few bytes), and
 * their object header is sized for no attributes. */
static hid_t create_dataset(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims)
{
	hsize_t maxdims[4], chunk[4];
	size_t esize = H5Tget_size(type);
	hsize_t budget = 64 * 1024 / (esize ? esize : 1);   /* ~64 KiB chunks */
	if (budget < 1)
		budget = 1;
	for (int i = rank - 1; i >= 0; i--) {
		hsize_t d = dims[i] ? dims[i] : 1;
		maxdims[i] = d;   /* an empty dataset: room for its one chunk */
		chunk[i] = d < budget ? d : budget;
		budget = budget / chunk[i] ? budget / chunk[i] : 1;
	}
	hid_t space = H5Screate_simple(rank, dims, maxdims);
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_obj_track_times(dcpl, false);
	H5Pset_dset_no_attrs_hint(dcpl, true);
	H5Pset_chunk(dcpl, rank, chunk);
	/* HDF5 cannot checksum variable-length strings; everything else is checksummed */
	if (H5Tdetect_class(type, H5T_STRING) <= 0)
		H5Pset_fletcher32(dcpl);
	H5Pset_shuffle(dcpl);
	H5Pset_deflate(dcpl, DEFLATE_LEVEL);
	hid_t d = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	H5Pclose(dcpl);
	H5Sclose(space);
	return d;
}

static bool write_all(hid_t loc, const char *name, hid_t mtype, int rank, const hsize_t *dims,
		      const void *data)
{
	hid_t d = create_dataset(loc, name, mtype, rank, dims);
	if (d < 0)
		return false;
	hsize_t total = 1;
	for (int i = 0; i < rank; i++)
		total *= dims[i];
	herr_t rc = total ? H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) : 0;
	H5Dclose(d);
	return rc >= 0;
}

bool h5_write_table(hid_t loc, const char *name, const struct h5_table *t, const void *rows, size_t n)
{
	size_t *lens = xcalloc(t->nfields, sizeof *lens);
	for (size_t i = 0; i < t->nfields; i++) {
		if (t->fields[i].type != F_STR)
			continue;
		lens[i] = 1;
		for (size_t r = 0; r < n; r++) {
			const char *v = *(char *const *)((const char *)rows + r * t->size + t->fields[i].offset);
			size_t l = v ? strlen(v) + 1 : 1;
			if (l > lens[i])
				lens[i] = l;
		}
	}
	struct packed p;
	packed_build(&p, t, lens);
	free(lens);
	char *buf = xcalloc(n ? n : 1, p.size);
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < t->nfields; i++) {
			const char *src = (const char *)rows + r * t->size + t->fields[i].offset;
			char *dst = buf + r * p.size + p.off[i];
			if (t->fields[i].type == F_STR) {
				const char *v = *(char *const *)src;
				if (v)
					memcpy(dst, v, strlen(v));
			} else {
				memcpy(dst, src, numeric_size(t->fields[i].type));
			}
		}
	hsize_t dims[1] = {n};
	bool ok = write_all(loc, name, p.type, 1, dims, buf);
	free(buf);
	packed_free(&p);
	return ok;
}

bool h5_hard_links_only(hid_t loc, const char *path)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", path);
	char *p = buf[0] == '/' ? buf + 1 : buf;
	for (;;) {
		char *slash = strchr(p, '/');
		if (slash)
			*slash = 0;
		H5L_info_t info;
		if (H5Lget_info(loc, buf, &info, H5P_DEFAULT) < 0 || info.type != H5L_TYPE_HARD)
			return false;
		if (!slash)
			return true;
		*slash = '/';
		p = slash + 1;
	}
}

/* Deflate expands at most ~1032 times; a dataset declaring more than that over what it stores
 * holds unwritten chunks (or lies), and reading it would allocate what the file does not hold. */
#define MAX_EXPANSION 1100
#define SMALL_DATASET 4096

/* the dataset's data lies in this file, in a layout ladder writes, and is no larger than what
 * the file can hold: NULL, or what is wrong */
static const char *storage_problem(hid_t d, hsize_t elements)
{
	hid_t dcpl = H5Dget_create_plist(d);
	H5D_layout_t layout = H5Pget_layout(dcpl);
	int external = H5Pget_external_count(dcpl);
	H5Pclose(dcpl);
	if (external != 0 || (layout != H5D_CHUNKED && layout != H5D_CONTIGUOUS && layout != H5D_COMPACT))
		return "keeps its data outside the container (external storage or a virtual dataset)";
	hid_t type = H5Dget_type(d);
	size_t element_size = H5Tget_size(type);
	H5Tclose(type);
	hsize_t stored = H5Dget_storage_size(d), file_size = 0;
	hid_t f = H5Iget_file_id(d);
	H5Fget_filesize(f, &file_size);
	H5Fclose(f);
	if (stored > file_size)
		return "claims more storage than the file has";
	if (element_size && elements > (UINT64_MAX / 2) / element_size)
		return "declares more elements than any file can hold";
	hsize_t declared = elements * element_size;
	if (declared > SMALL_DATASET && declared / MAX_EXPANSION > stored)
		return "declares far more data than it stores (unwritten chunks)";
	return NULL;
}

/* Open a dataset and check its rank and its storage; fills dims */
static hid_t open_checked(hid_t loc, const char *name, int rank, hsize_t *dims, const char *file,
			  struct h5_err *e)
{
	if (!h5_exists(loc, name)) {
		h5_fail(e, file, "missing dataset %s", name);
		return -1;
	}
	if (!h5_hard_links_only(loc, name)) {
		h5_fail(e, file, "%s is a soft or external link; ladder reads data only from the container itself", name);
		return -1;
	}
	hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
	if (d < 0) {
		h5_fail(e, file, "cannot open dataset %s (damaged?)", name);
		return -1;
	}
	hid_t s = H5Dget_space(d);
	int r = H5Sget_simple_extent_ndims(s);
	if (r != rank) {
		h5_fail(e, file, "dataset %s has %d dimensions, expected %d", name, r, rank);
		H5Sclose(s);
		H5Dclose(d);
		return -1;
	}
	H5Sget_simple_extent_dims(s, dims, NULL);
	hssize_t elements = H5Sget_simple_extent_npoints(s);
	H5Sclose(s);
	const char *problem = elements < 0 ? "has an unreadable extent" : storage_problem(d, (hsize_t)elements);
	if (problem) {
		h5_fail(e, file, "dataset %s %s", name, problem);
		H5Dclose(d);
		return -1;
	}
	return d;
}

static bool read_all(hid_t d, hid_t mtype, void *buf, hsize_t total, const char *name, const char *file,
		     struct h5_err *e)
{
	if (total && H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
		h5_fail(e, file, "cannot read dataset %s: data damaged (checksum or decompression failed) "
			"or of the wrong type", name);
		return false;
	}
	return true;
}

void *h5_read_table(hid_t loc, const char *name, const struct h5_table *t, size_t *n,
		    const char *file, struct h5_err *e)
{
	hsize_t dims[1];
	hid_t d = open_checked(loc, name, 1, dims, file, e);
	if (d < 0)
		return NULL;
	/* every field must be present in the file's compound, strings as strings */
	hid_t ftype = H5Dget_type(d);
	size_t *lens = xcalloc(t->nfields, sizeof *lens);
	const char *problem = H5Tget_class(ftype) != H5T_COMPOUND ? "is not a table (compound type expected)" : NULL;
	for (size_t i = 0; i < t->nfields && !problem; i++) {
		int idx = H5Tget_member_index(ftype, t->fields[i].name);
		if (idx < 0) {
			h5_fail(e, file, "dataset %s lacks field '%s'", name, t->fields[i].name);
			free(lens);
			H5Tclose(ftype);
			H5Dclose(d);
			return NULL;
		}
		hid_t mt = H5Tget_member_type(ftype, (unsigned)idx);
		bool is_str = H5Tget_class(mt) == H5T_STRING;
		if (is_str != (t->fields[i].type == F_STR))
			problem = "has a field of the wrong kind (string vs number)";
		else if (is_str && H5Tis_variable_str(mt) <= 0)
			lens[i] = H5Tget_size(mt);
		H5Tclose(mt);
	}
	H5Tclose(ftype);
	if (problem) {
		h5_fail(e, file, "dataset %s %s", name, problem);
		free(lens);
		H5Dclose(d);
		return NULL;
	}
	struct packed p;
	packed_build(&p, t, lens);
	free(lens);
	char *buf = xcalloc(dims[0] ? dims[0] : 1, p.size);
	bool ok = read_all(d, p.type, buf, dims[0], name, file, e);
	H5Dclose(d);
	if (!ok) {
		if (dims[0])
			H5Dvlen_reclaim(p.type, H5S_ALL, H5P_DEFAULT, buf);
		free(buf);
		packed_free(&p);
		return NULL;
	}
	void *rows = xcalloc(dims[0] ? dims[0] : 1, t->size);
	for (size_t r = 0; r < dims[0]; r++)
		for (size_t i = 0; i < t->nfields; i++) {
			const char *src = buf + r * p.size + p.off[i];
			char *dst = (char *)rows + r * t->size + t->fields[i].offset;
			if (t->fields[i].type != F_STR) {
				memcpy(dst, src, numeric_size(t->fields[i].type));
			} else if (p.strlen_[i]) {
				char *s = xcalloc(p.strlen_[i] + 1, 1);
				memcpy(s, src, p.strlen_[i]);
				*(char **)dst = s;
			} else {
				const char *v = *(char *const *)src;
				*(char **)dst = xstrdup(v ? v : "");
			}
		}
	hid_t space = H5Screate_simple(1, dims, NULL);
	if (dims[0])
		H5Dvlen_reclaim(p.type, space, H5P_DEFAULT, buf);
	H5Sclose(space);
	free(buf);
	packed_free(&p);
	*n = dims[0];
	return rows;
}

void h5_free_table(const struct h5_table *t, void *rows, size_t n)
{
	if (!rows)
		return;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < t->nfields; i++)
			if (t->fields[i].type == F_STR)
				free(*(char **)((char *)rows + r * t->size + t->fields[i].offset));
	free(rows);
}

bool h5_write_i64(hid_t loc, const char *name, const int64_t *v, size_t n)
{
	hsize_t dims[1] = {n};
	return write_all(loc, name, H5T_NATIVE_INT64, 1, dims, v);
}

int64_t *h5_read_i64(hid_t loc, const char *name, size_t *n, const char *file, struct h5_err *e)
{
	hsize_t dims[1];
	hid_t d = open_checked(loc, name, 1, dims, file, e);
	if (d < 0)
		return NULL;
	hid_t ft = H5Dget_type(d);
	bool isint = H5Tget_class(ft) == H5T_INTEGER;
	H5Tclose(ft);
	if (!isint) {
		h5_fail(e, file, "dataset %s is not integer", name);
		H5Dclose(d);
		return NULL;
	}
	int64_t *v = xmalloc((dims[0] ? dims[0] : 1) * sizeof *v);
	bool ok = read_all(d, H5T_NATIVE_INT64, v, dims[0], name, file, e);
	H5Dclose(d);
	if (!ok) {
		free(v);
		return NULL;
	}
	*n = dims[0];
	return v;
}

static bool write_nd(hid_t loc, const char *name, hid_t type, const void *v, size_t rank, const hsize_t *dims)
{
	return write_all(loc, name, type, (int)rank, dims, v);
}

static void *read_nd(hid_t loc, const char *name, hid_t type, H5T_class_t cls, size_t rank, hsize_t *dims,
		     const char *file, struct h5_err *e)
{
	hid_t d = open_checked(loc, name, (int)rank, dims, file, e);
	if (d < 0)
		return NULL;
	hid_t ft = H5Dget_type(d);
	bool right = H5Tget_class(ft) == cls;
	H5Tclose(ft);
	if (!right) {
		h5_fail(e, file, "dataset %s is not %s", name, cls == H5T_FLOAT ? "floating point" : "integer");
		H5Dclose(d);
		return NULL;
	}
	hsize_t total = 1;
	for (size_t i = 0; i < rank; i++)
		total *= dims[i];
	void *v = xmalloc((total ? total : 1) * H5Tget_size(type));
	bool ok = read_all(d, type, v, total, name, file, e);
	H5Dclose(d);
	if (!ok) {
		free(v);
		return NULL;
	}
	return v;
}

bool h5_write_f64(hid_t loc, const char *name, const double *v, size_t rank, const hsize_t *dims)
{
	return write_nd(loc, name, H5T_NATIVE_DOUBLE, v, rank, dims);
}

double *h5_read_f64(hid_t loc, const char *name, size_t rank, hsize_t *dims, const char *file,
		    struct h5_err *e)
{
	return read_nd(loc, name, H5T_NATIVE_DOUBLE, H5T_FLOAT, rank, dims, file, e);
}

bool h5_write_u64(hid_t loc, const char *name, const uint64_t *v, size_t rank, const hsize_t *dims)
{
	return write_nd(loc, name, H5T_NATIVE_UINT64, v, rank, dims);
}

uint64_t *h5_read_u64(hid_t loc, const char *name, size_t rank, hsize_t *dims, const char *file,
		      struct h5_err *e)
{
	return read_nd(loc, name, H5T_NATIVE_UINT64, H5T_INTEGER, rank, dims, file, e);
}

bool h5_write_strings(hid_t loc, const char *name, char *const *s, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		if (s[i] && strlen(s[i]) + 1 > len)
			len = strlen(s[i]) + 1;
	char *buf = xcalloc(n ? n : 1, len);
	for (size_t i = 0; i < n; i++)
		if (s[i])
			memcpy(buf + i * len, s[i], strlen(s[i]));
	hid_t t = fixed_str_type(len);
	hsize_t dims[1] = {n};
	bool ok = write_all(loc, name, t, 1, dims, buf);
	H5Tclose(t);
	free(buf);
	return ok;
}

char **h5_read_strings(hid_t loc, const char *name, size_t *n, const char *file, struct h5_err *e)
{
	hsize_t dims[1];
	hid_t d = open_checked(loc, name, 1, dims, file, e);
	if (d < 0)
		return NULL;
	hid_t ft = H5Dget_type(d);
	bool is_str = H5Tget_class(ft) == H5T_STRING;
	size_t len = is_str && H5Tis_variable_str(ft) <= 0 ? H5Tget_size(ft) : 0;
	H5Tclose(ft);
	if (!is_str) {
		h5_fail(e, file, "dataset %s is not a string dataset", name);
		H5Dclose(d);
		return NULL;
	}
	hid_t t = len ? fixed_str_type(len) : str_type();
	size_t slot = len ? len : sizeof(char *);
	char *buf = xcalloc(dims[0] ? dims[0] : 1, slot);
	bool ok = read_all(d, t, buf, dims[0], name, file, e);
	H5Dclose(d);
	char **v = NULL;
	if (ok) {
		v = xcalloc(dims[0] ? dims[0] : 1, sizeof *v);
		for (size_t i = 0; i < dims[0]; i++) {
			if (len) {
				v[i] = xcalloc(len + 1, 1);
				memcpy(v[i], buf + i * len, len);
			} else {
				char *s = ((char **)buf)[i];
				v[i] = xstrdup(s ? s : "");
				if (s)
					H5free_memory(s);
			}
		}
		*n = dims[0];
	}
	H5Tclose(t);
	free(buf);
	return v;
}

/* ---- attributes ------------------------------------------------------------------------------- */

static bool attr_write(hid_t loc, const char *name, hid_t type, hid_t space, const void *v)
{
	if (H5Aexists(loc, name) > 0)
		H5Adelete(loc, name);
	hid_t a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
	if (a < 0)
		return false;
	herr_t rc = H5Awrite(a, type, v);
	H5Aclose(a);
	return rc >= 0;
}

bool h5_attr_str(hid_t loc, const char *name, const char *v)
{
	const char *p = v ? v : "";
	hid_t t = fixed_str_type(strlen(p) + 1);
	hid_t s = H5Screate(H5S_SCALAR);
	bool ok = attr_write(loc, name, t, s, p);
	H5Sclose(s);
	H5Tclose(t);
	return ok;
}

static bool attr_scalar(hid_t loc, const char *name, hid_t type, const void *v)
{
	hid_t s = H5Screate(H5S_SCALAR);
	bool ok = attr_write(loc, name, type, s, v);
	H5Sclose(s);
	return ok;
}

bool h5_attr_u32(hid_t loc, const char *name, uint32_t v) { return attr_scalar(loc, name, H5T_NATIVE_UINT32, &v); }
bool h5_attr_f64(hid_t loc, const char *name, double v) { return attr_scalar(loc, name, H5T_NATIVE_DOUBLE, &v); }

bool h5_attr_u32s(hid_t loc, const char *name, const uint32_t *v, size_t n)
{
	hsize_t dims[1] = {n ? n : 1};
	uint32_t zero = 0;
	hid_t s = H5Screate_simple(1, dims, NULL);
	bool ok = attr_write(loc, name, H5T_NATIVE_UINT32, s, n ? (const void *)v : &zero);
	H5Sclose(s);
	return ok;
}

char *h5_get_attr_str(hid_t loc, const char *name)
{
	if (H5Aexists(loc, name) <= 0)
		return NULL;
	hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
	hid_t ft = H5Aget_type(a);
	char *out = NULL;
	if (H5Tget_class(ft) == H5T_STRING) {
		if (H5Tis_variable_str(ft) > 0) {
			hid_t t = str_type();
			char *s = NULL;
			if (H5Aread(a, t, &s) >= 0 && s) {
				out = xstrdup(s);
				H5free_memory(s);
			}
			H5Tclose(t);
		} else {
			size_t n = H5Tget_size(ft);
			char *s = xcalloc(n + 1, 1);
			if (H5Aread(a, ft, s) >= 0)
				out = s;
			else
				free(s);
		}
	}
	H5Tclose(ft);
	H5Aclose(a);
	return out;
}

static bool attr_read_scalar(hid_t loc, const char *name, hid_t mtype, H5T_class_t cls, void *v)
{
	if (H5Aexists(loc, name) <= 0)
		return false;
	hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
	hid_t ft = H5Aget_type(a);
	hid_t sp = H5Aget_space(a);
	bool ok = H5Tget_class(ft) == cls && H5Sget_simple_extent_npoints(sp) == 1 &&
		  H5Aread(a, mtype, v) >= 0;
	H5Sclose(sp);
	H5Tclose(ft);
	H5Aclose(a);
	return ok;
}

bool h5_get_attr_u32(hid_t loc, const char *name, uint32_t *v)
{
	return attr_read_scalar(loc, name, H5T_NATIVE_UINT32, H5T_INTEGER, v);
}

bool h5_get_attr_f64(hid_t loc, const char *name, double *v)
{
	return attr_read_scalar(loc, name, H5T_NATIVE_DOUBLE, H5T_FLOAT, v);
}

uint32_t *h5_get_attr_u32s(hid_t loc, const char *name, size_t *n)
{
	if (H5Aexists(loc, name) <= 0)
		return NULL;
	hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
	hid_t sp = H5Aget_space(a);
	hssize_t k = H5Sget_simple_extent_npoints(sp);
	uint32_t *v = xcalloc(k > 0 ? (size_t)k : 1, sizeof *v);
	if (k < 0 || H5Aread(a, H5T_NATIVE_UINT32, v) < 0) {
		free(v);
		v = NULL;
	} else {
		*n = (size_t)k;
	}
	H5Sclose(sp);
	H5Aclose(a);
	return v;
}
