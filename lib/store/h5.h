/*
 * h5 — the small layer over HDF5 that the store is written in: tables of C structs as compound
 * datasets (described once by a field list), flat arrays, attributes, and errors as one line
 * naming the file and the object. Every dataset is chunked with shuffle + deflate; every dataset
 * without strings also with Fletcher-32, so flipped bytes are detected, not read (HDF5 cannot
 * checksum variable-length strings). The HDF5 error stack is only printed with --debug.
 */
#ifndef LADDER_STORE_H5_H
#define LADDER_STORE_H5_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum h5_ftype { F_U8, F_U32, F_I32, F_U64, F_I64, F_F64, F_STR };

struct h5_field {
	const char *name;
	size_t offset;
	enum h5_ftype type;
};

#define FIELD(type, member, ftype) {#member, offsetof(type, member), ftype}

struct h5_table {
	const char *name;            /* for messages */
	size_t size;                 /* sizeof the C struct */
	const struct h5_field *fields;
	size_t nfields;
};

/* error text of the last failure: "FILE: what" */
struct h5_err {
	char msg[600];
};

void h5_quiet(void);             /* silence the HDF5 error stack unless debugging */
/* the file the store is reading or writing now (for reports of a crash inside HDF5), or NULL */
const char *h5_current_file(void);

/* the file being created by h5_create and not yet finished by h5_finish, or NULL: a crash
 * handler removes it, so that no half-written container is left behind */
const char *h5_partial_file(void);
/* mark a file opened for writing as partial as well (a copy being changed), until h5_finish */
void h5_mark_partial(const char *path);
void h5_fail(struct h5_err *e, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

hid_t h5_create(const char *path, struct h5_err *e);
/* a file written once and never changed (a run container): no free-space tracking */
hid_t h5_create_once(const char *path, struct h5_err *e);
/* open an existing file; diagnoses missing/empty/directory/not-HDF5/damaged files */
/* Flush and close a file opened for writing: false when any write failed (a full disk shows at
 * the flush; H5Fclose alone can report success while objects are still open). */
bool h5_finish(hid_t file);

hid_t h5_open(const char *path, bool write, struct h5_err *e);

hid_t h5_group(hid_t loc, const char *name);         /* create (or open) */
bool h5_exists(hid_t loc, const char *path);
/* true when every component of an existing path is a hard link: no soft or external link may lead
 * a reader to another object or another file (every dataset read checks this) */
bool h5_hard_links_only(hid_t loc, const char *path);

bool h5_write_table(hid_t loc, const char *name, const struct h5_table *t, const void *rows, size_t n);
/* read a whole table; on error fills e (file is the file name for messages) */
void *h5_read_table(hid_t loc, const char *name, const struct h5_table *t, size_t *n,
		    const char *file, struct h5_err *e);
void h5_free_table(const struct h5_table *t, void *rows, size_t n);   /* frees strings too */

bool h5_write_i64(hid_t loc, const char *name, const int64_t *v, size_t n);
int64_t *h5_read_i64(hid_t loc, const char *name, size_t *n, const char *file, struct h5_err *e);
bool h5_write_f64(hid_t loc, const char *name, const double *v, size_t rank, const hsize_t *dims);
double *h5_read_f64(hid_t loc, const char *name, size_t rank, hsize_t *dims, const char *file,
		    struct h5_err *e);
bool h5_write_u64(hid_t loc, const char *name, const uint64_t *v, size_t rank, const hsize_t *dims);
uint64_t *h5_read_u64(hid_t loc, const char *name, size_t rank, hsize_t *dims, const char *file,
		      struct h5_err *e);
bool h5_write_strings(hid_t loc, const char *name, char *const *s, size_t n);
char **h5_read_strings(hid_t loc, const char *name, size_t *n, const char *file, struct h5_err *e);

bool h5_attr_str(hid_t loc, const char *name, const char *v);
bool h5_attr_u32(hid_t loc, const char *name, uint32_t v);
bool h5_attr_f64(hid_t loc, const char *name, double v);
bool h5_attr_u32s(hid_t loc, const char *name, const uint32_t *v, size_t n);
char *h5_get_attr_str(hid_t loc, const char *name);           /* NULL when missing */
bool h5_get_attr_u32(hid_t loc, const char *name, uint32_t *v);
bool h5_get_attr_f64(hid_t loc, const char *name, double *v);
uint32_t *h5_get_attr_u32s(hid_t loc, const char *name, size_t *n);

#endif
