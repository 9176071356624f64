#!/usr/bin/env bats
# The tracer under Slurm: a traced 2-node srun --mpi=pmix run on the test cluster produces a
# valid run container that records the job id.

load helper
load slurm_helper

setup_file() { slurm_up; }
teardown_file() { slurm_down; }

@test "a traced 2-node srun --mpi=pmix run produces a valid container" {
	dir=$LADDER_SLURM_ROOT/traced
	mkdir -p "$dir"
	cat > "$dir/job.sh" <<-EOF
	#!/bin/bash
	export OMPI_MCA_btl=self,tcp
	export LD_PRELOAD=$BUILD_DIR/lib/libladder-trace.so
	export LADDER_TRACE_FILE=$dir/trace.h5
	srun --mpi=pmix "$BUILD_DIR/apps/stencil2d" --iterations 20
	EOF
	id=$(slurm_sbatch -N 2 --ntasks-per-node=4 -o "$dir/out" "$dir/job.sh")
	run slurm_wait_job "$id" 120
	assert_output COMPLETED
	grep -q "RESULT app=stencil2d ranks=8" "$dir/out"
	run "$LADDER" validate "$dir/trace.h5"
	assert_success
	run "$LADDER" inspect "$dir/trace.h5"
	assert_line --regexp '^ranks +8$'
	assert_output --partial "slurm job $id"
	# the trace equals --expect rank by rank
	"$LADDER" inspect --counts "$dir/trace.h5" | tail -n +2 | sort > "$dir/counts"
	"$BUILD_DIR/apps/stencil2d" --expect --ranks 8 --iterations 20 | grep -v '^#' | tail -n +2 | sort > "$dir/expect"
	diff "$dir/counts" "$dir/expect"
}
