#!/usr/bin/env bats
# ladder campaign with the local executor: the stencil2d ladder traced and merged, a driver killed
# with SIGKILL and resumed, a failing application and retry, the driver lock and cancel, resuming
# after the workflow changed, the build step, status.

load helper
load campaign_helper

setup_file() {
	# a site with a small rank budget, so that jobs of one campaign run partly one after another
	export SITE4="$BATS_FILE_TMPDIR/local4.yaml"
	sed 's/^max-ranks: 16$/max-ranks: 4/; s/^name: local$/name: local4/' "$TOP/site-configs/local.yaml" > "$SITE4"
	grep -q '^max-ranks: 4$' "$SITE4"
}

@test "local: stencil2d, 4 rungs x 3 repetitions, traced and merged; every container validates" {
	dir=$(camp_dir stencil2d)
	n=$STENCIL2D_JOBS
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	assert_output --partial "campaign stencil2d completed: $n jobs: $n completed (100% done)"
	assert_output --partial "results in $dir (campaign container $dir/campaign.h5"
	[ "$(jq '[.jobs[] | select(.state == "COMPLETED")] | length' "$dir/state.json")" -eq "$n" ]
	for p in 1 4 9 16; do
		for r in 1 2 3; do
			[ -s "$dir/runs/p$p/r$r/trace.h5" ]
			grep -q "^RESULT app=stencil2d ranks=$p " "$dir/logs/run-p$p-r$r.log"
		done
	done
	run "$LADDER" validate "$dir/campaign.h5" "$dir"/runs/p*/r*/trace.h5
	assert_success
	[ "$(grep -c ': valid$' <<< "$output")" -eq 13 ]
	# the model stage, when this build has it, left its models in the campaign container
	if "$LADDER" model --help > /dev/null 2>&1; then
		[ "$(camp_state "$dir" model state)" = COMPLETED ]
		h5ls "$dir/campaign.h5/models" | grep -q '^callpaths '
	fi
	run "$LADDER" inspect "$dir/runs/p9/r2/trace.h5"
	assert_line --regexp '^labels +repetition=2 rung=9 size=96 tracer_time=[0-9.]+$'
	assert_line --regexp '^ranks +9$'
	run "$LADDER" inspect "$dir/campaign.h5"
	assert_line --regexp '^ +16 +3 +96 +runs/p16/r3/trace.h5$'
	# merge ran after every run
	merge_start=$(camp_state "$dir" merge started)
	last_end=$(jq '[.jobs[] | select(.kind == "run") | .ended] | max' "$dir/state.json")
	[ "$merge_start" -ge "$last_end" ]
	run "$LADDER" campaign status "$dir"
	assert_success
	assert_line --index 0 "campaign stencil2d (local) in $dir"
	assert_line --index 1 "$n jobs: $n completed (100% done)"
	assert_line --regexp '^run-p16-r3 +COMPLETED +- +1 .* +0  logs/run-p16-r3.log$'
	# and again: nothing to do, nothing redone
	before=$(stat -c %Y.%N "$dir/runs/p4/r1/trace.h5")
	run "$LADDER" -q campaign run "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	[ "$(stat -c %Y.%N "$dir/runs/p4/r1/trace.h5")" = "$before" ]
	[ "$(jq '[.jobs[] | select(.attempts != 1)] | length' "$dir/state.json")" -eq 0 ]
}

@test "local: at most the site's max-ranks ranks run at a time, and jobs do run side by side" {
	dir=$(camp_dir budget)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	log=$BATS_TEST_TMPDIR/ranks.log
	small_workflow "$wf" ladder='[1, 2, 3, 4]' reps=2 \
		app="[\"$CAMP_FIX/count-ranks\", \"$log\", \"$CAMP_FIX/slow-app\", \"0.5\", \"{prefix}/apps/stencil2d\", \"--scaling\", \"weak\", \"--size\", \"8\", \"--iterations\", \"2\"]"
	run "$LADDER" campaign run "$wf" --site "$SITE4" --dir "$dir"
	assert_success
	# every rank of every run started and ended once
	[ "$(grep -c '^+1$' "$log")" -eq 20 ]
	[ "$(grep -c '^-1$' "$log")" -eq 20 ]
	max=$(awk '{n += $1; if (n > m) m = n} END {print m}' "$log")
	echo "most ranks at once: $max"
	[ "$max" -le 4 ] && [ "$max" -gt 2 ]
}

