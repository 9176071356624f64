/*
 * buf — growable byte buffer, varints, and a bounds-checked reader. See buf.h.
 */
#include "util/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void buf_init(struct buf *b) { memset(b, 0, sizeof *b); }

void buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

void buf_reset(struct buf *b) { b->len = 0; }

void buf_put(struct buf *b, const void *p, size_t n)
{
	XGROW(b->data, b->cap, b->len + n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n > 0) {
		XGROW(b->data, b->cap, b->len + (size_t)n + 1);
		vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, again);
		b->len += (size_t)n;
	}
	va_end(again);
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_put_u8(struct buf *b, uint8_t v) { buf_put(b, &v, 1); }

void buf_put_uv(struct buf *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;
	do {
		uint8_t byte = v & 0x7f;
		v >>= 7;
		tmp[n++] = byte | (v ? 0x80 : 0);
	} while (v);
	buf_put(b, tmp, n);
}

void buf_put_sv(struct buf *b, int64_t v)
{
	buf_put_uv(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void buf_put_f64(struct buf *b, double v)
{
	uint64_t u;
	memcpy(&u, &v, 8);
	uint8_t tmp[8];
	for (int i = 0; i < 8; i++)
		tmp[i] = (uint8_t)(u >> (8 * i));
	buf_put(b, tmp, 8);
}

void buf_put_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	buf_put_uv(b, n);
	buf_put(b, s, n);
}

void reader_init(struct reader *r, const void *data, size_t len)
{
	r->p = data;
	r->end = r->p + len;
	r->bad = false;
}

size_t reader_left(const struct reader *r) { return (size_t)(r->end - r->p); }

uint8_t get_u8(struct reader *r)
{
	if (r->bad || r->p >= r->end) {
		r->bad = true;
		return 0;
	}
	return *r->p++;
}

uint64_t get_uv(struct reader *r)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (r->bad || r->p >= r->end) {
			r->bad = true;
			return 0;
		}
		uint8_t byte = *r->p++;
		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

int64_t get_sv(struct reader *r)
{
	uint64_t u = get_uv(r);
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

double get_f64(struct reader *r)
{
	uint8_t tmp[8];
	if (!get_bytes(r, tmp, 8))
		return 0;
	uint64_t u = 0;
	for (int i = 0; i < 8; i++)
		u |= (uint64_t)tmp[i] << (8 * i);
	double v;
	memcpy(&v, &u, 8);
	return v;
}

bool get_bytes(struct reader *r, void *out, size_t n)
{
	if (r->bad || reader_left(r) < n) {
		r->bad = true;
		return false;
	}
	memcpy(out, r->p, n);
	r->p += n;
	return true;
}

char *get_str(struct reader *r)
{
	uint64_t n = get_count(r, reader_left(r));
	if (r->bad)
		return NULL;
	char *s = xmalloc(n + 1);
	if (!get_bytes(r, s, n)) {
		free(s);
		return NULL;
	}
	s[n] = 0;
	return s;
}

uint64_t get_count(struct reader *r, uint64_t limit)
{
	uint64_t n = get_uv(r);
	if (n > limit) {
		r->bad = true;
		return 0;
	}
	return n;
}
