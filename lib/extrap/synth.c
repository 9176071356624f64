/*
 * synth — extrap_build: the synthetic run at the target from its classes (origin.h), each
 * evaluated at the target (evaluate.h): signatures deduplicated, classes with equal grammars merged
 * into one group whose ranks are the union of the classes' boxes, the timing of each class's
 * reference rung carried over and extrapolated (timing.h), the profile counted from the result
 * (profile.h). See extrap.h.
 */
#include "extrap/extrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "extrap/alike.h"
#include "meet/balance.h"
#include "extrap/classes.h"
#include "extrap/commands.h"
#include "extrap/evaluate.h"
#include "extrap/grid_rule.h"
#include "extrap/loss_at.h"
#include "extrap/lossy_gaps.h"
#include "extrap/origin.h"
#include "extrap/partners.h"
#include "extrap/profile.h"
#include "extrap/timing.h"
#include "extrap/topology.h"
#include "run/histogram.h"
#include "run/merge.h"
#include "run/refold.h"
#include "util/xalloc.h"

struct sigtab {
	struct run_signature *sigs;
	uint32_t n;
	size_t cap;
	int64_t *vals;
	uint64_t nvals;
	size_t capvals;
};

static uint32_t sigtab_add(struct sigtab *t, const struct occurrence *o)
{
	for (uint32_t i = 0; i < t->n; i++) {
		const struct run_signature *s = &t->sigs[i];
		if (s->fn == o->fn && s->callsite == o->callsite && s->flags == o->flags && s->nvals == o->nvals &&
		    !memcmp(t->vals + s->voff, o->vals, o->nvals * sizeof *o->vals))
			return i;
	}
	XGROW(t->sigs, t->cap, t->n + 1);
	XGROW(t->vals, t->capvals, t->nvals + o->nvals + 1);
	t->sigs[t->n] = (struct run_signature){o->fn, o->callsite, o->flags, o->nvals, t->nvals};
	memcpy(t->vals + t->nvals, o->vals, o->nvals * sizeof *o->vals);
	t->nvals += o->nvals;
	return t->n++;
}

/* calls of the reference rung's sequence that the synthetic run does not make: dropped at the
 * target, or not aligned across the rungs */
static bool leaves_calls_out(const struct aligned_class *a, const struct run_group *rg, const uint32_t *map)
{
	uint64_t *calls = xcalloc(a->ref->nsigs + 1, sizeof *calls);
	grammar_terminal_counts(&rg->g, calls, a->ref->nsigs);
	bool out = false;
	for (uint32_t i = 0; i < a->ref->nsigs && !out; i++)
		out = calls[i] && map[i] == UINT32_MAX;
	for (uint32_t i = 0; i < a->nocc && !out; i++)
		out = a->occ[i].dropped;
	free(calls);
	return out;
}

/* the class's timing at its reference rung, signatures renumbered: gaps by signature, or in a
 * class that leaves calls out by walking the sequence (lossy_gaps.h) */
static void class_timing(const struct aligned_class *a, const uint32_t *occ_sig, struct run_group *g)
{
	const struct run_group *rg = &a->ref->groups[a->ref_group];
	uint32_t *map = xmalloc((a->ref->nsigs + 1) * sizeof *map);
	for (uint32_t i = 0; i < a->ref->nsigs; i++)
		map[i] = UINT32_MAX;
	for (uint32_t i = a->nocc; i-- > 0;)
		map[a->occ[i].ref_sig] = occ_sig[i];
	g->durs = xcalloc(rg->ndurs + 1, sizeof *g->durs);
	for (uint32_t i = 0; i < rg->ndurs; i++)
		if (map[rg->durs[i].sig] != UINT32_MAX) {
			g->durs[g->ndurs] = rg->durs[i];
			g->durs[g->ndurs++].sig = map[rg->durs[i].sig];
		}
	qsort(g->durs, g->ndurs, sizeof *g->durs, run_dur_order);
	if (leaves_calls_out(a, rg, map) && lossy_gaps_build(a, occ_sig, g, HIST_DEFAULT_BINS)) {
		free(map);
		return;
	}
	g->gaps = xcalloc(rg->ngaps + 1, sizeof *g->gaps);
	for (uint32_t i = 0; i < rg->ngaps; i++) {
		const struct run_gap *x = &rg->gaps[i];
		uint32_t prev = x->prev == RUN_NO_PREV ? RUN_NO_PREV : map[x->prev], sig = map[x->sig];
		if (sig == UINT32_MAX || prev == UINT32_MAX)
			continue;
		struct run_gap *y = &g->gaps[g->ngaps++];
		*y = *x;
		y->prev = prev, y->sig = sig;
		y->bins = xmalloc((x->nbins + 1) * sizeof *y->bins);
		memcpy(y->bins, x->bins, x->nbins * sizeof *x->bins);
	}
	qsort(g->gaps, g->ngaps, sizeof *g->gaps, run_gap_order);
	free(map);
}

