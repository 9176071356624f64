/*
 * buf — a growable byte buffer with LEB128 varints (zigzag for signed values), and a reader over
 * bytes that never reads past the end: every get reports truncation instead of crashing.
 *
 * This is the wire format of the tracer's inter-process merge and of its raw output file.
 */
#ifndef LADDER_UTIL_BUF_H
#define LADDER_UTIL_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf {
	uint8_t *data;
	size_t len, cap;
};

void buf_init(struct buf *b);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
void buf_put(struct buf *b, const void *p, size_t n);
/* formatted text appended (no terminating NUL counted in len) */
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_put_u8(struct buf *b, uint8_t v);
void buf_put_uv(struct buf *b, uint64_t v);     /* unsigned varint */
void buf_put_sv(struct buf *b, int64_t v);      /* zigzag varint */
void buf_put_f64(struct buf *b, double v);      /* 8 bytes, little endian */
void buf_put_str(struct buf *b, const char *s); /* varint length + bytes */

struct reader {
	const uint8_t *p, *end;
	bool bad;               /* set by the first read past the end or malformed varint */
};

void reader_init(struct reader *r, const void *data, size_t len);
size_t reader_left(const struct reader *r);
uint8_t get_u8(struct reader *r);
uint64_t get_uv(struct reader *r);
int64_t get_sv(struct reader *r);
double get_f64(struct reader *r);
bool get_bytes(struct reader *r, void *out, size_t n);
/* returns a freshly allocated string, or NULL (and r->bad) when truncated */
char *get_str(struct reader *r);
/* an unsigned varint that must not exceed limit (a count about to size an allocation) */
uint64_t get_count(struct reader *r, uint64_t limit);

#endif
