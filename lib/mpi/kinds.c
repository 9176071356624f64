/*
 * kinds — the parameter kinds of call signatures and their properties (see signature.h). Kept
 * apart from the formatting so the wrapper generator can use it at build time.
 */
#include "mpi/signature.h"

#include <string.h>

static const char *const kind_names[] = {
#define X(n, s) s,
	PARAM_KINDS(X)
#undef X
};

const char *param_kind_name(enum param_kind k)
{
	return k < PK_COUNT_OF_KINDS ? kind_names[k] : "?";
}

int param_kind_from_name(const char *s)
{
	for (int k = 0; k < PK_COUNT_OF_KINDS; k++)
		if (!strcmp(kind_names[k], s))
			return k;
	return -1;
}

bool param_kind_is_output(enum param_kind k)
{
	switch (k) {
	case PK_INT_OUT: case PK_NEWCOMM: case PK_NEWTYPE: case PK_NEWGROUP: case PK_NEWOP:
	case PK_REQ_OUT: case PK_FLAG_OUT: case PK_INDEX_OUT: case PK_INDICES_OUT: case PK_SELF_OUT:
	case PK_SIZE_OUT: case PK_PEER_OUT: case PK_INTS_OUT: case PK_MSG_OUT:
		return true;
	default:
		return false;
	}
}

bool param_kind_adaptive(enum param_kind k)
{
	return k == PK_COUNT || k == PK_TAG || k == PK_PEER || k == PK_SRC || k == PK_COUNTS ||
	       k == PK_DISPLS || k == PK_PEERS;
}

bool param_kind_always_streamed(enum param_kind k)
{
	return k == PK_COLOR || k == PK_KEY || k == PK_INDEX_OUT || k == PK_INDICES_OUT ||
	       k == PK_RANKS;
}

uint32_t group_width(enum param_kind k, const int64_t *vals, uint32_t i, uint32_t n, bool *bad)
{
	if (!param_kind_is_array(k)) {
		uint32_t w = (uint32_t)param_kind_width(k);
		if (i + w > n) {
			*bad = true;
			return 0;
		}
		return w;
	}
	if (i >= n) {
		*bad = true;
		return 0;
	}
	int64_t len = vals[i];
	if (len == SV_SHARED && (k == PK_COUNTS || k == PK_DISPLS)) {   /* SV_SHARED, n, total, rule */
		if (i + 4 > n)
			*bad = true;
		return *bad ? 0 : 4;
	}
	if (sv_is_symbolic(len))   /* SV_STREAMED, SV_NULL, SV_UNWEIGHTED ... stand alone */
		return 1;
	uint64_t w = 1 + (uint64_t)param_kind_width(k) * (uint64_t)(len < 0 ? 0 : len);
	if (len < 0 || i + w > n) {
		*bad = true;
		return 0;
	}
	return (uint32_t)w;
}