/* the class's ranks on the target grid as a ranklist (its box; on a grid with a part, the box's
 * ranks of the class), and their number; out NULL: only counted. No rank is visited unless the
 * grid has a part. */
static uint32_t class_ranks(const struct grid *t, uint32_t cls, struct ranklist *out)
{
	int64_t lo[LAW_MAX_DIMS], hi[LAW_MAX_DIMS], c[LAW_MAX_DIMS];
	if (!topology_class_box(t, cls, lo, hi)) {
		if (out)
			ranklist_from_range(out, 0, 0);
		return 0;
	}
	uint64_t n = 1;
	int64_t box[2 + 2 * LAW_MAX_DIMS] = {(int64_t)t->ndims, 0};
	for (uint32_t k = 0; k < t->ndims; k++) {
		n *= (uint64_t)(hi[k] - lo[k] + 1), c[k] = lo[k];
		box[2 + 2 * k] = hi[k] - lo[k] + 1, box[3 + 2 * k] = grid_stride(t, k);
	}
	box[1] = grid_rank_of(t, lo);
	if (!t->part) {
		struct ranklist_clash clash;
		if (out && !ranklist_normalize(out, box, 2 + 2 * t->ndims, &clash))
			abort();   /* a box of a row-major grid names each rank once */
		return (uint32_t)n;
	}
	struct ranklist_builder *b = ranklist_builder_new();
	for (uint64_t i = 0; i < n; i++) {
		int64_t rank = 0;
		for (uint32_t k = 0; k < t->ndims; k++)
			rank = rank * t->dims[k] + c[k];
		if (topology_class(t, rank) == cls)
			ranklist_builder_add(b, (uint32_t)rank);
		for (int k = (int)t->ndims - 1; k >= 0 && ++c[k] > hi[k]; k--)
			c[k] = lo[k];
	}
	struct ranklist none;
	ranklist_init(&none);
	uint32_t kept = (uint32_t)ranklist_builder_finish(b, out ? out : &none);
	ranklist_free(&none);
	return kept;
}

/* the class's ranks join the ranklist `into` of count *n */
static void join_class(struct ranklist *into, uint32_t *n, const struct grid *t, uint32_t cls)
{
	struct ranklist rl;
	ranklist_init(&rl);
	*n += class_ranks(t, cls, &rl);
	ranklist_join(into, &rl);
	ranklist_free(&rl);
}

struct streamtab {
	struct run_stream *s;
	uint32_t n;
	size_t cap;
};

/* does stream a read the values b does (other ranks aside)? */
static bool same_values(const struct run_stream *a, const struct run_stream *b)
{
	if (a->sig != b->sig || a->length != b->length || a->nhead != b->nhead || a->nperiod != b->nperiod ||
	    a->nlaws != b->nlaws || memcmp(a->cells, b->cells, run_stream_cells(a) * sizeof *a->cells))
		return false;
	for (uint32_t k = 0; k < a->nlaws; k++) {
		const struct rank_law *x = &a->laws[k].law, *y = &b->laws[k].law;
		if (a->laws[k].cell != b->laws[k].cell || x->base != y->base || x->nterms != y->nterms ||
		    memcmp(x->terms, y->terms, x->nterms * sizeof *x->terms))
			return false;
	}
	return true;
}

/* the class's ranks join the stream of another class that reads the same values */
static bool join_stream(struct streamtab *t, uint32_t first, const struct run_stream *s, const struct grid *target,
			uint32_t cls)
{
	for (uint32_t k = 0; k < first; k++) {
		struct run_stream *o = &t->s[k];
		if (!same_values(o, s))
			continue;
		join_class(&o->ranks, &o->nranks, target, cls);
		return true;
	}
	return false;
}

