# grammar: the compressed representation of a trace (Sequitur, grammars, ranklists, signatures,
# timing histograms) — dependency-free, shared by the tracer and the tools
PURE_SRCS += $(wildcard lib/grammar/*.c)
