/*
 * campaign_extrap — /extrap in the campaign container. See campaign_extrap.h.
 */
#include "store/campaign_extrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/campaign_h5.h"
#include "store/store.h"
#include "util/xalloc.h"

static const struct h5_field extrap_fields[] = {
	FIELD(struct campaign_extrap, ranks, F_U32), FIELD(struct campaign_extrap, path, F_STR),
	FIELD(struct campaign_extrap, grid, F_STR), FIELD(struct campaign_extrap, created, F_STR),
	FIELD(struct campaign_extrap, link, F_STR), FIELD(struct campaign_extrap, note, F_STR)};
static const struct h5_table extrap_table = {"extrapolations", sizeof(struct campaign_extrap), extrap_fields, 6};

static int by_ranks(const void *a, const void *b)
{
	uint32_t x = ((const struct campaign_extrap *)a)->ranks, y = ((const struct campaign_extrap *)b)->ranks;
	return x < y ? -1 : x > y;
}

bool campaign_read_extraps(const char *campaign, struct campaign_extrap **out, uint32_t *n, struct h5_err *e)
{
	struct store_identity id;
	*out = NULL;
	*n = 0;
	if (!store_identify(campaign, &id, e) || !store_expect(campaign, &id, "campaign", e))
		return false;
	hid_t f = h5_open(campaign, false, e);
	if (f < 0)
		return false;
	bool ok = true;
	if (h5_exists(f, "extrap/index")) {
		size_t k = 0;
		*out = h5_read_table(f, "extrap/index", &extrap_table, &k, campaign, e);
		ok = *out != NULL;
		*n = (uint32_t)k;
	}
	H5Fclose(f);
	return ok;
}

void campaign_extraps_free(struct campaign_extrap *x, uint32_t n)
{
	if (x)
		h5_free_table(&extrap_table, x, n);
}

bool campaign_write_extrap(const char *campaign, uint32_t ranks, const char *run_path, const char *grid,
			   const char *note, struct h5_err *e)
{
	struct campaign_extrap *old;
	uint32_t n;
	if (!campaign_read_extraps(campaign, &old, &n, e))
		return false;
	char when[64], link[64], name[32];
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(name, sizeof name, "p%u", ranks);
	snprintf(link, sizeof link, "extrap/%s", name);
	struct campaign_extrap *rows = xcalloc(n + 1, sizeof *rows);
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		if (old[i].ranks != ranks)
			rows[k++] = old[i];
	char *rel = campaign_relative_path(campaign, run_path);
	rows[k++] = (struct campaign_extrap){ranks, rel, (char *)grid, when, link, (char *)(note ? note : "")};
	qsort(rows, k, sizeof *rows, by_ranks);
	/* another stage (the model's) may be writing the campaign right now: HDF5 locks the file, so
	 * wait for it a little rather than fail */
	hid_t f = h5_open(campaign, true, e);
	for (int tries = 0; f < 0 && tries < 120; tries++) {
		struct timespec pause = {0, 250 * 1000 * 1000};
		nanosleep(&pause, NULL);
		f = h5_open(campaign, true, e);
	}
	bool ok = f >= 0;
	if (ok) {
		hid_t g = h5_group(f, "extrap");
		if (h5_exists(g, name))
			H5Ldelete(g, name, H5P_DEFAULT);
		if (h5_exists(g, "index"))
			H5Ldelete(g, "index", H5P_DEFAULT);
		ok = H5Lcreate_external(rel, "/", g, name, H5P_DEFAULT, H5P_DEFAULT) >= 0 &&
		     h5_write_table(g, "index", &extrap_table, rows, k);
		H5Gclose(g);
		if (H5Fclose(f) < 0)
			ok = false;
		if (!ok)
			h5_fail(e, campaign, "cannot record the extrapolation to %u ranks in the campaign", ranks);
	}
	free(rel);
	free(rows);
	campaign_extraps_free(old, n);
	return ok;
}
