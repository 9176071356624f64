/*
 * fuzz_extra_p — libFuzzer target for the Extra-P readers (lib/model/extra_p*): the input is
 * written as a file and read as `ladder model --input` does (text, JSON or JSON Lines, told apart
 * by content).
 */
#include "fuzz.h"
#include "model/extra_p.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".extra_p");
	if (!path)
		return 0;
	struct model_error err;
	struct experiment *e = extra_p_read(path, &err);
	if (e)
		experiment_free(e);
	return 0;
}
