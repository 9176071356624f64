#!/bin/bash -l
#SBATCH --job-name=stencil2d.run-p4-r1
#SBATCH --output=@DIR@/logs/run-p4-r1.log
#SBATCH --chdir=@DIR@
#SBATCH --partition=compute
#SBATCH --account=proj042
#SBATCH --qos=normal
#SBATCH --nodes=1
#SBATCH --ntasks=4
#SBATCH --time=20
#SBATCH --exclusive
#SBATCH --constraint=cpu
# ladder campaign stencil2d, job run-p4-r1: 4 ranks, repetition 1, size 96
set -e
echo "ladder: job run-p4-r1 started on $(uname -n) at $(date '+%Y-%m-%d %H:%M:%S')"

# site example-production
module load gcc/12.2.0
module load openmpi/4.1.5
module load hdf5/1.10.9
export OMP_NUM_THREADS=1
ulimit -c 0

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
LD_PRELOAD=@PREFIX@/lib/libladder-trace.so${LD_PRELOAD:+":$LD_PRELOAD"} srun --mpi=pmix --cpu-bind=cores -n 4 @PREFIX@/apps/stencil2d --scaling strong --size 96 --iterations 20 --compute 10 || status=$?
if [ "$status" -ne 0 ]; then
	echo "ladder: job run-p4-r1: the command exited with status $status" >&2
	exit "$status"
fi
if [ ! -s @DIR@/runs/p4/r1/trace.h5 ]; then
	echo "ladder: job run-p4-r1: the command did not write @DIR@/runs/p4/r1/trace.h5" >&2
	exit 1
fi
echo "ladder: job run-p4-r1 finished at $(date '+%Y-%m-%d %H:%M:%S')"
