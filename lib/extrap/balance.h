/*
 * balance — moved to meet/balance.h (would a run's calls meet). This header only forwards to it
 * for the files of extrap that still include it by its old name; it goes when they include
 * meet/balance.h.
 */
#ifndef LADDER_EXTRAP_BALANCE_H
#define LADDER_EXTRAP_BALANCE_H

#include "meet/balance.h"

#endif
