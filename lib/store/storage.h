/*
 * storage — where the bytes of a container go: every group and dataset with the bytes of its
 * object header, of its index (a group's link heap and B-tree, a dataset's chunk index, their
 * attribute storage) and of its data as stored (compressed). `ladder inspect --storage` prints it;
 * the size benchmark sums it per part of the container (value streams, timing tables).
 */
#ifndef LADDER_STORE_STORAGE_H
#define LADDER_STORE_STORAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "store/h5.h"

struct store_object_size {
	const char *path;       /* "/trace/streams" */
	bool dataset;
	uint64_t header, index, data;
};

/* Call fn for every object of the container, in name order (the root group first); file_size
 * gets the file's size (what no object accounts for is the superblock and free space). */
bool store_storage(const char *path, void (*fn)(const struct store_object_size *o, void *arg), void *arg,
		   uint64_t *file_size, struct h5_err *e);

#endif
