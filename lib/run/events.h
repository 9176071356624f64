/*
 * events — one rank's calls, in order, from a run: walks the rank's grammar without expanding it
 * and fills streamed values from the rank's value streams. Used by decode, replay and compare.
 */
#ifndef LADDER_RUN_EVENTS_H
#define LADDER_RUN_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "grammar/grammar.h"
#include "run/run.h"

struct event {
	uint32_t sig;
	const struct fn_desc *fn;
	const struct run_signature *s;
	const int64_t *vals;      /* actual values: streamed groups filled in */
	uint32_t nvals;
	uint64_t repeat;          /* > 1 for a run of identical failed polls */
	uint64_t req_key;         /* the signature's request pool key */
	bool constant;            /* no streamed values: vals are the same on every call of this
				     (rank, signature), so its formatted line can be reused */
};

/* what the iterator learns of a signature on its first call (the same for every call) */
struct event_sig {
	bool known;               /* the fields below are filled */
	bool constant;            /* no value is streamed */
	uint32_t nvals;           /* when constant: how many of its values an event carries */
	int64_t stream;           /* the rank's stream for it (relative index), or -1 */
	uint64_t req_key;
};

struct event_iter {
	const struct run *r;
	uint32_t rank;
	struct gwalk walk;
	uint32_t term;
	uint64_t term_left;
	const struct run_stream **streams;   /* the streams this rank reads, by signature */
	struct stream_cursor *cursor;   /* per stream of this rank: cursor[k] reads streams[k] */
	uint32_t ncursors;
	int64_t *vals;
	uint32_t capvals;
	struct event_sig *sig_info; /* per signature, filled on first use */
	uint64_t calls;           /* calls so far, failed polls one by one */
	uint64_t limit;           /* the most calls the walk may reach (see event_max_calls) */
	char error[200];          /* set when the run is inconsistent (a stream runs out) or the
				     walk would pass its limit */
};

/*
 * The walk bound: no walk of one rank goes past event_max_calls() calls (failed polls counted one
 * by one). It does not come from the file, so a trace whose repeat counts claim more calls than a
 * run makes is refused at once instead of walked for ever; commands set it from --max-calls or
 * LADDER_MAX_CALLS. A rank's profile, when a measured run has one, bounds the walk too: the
 * tracer counts calls there independently of the grammar.
 */
#define EVENT_MAX_CALLS_DEFAULT UINT64_C(1000000000)
void event_set_max_calls(uint64_t n);
uint64_t event_max_calls(void);
/* the bound as written on a command line or in LADDER_MAX_CALLS: a decimal integer >= 1 */
bool event_parse_max_calls(const char *text, uint64_t *n);
/* false, with the rank and both numbers in why, when a rank's grammar expands to more calls than
 * event_max_calls(): decided from the grammars' lengths before any walk */
bool event_calls_bounded(const struct run *r, char *why, size_t whylen);

/*
 * The rank bound: commands that walk every rank (validate, compare, export) refuse a run of more
 * than event_max_ranks() ranks before walking any, a bound that does not come from the file either
 * (an extrapolated run may claim 2^31 ranks in a few kilobytes); set from --max-ranks or
 * LADDER_MAX_RANKS.
 */
#define EVENT_MAX_RANKS_DEFAULT UINT64_C(1048576)
void event_set_max_ranks(uint64_t n);
uint64_t event_max_ranks(void);
/* false, with both numbers in why, when the run has more ranks than event_max_ranks() */
bool event_ranks_bounded(const struct run *r, char *why, size_t whylen);

/* the run must have passed run_check; a rank whose calls exceed the bound gets its error here */
void event_iter_init(struct event_iter *it, const struct run *r, uint32_t rank);
void event_iter_free(struct event_iter *it);
bool event_next(struct event_iter *it, struct event *ev);
/* after the last event: every value of the rank's streams was read (false with why) */
bool event_iter_streams_consumed(const struct event_iter *it, char *why, size_t whylen);

/* the view for event_format() of an event */
void event_view_of(const struct event_iter *it, const struct event *ev, struct event_view *v);

#endif
