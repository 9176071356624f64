# campaign: workflow and site specs, ladder generation, job scripts, state, local and Slurm executors
CORE_SRCS += $(wildcard lib/campaign/*.c)
