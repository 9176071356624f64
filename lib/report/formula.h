/*
 * formula — evaluating a stored model (the readable PMNF text `ladder model` writes into
 * /models/callpaths, e.g. "0.2549 + 0.03995 * log2(p)" or "-6.6e-06 + 8.7e-06 * p^(3/2)") at a
 * point, so that a report can draw the fitted curve from the campaign container alone. Numbers,
 * the parameters p and n, + - * / ^, parentheses and log2(); nothing else.
 */
#ifndef LADDER_REPORT_FORMULA_H
#define LADDER_REPORT_FORMULA_H

#include <stdbool.h>
#include <stddef.h>

/* The value of text at p (and n); false (with why) when the text is not a formula this reads. */
bool formula_eval(const char *text, double p, double n, double *value, char *why, size_t whylen);

#endif
