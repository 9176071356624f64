/* Unit tests for store: a run container written and read back decodes to the same calls with the
 * same header, labels and timing; the identity a container claims (schema name and version) is
 * checked before anything else is read: a newer major version, an older one, a malformed version,
 * another schema or the other kind are refused naming the file, what was found and what this
 * ladder reads; a newer minor version reads. Replacing a container never leaves a part behind and
 * refuses to write over a directory or over its own input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "exchange_run.h"
#include "run/events.h"
#include "store/store.h"
#include "util/buf.h"

struct files {
	char dir[64];
	char path[96];
};

static int make_dir(void **state)
{
	struct files *f = xcalloc(1, sizeof *f);
	snprintf(f->dir, sizeof f->dir, "/tmp/ladder-test-store-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof f->path, "%s/run.h5", f->dir);
	*state = f;
	return 0;
}

static int remove_dir(void **state)
{
	struct files *f = *state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

/* rank q's calls as decode prints them, one per line (repetitions expanded) */
static char *decoded(const struct run *r, uint32_t rank)
{
	struct event_iter it;
	struct event ev;
	struct buf b, line;
	buf_init(&b);
	buf_init(&line);
	event_iter_init(&it, r, rank);
	while (event_next(&it, &ev)) {
		struct event_view v;
		event_view_of(&it, &ev, &v);
		buf_reset(&line);
		event_format(&v, &line);
		for (uint64_t k = 0; k < ev.repeat; k++) {
			buf_put(&b, line.data, line.len);
			buf_put_u8(&b, '\n');
		}
	}
	char why[200];
	assert_true(event_iter_streams_consumed(&it, why, sizeof why));
	event_iter_free(&it);
	buf_put_u8(&b, 0);
	char *s = xstrdup((char *)b.data);
	buf_free(&b);
	buf_free(&line);
	return s;
}

static void write_run(const char *path, int n)
{
	struct run r;
	struct exchange_sigs s;
	struct h5_err e;
	exchange_run(&r, n, &s);
	if (!store_write_run(path, &r, &e))
		fail_msg("%s", e.msg);
	run_free(&r);
}

/* the root attribute name of the container at path set to value */
static void set_root_attr(const char *path, const char *name, const char *value)
{
	struct h5_err e;
	hid_t f = h5_open(path, true, &e);
	if (f < 0)
		fail_msg("%s", e.msg);
	assert_true(h5_attr_str(f, name, value));
	assert_true(H5Fclose(f) >= 0);
}

static void run_container_round_trip(void **state)
{
	struct files *f = *state;
	struct run r, back;
	struct exchange_sigs s;
	struct h5_err e;
	exchange_run(&r, 10, &s);
	assert_true(store_write_run(f->path, &r, &e));
	if (!store_read_run(f->path, &back, &e))
		fail_msg("%s", e.msg);
	/* the header and the labels */
	assert_int_equal(back.nranks, 2);
	assert_string_equal(back.command, "./exchange");
	assert_string_equal(back.host, "host");
	assert_false(back.synthetic);
	assert_string_equal(run_label(&back, "rung"), "2");
	assert_string_equal(run_label(&back, "app"), "exchange");
	/* the same calls on every rank, with the same values */
	for (uint32_t q = 0; q < 2; q++) {
		char *want = decoded(&r, q), *got = decoded(&back, q);
		assert_string_equal(got, want);
		free(want);
		free(got);
	}
	char *sender = decoded(&back, 0);
	assert_non_null(strstr(sender, "MPI_Send buf=user count=4 datatype=MPI_DOUBLE:8 dest=1 tag=3 comm=WORLD\n"));
	free(sender);
	/* the timing, within the stored precision */
	assert_int_equal(back.ngroups, 2);
	const struct run_group *g0 = &back.groups[0];
	double gaps = 0;
	uint64_t ngaps = 0;
	for (uint32_t i = 0; i < g0->ngaps; i++) {
		gaps += g0->gaps[i].sum;
		ngaps += g0->gaps[i].count;
	}
	assert_int_equal(ngaps, 10);
	assert_true(fabs(gaps - 10 * EX_GAP) <= 10 * EX_GAP / 512);
	assert_int_equal(back.groups[1].ngaps, 0);
	/* and what the file says it is */
	struct store_identity id;
	assert_true(store_identify(f->path, &id, &e));
	assert_string_equal(id.kind, "run");
	assert_string_equal(id.schema, RUN_SCHEMA);
	assert_int_equal(id.major, RUN_SCHEMA_MAJOR);
	assert_int_equal(id.minor, RUN_SCHEMA_MINOR);
	assert_true(store_expect(f->path, &id, "run", &e));
	run_free(&back);
	run_free(&r);
}

/* store_read_run on path fails with a message that names the file and holds `says` */
static void refused(const char *path, const char *says)
{
	struct run back;
	struct h5_err e;
	memset(&e, 0, sizeof e);
	if (store_read_run(path, &back, &e))
		fail_msg("%s was read; expected a refusal saying '%s'", path, says);
	if (!strstr(e.msg, path) || !strstr(e.msg, says))
		fail_msg("the refusal '%s' does not name %s and say '%s'", e.msg, path, says);
}

