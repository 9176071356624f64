/*
 * family — laws and directions shared by the calls of one call site. See family.h.
 */
#include "extrap/family.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/classes.h"
#include "util/xalloc.h"

#define MAX_PER_DIM 64

static const int64_t *ref_vals(const struct aligned_class *a, uint32_t o)
{
	return a->ref->sigvals + a->ref->sigs[a->occ[o].ref_sig].voff;
}

static int64_t rung_value(const struct aligned_class *a, uint32_t o, size_t q, uint32_t j)
{
	const struct run *r = a->runs[q];
	return r->sigvals[r->sigs[a->occ[o].rung_sigs[q]].voff + j];
}

static enum param_kind value_kind(const struct aligned_class *a, uint32_t o, uint32_t j, uint32_t *e)
{
	const struct fn_desc *d = &a->ref->fns[a->occ[o].fn];
	uint32_t p;
	if (!param_walk_value_at(d, ref_vals(a, o), a->occ[o].nvals, j, &p, e))
		return PK_IGNORE;
	return d->params[p].kind;
}

/* the dimension the occurrence's peers move along; -1 when it has none or they disagree */
static int member_dim(const struct aligned_class *a, uint32_t o, uint32_t ndims)
{
	int dim = -1;
	for (uint32_t j = 0; j < a->occ[o].nvals; j++) {
		const struct xval *x = &a->occ[o].x[j];
		if (x->kind != XV_STEP)
			continue;
		int k = step_dim(&x->step, ndims);
		if (k < 0 || (dim >= 0 && k != dim))
			return -1;
		dim = k;
	}
	return dim;
}

struct family {
	uint32_t n;
	uint32_t *members;   /* occurrences, in order */
	int *dims;
};

/* how far a family reaches: the calls of o's call site within o's rule (one loop body), of its
 * call site, or of its function (a code may call it from one line per side or per dimension) */
enum reach { IN_RULE, AT_SITE, OF_FUNCTION };

/* the rule each occurrence is a symbol of */
static uint32_t *rules_of(const struct aligned_class *a)
{
	uint32_t *rule = xcalloc(a->nocc + 1, sizeof *rule);
	for (uint32_t r = 0; r < a->g.nrules; r++)
		for (uint64_t k = 0; k < grammar_rule_len(&a->g, r); k++) {
			struct gsymbol s = grammar_rule_syms(&a->g, r)[k];
			if (!gsym_is_rule(s) && (uint64_t)s.val < a->nocc)
				rule[s.val] = r;
		}
	return rule;
}

static void family_of(const struct aligned_class *a, uint32_t o, uint32_t ndims, enum reach reach, struct family *f)
{
	f->members = xmalloc((a->nocc + 1) * sizeof *f->members);
	f->dims = xmalloc((a->nocc + 1) * sizeof *f->dims);
	f->n = 0;
	uint32_t *rule = reach == IN_RULE ? rules_of(a) : NULL;
	for (uint32_t i = 0; i < a->nocc; i++) {
		const struct occurrence *m = &a->occ[i];
		if (m->dropped || m->fn != a->occ[o].fn || (reach != OF_FUNCTION && m->callsite != a->occ[o].callsite) ||
		    (rule && rule[i] != rule[o]))
			continue;
		f->dims[f->n] = member_dim(a, i, ndims);
		f->members[f->n++] = i;
	}
	free(rule);
}

static void family_free(struct family *f)
{
	free(f->members);
	free(f->dims);
}

/* value j of the members whose dimension is known, one point per (rung, dimension) */
static bool family_law(const struct aligned_class *a, const struct family *f, uint32_t j, const struct grid *target,
		       struct law *law)
{
	size_t cap = (size_t)f->n * a->nrungs + 1, n = 0;
	int64_t *v = xmalloc(cap * sizeof *v);
	struct grid *g = xmalloc(cap * sizeof *g);
	int32_t *k = xmalloc(cap * sizeof *k);
	bool consistent = true;
	for (uint32_t m = 0; m < f->n; m++)
		for (size_t q = 0; f->dims[m] >= 0 && q < a->nrungs; q++) {
			int64_t x = rung_value(a, f->members[m], q, j);
			size_t i = 0;
			while (i < n && !(k[i] == f->dims[m] && !memcmp(&g[i], &a->grids[q], sizeof *g)))
				i++;
			consistent = consistent && (i == n || v[i] == x);
			if (i == n)
				v[n] = x, g[n] = a->grids[q], k[n++] = f->dims[m];
		}
	struct law_points pts = {.values = v, .grids = g, .dims = k, .n = n, .counts = true};
	bool ok = consistent && n >= 2;
	if (ok)
		law_solve_points(&pts, target, 0, law);
	ok = ok && law->status == LAW_OK && law->nterms > 0;
	free(v);
	free(g);
	free(k);
	return ok;
}

