/*
 * fit — least squares for one model hypothesis (a constant and a few candidate terms) and its
 * cross-validation error, with GSL's QR decomposition.
 *
 * The fit is weighted by 1/y^2 by default, i.e. it minimises relative residuals, which is the
 * maximum-likelihood fit under multiplicative noise and keeps the small rungs of a ladder from
 * being drowned by the large ones. The cross-validation error is the mean squared relative
 * error of the held-out predictions: leave-one-out comes for free from the hat matrix
 * (r_i = e_i / (1 - h_ii)); k-fold refits once per fold.
 *
 * For the bootstrap, fit_operators turns a fitted hypothesis into linear maps of the data
 * (with the weights held fixed): prediction at the target = g . y, cross-validation residuals
 * = C (w y), residuals = (I - H)(w y).
 *
 * The tests against the noise of the repetitions are in fit_noise.c; screening by exact updates
 * in fit_screen.h.
 */
#ifndef LADDER_MODEL_FIT_H
#define LADDER_MODEL_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/pmnf.h"

enum fit_cv { FIT_CV_LOO, FIT_CV_KFOLD };

struct fit_problem {
	size_t n;                 /* points */
	const double *y;          /* n aggregated values */
	const double *sw;         /* n square roots of the weights */
	size_t ncand;             /* candidate terms */
	const double *basis;      /* ncand x n: candidate term values at the points */
	size_t ncheck;            /* points where a model must stay positive (target, far out) */
	const double *basis_check;/* ncand x ncheck */
	enum fit_cv cv;
	unsigned kfold;           /* folds for FIT_CV_KFOLD */
	const unsigned *fold;     /* n: the fold of each point */
	double tss;               /* weighted total sum of squares about the weighted mean */
	double eps_contrib;       /* a term contributing less than this fraction everywhere is noise */
	double noise_var;         /* variance of a weighted per-point value from the repetitions */
	double noise_dof;         /* its degrees of freedom; 0 when there are no repetitions */
	double fcrit[PMNF_MAX_TERMS + 2]; /* critical F of the residuals by number of coefficients */
	double fadd[PMNF_MAX_TERMS + 1];  /* critical F of adding a term to k terms (fit_noise_init) */
};

struct hypothesis {
	unsigned nterms;
	bool constant;
	unsigned idx[PMNF_MAX_TERMS];   /* candidate indices */
	double c0, coef[PMNF_MAX_TERMS];
	double cv;                      /* mean squared relative cross-validation error */
	double cv_smape;                /* SMAPE (%) of the held-out predictions */
	double rss;                     /* weighted residual sum of squares */
	double ar2;                     /* adjusted R^2, weighted */
	bool valid;
};

struct fit_work;
struct fit_work *fit_work_new(size_t nmax);
void fit_work_free(struct fit_work *w);

/* the level of the tests of fit_within_noise and fit_significant */
#define FIT_ALPHA 0.05

/* Fill in sw and tss for y: relative weights (1/|y|, zeros weighted as the smallest non-zero
 * |y|) or none. */
void fit_weights(size_t n, const double *y, bool relative, double *sw, double *tss);
/* Other values at the same points, with the same weights (tss recomputed). */
void fit_problem_set_values(struct fit_problem *p, const double *y);
/* the weighted total sum of squares of y about its weighted mean */
double fit_weighted_tss(size_t n, const double *y, const double *sw);
/* The critical F values depend only on the points, the candidates and the noise's degrees of
 * freedom, and take a root search each: problems alike share them through this cache. It keeps
 * a few sets, the most recent replacing the oldest: the metrics of one call path alternate
 * between noise with degrees of freedom (times) and none (counts). Zero it to start. */
#define FIT_CRITICAL_SETS 4
struct fit_critical {
	struct fit_critical_set {
		bool valid;
		size_t n, ncand;
		double dof;
		double fcrit[PMNF_MAX_TERMS + 2], fadd[PMNF_MAX_TERMS + 1];
	} set[FIT_CRITICAL_SETS];
	unsigned next;   /* the set replaced next */
};
/* Set noise_var and noise_dof and the critical F values (n and ncand set first); cache may be
 * NULL. */
void fit_noise_init(struct fit_problem *p, double noise_var, double noise_dof, struct fit_critical *cache);
/* Are the residuals of h consistent with that noise (F-test at FIT_ALPHA)? false when unknown. */
bool fit_within_noise(const struct fit_problem *p, const struct hypothesis *h);
/* Does larger (more terms) fit significantly better than smaller: an F-test of the drop in
 * RSS against the noise of the repetitions (without repetitions: against the residuals of
 * larger), at FIT_ALPHA shared among the terms that could have been added (Bonferroni), since
 * the larger hypothesis is the best of many. */
bool fit_significant(const struct fit_problem *p, const struct hypothesis *smaller, const struct hypothesis *larger);
/* k-fold assignment: adjacent points (in the order given by rank) go to different folds */
void fit_assign_folds(size_t n, const double *order_key, unsigned k, unsigned *fold);

/* A hypothesis whose parts (constant and terms) add up in magnitude to more than this times its
 * value, at a measured point or a check point, has terms that cancel each other: it fits by
 * balancing large growing terms against each other and is implausible beyond the data. */
#define FIT_CANCEL_LIMIT 4.0

/* the coefficients of a hypothesis at most */
#define FIT_MAX_COEF (PMNF_MAX_TERMS + 1)
/* The design of h: x (n x m, row-major) = the weights times the constant and the candidate
 * values, each column scaled to unit norm (scale receives the norms). Returns m, 0 when a column
 * is all zero. */
size_t fit_design(const struct fit_problem *p, const struct hypothesis *h, double *x, double *scale);

/* Fit h (nterms, constant, idx set) to p: coefficients, cv, rss, ar2 and valid (false when the
 * hypothesis is degenerate, has too few points, a negligible term, terms that cancel each other
 * (FIT_CANCEL_LIMIT), or goes non-positive at a check point). */
bool fit_hypothesis(const struct fit_problem *p, struct hypothesis *h, struct fit_work *w);

struct fit_ops {
	size_t n;
	double *g;     /* n: prediction at the target = g . y */
	double *cvop;  /* n x n: cross-validation residuals = cvop (sw y) */
	double *resop; /* n x n: residuals = resop (sw y) */
};
/* x0: the candidate term values at the target (ncand). 0 on success. */
int fit_operators(const struct fit_problem *p, const struct hypothesis *h, const double *x0,
		  struct fit_ops *ops, struct fit_work *w);
void fit_ops_free(struct fit_ops *ops);

#endif
