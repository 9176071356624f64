# run: the run model — one traced run in memory (struct run), its raw format and checks, event
# iteration, timing histograms, ranklists, the rank merge and call formatting (dependency-free,
# shared by the tracer and the tools)
PURE_SRCS += $(wildcard lib/run/*.c)
