#!/bin/bash
#SBATCH --job-name=stencil2d.merge
#SBATCH --output=@DIR@/logs/merge.log
#SBATCH --chdir=@DIR@
#SBATCH --partition=debug
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --time=10
# ladder campaign stencil2d, job merge: stage merge
set -e
echo "ladder: job merge started on $(uname -n) at $(date '+%Y-%m-%d %H:%M:%S')"

# site slurm-localhost
export OMPI_MCA_btl=self,tcp

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
