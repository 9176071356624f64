/*
 * names — from symbolic ids to names: the predefined datatypes and ops (predefined.h) and the
 * traced functions of the generated descriptor table (fn_lookup). See signature.h.
 */
#include "mpi/signature.h"

#include <string.h>

#include "mpi/predefined.h"

const char *const ladder_dtype_names[DTYPE_ID_FIRST_USER] = {
	[0] = NULL,
#define X(n) #n,
	LADDER_PREDEFINED_DTYPES(X)
#undef X
};

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
