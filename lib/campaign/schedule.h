/*
 * schedule — the nightly entry for a campaign: a crontab line (local sites) or an scrontab
 * block (Slurm sites, with #SCRON options) that runs `ladder campaign run ... --dated BASE`, so
 * each night lands in BASE/YYYY-MM-DD. Installing replaces the campaign's earlier entry (found by
 * its marker comment) and keeps every other line.
 */
#ifndef LADDER_CAMPAIGN_SCHEDULE_H
#define LADDER_CAMPAIGN_SCHEDULE_H

#include <stdbool.h>

#include "campaign/campaign_error.h"
#include "campaign/spec.h"

struct schedule_in {
	const char *name;        /* the campaign (workflow) name */
	const char *ladder;      /* absolute path of the ladder executable */
	const char *workflow, *site, *base, *cwd;   /* absolute */
	const char *path_env;    /* PATH to run with, or NULL */
	const char *slurm_conf;  /* SLURM_CONF to run with, or NULL */
	int hour, minute;
	bool slurm;
	const char *partition, *account, *qos;      /* for #SCRON lines, may be NULL */
};

bool schedule_parse_time(const char *hhmm, int *hour, int *minute);
/* the block (marker comment, #SCRON lines, the entry, end marker), or NULL when a value cannot be written
 * (a control character) */
char *schedule_entry(const struct schedule_in *in);
/* existing table text with the block of campaign `name` replaced by (or appended as) block */
char *schedule_merge(const char *existing, const char *name, const char *block);
/* the marker line that starts a campaign's block, and the one that ends it: only the lines
 * between the two (both included) are ever replaced */
char *schedule_marker(const char *name);
char *schedule_end_marker(const char *name);

/* The entry that runs `ladder campaign run` of w on s every night at hour:minute into
 * BASE/YYYY-MM-DD, with the working directory, PATH (and SLURM_CONF for Slurm sites) of now;
 * ladder and base are made absolute. NULL when a value cannot be written (a control character). */
char *schedule_entry_for(const struct workflow *w, const struct site *s, const char *ladder, const char *base,
			 int hour, int minute);

/* Install block into the user's table with tool ("crontab" or "scrontab"): the current table
 * (`tool -l`; none counts as empty) with campaign name's block replaced, loaded with `tool FILE`. */
bool schedule_install(const char *tool, const char *name, const char *block, struct campaign_error *e);

#endif