/* the class's streams at the target, one per signature, read by the class's ranks (or joining the
 * stream of an earlier class that reads the same values: one stream for all, whatever the classes) */
static void add_streams(struct streamtab *t, const struct aligned_class *a, const uint32_t *occ_sig,
			const struct grid *target)
{
	uint32_t first = t->n, *done = xmalloc((a->nocc + 1) * sizeof *done), ndone = 0;
	for (uint32_t i = 0; i < a->nocc; i++) {
		if (!a->occ[i].stream || a->occ[i].dropped)
			continue;
		bool seen = false;   /* the signature's stream made or joined at an earlier occurrence */
		for (uint32_t k = 0; k < ndone; k++)
			seen = seen || done[k] == occ_sig[i];
		if (seen)
			continue;
		done[ndone++] = occ_sig[i];
		struct run_stream probe = *a->occ[i].stream;
		probe.sig = occ_sig[i];
		if (join_stream(t, first, &probe, target, a->cls))
			continue;
		XGROW(t->s, t->cap, t->n + 1);
		struct run_stream *s = &t->s[t->n++], *from = a->occ[i].stream;
		*s = *from;
		s->sig = occ_sig[i];
		ranklist_init(&s->ranks);
		s->nranks = class_ranks(target, a->cls, &s->ranks);
		s->cells = xmalloc((run_stream_cells(from) + 1) * sizeof *s->cells);
		memcpy(s->cells, from->cells, run_stream_cells(from) * sizeof *s->cells);
		s->laws = xmalloc((from->nlaws + 1) * sizeof *s->laws);
		memcpy(s->laws, from->laws, from->nlaws * sizeof *s->laws);
	}
	free(done);
}

/* out becomes a copy of ref's header and vocabulary, with an empty trace and no profile */
static void clone_header(const struct run *ref, struct run *out)
{
	struct buf b;
	buf_init(&b);
	run_serialize(ref, &b);
	char why[200];
	run_init(out);
	if (!run_parse(out, b.data, b.len, why, sizeof why))
		abort();   /* a run that passed run_check always serializes to a parsable one */
	buf_free(&b);
	struct run keep = *out;
	keep.sigs = NULL, keep.sigvals = NULL, keep.groups = NULL, keep.streams = NULL;
	keep.nodes = NULL, keep.counts = NULL, keep.time_stats = NULL, keep.time = NULL, keep.timestamps = NULL;
	keep.nsigs = keep.ngroups = keep.nstreams = keep.nnodes = keep.ntimestamps = 0;
	keep.nsigvals = 0;
	out->nlabels = 0, out->labels = NULL, out->nfns = 0, out->fns = NULL, out->nstrings = 0, out->strings = NULL;
	out->ncallsites = 0, out->callsites = NULL, out->command = out->host = out->slurm_job_id = NULL;
	out->tool_version = out->created = out->options = NULL;
	run_free(out);
	*out = keep;
}

static bool same_vocabulary(struct run *const *rungs, size_t n, char *why, size_t whylen)
{
	for (size_t i = 1; i < n; i++) {
		const struct run *a = rungs[0], *b = rungs[i];
		bool same = a->nfns == b->nfns && a->nstrings == b->nstrings;
		for (uint32_t f = 0; same && f < a->nfns; f++)
			same = !strcmp(a->fns[f].name, b->fns[f].name);
		for (uint32_t s = 0; same && s < a->nstrings; s++)
			same = !strcmp(a->strings[s], b->strings[s]);
		if (!same) {
			snprintf(why, whylen, "p%u and p%u record different function or string tables (different tracer "
				 "versions or applications)", a->nranks, b->nranks);
			return false;
		}
	}
	return true;
}