static void bad_schema_versions_are_refused(void **state)
{
	struct files *f = *state;
	char v[32], says[160];
	write_run(f->path, 2);
	/* a newer major version: upgrade */
	snprintf(v, sizeof v, "%d.0", RUN_SCHEMA_MAJOR + 1);
	set_root_attr(f->path, "schema_version", v);
	snprintf(says, sizeof says, "has run schema version %d.0; this ladder reads versions %d.x to %d.x (upgrade ladder)",
		 RUN_SCHEMA_MAJOR + 1, RUN_SCHEMA_OLDEST_MAJOR, RUN_SCHEMA_MAJOR);
	refused(f->path, says);
	/* an older major version than any this ladder reads: convert */
	snprintf(v, sizeof v, "%d.4", RUN_SCHEMA_OLDEST_MAJOR - 1);
	set_root_attr(f->path, "schema_version", v);
	snprintf(says, sizeof says, "has run schema version %d.4; this ladder reads versions %d.x to %d.x (convert the file)",
		 RUN_SCHEMA_OLDEST_MAJOR - 1, RUN_SCHEMA_OLDEST_MAJOR, RUN_SCHEMA_MAJOR);
	refused(f->path, says);
	/* versions that are not MAJOR.MINOR */
	static const char *const malformed[] = {"2", "2.", ".1", "2.1.0", "two.one", "-1.0", "", "99999999999.0"};
	for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++) {
		set_root_attr(f->path, "schema_version", malformed[i]);
		snprintf(says, sizeof says, "has schema '%s' but no valid schema_version (found '%s', expected MAJOR.MINOR)",
			 RUN_SCHEMA, malformed[i]);
		refused(f->path, says);
	}
	/* a newer minor version only adds optional objects: read */
	snprintf(v, sizeof v, "%d.%d", RUN_SCHEMA_MAJOR, RUN_SCHEMA_MINOR + 7);
	set_root_attr(f->path, "schema_version", v);
	struct run back;
	struct h5_err e;
	if (!store_read_run(f->path, &back, &e))
		fail_msg("a newer minor version was refused: %s", e.msg);
	assert_int_equal(back.nranks, 2);
	run_free(&back);
}

static void other_schemas_and_kinds_are_refused(void **state)
{
	struct files *f = *state;
	write_run(f->path, 2);
	set_root_attr(f->path, "schema", "someone-elses");
	refused(f->path, "is an HDF5 file with schema 'someone-elses', not a ladder container");
	/* a campaign's identity on a run container: the kind is refused before its content is read */
	set_root_attr(f->path, "schema", CAMPAIGN_SCHEMA);
	char v[32];
	snprintf(v, sizeof v, "%d.%d", CAMPAIGN_SCHEMA_MAJOR, CAMPAIGN_SCHEMA_MINOR);
	set_root_attr(f->path, "schema_version", v);
	refused(f->path, "is a campaign container, expected a run container");
	/* no schema at all */
	struct h5_err e;
	hid_t h = h5_open(f->path, true, &e);
	assert_true(h >= 0);
	assert_true(H5Adelete(h, "schema") >= 0);
	H5Fclose(h);
	refused(f->path, "is an HDF5 file but not a ladder container (no 'schema' attribute)");
}

static void replacing_leaves_no_part_and_refuses_its_input(void **state)
{
	struct files *f = *state;
	struct run r;
	struct exchange_sigs s;
	struct h5_err e;
	char part[128], link[128];
	exchange_run(&r, 3, &s);
	snprintf(part, sizeof part, "%s.part", f->path);
	assert_true(store_replace_run(f->path, &r, NULL, 0, &e));
	struct stat st;
	assert_int_equal(stat(part, &st), -1);
	/* replaced as a whole: the new run is what is read */
	run_free(&r);
	exchange_run(&r, 5, &s);
	assert_true(store_replace_run(f->path, &r, NULL, 0, &e));
	struct run back;
	assert_true(store_read_run(f->path, &back, &e));
	char *got = decoded(&back, 1);
	size_t lines = 0;
	for (const char *c = got; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 7);   /* Init, 5 receives, Finalize */
	free(got);
	run_free(&back);
	/* over its own input, by another name */
	snprintf(link, sizeof link, "%s/other-name.h5", f->dir);
	assert_int_equal(symlink(f->path, link), 0);
	char *inputs[] = {f->path};
	memset(&e, 0, sizeof e);
	assert_false(store_replace_run(link, &r, inputs, 1, &e));
	assert_true(e.msg[0] != 0);
	/* over a directory */
	memset(&e, 0, sizeof e);
	assert_false(store_replace_run(f->dir, &r, NULL, 0, &e));
	assert_non_null(strstr(e.msg, f->dir));
	assert_int_equal(stat(f->dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* the input is still the last run written */
	assert_true(store_read_run(f->path, &back, &e));
	run_free(&back);
	run_free(&r);
}

int main(void)
{
	h5_quiet();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(run_container_round_trip, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(bad_schema_versions_are_refused, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(other_schemas_and_kinds_are_refused, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(replacing_leaves_no_part_and_refuses_its_input, make_dir, remove_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
