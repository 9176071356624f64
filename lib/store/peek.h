/*
 * peek — one root attribute of a container, read without reading the container: what a report
 * needs to sort its inputs before it reads them.
 */
#ifndef LADDER_STORE_PEEK_H
#define LADDER_STORE_PEEK_H

#include <stdbool.h>
#include <stdint.h>

#include "store/h5.h"

/* the rank count of a run container (its attribute 'ranks'), 0 when it cannot be read */
uint32_t store_peek_ranks(const char *path);

/* the attribute 'application' of a campaign container into *application (NULL when it has none;
 * free it); false with e set when the file cannot be opened */
bool store_peek_application(const char *path, char **application, struct h5_err *e);

#endif