/* the groups at the target: classes with equal grammars share one */
static void place_class(struct run *out, struct sigtab *sigs, struct streamtab *streams, const struct aligned_class *a,
			struct class_at *at, const struct grid *target, struct timing_summary *timing)
{
	uint32_t *occ_sig = xmalloc((a->nocc + 1) * sizeof *occ_sig);
	for (uint32_t i = 0; i < a->nocc; i++)
		occ_sig[i] = a->occ[i].dropped ? UINT32_MAX : sigtab_add(sigs, &a->occ[i]);
	add_streams(streams, a, occ_sig, target);
	grammar_map_terminals(&at->g, occ_sig, a->nocc);
	uint32_t gi = 0;
	while (gi < out->ngroups && !grammar_equal(&out->groups[gi].g, &at->g))
		gi++;
	if (gi == out->ngroups) {
		out->groups = xrealloc(out->groups, (out->ngroups + 1) * sizeof *out->groups);
		struct run_group *g = &out->groups[out->ngroups++];
		memset(g, 0, sizeof *g);
		grammar_copy(&g->g, &at->g);
		class_timing(a, occ_sig, g);
		timing_extrapolate(a, occ_sig, grid_size(target), g, out->ngroups - 1, timing);
	}
	join_class(&out->groups[gi].ranks, &out->groups[gi].nranks, target, a->cls);
	free(occ_sig);
}

/* the modeled time and its range, for replays and reports to show a range (run.yaml, /labels) */
static void record_timing_range(struct run *out, const struct timing_summary *t)
{
	if (!t->modeled)
		return;
	char v[64];
	snprintf(v, sizeof v, "%.6g", t->seconds);
	run_set_label(out, "timing_modeled_s", v);
	snprintf(v, sizeof v, "%.6g", t->lo);
	run_set_label(out, "timing_modeled_lo_s", v);
	snprintf(v, sizeof v, "%.6g", t->hi);
	run_set_label(out, "timing_modeled_hi_s", v);
	snprintf(v, sizeof v, "%u of %u", t->intervals, t->modeled);
	run_set_label(out, "timing_intervals", v);
}

/* one class of the target: evaluated, counted, placed */
static bool build_class(struct origins *from, uint32_t cls, const struct grid *target, struct run *out,
			struct sigtab *sigs, struct streamtab *streams, struct timing_summary *timing,
			struct extrap_notes *notes, char *why, size_t whylen)
{
	int64_t lo[LAW_MAX_DIMS], hi[LAW_MAX_DIMS];
	if (!topology_class_box(target, cls, lo, hi))
		return true;
	struct aligned_class *a = origins_class(from, cls, why, whylen);
	struct class_at at;
	if (!a || !evaluate_class(a, target, &at, why, whylen)) {
		if (a)
			class_at_free(&at);
		return false;
	}
	uint64_t members = class_ranks(target, cls, NULL);
	notes->dropped += at.dropped * members;
	notes->calls += (at.dropped + at.kept) * members;
	notes->approximated += at.approximated * members;
	if (at.dropped && !notes->lossy[0])
		snprintf(notes->lossy, sizeof notes->lossy, "%s", a->first_dropped);
	if (at.approximated && !notes->approximate[0])
		snprintf(notes->approximate, sizeof notes->approximate, "%s", a->first_approximated);
	notes->shared += at.shared * members;
	if (at.shared && !notes->share[0])
		snprintf(notes->share, sizeof notes->share, "%s", a->first_shared);
	place_class(out, sigs, streams, a, &at, target, timing);
	class_at_free(&at);
	return true;
}

static bool build_classes(struct run *const *rungs, const struct grid *grids, const bool *periodic, size_t n,
			  const struct grid *target, const struct alike_laws *coord, const struct extrap_options *o,
			  struct run *out, struct extrap_notes *notes, char *why, size_t whylen)
{
	struct sigtab sigs = {0};
	struct streamtab streams = {0};
	struct timing_summary timing = {0};
	struct origins *from = origins_new(rungs, n, grids, periodic, target, coord, o->lossy, why, whylen);
	if (!from)
		return false;
	const struct lcs_loss *unaligned = origins_unaligned(from);
	for (size_t i = 0; unaligned && i < n && i < EXTRAP_MAX_RUNGS; i++)
		notes->unaligned[notes->nrungs++] = unaligned[i];
	bool ok = true;
	for (uint32_t i = 0; ok && i < topology_nclasses(target); i++)
		ok = build_class(from, topology_class_id(target, i), target, out, &sigs, &streams, &timing, notes, why,
				 whylen);
	notes->replaced = origins_replaced(from);
	origins_free(from);
	char text[200];
	snprintf(text, sizeof text, "pmnf: %u histograms modeled (%u by a law of three rungs, fewer than the search needs), "
		 "%u as at the largest rung", timing.modeled, timing.powers, timing.kept);
	run_set_label(out, "timing", text);
	record_timing_range(out, &timing);
	out->intervals = timing.rows, out->nintervals = timing.nrows;
	out->streams = streams.s ? streams.s : xcalloc(1, sizeof *out->streams);
	out->nstreams = streams.n;
	out->sigs = sigs.sigs, out->nsigs = sigs.n;
	out->sigvals = sigs.vals, out->nsigvals = sigs.nvals;
	return ok;
}

