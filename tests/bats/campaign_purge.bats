#!/usr/bin/env bats
# ladder campaign when the controller purges finished jobs quickly (MinJobAge=2: a job leaves
# scontrol 10-12 s after it ended): a campaign submitted without a driver, followed only after its
# jobs are gone from the controller, is still resolved, from the job completion file: completed,
# failed with its exit code, and skipped dependants.

load helper
load slurm_helper
load campaign_helper

setup_file() {
	slurm_up --cpus 8 --min-job-age 2
	export SITE="$TOP/site-configs/slurm-localhost.yaml"
}

teardown_file() {
	slurm_down
}

# wait until the controller no longer knows job ID
wait_purged() {
	local id=$1 deadline=$((SECONDS + 60))
	while scontrol show job -o "$id" > /dev/null 2>&1; do
		if [ $SECONDS -ge $deadline ]; then
			echo "job $id still known to the controller after 60 s" >&2
			return 1
		fi
		sleep 0.5
	done
}

@test "purged jobs: states, exit codes and times come from the job completion file" {
	dir=$(camp_dir purged)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1, 2, 4]' \
		app="[\"$CAMP_FIX/flaky-app\", \"$BATS_TEST_TMPDIR/fail-p{ranks}\", \"{prefix}/apps/stencil2d\", \"--size\", \"{size}\", \"--iterations\", \"5\"]"
	touch "$BATS_TEST_TMPDIR/fail-p4"
	run "$LADDER" campaign run "$wf" --site "$SITE" --dir "$dir" --no-wait
	assert_success
	queries=$(camp_counter "$dir" queries)
	for job in run-p1-r1 run-p2-r1 run-p4-r1 merge; do
		id=$(camp_state "$dir" "$job" id)
		wait_purged "$id"
		grep -q "^JobId=$id " "$LADDER_SLURM_ROOT/log/jobcomp.txt"
	done
	# nothing about the campaign is left in the controller
	[ -z "$(squeue -h -t all -o '%k' | grep "ladder:$(jq -r .campaign.id "$dir/state.json"):")" ]
	run "$LADDER" campaign wait "$dir"
	assert_failure 1
	assert_output --partial "campaign small finished with failures: 4 jobs: 2 completed, 1 failed, 1 skipped"
	[ "$(camp_state "$dir" run-p1-r1 state)" = COMPLETED ]
	[ "$(camp_state "$dir" run-p2-r1 exit_code)" = 0 ]
	[ "$(camp_state "$dir" run-p4-r1 state)" = FAILED ]
	[ "$(camp_state "$dir" run-p4-r1 exit_code)" = 3 ]
	[ "$(camp_state "$dir" merge state)" = SKIPPED ]
	# start and end times are the ones Slurm recorded
	id=$(camp_state "$dir" run-p1-r1 id)
	start=$(grep "^JobId=$id " "$LADDER_SLURM_ROOT/log/jobcomp.txt" | tr ' ' '\n' | sed -n 's/^StartTime=//p')
	[ "$(camp_state "$dir" run-p1-r1 started)" = "$(date -d "$start" +%s)" ]
	[ "$(camp_counter "$dir" jobcomp_reads)" -ge 1 ]
	# one query per poll for all the jobs, not one per job
	[ $(($(camp_counter "$dir" queries) - queries)) -le 3 ]
	[ "$(jq -r .site.jobcomp "$dir/state.json")" = "$LADDER_SLURM_ROOT/log/jobcomp.txt" ]
	# retry after the fix: the new jobs are followed (and purged, and resolved) as well
	rm "$BATS_TEST_TMPDIR/fail-p4"
	run "$LADDER" campaign retry "$dir"
	assert_success
	assert_output --partial "campaign small completed: 4 jobs: 4 completed"
	"$LADDER" validate "$dir/campaign.h5"
}

@test "purged while the driver follows: a driver that polls rarely still resolves every job" {
	dir=$(camp_dir slow-poll)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1, 2]'
	# a site that polls every 15 s: longer than the controller keeps finished jobs
	site=$BATS_TEST_TMPDIR/site.yaml
	sed 's/^  interval: 0.2$/  interval: 15/; s/^  max: 2$/  max: 15/' "$SITE" > "$site"
	grep -q '^  interval: 15$' "$site"
	run "$LADDER" campaign run "$wf" --site "$site" --dir "$dir" --timeout 120
	assert_success
	assert_output --partial "campaign small completed: 3 jobs: 3 completed"
	[ "$(camp_counter "$dir" jobcomp_reads)" -ge 1 ]
	"$LADDER" validate "$dir/campaign.h5"
}
