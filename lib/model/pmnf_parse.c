/*
 * pmnf_parse — the one reader of PMNF formula text: what pmnf_format writes ("0.2549 + 0.03995 *
 * log2(p)", "-6.6e-06 + 8.7e-06 * p^(3/2) * log2(n)^2") back into a struct pmnf.
 *
 *   formula  := item (('+' | '-') item)*
 *   item     := number ('*' factor)*          the first item may start with '-'
 *   factor   := name exponent? | 'log2' '(' name ')' exponent?
 *   exponent := '^' (signed | '(' signed ('/' number)? ')')
 *
 * An item without factors adds to the constant; a parameter named twice in one item multiplies
 * (its exponents add). Nothing nests, so a hostile text costs one pass and no recursion.
 */
#include "model/pmnf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pmnf_reader {
	const char *text, *at;
	const char *const *names;
	unsigned nparams;
	const char *error;
};

static void skip_space(struct pmnf_reader *r)
{
	while (isspace((unsigned char)*r->at))
		r->at++;
}

static bool accept(struct pmnf_reader *r, char c)
{
	skip_space(r);
	if (*r->at != c)
		return false;
	r->at++;
	return true;
}

static bool fail(struct pmnf_reader *r, const char *error)
{
	if (!r->error)
		r->error = error;
	return false;
}

/* a decimal number (digits, point, exponent), optionally negative; no inf, nan or hex */
static bool number(struct pmnf_reader *r, bool sign, double *out)
{
	skip_space(r);
	const char *s = r->at;
	if (sign && *s == '-')
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return fail(r, *r->at ? "expected a number" : "unexpected end");
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return fail(r, "expected a decimal number");
	char *end;
	*out = strtod(r->at, &end);
	if (end == r->at)
		return fail(r, "expected a number");
	r->at = end;
	return true;
}

static bool exponent(struct pmnf_reader *r, double *e)
{
	*e = 1;
	if (!accept(r, '^'))
		return true;
	if (!accept(r, '('))
		return number(r, true, e);
	double den = 1;
	if (!number(r, true, e) || (accept(r, '/') && !number(r, false, &den)))
		return false;
	if (den == 0)
		return fail(r, "a zero denominator");
	*e /= den;
	return accept(r, ')') || fail(r, "expected ')'");
}

/* a parameter name at r->at: its index, or -1 (error set) */
static int parameter(struct pmnf_reader *r)
{
	skip_space(r);
	for (unsigned l = 0; l < r->nparams; l++) {
		size_t len = strlen(r->names[l]);
		const char *after = r->at + len;
		if (!strncmp(r->at, r->names[l], len) && !isalnum((unsigned char)*after) && *after != '_') {
			r->at = after;
			return (int)l;
		}
	}
	fail(r, "expected a parameter name");
	return -1;
}

static bool factor(struct pmnf_reader *r, struct pmnf_term *t)
{
	skip_space(r);
	bool log = !strncmp(r->at, "log2", 4) && !isalnum((unsigned char)r->at[4]);
	if (log) {
		r->at += 4;
		if (!accept(r, '('))
			return fail(r, "expected '(' after log2");
	}
	int l = parameter(r);
	if (l < 0 || (log && !accept(r, ')')))
		return fail(r, "expected ')'");
	double e;
	if (!exponent(r, &e))
		return false;
	if (log)
		t->f[l].j += e;
	else
		t->f[l].i += e;
	return true;
}

static bool item(struct pmnf_reader *r, struct pmnf *f, bool first, double sign)
{
	struct pmnf_term t = {0};
	if (!number(r, first, &t.coef))
		return false;
	t.coef *= sign;
	bool factors = false;
	while (accept(r, '*')) {
		if (!factor(r, &t))
			return false;
		factors = true;
	}
	if (!factors) {
		f->constant += t.coef;
		return true;
	}
	if (f->nterms == PMNF_MAX_TERMS)
		return fail(r, "more terms than a PMNF function holds (8)");
	f->term[f->nterms++] = t;
	return true;
}

bool pmnf_parse(const char *text, const char *const *names, unsigned nparams, struct pmnf *out, char *why,
		size_t whylen)
{
	struct pmnf_reader r = {text, text, names, nparams < PMNF_MAX_PARAMS ? nparams : PMNF_MAX_PARAMS, NULL};
	struct pmnf f = {.nparams = r.nparams};
	bool ok = item(&r, &f, true, 1);
	while (ok) {
		double sign = accept(&r, '+') ? 1 : accept(&r, '-') ? -1 : 0;
		if (!sign)
			break;
		ok = item(&r, &f, false, sign);
	}
	skip_space(&r);
	if (ok && *r.at)
		ok = fail(&r, "unexpected text after the formula");
	if (!ok) {
		snprintf(why, whylen, "%s at offset %td of '%s'", r.error, r.at - text, text);
		return false;
	}
	*out = f;
	return true;
}