/* a profile of no call paths: the container's arrays are empty, not absent */
static void empty_profile(struct run *out)
{
	if (out->counts)
		return;
	out->nnodes = 0;
	out->counts = xcalloc(1, sizeof *out->counts);
	out->time_stats = xcalloc(1, sizeof *out->time_stats);
}

/* the profile of a checked run when it is wanted and can be had (false: none, with a note saying
 * why not); its communicators' sizes may come from the run's split colours (streams run_check sorted) */
static bool add_profile(const struct run *ref, const struct extrap_options *o, struct run *out,
			struct extrap_notes *notes)
{
	char why[400];
	bool made = false;
	if (o->target > o->profile_limit) {
		snprintf(notes->text, sizeof notes->text,
			 "no profile: it is per rank, and %lld ranks is above the limit of %lld",
			 (long long)o->target, (long long)o->profile_limit);
	} else {
		free(out->counts);
		free(out->time_stats);
		out->counts = NULL, out->time_stats = NULL;
		made = extrap_profile(ref, out, why, sizeof why);
		if (!made)
			snprintf(notes->text, sizeof notes->text, "no profile: %s", why);
	}
	empty_profile(out);
	return made;
}

/* what lossy mode left out, in the container's labels */
static void record_lossy(struct run *out, const struct extrap_notes *notes)
{
	char text[64];
	snprintf(text, sizeof text, "%llu", (unsigned long long)notes->dropped);
	run_set_label(out, "lossy_dropped_calls", text);
	snprintf(text, sizeof text, "%.6f", (double)notes->dropped / (double)notes->calls);
	run_set_label(out, "lossy_dropped_share", text);
	run_set_label(out, "lossy_first_dropped", notes->lossy);
	snprintf(text, sizeof text, "%llu", (unsigned long long)notes->replaced);
	run_set_label(out, "lossy_replaced_rung_ranks", text);
	if (notes->approximated) {
		snprintf(text, sizeof text, "%llu", (unsigned long long)notes->approximated);
		run_set_label(out, "lossy_approximated_calls", text);
		snprintf(text, sizeof text, "%.6f", (double)notes->approximated / (double)notes->calls);
		run_set_label(out, "lossy_approximated_share", text);
		run_set_label(out, "lossy_first_approximated", notes->approximate);
	}
	if (notes->shared) {
		snprintf(text, sizeof text, "%llu", (unsigned long long)notes->shared);
		run_set_label(out, "lossy_shared_calls", text);
		snprintf(text, sizeof text, "%.6f", (double)notes->shared / (double)notes->calls);
		run_set_label(out, "lossy_shared_share", text);
		run_set_label(out, "lossy_first_shared", notes->share);
	}
	if (notes->nrungs) {
		char list[EXTRAP_MAX_RUNGS * 48];
		extrap_unaligned_text(notes, list, sizeof list);
		run_set_label(out, "lossy_unaligned", list);
	}
}

bool extrap_notes_lossy(const struct extrap_notes *notes)
{
	return notes->dropped || notes->replaced || notes->nrungs || notes->approximated || notes->shared;
}

void extrap_unaligned_text(const struct extrap_notes *notes, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = 0;
	for (uint32_t i = 0; i < notes->nrungs && used < outlen; i++) {
		const struct lcs_loss *l = &notes->unaligned[i];
		used += (size_t)snprintf(out + used, outlen - used, "%sp%u: %llu of %llu (%.2f%%)", i ? ", " : "", l->ranks,
					 (unsigned long long)l->dropped, (unsigned long long)l->calls,
					 l->calls ? 100.0 * (double)l->dropped / (double)l->calls : 0.0);
	}
}

