#!/usr/bin/env bats
# ladder campaign and the sizes of jobs: a rung larger than the local site's max-ranks runs alone
# (real mpirun, the stock site-configs/local.yaml), a Slurm site refuses what it cannot host and
# says how to raise its limit; the workflow's process grid placeholders ({dims}, {dims.x},
# {dims.0}, ...) against MPI_Dims_create, in a declared order, in a real run, and their errors.

load helper
load campaign_helper

# one job's [started, ended] overlaps no other job's (epoch seconds of the state file)
ran_alone() {
	local dir=$1 job=$2 s e n
	s=$(camp_state "$dir" "$job" started)
	e=$(camp_state "$dir" "$job" ended)
	n=$(jq --arg j "$job" --argjson s "$s" --argjson e "$e" \
		'[.jobs[] | select(.name != $j and .started != null and .started < $e and .ended > $s)] | length' \
		"$dir/state.json")
	echo "$job ran from $s to $e beside $n other jobs"
	[ "$n" -eq 0 ]
}

@test "sites: a 32-rank rung on the stock local site (max-ranks 16) runs, alone, and is not overtaken" {
	grep -q '^max-ranks: 16$' "$TOP/site-configs/local.yaml"
	dir=$(camp_dir rung32)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	log=$BATS_TEST_TMPDIR/ranks.log
	small_workflow "$wf" ladder='[1, 4, 32]' reps=2 \
		app="[\"$CAMP_FIX/count-ranks\", \"$log\", \"$CAMP_FIX/slow-app\", \"1\", \"{prefix}/apps/stencil2d\", \"--scaling\", \"weak\", \"--size\", \"8\", \"--iterations\", \"2\"]"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	assert_output --partial "campaign small completed: 7 jobs: 7 completed"
	for r in 1 2; do
		grep -q '^RESULT app=stencil2d ranks=32 ' "$dir/logs/run-p32-r$r.log"
		run "$LADDER" inspect "$dir/runs/p32/r$r/trace.h5"
		assert_line --regexp '^ranks +32$'
		ran_alone "$dir" "run-p32-r$r"
	done
	"$LADDER" validate "$dir/campaign.h5"
	# all 32 ranks at once, never more (nothing ran beside them)
	max=$(awk '{n += $1; if (n > m) m = n} END {print m}' "$log")
	echo "most ranks at once: $max"
	[ "$max" -eq 32 ]
	# the jobs listed after run-p32-r1 waited for it rather than keeping the site busy before it
	[ "$(camp_state "$dir" run-p1-r2 started)" -ge "$(camp_state "$dir" run-p32-r1 ended)" ]
	[ "$(camp_state "$dir" run-p4-r2 started)" -ge "$(camp_state "$dir" run-p32-r1 ended)" ]
}

@test "sites: a Slurm site refuses a rung beyond max-ranks or max-nodes, saying which limit and how to raise it" {
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1, 4, 32]'
	site=$BATS_TEST_TMPDIR/site.yaml
	printf 'name: c\nscheduler: slurm\nranks-per-node: 8\nmax-ranks: 16\nlauncher: srun\n' > "$site"
	run "$LADDER" campaign run "$wf" --site "$site" --dir "$(camp_dir refuse1)" --dry-run
	assert_failure 1
	assert_output "ladder: $wf:4: field 'ladder': rung 32 needs 32 ranks, but site c takes jobs of at most 16 (max-ranks in $site): raise max-ranks there if the cluster runs larger jobs, or leave the rung out of the ladder"
	printf 'name: c\nscheduler: slurm\nranks-per-node: 8\nmax-nodes: 2\nlauncher: srun\n' > "$site"
	run "$LADDER" campaign run "$wf" --site "$site" --dir "$(camp_dir refuse2)" --dry-run
	assert_failure 1
	assert_output "ladder: $wf:4: field 'ladder': rung 32 needs 4 nodes of 8 ranks, but site c takes jobs of at most 2 nodes (max-nodes in $site): raise max-nodes there if the cluster runs larger jobs, or leave the rung out of the ladder"
	# raised, it plans
	printf 'name: c\nscheduler: slurm\nranks-per-node: 8\nmax-nodes: 4\nlauncher: srun\n' > "$site"
	run "$LADDER" -q campaign run "$wf" --site "$site" --dir "$(camp_dir refuse3)" --dry-run
	assert_success
	assert_output --partial '#SBATCH --nodes=4'
}

