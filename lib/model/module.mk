# model: PMNF performance models per call path and metric (GSL), Extra-P text/JSON interop
CORE_SRCS += $(wildcard lib/model/*.c)