static void stamp(struct run *out, const struct grid *target)
{
	char text[64], now[32];
	time_t t = time(NULL);
	strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	free(out->created);
	out->created = xstrdup(now);
	free(out->slurm_job_id);
	out->slurm_job_id = xstrdup("");
	out->synthetic = true;
	for (uint32_t i = 0; i < out->nlabels; i++)   /* a synthetic run is no repetition, nor traced */
		if (!strcmp(out->labels[i].key, "repetition") || !strcmp(out->labels[i].key, "tracer_time")) {
			free(out->labels[i].key);
			free(out->labels[i].value);
			out->labels[i--] = out->labels[--out->nlabels];
		}
	grid_format(target, text, sizeof text);
	run_set_label(out, "grid", text);
	snprintf(text, sizeof text, "%u", out->nranks);
	run_set_label(out, "rung", text);
}

static bool same_law(const struct rank_law *a, const struct rank_law *b)
{
	return a->base == b->base && a->nterms == b->nterms && !memcmp(a->terms, b->terms, a->nterms * sizeof *a->terms);
}

/* the call that has no counterpart: its function, its rank's class on the target grid and the laws
 * its streamed values follow there ("" when its values are the class's constants) */
static void describe_unmet(const struct run *out, const struct grid *target, const struct meet_call *c, char *text,
			   size_t textlen)
{
	if (!c->known || c->sig >= out->nsigs) {
		snprintf(text, textlen, "it is a count array's, of no one call");
		return;
	}
	char cls[64], laws[4 * 210 + 80] = "";
	topology_class_name(topology_class(target, c->rank), target->ndims, cls, sizeof cls);
	const struct run_stream *st = run_stream_of(out, c->rank, c->sig);
	size_t used = 0;
	uint32_t shown = 0, distinct = 0;
	for (uint32_t k = 0; st && k < st->nlaws; k++) {   /* the distinct laws, the first four said */
		bool seen = false;
		for (uint32_t e = 0; e < k && !seen; e++)
			seen = same_law(&st->laws[e].law, &st->laws[k].law);
		if (seen || distinct++ >= 4)
			continue;
		char law[200];
		rank_law_format(&st->laws[k].law, law, sizeof law);
		used += (size_t)snprintf(laws + used, sizeof laws - used, "%s%s", shown++ ? ", " : "; its value laws: ", law);
	}
	if (distinct > shown)
		snprintf(laws + used, sizeof laws - used, " and %u more", distinct - shown);
	snprintf(text, textlen, "the call is rank %u's %s, of class %s%s%s", c->rank,
		 out->fns[out->sigs[c->sig].fn].name, cls, laws[0] ? laws : "; its values the class's constants",
		 laws[0] ? "" : " (decided across the rungs)");
}

/* Every synthetic run's calls are checked to meet (balance.h) up to the profile's limit. An exact
 * run whose calls do not meet is refused (false, with the first mismatch, the call and its class
 * and laws in why); a lossy one is marked not replayable (run.yaml's label not_replayable), and
 * beyond the limit marked unchecked. */
static bool check_calls_meet(struct run *out, const struct grid *target, const struct extrap_options *o,
			     struct extrap_notes *notes, char *why, size_t whylen)
{
	char unmet[400], call[900], text[1400];
	bool lossy = extrap_notes_lossy(notes);
	struct meet_call c;
	if (o->target <= o->profile_limit) {
		if (run_calls_balanced(out, &c, unmet, sizeof unmet))
			return true;
		describe_unmet(out, target, &c, call, sizeof call);
		if (!lossy) {
			snprintf(why, whylen, "the synthetic run's calls would not meet: %s; %s. Its laws are wrong at the "
				 "target; nothing is written", unmet, call);
			return false;
		}
		snprintf(text, sizeof text, "calls do not meet: %s; %s", unmet, call);
	} else if (lossy) {
		snprintf(text, sizeof text, "a lossy run of %lld ranks, above --profile-limit %lld: whether its calls meet "
			 "was not checked", (long long)o->target, (long long)o->profile_limit);
	} else {   /* exact, beyond the walk's limit: said, not hidden (replay and proxy count it themselves) */
		snprintf(notes->meet_unchecked, sizeof notes->meet_unchecked, "a run of %lld ranks, above "
			 "--profile-limit %lld: whether its calls meet was not checked", (long long)o->target,
			 (long long)o->profile_limit);
		run_set_label(out, "meet_unchecked", notes->meet_unchecked);
		return true;
	}
	run_set_label(out, "not_replayable", text);
	snprintf(notes->not_replayable, sizeof notes->not_replayable, "%s", text);
	return true;
}

