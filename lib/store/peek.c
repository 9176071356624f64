/*
 * peek — single root attributes of containers. See peek.h.
 */
#include "store/peek.h"

uint32_t store_peek_ranks(const char *path)
{
	struct h5_err e;
	hid_t f = h5_open(path, false, &e);
	uint32_t n = 0;
	if (f >= 0) {
		h5_get_attr_u32(f, "ranks", &n);
		H5Fclose(f);
	}
	return n;
}

bool store_peek_application(const char *path, char **application, struct h5_err *e)
{
	*application = NULL;
	hid_t f = h5_open(path, false, e);
	if (f < 0)
		return false;
	*application = h5_get_attr_str(f, "application");
	H5Fclose(f);
	return true;
}
