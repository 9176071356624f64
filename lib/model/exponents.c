/*
 * exponents — default and user-defined exponent sets, and the SPEC parser. See exponents.h.
 */
#include "model/exponents.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(struct exponent_set *s, double i, double j)
{
	if (i == 0.0 && j == 0.0)
		return;
	for (size_t k = 0; k < s->n; k++)
		if (fabs(s->f[k].i - i) < 1e-12 && fabs(s->f[k].j - j) < 1e-12)
			return;
	if (s->n < EXPONENTS_MAX)
		s->f[s->n++] = (struct pmnf_factor){i, j};
}

static int by_order(const void *a, const void *b)
{
	return pmnf_factor_cmp(*(const struct pmnf_factor *)a, *(const struct pmnf_factor *)b);
}

static void add_product(struct exponent_set *s, const double *is, size_t ni, const double *js, size_t nj)
{
	for (size_t a = 0; a < ni; a++)
		for (size_t b = 0; b < nj; b++)
			add(s, is[a], js[b]);
}

void exponents_default(struct exponent_set *s)
{
	static const double is[] = {0, 0.5, 1, 1.5, 2, 2.5, 3}, js[] = {0, 1, 2};
	s->n = 0;
	add_product(s, is, 7, js, 3);
	qsort(s->f, s->n, sizeof s->f[0], by_order);
}

static void add_strong(struct exponent_set *s)
{
	static const double is[] = {-0.5, -1, -1.5, -2}, js[] = {0, 1};
	add_product(s, is, 4, js, 2);
}

void exponents_model_default(struct exponent_set *s)
{
	exponents_default(s);
	add_strong(s);
	qsort(s->f, s->n, sizeof s->f[0], by_order);
}

/* "3", "-1/2", "0.25" */
static bool parse_number(const char *tok, double *out)
{
	char *end;
	errno = 0;
	double num = strtod(tok, &end);
	if (end == tok || errno)
		return false;
	if (*end == '/') {
		const char *d = end + 1;
		double den = strtod(d, &end);
		if (end == d || errno || den == 0.0)
			return false;
		num /= den;
	}
	if (*end || !isfinite(num) || fabs(num) > 16)
		return false;
	*out = num;
	return true;
}

static int parse_list(const char *item, const char *list, double *out, size_t *n, struct model_error *err)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", list);
	*n = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == 32 || !parse_number(tok, &out[*n])) {
			model_error_set(err, "exponent spec item '%s': '%s' is not a number or fraction in [-16, 16]", item, tok);
			return -1;
		}
		(*n)++;
	}
	if (!*n) {
		model_error_set(err, "exponent spec item '%s' has an empty list", item);
		return -1;
	}
	return 0;
}

static int parse_terms(struct exponent_set *s, const char *item, const char *list, struct model_error *err)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", list);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		double i, j;
		if (!colon) {
			model_error_set(err, "exponent spec item '%s': term '%s' is not I:J", item, tok);
			return -1;
		}
		*colon = 0;
		if (!parse_number(tok, &i) || !parse_number(colon + 1, &j)) {
			model_error_set(err, "exponent spec item '%s': term '%s:%s' needs two numbers", item, tok, colon + 1);
			return -1;
		}
		add(s, i, j);
	}
	return 0;
}

int exponents_parse(const char *spec, struct exponent_set *s, struct model_error *err)
{
	char buf[1024];
	double is[32], js[32];
	size_t ni = 0, nj = 0;
	bool have_i = false, have_j = false;
	if (strlen(spec) >= sizeof buf) {
		model_error_set(err, "exponent spec is too long");
		return -1;
	}
	strcpy(buf, spec);
	s->n = 0;
	for (char *save = NULL, *item = strtok_r(buf, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
		while (*item == ' ')
			item++;
		if (!strcmp(item, "default")) {
			struct exponent_set d;
			exponents_default(&d);
			for (size_t k = 0; k < d.n; k++)
				add(s, d.f[k].i, d.f[k].j);
		} else if (!strcmp(item, "strong")) {
			add_strong(s);
		} else if (!strncmp(item, "i=", 2) || !strncmp(item, "j=", 2)) {
			bool is_i = item[0] == 'i';
			if (is_i ? have_i : have_j) {
				model_error_set(err, "exponent spec item '%c=' given twice", item[0]);
				return -1;
			}
			if (parse_list(item, item + 2, is_i ? is : js, is_i ? &ni : &nj, err))
				return -1;
			*(is_i ? &have_i : &have_j) = true;
		} else if (!strncmp(item, "terms=", 6)) {
			if (parse_terms(s, item, item + 6, err))
				return -1;
		} else {
			model_error_set(err, "exponent spec item '%s' is not one of default, strong, i=LIST, j=LIST, terms=I:J,...", item);
			return -1;
		}
	}
	if (have_i || have_j) {
		static const double zero[] = {0};
		add_product(s, have_i ? is : zero, have_i ? ni : 1, have_j ? js : zero, have_j ? nj : 1);
	}
	if (!s->n) {
		model_error_set(err, "exponent spec '%s' gives no term besides the constant", spec);
		return -1;
	}
	qsort(s->f, s->n, sizeof s->f[0], by_order);
	return 0;
}

bool exponents_need_positive(const struct exponent_set *s)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->f[k].j != 0.0 || s->f[k].i < 0 || s->f[k].i != floor(s->f[k].i))
			return true;
	return false;
}

bool exponents_need_log_nonnegative(const struct exponent_set *s)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->f[k].j != floor(s->f[k].j))
			return true;
	return false;
}
