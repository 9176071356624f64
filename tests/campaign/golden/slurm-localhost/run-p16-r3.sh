#!/bin/bash
#SBATCH --job-name=stencil2d.run-p16-r3
#SBATCH --output=@DIR@/logs/run-p16-r3.log
#SBATCH --chdir=@DIR@
#SBATCH --partition=debug
#SBATCH --nodes=2
#SBATCH --ntasks=16
#SBATCH --ntasks-per-node=8
#SBATCH --time=10
# ladder campaign stencil2d, job run-p16-r3: 16 ranks, repetition 3, size 96
set -e
echo "ladder: job run-p16-r3 started on $(uname -n) at $(date '+%Y-%m-%d %H:%M:%S')"

# site slurm-localhost
export OMPI_MCA_btl=self,tcp

# job
export LADDER_CAMPAIGN_DIR=@DIR@ LADDER_JOB=run-p16-r3
mkdir -p @DIR@/runs/p16/r3
cd @DIR@/runs/p16/r3
rm -f @DIR@/runs/p16/r3/trace.h5 @DIR@/runs/p16/r3/trace.h5.raw
export LADDER_BIN=@PREFIX@/bin/ladder
export LADDER_TRACE_FILE=@DIR@/runs/p16/r3/trace.h5
export LADDER_RUN_ATTRS='rung=16;repetition=3;size=96'
export LADDER_TRACE_CALLSITE_DEPTH=1
export OMPI_MCA_mca_base_env_list='LD_PRELOAD;LADDER_BIN;LADDER_TRACE_FILE;LADDER_RUN_ATTRS;LADDER_TRACE_CALLSITE_DEPTH'${OMPI_MCA_mca_base_env_list:+";$OMPI_MCA_mca_base_env_list"}
status=0
LD_PRELOAD=@PREFIX@/lib/libladder-trace.so${LD_PRELOAD:+":$LD_PRELOAD"} srun --mpi=pmix -n 16 @PREFIX@/apps/stencil2d --scaling strong --size 96 --iterations 20 --compute 10 || status=$?
if [ "$status" -ne 0 ]; then
	echo "ladder: job run-p16-r3: the command exited with status $status" >&2
	exit "$status"
fi
if [ ! -s @DIR@/runs/p16/r3/trace.h5 ]; then
	echo "ladder: job run-p16-r3: the command did not write @DIR@/runs/p16/r3/trace.h5" >&2
	exit 1
fi
echo "ladder: job run-p16-r3 finished at $(date '+%Y-%m-%d %H:%M:%S')"