@test "local: the driver killed with SIGKILL mid-campaign; run again completes, finished runs not redone" {
	dir=$(camp_dir killed)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1, 2]' reps=3 \
		app="[\"$CAMP_FIX/slow-app\", \"1\", \"{prefix}/apps/stencil2d\", \"--size\", \"{size}\", \"--iterations\", \"5\"]"
	"$LADDER" campaign run "$wf" --site "$SITE4" --dir "$dir" > "$BATS_TEST_TMPDIR/driver1.log" 2>&1 &
	driver=$!
	camp_wait_count "$dir" COMPLETED 2 60
	camp_wait_count "$dir" RUNNING 1 60
	kill -KILL "$driver"
	wait "$driver" || true
	# what had finished, and what was running, when the driver died
	mapfile -t done_jobs < <(jq -r '.jobs[] | select(.state == "COMPLETED") | .name' "$dir/state.json")
	mapfile -t running < <(jq -r '.jobs[] | select(.state == "RUNNING") | .name' "$dir/state.json")
	[ "${#done_jobs[@]}" -ge 2 ]
	[ "${#running[@]}" -ge 1 ]
	declare -A mtime
	for j in "${done_jobs[@]}"; do
		p=${j#run-p}; p=${p%%-*}; r=${j##*-r}
		mtime[$j]=$(stat -c %Y.%N "$dir/runs/p$p/r$r/trace.h5")
	done
	# the running jobs outlive the driver
	for j in "${running[@]}"; do
		pid=$(head -n1 "$dir/jobs/$j.lock")
		kill -0 "$pid"
	done
	run "$LADDER" campaign run "$wf" --site "$SITE4" --dir "$dir"
	assert_success
	assert_output --partial "resuming campaign small in $dir"
	assert_output --partial "campaign small completed: 7 jobs: 7 completed"
	for j in "${done_jobs[@]}"; do
		p=${j#run-p}; p=${p%%-*}; r=${j##*-r}
		[ "$(stat -c %Y.%N "$dir/runs/p$p/r$r/trace.h5")" = "${mtime[$j]}" ]
	done
	# no job ran twice: the running ones were adopted, not restarted
	[ "$(jq '[.jobs[] | select(.attempts != 1)] | length' "$dir/state.json")" -eq 0 ]
	"$LADDER" validate "$dir/campaign.h5"
}

@test "local: a failing app leaves that job FAILED with its log, dependants not run; retry completes" {
	dir=$(camp_dir failing)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	flag=$BATS_TEST_TMPDIR/fail-p4
	small_workflow "$wf" ladder='[1, 2, 4]' \
		app="[\"$CAMP_FIX/flaky-app\", \"$BATS_TEST_TMPDIR/fail-p{ranks}\", \"{prefix}/apps/stencil2d\", \"--size\", \"{size}\", \"--iterations\", \"5\"]"
	touch "$flag"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_failure 1
	assert_output --partial "campaign small finished with failures: 4 jobs: 2 completed, 1 failed, 1 skipped (100% done)"
	assert_output --partial "  failed: run-p4-r1 (exit status 3); log $dir/logs/run-p4-r1.log"
	assert_output --partial "after fixing the cause: ladder campaign retry $dir"
	[ "$(camp_state "$dir" run-p4-r1 state)" = FAILED ]
	[ "$(camp_state "$dir" run-p4-r1 exit_code)" = 3 ]
	grep -q "flaky-app: $flag exists, failing on purpose" "$dir/logs/run-p4-r1.log"
	grep -q "ladder: job run-p4-r1: the command exited with status 3" "$dir/logs/run-p4-r1.log"
	[ "$(camp_state "$dir" merge state)" = SKIPPED ]
	[ "$(camp_state "$dir" merge reason)" = "run-p4-r1 failed" ]
	[ "$(camp_state "$dir" merge started)" = 0 ]
	[ ! -e "$dir/logs/merge.log" ]
	[ ! -e "$dir/campaign.h5" ]
	run "$LADDER" campaign status "$dir"
	assert_failure 1
	assert_line --regexp '^run-p4-r1 +FAILED .* 3  logs/run-p4-r1.log  \(exit status 3\)$'
	assert_line --regexp '^merge +SKIPPED .*\(run-p4-r1 failed\)$'
	rm "$flag"
	p1=$(stat -c %Y.%N "$dir/runs/p1/r1/trace.h5")
	run "$LADDER" campaign retry "$dir"
	assert_success
	assert_output --partial "retrying 2 jobs of campaign small"
	assert_output --partial "campaign small completed: 4 jobs: 4 completed"
	[ "$(camp_state "$dir" run-p4-r1 attempts)" = 2 ]
	[ "$(camp_state "$dir" run-p1-r1 attempts)" = 1 ]
	[ "$(stat -c %Y.%N "$dir/runs/p1/r1/trace.h5")" = "$p1" ]
	"$LADDER" validate "$dir/campaign.h5"
	run "$LADDER" campaign retry "$dir"
	assert_success
	assert_output --partial "nothing to retry"
}

@test "local: one driver per campaign; cancel stops the running jobs and the driver" {
	dir=$(camp_dir cancel)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1, 2]' \
		app="[\"$CAMP_FIX/slow-app\", \"60\", \"{prefix}/apps/stencil2d\", \"--size\", \"{size}\"]"
	"$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir" > "$BATS_TEST_TMPDIR/driver.log" 2>&1 &
	driver=$!
	camp_wait_count "$dir" RUNNING 2 30
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_failure 1
	assert_output --partial "$dir: the campaign is being driven by process $driver"
	run "$LADDER" campaign retry "$dir"
	assert_failure 1
	pids=$(cat "$dir"/jobs/run-p*-r1.lock)
	run "$LADDER" campaign cancel "$dir"
	assert_success
	assert_output --partial "campaign small cancelled (by its driver, process $driver)"
	rc=0
	wait "$driver" || rc=$?
	[ "$rc" -eq 1 ]
	grep -q "campaign small cancelled: 3 jobs: 3 cancelled" "$BATS_TEST_TMPDIR/driver.log"
	[ "$(camp_state "$dir" run-p2-r1 state)" = CANCELLED ]
	[ "$(camp_state "$dir" merge state)" = CANCELLED ]
	# the jobs' processes are gone
	for pid in $pids; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		if kill -0 "$pid" 2>/dev/null; then echo "job process $pid is still alive" >&2; false; fi
	done
	[ ! -e "$dir/.cancel" ]
}

