/*
 * few_rungs — the law of a duration or gap's mean from three rungs: the constant, one power of p,
 * or the constant plus one power, by relative least squares and an F-test. See few_rungs.h.
 */
#include "extrap/few_rungs.h"

#include <math.h>

#include "model/critical.h"
#include "model/exponents.h"
#include "model/fit.h"

/* the exponents of the constant plus one power (PMNF's simplest terms of either sign) */
static const double SHIFTED_EXPONENTS[] = {-1, -0.5, 0.5, 1};

double few_law_value(const struct few_law *law, double p)
{
	return law->a + law->b * pow(p, law->k);
}

static double rss_of(const struct few_law *law, const double *p, const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		double r = 1 - few_law_value(law, p[i]) / v[i];
		s += r * r;
	}
	return s;
}

/* the constant's relative least squares: a = sum(1/v) / sum(1/v^2) */
static struct few_law constant_law(const double *p, const double *v, size_t n)
{
	double su = 0, suu = 0;
	for (size_t i = 0; i < n; i++)
		su += 1 / v[i], suu += 1 / (v[i] * v[i]);
	struct few_law law = {FEW_CONSTANT, su / suu, 0, 0, 0};
	law.rss = rss_of(&law, p, v, n);
	return law;
}

/* c / p, strong scaling's work per rank (the total the same at every rung), by relative least
 * squares: c = sum(w) / sum(w^2), w = 1 / (p v) */
static struct few_law inverse_law(const double *p, const double *v, size_t n)
{
	double sw = 0, sww = 0;
	for (size_t i = 0; i < n; i++) {
		double w = 1 / (p[i] * v[i]);
		sw += w, sww += w * w;
	}
	struct few_law law = {FEW_POWER, 0, sw / sww, -1, 0};
	law.rss = rss_of(&law, p, v, n);
	return law;
}

/* c * p^k through the points in log-log space (k free: rounded to a quarter once selected); false
 * when the rank counts are all one */
static bool power_law(const double *p, const double *v, size_t n, struct few_law *law)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (size_t i = 0; i < n; i++) {
		double x = log(p[i]), y = log(v[i]);
		sx += x, sy += y, sxx += x * x, sxy += x * y;
	}
	double den = (double)n * sxx - sx * sx;
	if (!(fabs(den) > 1e-12))
		return false;
	double k = ((double)n * sxy - sx * sy) / den;
	*law = (struct few_law){FEW_POWER, 0, exp((sy - k * sx) / (double)n), k, 0};
	law->rss = rss_of(law, p, v, n);
	return true;
}

/* a + b * p^k for one k: the 2x2 normal equations of the relative residuals */
static bool shifted_law(const double *p, const double *v, size_t n, double k, struct few_law *law)
{
	double suu = 0, suw = 0, sww = 0, su = 0, sw = 0;
	for (size_t i = 0; i < n; i++) {
		double u = 1 / v[i], w = pow(p[i], k) / v[i];
		suu += u * u, suw += u * w, sww += w * w, su += u, sw += w;
	}
	double det = suu * sww - suw * suw;
	if (!(fabs(det) > 1e-12 * suu * sww))
		return false;
	*law = (struct few_law){FEW_SHIFTED_POWER, (su * sww - sw * suw) / det, (suu * sw - suw * su) / det, k, 0};
	law->rss = rss_of(law, p, v, n);
	return true;
}

/* work of two parts, neither negative: the part the same on every rank and the part that
 * depends on p (a law that balances a negative part against a larger one has no such reading,
 * and beyond the rungs one part outgrows the other: ft's 1/p, fitted as -0.06 + 17.8/p) */
static bool plausible(const struct few_law *law)
{
	return law->a >= 0 && law->b > 0 && isfinite(law->a) && isfinite(law->b);
}

/* does the law of two parameters fit significantly better than the one of one (F-test, n - 2 dof) */
static bool significant(const struct few_law *constant, const struct few_law *law, size_t n)
{
	if (!(constant->rss > law->rss))
		return false;
	if (!(law->rss > 1e-12 * constant->rss))
		return true;   /* reproduced exactly */
	critical_gsl_quiet();
	double f = (constant->rss - law->rss) / (law->rss / (double)(n - 2));
	return f > critical_f(FIT_ALPHA, 1, (double)(n - 2));
}

static bool valid_points(const double *p, const double *v, size_t n)
{
	if (n < 3 || !(p[n - 1] > p[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0) || !isfinite(v[i]) || !(p[i] > 0))
			return false;
	return true;
}

/* the law that varies with p, of two parts neither negative, with the least residuals; false when none */
static bool best_varying(const double *p, const double *v, size_t n, struct few_law *best)
{
	struct few_law law;
	bool have = power_law(p, v, n, &law) && plausible(&law);
	if (have)
		*best = law;
	for (size_t e = 0; e < sizeof SHIFTED_EXPONENTS / sizeof *SHIFTED_EXPONENTS; e++)
		if (shifted_law(p, v, n, SHIFTED_EXPONENTS[e], &law) && plausible(&law) &&
		    (!have || law.rss < best->rss))
			*best = law, have = true;
	return have;
}

/* the powers of p the PMNF search considers by default (exponents_model_default): lowest, highest */
static void exponent_range(double *lo, double *hi)
{
	struct exponent_set s;
	exponents_model_default(&s);
	*lo = 0, *hi = 0;
	for (size_t k = 0; k < s.n; k++) {
		*lo = s.f[k].i < *lo ? s.f[k].i : *lo;
		*hi = s.f[k].i > *hi ? s.f[k].i : *hi;
	}
}

/* one power of p: its exponent rounded to a quarter (PMNF's exponents) and held within the powers
 * the search considers (three noisy rungs of call durations on shared cores do not make a p^5 law) */
static void round_exponent(struct few_law *law)
{
	double lo, hi;
	exponent_range(&lo, &hi);
	law->k = round(4 * law->k) / 4 + 0.0;   /* -0 is 0 */
	law->k = law->k < lo ? lo : law->k > hi ? hi : law->k;
}

/* the law selected; one power of p has its exponent rounded (round_exponent), the constant where
 * it rounds to 0 */
static bool select_law(const double *p, const double *v, size_t n, struct few_law *law)
{
	if (!valid_points(p, v, n))
		return false;
	/* the simpler law: weak scaling's constant or strong scaling's c / p, whichever fits better */
	struct few_law constant = constant_law(p, v, n), inverse = inverse_law(p, v, n), varying;
	struct few_law simple = inverse.rss < constant.rss ? inverse : constant;
	*law = best_varying(p, v, n, &varying) && significant(&simple, &varying, n) ? varying : simple;
	if (law->kind == FEW_POWER)
		round_exponent(law);
	if (law->kind == FEW_POWER && law->k == 0)
		*law = constant;
	return true;
}

bool few_rungs_at(const double *p, const double *v, size_t n, double target, double *value, struct few_law *law)
{
	if (!select_law(p, v, n, law))
		return false;
	if (law->kind == FEW_CONSTANT) {
		*value = v[n - 1];
		return true;
	}
	*value = v[n - 1] * few_law_value(law, target) / few_law_value(law, p[n - 1]);
	return isfinite(*value) && *value > 0;
}