/* the member's dimension: its own, or the one whose law reproduces its values (all such must
 * agree at the target) */
static int law_dim(const struct aligned_class *a, uint32_t o, int own, uint32_t j, const struct law *law,
		   const struct grid *target)
{
	if (own >= 0)
		return own;
	int found = -1;
	int64_t at = 0;
	for (uint32_t k = 0; k < target->ndims; k++) {
		bool fits = true;
		for (size_t q = 0; fits && q < a->nrungs; q++) {
			int64_t v;
			fits = law_eval(law, &a->grids[q], (int32_t)k, &v) && v == rung_value(a, o, q, j);
		}
		int64_t t;
		if (!fits || !law_eval(law, target, (int32_t)k, &t))
			continue;
		if (found >= 0 && t != at)
			return -2;
		if (found < 0)
			found = (int)k, at = t;
	}
	return found;
}

/* value j (a count) of the family: a law shared by the members */
static void decide_family(struct aligned_class *a, const struct family *f, uint32_t j, const struct grid *target)
{
	bool varies = false;
	for (uint32_t m = 0; m < f->n; m++)
		varies = varies || a->occ[f->members[m]].x[j].kind == XV_PENDING;
	struct law law;
	if (!varies || !family_law(a, f, j, target, &law))
		return;
	for (uint32_t m = 0; m < f->n; m++) {
		struct xval *x = &a->occ[f->members[m]].x[j];
		int k = law_dim(a, f->members[m], f->dims[m], j, &law, target);
		if (k < 0 || (x->kind != XV_PENDING && x->kind != XV_CONST))
			continue;
		x->kind = XV_LAW, x->dim = (int8_t)k;
		x->law = xmalloc(sizeof *x->law);
		*x->law = law;
	}
}

/* every count of occurrence o's family: its call site's first, then its function's */
static void decide_counts(struct aligned_class *a, uint32_t o, const struct grid *target, bool *done)
{
	struct family site, fn;
	family_of(a, o, target->ndims, AT_SITE, &site);
	family_of(a, o, target->ndims, OF_FUNCTION, &fn);
	for (uint32_t j = 0, e; j < a->occ[o].nvals; j++)
		if (value_kind(a, o, j, &e) == PK_COUNT) {
			decide_family(a, &site, j, target);
			decide_family(a, &fn, j, target);
		}
	for (uint32_t m = 0; m < site.n; m++)
		done[site.members[m]] = true;
	family_free(&site);
	family_free(&fn);
}

static bool degenerate(const struct aligned_class *a)
{
	for (uint32_t k = 0; k < a->grids[0].ndims; k++) {
		bool same = true;
		for (size_t q = 1; q < a->nrungs; q++)
			same = same && a->grids[q].dims[k] == a->grids[0].dims[k];
		if (same)
			return true;
	}
	return false;
}

static int describe(const struct aligned_class *a, uint32_t o, uint32_t j, char *why, size_t whylen)
{
	const struct fn_desc *d = &a->ref->fns[a->occ[o].fn];
	uint32_t p = 0, e = 0;
	param_walk_value_at(d, ref_vals(a, o), a->occ[o].nvals, j, &p, &e);
	int used = align_where(a->cls, a->grids[0].ndims, why, whylen);
	used += snprintf(why + used, whylen - (size_t)used, ", call %u: %s %s", o, d->name, d->params[p].name);
	if (e)
		used += snprintf(why + used, whylen - (size_t)used, "[%u]", e);
	used += snprintf(why + used, whylen - (size_t)used, " (");
	char num[24];
	for (size_t q = 0; q < a->nrungs && (size_t)used < whylen; q++)
		used += snprintf(why + used, whylen - (size_t)used, "%s%s at p%u", q ? ", " : "",
				 sv_text(rung_value(a, o, q, j), num, sizeof num), a->runs[q]->nranks);
	return used + snprintf(why + used, whylen - (size_t)used, ")");
}

