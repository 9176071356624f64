/*
 * gcd — the greatest common divisor of two integers (Euclid), for the laws that divide counts
 * and strides: gcd_uint64 of two unsigned values, gcd_int64 of two values read as their
 * magnitudes' (gcd_int64(-4, 6) = 2, gcd_int64(0, 0) = 0).
 */
#ifndef LADDER_UTIL_GCD_H
#define LADDER_UTIL_GCD_H

#include <stdint.h>

static inline uint64_t gcd_uint64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static inline int64_t gcd_int64(int64_t a, int64_t b)
{
	uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
	return (int64_t)gcd_uint64(ua, ub);
}

#endif