@test "local: rerun after the workflow changed redoes only what changed" {
	dir=$(camp_dir changed)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" reps=1
	"$LADDER" -q campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	r1=$(stat -c %Y.%N "$dir/runs/p4/r1/trace.h5")
	small_workflow "$wf" reps=2
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	assert_output --partial "note: job merge changed (its script differs); it runs again"
	assert_output --partial "campaign small completed: 5 jobs: 5 completed"
	[ "$(stat -c %Y.%N "$dir/runs/p4/r1/trace.h5")" = "$r1" ]
	[ "$(camp_state "$dir" run-p4-r1 attempts)" = 1 ]
	[ "$(camp_state "$dir" run-p4-r2 attempts)" = 1 ]
	[ "$(camp_state "$dir" merge attempts)" = 2 ]
	run "$LADDER" inspect "$dir/campaign.h5"
	assert_line --regexp '^ +4 +2 +48 +runs/p4/r2/trace.h5$'
	# another workflow's campaign in the same directory is refused
	small_workflow "$wf" name=other
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_failure 1
	assert_output --partial "holds campaign 'small', not 'other'"
}

@test "local: the build step runs first; status --json and wait on a finished campaign" {
	dir=$(camp_dir build)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf"
	sed -i 's/^app:$/app:\n  build: [touch, "{campaign_dir}\/built"]/' "$wf"
	grep -q 'build: \[touch' "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	[ -e "$dir/built" ]
	[ "$(jq -r '.jobs[0].name' "$dir/state.json")" = build ]
	[ "$(camp_state "$dir" run-p1-r1 deps[0])" = build ]
	[ "$(camp_state "$dir" run-p1-r1 started)" -ge "$(camp_state "$dir" build ended)" ]
	run "$LADDER" campaign status --json "$dir"
	assert_success
	[ "$(jq -r .format <<< "$output")" = ladder-campaign-state ]
	[ "$(jq -r '.campaign.scheduler' <<< "$output")" = local ]
	run "$LADDER" campaign wait "$dir"
	assert_success
	assert_output --partial "campaign small completed"
}
