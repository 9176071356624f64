/*
 * formula — a recursive-descent evaluator of the PMNF text of stored models. See formula.h.
 *
 *   expr    := term (('+' | '-') term)*
 *   term    := power (('*' | '/') power)*
 *   power   := unary ('^' unary)?
 *   unary   := '-' unary | primary
 *   primary := number | 'p' | 'n' | 'log2' '(' expr ')' | '(' expr ')'
 *
 * Nesting (parentheses, log2, unary minus) is bounded by FORMULA_MAX_DEPTH: a stored formula is
 * hostile input, and a deeper one is an error, not a stack overflow.
 */
#include "report/formula.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* deeper than any model `ladder model` writes (a few levels) by far */
#define FORMULA_MAX_DEPTH 64

struct parser {
	const char *at;
	double p, n;
	const char *error;
	unsigned depth;
};

/* one level deeper; false (the error set, the parse stops) past the limit */
static bool descend(struct parser *x)
{
	if (x->error)
		return false;
	if (++x->depth > FORMULA_MAX_DEPTH) {
		x->error = "nested too deeply (more than 64 levels)";
		return false;
	}
	return true;
}

static double expr(struct parser *x);

static void skip_space(struct parser *x)
{
	while (isspace((unsigned char)*x->at))
		x->at++;
}

static bool accept(struct parser *x, char c)
{
	skip_space(x);
	if (*x->at != c)
		return false;
	x->at++;
	return true;
}

static double primary(struct parser *x)
{
	skip_space(x);
	if (accept(x, '(')) {
		if (!descend(x))
			return NAN;
		double v = expr(x);
		x->depth--;
		if (!accept(x, ')') && !x->error)
			x->error = "expected ')'";
		return v;
	}
	if (isdigit((unsigned char)*x->at) || *x->at == '.') {
		char *end;
		double v = strtod(x->at, &end);
		x->at = end;
		return v;
	}
	if (!strncmp(x->at, "log2", 4)) {
		x->at += 4;
		if (!accept(x, '(')) {
			x->error = "expected '(' after log2";
			return NAN;
		}
		if (!descend(x))
			return NAN;
		double v = expr(x);
		x->depth--;
		if (!accept(x, ')') && !x->error)
			x->error = "expected ')'";
		return log2(v);
	}
	if (*x->at == 'p' || *x->at == 'n') {
		char c = *x->at++;
		if (isalnum((unsigned char)*x->at) || *x->at == '_') {
			x->error = "unknown name";
			return NAN;
		}
		return c == 'p' ? x->p : x->n;
	}
	x->error = *x->at ? "unexpected character" : "unexpected end";
	return NAN;
}

static double unary(struct parser *x)
{
	if (accept(x, '-')) {
		if (!descend(x))
			return NAN;
		double v = -unary(x);
		x->depth--;
		return v;
	}
	return primary(x);
}

static double power(struct parser *x)
{
	double v = unary(x);
	if (accept(x, '^'))
		v = pow(v, unary(x));
	return v;
}

static double term(struct parser *x)
{
	double v = power(x);
	for (;;) {
		if (accept(x, '*'))
			v *= power(x);
		else if (accept(x, '/'))
			v /= power(x);
		else
			return v;
	}
}

static double expr(struct parser *x)
{
	double v = term(x);
	for (;;) {
		if (accept(x, '+'))
			v += term(x);
		else if (accept(x, '-'))
			v -= term(x);
		else
			return v;
	}
}

bool formula_eval(const char *text, double p, double n, double *value, char *why, size_t whylen)
{
	struct parser x = {text, p, n, NULL, 0};
	double v = expr(&x);
	skip_space(&x);
	if (!x.error && *x.at)
		x.error = "unexpected text after the formula";
	if (x.error) {
		snprintf(why, whylen, "%s at offset %td of '%s'", x.error, x.at - text, text);
		return false;
	}
	*value = v;
	return true;
}
