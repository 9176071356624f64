/*
 * campaign_extrap — the extrapolated traces of a campaign: /extrap/p<ranks> links each synthetic
 * run container (relative to the campaign file, like the runs), /extrap/index lists them with the
 * grid and what the extrapolation left out.
 */
#ifndef LADDER_STORE_CAMPAIGN_EXTRAP_H
#define LADDER_STORE_CAMPAIGN_EXTRAP_H

#include <stdbool.h>
#include <stdint.h>

#include "store/h5.h"

struct campaign_extrap {
	uint32_t ranks;
	char *path;      /* the synthetic run container, relative to the campaign file */
	char *grid;      /* the process grid at the target, e.g. 8x8 */
	char *created;
	char *link;      /* extrap/p<ranks> */
	char *note;      /* what was left out (no profile ...), "" when nothing */
};

/* Add or replace the campaign's extrapolation to `ranks`, whose run container is at run_path. */
bool campaign_write_extrap(const char *campaign, uint32_t ranks, const char *run_path, const char *grid,
			   const char *note, struct h5_err *e);
/* The campaign's extrapolations, sorted by ranks; *n = 0 when there are none. */
bool campaign_read_extraps(const char *campaign, struct campaign_extrap **out, uint32_t *n, struct h5_err *e);
void campaign_extraps_free(struct campaign_extrap *x, uint32_t n);

#endif
