# intlaw: exact integer laws — the integer least squares (GSL) and the subset walk shared by the
# extrapolation's laws of the grid and the model's exact laws of counts
CORE_SRCS += $(wildcard lib/intlaw/*.c)
