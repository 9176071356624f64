# export: run containers in other tools' formats — OTF2 archives (Vampir, Scalasca; libotf2) and
# Chrome trace-event JSON (Perfetto, chrome://tracing) — from a per-rank timeline that uses the
# recorded timestamps when the run kept them and synthesizes them from the timing otherwise
CORE_SRCS += $(wildcard lib/export/*.c)
