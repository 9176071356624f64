#!/bin/bash
# ladder campaign stencil2d, job run-p4-r1: 4 ranks, repetition 1, size 96
set -e
echo "ladder: job run-p4-r1 started on $(uname -n) at $(date '+%Y-%m-%d %H:%M:%S')"

# site local
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp
export OMPI_MCA_orte_tmpdir_base="${TMPDIR:-/tmp}/ladder-ompi.$$"
mkdir -p "$OMPI_MCA_orte_tmpdir_base" && trap 'rm -rf "$OMPI_MCA_orte_tmpdir_base"' EXIT

# job
export LADDER_CAMPAIGN_DIR=@DIR@ LADDER_JOB=run-p4-r1
mkdir -p @DIR@/runs/p4/r1
cd @DIR@/runs/p4/r1
rm -f @DIR@/runs/p4/r1/trace.h5 @DIR@/runs/p4/r1/trace.h5.raw
export LADDER_BIN=@PREFIX@/bin/ladder
export LADDER_TRACE_FILE=@DIR@/runs/p4/r1/trace.h5
export LADDER_RUN_ATTRS='rung=4;repetition=1;size=96'
export LADDER_TRACE_CALLSITE_DEPTH=1
export OMPI_MCA_mca_base_env_list='LD_PRELOAD;LADDER_BIN;LADDER_TRACE_FILE;LADDER_RUN_ATTRS;LADDER_TRACE_CALLSITE_DEPTH'${OMPI_MCA_mca_base_env_list:+";$OMPI_MCA_mca_base_env_list"}
status=0
LD_PRELOAD=@PREFIX@/lib/libladder-trace.so${LD_PRELOAD:+":$LD_PRELOAD"} mpirun --oversubscribe -np 4 @PREFIX@/apps/stencil2d --scaling strong --size 96 --iterations 20 --compute 10 || status=$?
if [ "$status" -ne 0 ]; then
	echo "ladder: job run-p4-r1: the command exited with status $status" >&2
	exit "$status"
fi
if [ ! -s @DIR@/runs/p4/r1/trace.h5 ]; then
	echo "ladder: job run-p4-r1: the command did not write @DIR@/runs/p4/r1/trace.h5" >&2
	exit 1
fi
echo "ladder: job run-p4-r1 finished at $(date '+%Y-%m-%d %H:%M:%S')"
