# grammar: the compressed form of one rank's call sequence (Sequitur with repetition counts, and the
# finished grammars it produces) — dependency-free, shared by the tracer and the tools
PURE_SRCS += $(wildcard lib/grammar/*.c)
