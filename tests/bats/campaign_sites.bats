#!/usr/bin/env bats
# ladder campaign and the sizes of jobs: a rung larger than the local site's max-ranks runs alone
# (real mpirun, the stock site-configs/local.yaml), a Slurm site refuses what it cannot host and
# says how to raise its limit.

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
