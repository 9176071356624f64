/*
 * hash — 64-bit hashing of byte strings and integers (FNV-1a with a final avalanche mix).
 * Stable across processes and machines: call-site and signature hashes computed on different
 * ranks agree.
 */
#ifndef LADDER_UTIL_HASH_H
#define LADDER_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline uint64_t hash_bytes(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return hash_mix64(h);
}

static inline uint64_t hash_combine(uint64_t h, uint64_t v)
{
	return hash_mix64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

#endif
