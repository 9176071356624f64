/*
 * fuzz_spec — libFuzzer target for the campaign specs: the input is written as a file and loaded
 * as a workflow and as a site, as `ladder campaign` does (libyaml's document loader, then every
 * field's checks).
 */
#include "campaign/spec.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".yaml");
	if (!path)
		return 0;
	struct workflow w;
	struct site s;
	struct campaign_error e;
	if (workflow_load(path, &w, &e))
		workflow_free(&w);
	if (site_load(path, &s, &e))
		site_free(&s);
	return 0;
}
