/*
 * storage — the bytes of every object of a container. See storage.h.
 */
#include "store/storage.h"

#include <stdio.h>
#include <string.h>

struct visit {
	void (*fn)(const struct store_object_size *o, void *arg);
	void *arg;
};

static herr_t visit_object(hid_t root, const char *name, const H5O_info_t *info, void *arg)
{
	struct visit *v = arg;
	char path[1024];
	snprintf(path, sizeof path, "/%s", strcmp(name, ".") ? name : "");
	struct store_object_size o = {path, info->type == H5O_TYPE_DATASET, info->hdr.space.total,
				      info->meta_size.obj.index_size + info->meta_size.obj.heap_size +
					      info->meta_size.attr.index_size + info->meta_size.attr.heap_size,
				      0};
	if (o.dataset) {
		hid_t d = H5Dopen2(root, name, H5P_DEFAULT);
		if (d >= 0) {
			o.data = H5Dget_storage_size(d);
			H5Dclose(d);
		}
	}
	v->fn(&o, v->arg);
	return 0;
}

bool store_storage(const char *path, void (*fn)(const struct store_object_size *o, void *arg), void *arg,
		   uint64_t *file_size, struct h5_err *e)
{
	hid_t f = h5_open(path, false, e);
	if (f < 0)
		return false;
	hsize_t size = 0;
	H5Fget_filesize(f, &size);
	*file_size = size;
	struct visit v = {fn, arg};
	herr_t rc = H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_INC, visit_object, &v, H5O_INFO_BASIC | H5O_INFO_HDR | H5O_INFO_META_SIZE);
	H5Fclose(f);
	if (rc < 0)
		h5_fail(e, path, "cannot walk its objects (damaged?)");
	return rc >= 0;
}
