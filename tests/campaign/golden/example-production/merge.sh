#!/bin/bash -l
#SBATCH --job-name=stencil2d.merge
#SBATCH --output=@DIR@/logs/merge.log
#SBATCH --chdir=@DIR@
#SBATCH --partition=compute
#SBATCH --account=proj042
#SBATCH --qos=normal
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --time=10
#SBATCH --exclusive
#SBATCH --constraint=cpu
# ladder campaign stencil2d, job merge: stage merge
set -e
echo "ladder: job merge started on $(uname -n) at $(date '+%Y-%m-%d %H:%M:%S')"

# site example-production
module load gcc/12.2.0
module load openmpi/4.1.5
module load hdf5/1.10.9
export OMP_NUM_THREADS=1
ulimit -c 0

# job
export LADDER_CAMPAIGN_DIR=@DIR@ LADDER_JOB=merge
mkdir -p @DIR@
cd @DIR@
rm -f @DIR@/campaign.h5
status=0
@PREFIX@/bin/ladder merge -o @DIR@/campaign.h5 @DIR@/runs/p1/r1/trace.h5 @DIR@/runs/p4/r1/trace.h5 @DIR@/runs/p9/r1/trace.h5 @DIR@/runs/p16/r1/trace.h5 @DIR@/runs/p1/r2/trace.h5 @DIR@/runs/p4/r2/trace.h5 @DIR@/runs/p9/r2/trace.h5 @DIR@/runs/p16/r2/trace.h5 @DIR@/runs/p1/r3/trace.h5 @DIR@/runs/p4/r3/trace.h5 @DIR@/runs/p9/r3/trace.h5 @DIR@/runs/p16/r3/trace.h5 || status=$?
if [ "$status" -ne 0 ]; then
	echo "ladder: job merge: the command exited with status $status" >&2
	exit "$status"
fi
if [ ! -s @DIR@/campaign.h5 ]; then
	echo "ladder: job merge: the command did not write @DIR@/campaign.h5" >&2
	exit 1
fi
echo "ladder: job merge finished at $(date '+%Y-%m-%d %H:%M:%S')"