/* A count that varies while another call of its function is the same at every rung, and no law
 * fits both: when a dimension never varies on the ladder, the constant one cannot be told from a
 * law in that dimension (a strong-scaling face normal to dimension 0). */
static bool constant_among_varying(const struct aligned_class *a, uint32_t o, uint32_t j, const struct grid *target,
				   char *why, size_t whylen)
{
	struct family f;
	family_of(a, o, target->ndims, OF_FUNCTION, &f);
	uint32_t constant = UINT32_MAX;
	for (uint32_t m = 0; m < f.n && constant == UINT32_MAX; m++)
		if (a->occ[f.members[m]].x[j].kind == XV_CONST)
			constant = f.members[m];
	family_free(&f);
	if (constant == UINT32_MAX || !degenerate(a))
		return false;
	int used = describe(a, constant, j, why, whylen);
	used += snprintf(why + used, whylen - (size_t)used, " is the same at every rung while call %u's varies (", o);
	char num[24];
	for (size_t q = 0; q < a->nrungs && (size_t)used < whylen; q++)
		used += snprintf(why + used, whylen - (size_t)used, "%s%s", q ? ", " : "",
				 sv_text(rung_value(a, o, q, j), num, sizeof num));
	char add[64];
	classes_widening_advice(a->grids, a->nrungs, add, sizeof add);
	snprintf(why + used, whylen - (size_t)used,
		 ") and no law shared by the calls of the function fits both; a dimension that never varies on the "
		 "ladder cannot be told from a constant: add rungs that widen it, e.g. %s ranks", add);
	return true;
}

/* the law value j of occurrence o has in another class, the same function, call site and value,
 * that reproduces every rung of a and gives one value at the target (not negative for a count):
 * the first such law (its member dimension in *dim); NULL when none does or two disagree at the
 * target */
static const struct law *law_of_site(const struct aligned_class *a, uint32_t o, uint32_t j, bool count,
				     const struct aligned_class *const *others, size_t nothers, const struct grid *target,
				     int8_t *dim)
{
	const struct law *found = NULL;
	int64_t at = 0;
	for (size_t c = 0; c < nothers; c++)
		for (uint32_t m = 0; m < others[c]->nocc; m++) {
			const struct occurrence *x = &others[c]->occ[m];
			if (x->dropped || x->fn != a->occ[o].fn || x->callsite != a->occ[o].callsite || x->nvals != a->occ[o].nvals ||
			    x->x[j].kind != XV_LAW)
				continue;
			const struct law *l = x->x[j].law;
			bool fits = true;
			int64_t v, t;
			for (size_t q = 0; fits && q < a->nrungs; q++)
				fits = law_eval(l, &a->grids[q], x->x[j].dim, &v) && v == rung_value(a, o, q, j);
			if (!fits || !law_eval(l, target, x->x[j].dim, &t) || (count && t < 0))
				continue;
			if (found && t != at)
				return NULL;
			if (!found)
				found = l, at = t, *dim = x->x[j].dim;
		}
	return found;
}

/* a value that differs across rungs and has no family law: a law of its own, or the law of its
 * call site in another class when its own is not decided; in lossy mode a count without one
 * (data-dependent) is approximated */
static bool decide_own(struct aligned_class *a, uint32_t o, uint32_t j, const struct aligned_class *const *others,
		       size_t nothers, const struct grid *target, char *why, size_t whylen)
{
	int64_t *v = xmalloc(a->nrungs * sizeof *v);
	bool streamed = false;
	uint32_t e;
	for (size_t q = 0; q < a->nrungs; q++) {
		v[q] = rung_value(a, o, q, j);
		streamed = streamed || v[q] == SV_STREAMED;
	}
	struct law law = {.status = LAW_NO_FIT};
	struct law_points pts = {.values = v, .grids = a->grids, .n = a->nrungs,
				 .counts = value_kind(a, o, j, &e) == PK_COUNT};
	if (!streamed)
		law_solve_points(&pts, target, LAW_NO_DIM, &law);
	free(v);
	struct xval *x = &a->occ[o].x[j];
	int8_t dim = LAW_NO_DIM;
	const struct law *site = streamed || law.status == LAW_OK ? NULL
				 : law_of_site(a, o, j, pts.counts, others, nothers, target, &dim);
	if (law.status == LAW_OK || site) {
		x->kind = XV_LAW, x->dim = site ? dim : LAW_NO_DIM;
		x->law = xmalloc(sizeof *x->law);
		*x->law = site ? *site : law;
		return true;
	}
	int used = describe(a, o, j, why, whylen);
	if (streamed)
		snprintf(why + used, whylen - (size_t)used, ": data-dependent (streamed: it changes from call to call)");
	else
		snprintf(why + used, whylen - (size_t)used, ": %s: %s", law_status_name(law.status), law.text);
	if (!a->lossy || value_kind(a, o, j, &e) != PK_COUNT)
		return false;
	aligned_class_approximate(a, o, j, why);
	return true;
}

