/*
 * world_comm — communicators that are MPI_COMM_WORLD by another name: a duplicate of it
 * (MPI_Comm_dup, _dup_with_info, _idup), or a duplicate of one. Their group and ranks are world's,
 * so every rule written for calls over world (count arrays by rule, run/share.h) holds over them.
 */
#ifndef LADDER_EXTRAP_WORLD_COMM_H
#define LADDER_EXTRAP_WORLD_COMM_H

#include <stdbool.h>
#include <stdint.h>

#include "run/run.h"

/* is communicator id of run r world or world by another name? */
bool world_comm(const struct run *r, int64_t id);

#endif
