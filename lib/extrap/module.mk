# extrap: trace extrapolation (ScalaExtrap §3) — topology, alignment of groups and signatures across
# the ladder, parameter laws solved with GSL, the synthetic run at the target rank count
CORE_SRCS += $(wildcard lib/extrap/*.c)