bool family_decide(struct aligned_class *a, const struct aligned_class *const *others, size_t nothers,
		   const struct grid *target, char *why, size_t whylen)
{
	bool *done = xcalloc(a->nocc + 1, sizeof *done), ok = true;
	for (uint32_t o = 0; o < a->nocc; o++)
		if (!a->occ[o].dropped && !done[o])
			decide_counts(a, o, target, done);
	for (uint32_t o = 0; ok && o < a->nocc; o++) {
		for (uint32_t j = 0, e; ok && !a->occ[o].dropped && j < a->occ[o].nvals; j++) {
			if (a->occ[o].x[j].kind != XV_PENDING)
				continue;
			bool undetermined = !a->lossy && value_kind(a, o, j, &e) == PK_COUNT &&
					    constant_among_varying(a, o, j, target, why, whylen);
			bool fine = !undetermined && decide_own(a, o, j, others, nothers, target, why, whylen);
			if (!fine && a->lossy)
				aligned_class_drop(a, o, why);
			ok = fine || a->lossy;
		}
	}
	free(done);
	return ok;
}

/* the members' moves of value j along each dimension: the decided ones' order of -1 and +1 is
 * the pattern the undecided follow */
static void orient_value(struct aligned_class *a, const struct family *f, uint32_t j, uint32_t ndims)
{
	int pattern[MAX_PER_DIM], len = -1;
	uint32_t count[LAW_MAX_DIMS] = {0};
	bool decided[LAW_MAX_DIMS], consistent = true;
	for (uint32_t k = 0; k < ndims; k++) {
		int signs[MAX_PER_DIM];
		decided[k] = true;
		for (uint32_t m = 0; m < f->n; m++) {
			const struct xval *x = &a->occ[f->members[m]].x[j];
			if (x->kind != XV_STEP || step_dim(&x->step, ndims) != (int)k || count[k] == MAX_PER_DIM)
				continue;
			signs[count[k]] = step_sign(&x->step, k);
			if (!signs[count[k]++])
				decided[k] = false;
		}
		if (!decided[k] || !count[k])
			continue;
		if (len < 0)
			memcpy(pattern, signs, count[k] * sizeof *signs), len = (int)count[k];
		else
			consistent = consistent && len == (int)count[k] && !memcmp(pattern, signs, count[k] * sizeof *signs);
	}
	for (uint32_t k = 0, i = 0; consistent && len > 0 && k < ndims; k++, i = 0)
		for (uint32_t m = 0; !decided[k] && count[k] == (uint32_t)len && m < f->n; m++) {
			struct xval *x = &a->occ[f->members[m]].x[j];
			if (x->kind != XV_STEP || step_dim(&x->step, ndims) != (int)k)
				continue;
			uint8_t want = pattern[i++] < 0 ? STEP_NEG : STEP_POS;
			if (x->step.mask[k] & want)
				x->step.mask[k] = want;
		}
}

/* the moves of every family: its call site's in one rule, its call site's, then its function's */
void family_orient(struct aligned_class *a, uint32_t ndims)
{
	for (enum reach reach = IN_RULE; reach <= OF_FUNCTION; reach++) {
		bool *done = xcalloc(a->nocc + 1, sizeof *done);
		for (uint32_t o = 0; o < a->nocc; o++) {
			if (a->occ[o].dropped || done[o])
				continue;
			struct family f;
			family_of(a, o, ndims, reach, &f);
			for (uint32_t j = 0; j < a->occ[o].nvals; j++)
				if (a->occ[o].x[j].kind == XV_STEP)
					orient_value(a, &f, j, ndims);
			for (uint32_t m = 0; m < f.n; m++)
				done[f.members[m]] = true;
			family_free(&f);
		}
		free(done);
	}
}