/* every rung's command (label rung_commands) and the target's: the rungs' with the target's rank
 * count where they differ only by theirs, else said unknown (notes->commands_differ says how) */
static void record_commands(struct run *const *rungs, size_t n, uint64_t target, struct run *out,
			    struct extrap_notes *notes)
{
	const char **cmds = xcalloc(n + 1, sizeof *cmds);
	uint32_t *ranks = xcalloc(n + 1, sizeof *ranks);
	for (size_t i = 0; i < n; i++)
		cmds[i] = rungs[i]->command, ranks[i] = rungs[i]->nranks;
	char *list = commands_list(cmds, ranks, n), *at = NULL;
	run_set_label(out, "rung_commands", list);
	free(list);
	free(out->command);
	if (commands_at_target(cmds, ranks, n, target, &at, notes->commands_differ, sizeof notes->commands_differ)) {
		out->command = at;
	} else {
		out->command = xasprintf("unknown: the rungs' commands differ beyond the rank count (label rung_commands)");
	}
	free(cmds);
	free(ranks);
}

/* did the code ask MPI_Dims_create for its grid at some rung? */
static bool dims_create_called(struct run *const *rungs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (topology_dims_create_asked(rungs[i]))
			return true;
	return false;
}

/* the run of the partner families of partners.h in alt (its header cloned from the reference
 * rung), target their grid and rule how it was found (left as it is when --target named it); false
 * with why */
static bool partners_run(struct run *const *rungs, size_t n, size_t ref, const struct extrap_options *o,
			 struct run *alt, struct grid *target, char *rule, size_t rulelen, char *why, size_t whylen)
{
	char families[600], found[200] = "";
	struct grid t = o->target_grid;
	clone_header(rungs[ref], alt);
	for (size_t i = 0; i < n; i++)
		if (rungs[i]->cpu_time < alt->cpu_time)
			alt->cpu_time = rungs[i]->cpu_time;
	if (!partners_build(rungs, n, o, alt, &t, found, sizeof found, families, sizeof families, why, whylen)) {
		run_free(alt);
		run_init(alt);
		return false;
	}
	*target = t;
	if (found[0])
		snprintf(rule, rulelen, "%s", found);
	run_set_label(alt, "partner_families", families);
	run_set_label(alt, "timing", "pmnf: 0 histograms modeled, every one as at the largest rung (partner families)");
	return true;
}

/* where the position classes do not line up, the partner families: out holds their
 * run, or why says why they did not explain the ladder either */
static bool try_partners(struct run *const *rungs, size_t n, size_t ref, const struct extrap_options *o,
			 struct run *out, struct grid *target, char *rule, size_t rulelen, char *why, size_t whylen)
{
	char w[700];
	struct run alt;
	if (partners_run(rungs, n, ref, o, &alt, target, rule, rulelen, w, sizeof w)) {
		run_free(out);
		*out = alt;
		return true;
	}
	size_t used = strlen(why);
	snprintf(why + used, whylen - used, "; nor do partner families explain the ladder: %s", w);
	return false;
}

/* lossy mode, when the run left calls out or stated some by rule: the partner families' exact run
 * instead, where they explain the ladder */
static void prefer_partners(struct run *const *rungs, size_t n, size_t ref, const struct extrap_options *o,
			    struct run *out, struct grid *target, char *rule, size_t rulelen, struct extrap_notes *notes)
{
	char w[700];
	struct run alt;
	if (!partners_run(rungs, n, ref, o, &alt, target, rule, rulelen, w, sizeof w))
		return;
	run_free(out);
	*out = alt;
	memset(notes, 0, sizeof *notes);
}

