/*
 * workflow_grid — the workflow's 'grid' field and the placeholders it gives app.command and
 * ladder.valid.command: {dims} ("4x4x2"), {dims.x} {dims.y} {dims.z} and {dims.0} .. {dims.N-1},
 * the process grid of the job's rank count (campaign/grid.h), so that an application whose
 * decomposition is given on its command line (-i I -j J -k K) needs no wrapper.
 *
 *   grid: 3                           three dimensions, the largest factor on x
 *   grid: {dimensions: 3, order: [z, y, x]}   the largest factor on z, then y, then x
 */
#ifndef LADDER_CAMPAIGN_WORKFLOW_GRID_H
#define LADDER_CAMPAIGN_WORKFLOW_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign/spec.h"
#include "campaign/yaml_spec.h"

/* read the 'grid' field into w (grid_ndims, grid_order, grid_line) */
bool workflow_grid_read(struct yaml_spec *y, yaml_node_t *n, struct workflow *w);

/* is name a grid placeholder of w ({dims}, or an axis w's grid has)? */
bool workflow_grid_placeholder(const struct workflow *w, const char *name);
/* does name look like a grid placeholder ("dims" or "dims.<anything>")? */
bool workflow_grid_like(const char *name);
/* w's grid placeholders as text for messages: "{dims} {dims.x} {dims.y} {dims.0} {dims.1}" */
void workflow_grid_names(const struct workflow *w, char *out, size_t len);

/* the grid placeholders of rank count p into tv; nothing when w has no grid */
void workflow_grid_vars(const struct workflow *w, long p, struct template_vars *tv);

#endif
