/*
 * export — rank and window selection shared by the exporters. See export.h.
 */
#include "export/export.h"

bool export_rank_selected(const struct export_options *o, uint32_t rank)
{
	return !o->rank_selected || o->rank_selected[rank];
}

bool export_in_window(const struct export_options *o, double start, double end)
{
	return end >= o->from && !export_past_window(o, start);
}

bool export_past_window(const struct export_options *o, double start)
{
	return o->to >= 0 && start > o->to;
}

bool export_rank_full(const struct export_options *o, uint64_t written)
{
	return o->max_events && written >= o->max_events;
}

const char *export_timestamps_kind(bool recorded)
{
	return recorded ? "recorded (lossless timing mode)"
			: "synthesized from the timing histograms and durations (means)";
}