bool extrap_build(struct run *const *rungs, size_t n, const struct extrap_options *o, struct run *out,
		  struct extrap_notes *notes, char *why, size_t whylen)
{
	run_init(out);
	memset(notes, 0, sizeof *notes);
	if (n < 2) {
		snprintf(why, whylen, "the ladder has %zu rung%s; extrapolation needs 2 at least (3 or more to confirm "
			 "laws with more than one term)", n, n == 1 ? "" : "s");
		return false;
	}
	struct grid *grids = xcalloc(n, sizeof *grids), target = o->target_grid;
	bool periodic[LAW_MAX_DIMS];
	/* rungs where a call site kept its values literal and rungs where it streamed them: one form */
	uint32_t refolded;
	char refold[300];
	bool ok = refold_ladder(rungs, n, &refolded, refold, sizeof refold);
	if (!ok)
		snprintf(why, whylen, "%s", refold);
	/* rungs that are not of one form or vocabulary are refused as they are: no partner family reads them */
	const bool one_form = ok = ok && same_vocabulary(rungs, n, why, whylen);
	ok = ok && classes_grids(rungs, n, grids, periodic, why, whylen);
	char rule[200] = "named by --target";
	if (ok && !target.ndims)
		ok = grid_rule_target(grids, n, o->target, dims_create_called(rungs, n), &target, rule, sizeof rule, why,
				      whylen);
	if (ok && (target.ndims != grids[0].ndims || grid_size(&target) != o->target)) {
		char text[64];
		grid_format(&target, text, sizeof text);
		snprintf(why, whylen, "the target grid %s is not a %u-D grid of %lld ranks", text, grids[0].ndims,
			 (long long)o->target);
		ok = false;
	}
	char alike[300] = "";
	struct alike_laws coord = {0};
	for (size_t i = 0; ok && i < n; i++)   /* the streams' laws read the rung's grid */
		run_stream_laws_on(rungs[i], &grids[i]);
	if (ok) {   /* ranks that differ by a law of their coordinates: united, classes split where they differ */
		alike_unite(rungs, n, grids, &target, &coord, alike, sizeof alike);
		classes_part(rungs, n, grids);
		target.part = grids[0].part;
	}
	size_t ref = 0;
	for (size_t i = 1; i < n; i++)
		ref = rungs[i]->nranks > rungs[ref]->nranks ? i : ref;
	if (ok)
		clone_header(rungs[ref], out);
	for (size_t i = 0; i < n && ok; i++)   /* CPU times are what the least of the rungs measured */
		if (rungs[i]->cpu_time < out->cpu_time)
			out->cpu_time = rungs[i]->cpu_time;
	ok = ok && build_classes(rungs, grids, periodic, n, &target, &coord, o, out, notes, why, whylen);
	if (!ok && alike[0] && strstr(why, "behave differently")) {   /* why they were not united */
		size_t used = strlen(why);
		snprintf(why + used, whylen - used, " (%s)", alike);
	}
	if (!ok && one_form && try_partners(rungs, n, ref, o, out, &target, rule, sizeof rule, why, whylen)) {
		memset(notes, 0, sizeof *notes);   /* what the classes noted before they failed is not this run's */
		ok = true;
	}
	else if (ok && extrap_notes_lossy(notes))
		prefer_partners(rungs, n, ref, o, out, &target, rule, sizeof rule, notes);
	if (ok) {
		out->nranks = (uint32_t)o->target;
		empty_profile(out);
		stamp(out, &target);
		record_commands(rungs, n, (uint64_t)o->target, out, notes);
		run_set_label(out, "grid_rule", rule);
		if (refolded)   /* the rungs' literal calls of streaming call sites, per rung */
			run_set_label(out, "refolded", refold);
		if (extrap_notes_lossy(notes))
			record_lossy(out, notes);
	}
	free(coord.v);
	if (!ok || !run_check(out, why, whylen) ||
	    (add_profile(rungs[ref], o, out, notes) && !run_check(out, why, whylen)) ||
	    !check_calls_meet(out, &target, o, notes, why, whylen)) {
		free(grids);
		run_free(out);
		return false;
	}
	if (extrap_notes_lossy(notes) && o->target <= o->profile_limit)   /* walks every rank, as the profile does */
		loss_at_record(rungs, grids, n, &target, out, &notes->loss);
	free(grids);
	return true;
}
