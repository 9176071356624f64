/*
 * names — from symbolic ids to names: the predefined datatypes and ops (predefined.h), the
 * meaning of a predefined datatype, and the traced functions of the generated descriptor table
 * (fn_lookup). See signature.h.
 */
#include "mpi/signature.h"

#include <string.h>

#include "mpi/predefined.h"

const char *const ladder_dtype_names[DTYPE_ID_FIRST_USER] = {
	[0] = NULL,
#define X(n, meaning) #n,
	LADDER_PREDEFINED_DTYPES(X)
#undef X
};

static const enum dtype_meaning dtype_meanings[] = {
	DTM_OWN,
#define X(n, meaning) DTM_##meaning,
	LADDER_PREDEFINED_DTYPES(X)
#undef X
};

int64_t dtype_meaning_id(int64_t id)
{
	if (id <= 0 || (size_t)id >= sizeof dtype_meanings / sizeof *dtype_meanings || dtype_meanings[id] == DTM_OWN)
		return id;
	for (int64_t k = 1; k < id; k++)   /* the first type of the same meaning */
		if (dtype_meanings[k] == dtype_meanings[id])
			return k;
	return id;
}

const char *const ladder_op_names[OP_ID_FIRST_USER] = {
	[0] = NULL,
#define X(n) #n,
	LADDER_PREDEFINED_OPS(X)
#undef X
};

int fn_lookup(const char *name)
{
	for (uint32_t i = 0; i < ladder_nfunctions; i++)
		if (!strcmp(ladder_functions[i].name, name))
			return (int)i;
	return -1;
}
