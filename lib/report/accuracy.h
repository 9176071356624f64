/*
 * accuracy — the figures a report is made of, as pure functions of numbers: the accuracy of one
 * prediction (ScalaExtrap §5.2: 1 - |predicted - measured| / measured), whether a prediction
 * interval held, and how well a predicted ranking of kernels matches the measured one (Spearman's
 * rank correlation and the agreement of the top k, Extra-P (SC13) §4).
 */
#ifndef LADDER_REPORT_ACCURACY_H
#define LADDER_REPORT_ACCURACY_H

#include <stdbool.h>
#include <stddef.h>

/* 1 - |predicted - measured| / |measured|; 1 when both are 0; NaN when measured is 0 and the
 * prediction is not, or either is not finite. May be negative (a prediction off by more than the
 * measurement). */
double accuracy_of(double predicted, double measured);

/* The accuracy of n predictions together, weighted by what they predict: 1 - sum |p - m| /
 * sum |m| (errors do not cancel; large values weigh more). 1 when every value is 0 on both
 * sides, NaN when n == 0 or the measurements are all 0 and a prediction is not. */
double aggregate_accuracy(const double *predicted, const double *measured, size_t n);

/* 1 when lower <= measured <= upper, 0 when outside, -1 when there is no interval (NaN ends) */
int interval_held(double lower, double upper, double measured);

/* Spearman's rank correlation of predicted and measured (n pairs, ties get their mean rank);
 * NaN when n < 2 or either side is constant. */
double rank_correlation(const double *predicted, const double *measured, size_t n);

/* The share of the k largest measured values whose items are also among the k largest predicted
 * (|top_k(pred) ∩ top_k(meas)| / k, ties broken by index); k is clamped to n; NaN when n == 0. */
double topk_agreement(const double *predicted, const double *measured, size_t n, size_t k);

/* the median of n values (v is reordered); NaN when n == 0 */
double median_of(double *v, size_t n);

#endif
