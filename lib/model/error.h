/*
 * error — how the model library reports a problem to its caller: one message naming the file,
 * line, call path, metric or point that is wrong and what was expected. Functions that can fail
 * take a struct model_error * (may be NULL) and return -1 or NULL after filling it.
 */
#ifndef LADDER_MODEL_ERROR_H
#define LADDER_MODEL_ERROR_H

#define MODEL_ERRLEN 512

struct model_error {
	char msg[MODEL_ERRLEN];
};

void model_error_set(struct model_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
