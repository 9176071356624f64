/*
 * critical — quantiles of the F and normal distributions that never abort: GSL's inverse CDFs
 * fail to converge for some arguments (gsl_cdf_fdist_Qinv at a level of 0.05/20 with 620
 * degrees of freedom, as 4 rungs x 156 repetitions give) and then call the error handler, which
 * aborts by default. These return the quantile found by a root search on the CDF itself when
 * the inverse fails, and NaN only when that fails too.
 *
 *     gsl_set_error_handler_off();           // done once by model_experiment
 *     double f = critical_f(0.05, 1, 620);   // P(F > f) = 0.05
 */
#ifndef LADDER_MODEL_CRITICAL_H
#define LADDER_MODEL_CRITICAL_H

/* the upper alpha-quantile of F(nu1, nu2): P(F > x) = alpha */
double critical_f(double alpha, double nu1, double nu2);

/* Switch GSL's abort-on-error handler off (GSL functions return error codes and NaN instead);
 * idempotent. Every entry point of lib/model that calls GSL calls this first. */
void critical_gsl_quiet(void);

#endif
