# report: the closed loop's verdict — accuracy of models, extrapolated traces and replays at the
# target, kernel ranking, nightly history and thresholds; HTML (gnuplot SVG), Markdown, JSON
CORE_SRCS += $(wildcard lib/report/*.c)
