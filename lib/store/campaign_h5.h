/*
 * campaign_h5 — the campaign container (hdf5-schema/campaign.yaml): the ladder of runs, every rung
 * and repetition linked (HDF5 external links, paths relative to the campaign file) or copied,
 * plus what downstream stages add (models, extrapolated traces, replays, reports).
 */
#ifndef LADDER_STORE_CAMPAIGN_H5_H
#define LADDER_STORE_CAMPAIGN_H5_H

#include <stdbool.h>
#include <stdint.h>

#include "store/h5.h"

struct campaign_run {
	uint32_t ranks, repetition;
	char *size;          /* problem size label, "" when none */
	char *path;          /* the run container, relative to the campaign file */
	char *command;
	char *created;
	char *link;          /* object in the campaign: runs/p<ranks>/r<rep> */
};

/* Build a campaign from run containers. Refuses runs of different applications, runs whose
 * labels contradict their rank counts, and duplicate rung/repetition pairs. copy: copy the runs
 * into the campaign instead of linking them. */
bool campaign_merge(const char *out, char *const *runs, int nruns, bool copy, struct h5_err *e);

/* The runs of a campaign, sorted by ranks then repetition. */
bool campaign_read_runs(const char *path, struct campaign_run **runs, uint32_t *n, struct h5_err *e);
void campaign_runs_free(struct campaign_run *runs, uint32_t n);
/* absolute or cwd-relative path of a file the campaign at `campaign` names relative to itself */
char *campaign_member_path(const char *campaign, const char *rel);
/* absolute or cwd-relative path of a run of the campaign at `campaign` */
char *campaign_run_path(const char *campaign, const struct campaign_run *run);

/* target's path relative to the campaign file's directory (how the campaign links files) */
char *campaign_relative_path(const char *campaign, const char *target);

/* What `ladder inspect` shows of a campaign: its runs and root attributes. */
struct campaign_summary {
	char *application, *created;   /* NULL when the file lacks them */
	bool models;                   /* /models/callpaths exists */
	struct campaign_run *runs;
	uint32_t nruns;
};
bool campaign_read_summary(const char *path, struct campaign_summary *s, struct h5_err *e);
void campaign_summary_free(struct campaign_summary *s);

/* One scaling model of a call path and metric (`ladder model`). */
struct campaign_model {
	char *callpath, *metric, *status, *model, *growth, *note, *target;
	uint32_t points;
	double ar2, smape, rss, cv_error, prediction, lower, upper, level;
	uint8_t wait_state;
	uint8_t supported;   /* 1: the ladder supports the prediction (every term constrained at the
				target, the leave-one-out fits agreeing, the interval within 10x, no rival
				that fits as well 3x outside it; or an
				exact law two rungs check); 0: it does not, and note says why */
};

/* The models (none when the campaign has no /models/callpaths yet: *n = 0, true) and the
 * settings attribute of /models ("" when none); false with e set when the file cannot be read. */
bool campaign_read_models(const char *campaign, struct campaign_model **models, size_t *n, char **settings,
			  struct h5_err *e);
void campaign_models_free(struct campaign_model *models, size_t n);

/* Replace the campaign's models (/models/callpaths); settings says how they were made. */
bool campaign_write_models(const char *path, const struct campaign_model *m, uint32_t n, const char *settings,
			   struct h5_err *e);

#endif
