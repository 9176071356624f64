# compare: semantic equality of two runs (ScalaExtrap §5.1): the same calls in the same order with
# the same parameters on every rank, for `ladder compare` and the report's replay check
CORE_SRCS += $(wildcard lib/compare/*.c)
