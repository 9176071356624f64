/*
 * pmnf_format — the textual forms of a PMNF function: the formula with its coefficients
 * ("3.1 + 0.02 * p^(3/2) * log2(p)"), the same syntax Extra-P prints, and the growth class of
 * its leading terms ("p^(3/2) log p", "constant", "1/p").
 */
#include "model/pmnf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* append to buf (always NUL-terminated, truncated when full) */
static void put(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

void pmnf_format_exponent(double e, char *buf, size_t len)
{
	static const int dens[] = {1, 2, 3, 4, 5, 6, 8};
	for (size_t k = 0; k < sizeof dens / sizeof dens[0]; k++) {
		double num = e * dens[k];
		if (fabs(num - round(num)) < 1e-9) {
			if (dens[k] == 1)
				snprintf(buf, len, "%d", (int)round(num));
			else
				snprintf(buf, len, "%d/%d", (int)round(num), dens[k]);
			return;
		}
	}
	snprintf(buf, len, "%g", e);
}

/* "p^(1/2) * log2(p)^2" — the formula form of one factor, empty for x^0 log^0 */
void pmnf_format_factor(struct pmnf_factor f, const char *name, char *buf, size_t len)
{
	char e[32];
	buf[0] = 0;
	if (f.i != 0.0) {
		pmnf_format_exponent(f.i, e, sizeof e);
		if (!strcmp(e, "1"))
			put(buf, len, "%s", name);
		else if (strchr(e, '/') || e[0] == '-')
			put(buf, len, "%s^(%s)", name, e);
		else
			put(buf, len, "%s^%s", name, e);
	}
	if (f.j != 0.0) {
		pmnf_format_exponent(f.j, e, sizeof e);
		if (buf[0])
			put(buf, len, " * ");
		if (!strcmp(e, "1"))
			put(buf, len, "log2(%s)", name);
		else if (strchr(e, '/') || e[0] == '-')
			put(buf, len, "log2(%s)^(%s)", name, e);
		else
			put(buf, len, "log2(%s)^%s", name, e);
	}
}

void pmnf_format(const struct pmnf *f, const char *const *names, char *buf, size_t len)
{
	buf[0] = 0;
	bool first = true;
	if (f->constant != 0.0 || f->nterms == 0) {
		put(buf, len, "%.4g", f->constant);
		first = false;
	}
	for (unsigned k = 0; k < f->nterms; k++) {
		const struct pmnf_term *t = &f->term[k];
		double c = t->coef;
		if (first)
			put(buf, len, "%.4g", c);
		else
			put(buf, len, " %c %.4g", c < 0 ? '-' : '+', fabs(c));
		first = false;
		for (unsigned l = 0; l < f->nparams; l++) {
			if (pmnf_factor_is_one(t->f[l]))
				continue;
			char fb[96];
			pmnf_format_factor(t->f[l], names[l], fb, sizeof fb);
			put(buf, len, " * %s", fb);
		}
	}
}

/* growth-class form of a factor with positive (sign=+1) or negated (sign=-1) exponents:
 * "p^(1/2) log^2 p" */
static void growth_part(struct pmnf_factor f, int sign, const char *name, char *buf, size_t len)
{
	char e[32];
	double i = sign * f.i, j = sign * f.j;
	buf[0] = 0;
	if (i > 0) {
		pmnf_format_exponent(i, e, sizeof e);
		if (!strcmp(e, "1"))
			put(buf, len, "%s", name);
		else if (strchr(e, '/'))
			put(buf, len, "%s^(%s)", name, e);
		else
			put(buf, len, "%s^%s", name, e);
	}
	if (j > 0) {
		pmnf_format_exponent(j, e, sizeof e);
		if (buf[0])
			put(buf, len, " ");
		if (!strcmp(e, "1"))
			put(buf, len, "log %s", name);
		else if (strchr(e, '/'))
			put(buf, len, "log^(%s) %s", e, name);
		else
			put(buf, len, "log^%s %s", e, name);
	}
}

static void growth_term(const struct pmnf_term *t, unsigned nparams, const char *const *names,
			char *buf, size_t len)
{
	char num[160] = "", den[160] = "";
	unsigned nden = 0;
	for (unsigned l = 0; l < nparams; l++) {
		char part[80];
		growth_part(t->f[l], +1, names[l], part, sizeof part);
		if (part[0])
			put(num, sizeof num, "%s%s", num[0] ? " * " : "", part);
		growth_part(t->f[l], -1, names[l], part, sizeof part);
		if (part[0]) {
			put(den, sizeof den, "%s%s", den[0] ? " * " : "", part);
			nden++;
		}
	}
	if (!num[0] && !den[0])
		put(buf, len, "constant");
	else if (!den[0])
		put(buf, len, "%s", num);
	else if (nden > 1 || strchr(den, ' '))
		put(buf, len, "%s/(%s)", num[0] ? num : "1", den);
	else
		put(buf, len, "%s/%s", num[0] ? num : "1", den);
}

void pmnf_growth_class(const struct pmnf *f, const char *const *names, char *buf, size_t len)
{
	unsigned idx[PMNF_MAX_TERMS];
	unsigned n = pmnf_leading_terms(f, idx);
	buf[0] = 0;
	if (n == 0) {
		put(buf, len, "constant");
		return;
	}
	for (unsigned k = 0; k < n; k++) {
		if (k)
			put(buf, len, " + ");
		char tb[200] = "";
		growth_term(&f->term[idx[k]], f->nparams, names, tb, sizeof tb);
		put(buf, len, "%s", tb);
	}
}
