/*
 * validation — the checks at one target scale: truth runs, the extrapolated trace against them
 * (events and counts), and the replay time against the application time. See validation.c.
 */
#ifndef LADDER_REPORT_VALIDATION_H
#define LADDER_REPORT_VALIDATION_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report.h"

void target_init(struct report_target *t, long ranks);
void target_free(struct report_target *t);
/* Find what is not given yet next to the campaign (dir) and check it; false with why when an
 * input that exists cannot be read. */
bool target_validate(struct report_target *t, const char *dir, char *why, size_t whylen);

#endif