# the command words of job run-pP-r1 after the launcher, from a dry run's script
job_words() { # DIR P
	grep -o -- "-np $2 .*" "$1/jobs/run-p$2-r1.sh" | sed -e "s/^-np $2 //" -e 's/ || status=.*//'
}

@test "grid: {dims} is MPI_Dims_create's grid for 1..64 ranks in 1 to 4 dimensions; {dims.x} {dims.0} its axes" {
	command -v mpicc || skip "no mpicc"
	mpicc -o "$BATS_FILE_TMPDIR/dims-create" "$CAMP_FIX/dims-create.c"
	ranks=$(seq -s ', ' 1 64)
	for nd in 1 2 3 4; do
		wf=$BATS_TEST_TMPDIR/wf$nd.yaml
		dir=$(camp_dir "dims$nd")
		small_workflow "$wf" ladder="[$ranks]" app='[echo, "{dims}", "{dims.x}", "{dims.0}", "{dims.'$((nd - 1))'}"]'
		echo "grid: $nd" >> "$wf"
		"$LADDER" -q campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run > /dev/null
		OMPI_MCA_rmaps_base_oversubscribe=1 "$BATS_FILE_TMPDIR/dims-create" "$nd" $(seq 1 64) > "$BATS_TEST_TMPDIR/mpi$nd"
		[ "$(wc -l < "$BATS_TEST_TMPDIR/mpi$nd")" -eq 64 ]
		while read -r p grid; do
			x=${grid%%x*}
			last=${grid##*x}
			[ "$(job_words "$dir" "$p")" = "echo $grid $x $x $last" ] || {
				echo "$p ranks in $nd dimensions: MPI_Dims_create $grid, the job: $(job_words "$dir" "$p")"
				false
			}
		done < "$BATS_TEST_TMPDIR/mpi$nd"
	done
	# in three dimensions {dims.y} and {dims.z} are the second and third axes
	wf=$BATS_TEST_TMPDIR/wfxyz.yaml
	dir=$(camp_dir dimsxyz)
	small_workflow "$wf" ladder='[12, 32]' app='"echo -i {dims.x} -j {dims.y} -k {dims.z} -n {ranks}"'
	echo 'grid: 3' >> "$wf"
	"$LADDER" -q campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run > /dev/null
	[ "$(job_words "$dir" 12)" = "echo -i 3 -j 2 -k 2 -n 12" ]
	[ "$(job_words "$dir" 32)" = "echo -i 4 -j 4 -k 2 -n 32" ]
}

@test "grid: a declared order puts the largest factor on the axis listed first; the balanced grid where Open MPI 4 is not" {
	wf=$BATS_TEST_TMPDIR/wf.yaml
	dir=$(camp_dir order)
	small_workflow "$wf" ladder='[12, 32, 72]' app='"echo -i {dims.x} -j {dims.y} -k {dims.z} {dims} {dims.2}"'
	echo 'grid: {dimensions: 3, order: [z, x, y]}' >> "$wf"
	"$LADDER" -q campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run > /dev/null
	[ "$(job_words "$dir" 12)" = "echo -i 2 -j 2 -k 3 2x2x3 3" ]
	[ "$(job_words "$dir" 32)" = "echo -i 4 -j 2 -k 4 4x2x4 4" ]
	[ "$(job_words "$dir" 72)" = "echo -i 4 -j 3 -k 6 4x3x6 6" ]
	# axes by index; 72 ranks in 2-D: 9 x 8, as balanced as it gets (Open MPI 4.1 gives 12 x 6)
	small_workflow "$wf" ladder='[72]' app='"echo {dims.0} {dims.1} {dims}"'
	echo 'grid: {dimensions: 2, order: [1, 0]}' >> "$wf"
	dir=$(camp_dir order2)
	"$LADDER" -q campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run > /dev/null
	[ "$(job_words "$dir" 72)" = "echo 8 9 8x9" ]
}

@test "grid: a real run takes its decomposition from {dims}; ladder.valid.command sees it too" {
	dir=$(camp_dir sweepgrid)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	cat > "$wf" <<-EOF
	name: sweepgrid
	app:
	  command: "{prefix}/apps/sweep --scaling weak --size 4 --iterations 2 --grid {dims}"
	ladder:
	  ranks: [2, 6]
	  valid:
	    command: "{prefix}/apps/sweep --expect --ranks {ranks} --scaling weak --size 4 --grid {dims.x}x{dims.y}"
	grid: {dimensions: 2, order: [y, x]}
	EOF
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	refute_output --partial "dropped"
	grep -q -- "-np 6 .*/apps/sweep .* --grid 2x3" "$dir/jobs/run-p6-r1.sh"
	grep -q '^RESULT app=sweep ranks=6 ' "$dir/logs/run-p6-r1.log"
	# the app asked MPI_Dims_create to complete the grid it was given: 2 x 3
	run "$LADDER" decode "$dir/runs/p6/r1/trace.h5" --rank 0
	assert_line --partial 'MPI_Dims_create nnodes=6 ndims=2 dims=[2,3]'
}

@test "grid: bad placeholders and a bad 'grid' are errors naming the workflow file and the field" {
	wf=$BATS_TEST_TMPDIR/wf.yaml
	site=$TOP/site-configs/local.yaml
	try() { # expected output, then workflow lines after small_workflow's
		local want=$1
		shift
		small_workflow "$wf" ladder='[4]' app="$1"
		shift
		local l
		for l in "$@"; do echo "$l" >> "$wf"; done
		run "$LADDER" campaign run "$wf" --site "$site" --dir "$(camp_dir bad)" --dry-run
		assert_failure 1
		assert_output --partial "$want"
		[ ! -e "$BATS_FILE_TMPDIR/bad" ]
	}
	try "ladder: $wf:3: field 'app.command': unknown placeholder {dims.x} (the grid placeholders need the 'grid' field: the process grid's dimensions, e.g. grid: 3)" \
		'"app -i {dims.x}"'
	try "ladder: $wf:3: field 'app.command': unknown placeholder {dims.z} (the grid has 2 dimensions: 'grid' on line 8); known here: {ranks} {nodes} {size} {rep} {outdir} {prefix} {workflow_dir} {campaign_dir} {scaling} {name} {ladder} {dims} {dims.x} {dims.y} {dims.0} {dims.1}" \
		'"app -k {dims.z}"' 'grid: 2'
	try "field 'app.command': unknown placeholder {dims.2} (the grid has 2 dimensions" '"app {dims.2}"' 'grid: 2'
	try "field 'app.command': unknown placeholder {dims.w}" '"app {dims.w}"' 'grid: 3'
	try "field 'app.command': unknown placeholder {dims.} " '"app {dims.}"' 'grid: 3'
	try "ladder: $wf:8: field 'grid': expected an integer from 1 to 8, got '0'" '"app {dims}"' 'grid: 0'
	try "ladder: $wf:8: field 'grid': expected the number of dimensions (1..8), or a mapping with 'dimensions' and 'order'" \
		'"app {dims}"' 'grid: [2, 3]'
	try "ladder: $wf:8: field 'grid.dimensions': missing (how many dimensions the process grid has, 1..8)" \
		'"app {dims}"' 'grid: {order: [x, y]}'
	try "ladder: $wf:8: field 'grid.order[1]': axis 'x' is listed twice (each of x, y or 0..1 once)" \
		'"app {dims}"' 'grid: {dimensions: 2, order: [x, x]}'
	try "ladder: $wf:8: field 'grid.order[0]': 'z' is not an axis of a 2-D grid (expected x, y or 0..1)" \
		'"app {dims}"' 'grid: {dimensions: 2, order: [z, x]}'
	try "ladder: $wf:8: field 'grid.order[4]': axis '3' is listed twice (each of x, y, z or 0..4 once)" \
		'"app {dims}"' 'grid: {dimensions: 5, order: [x, y, z, 3, 3]}'
	try "ladder: $wf:8: field 'grid.order': expected a list of the 3 axes (x, y, z or 0..2), each once" \
		'"app {dims}"' 'grid: {dimensions: 3, order: [x, y]}'
	try "ladder: $wf:9: field 'vars.dims': 'dims' is a built-in placeholder (the process grid, see 'grid'); choose another name" \
		'"app {dims}"' 'grid: 2' 'vars: {dims: "2x2"}'
	# in a stage command the job's rank count is no rung's: refused, with the reason
	small_workflow "$wf" ladder='[4]' app='"app {dims}"' stages='[{name: s, command: "echo {dims}"}]'
	echo 'grid: 2' >> "$wf"
	run "$LADDER" campaign run "$wf" --site "$site" --dir "$(camp_dir bad)" --dry-run
	assert_failure 1
	assert_output --partial "ladder: $wf:7: field 'stages[0].command': unknown placeholder {dims} (the grid placeholders are for app.command and ladder.valid.command)"
}
