#!/usr/bin/env bats
# The closed loop as one Slurm submission on the test cluster (tests/slurm, 2 virtual nodes of 32
# CPUs, the site's ranks-per-node to match): ladder 1, 4, 9, 16, models, the extrapolation to the
# target 36, the real application at 36 spanning both nodes, the replay of the extrapolated trace
# and its proxy program at 36 and the report stage, every dependency visible in scontrol before
# anything runs; the report produced, with the extrapolated trace equal to the real run.

load helper
load slurm_helper
load campaign_helper

setup_file() {
	slurm_up --cpus 32
	export SITE="$BATS_FILE_TMPDIR/slurm-localhost-32.yaml"
	sed 's/^ranks-per-node: 8$/ranks-per-node: 32/' "$TOP/site-configs/slurm-localhost.yaml" > "$SITE"
	grep -q '^ranks-per-node: 32$' "$SITE"
}

teardown_file() {
	slurm_down
}

teardown() {
	scontrol update PartitionName=debug State=UP 2> /dev/null || true
}

@test "slurm: ladder, extrapolation, truth, replay and proxy at the target, models, report — one submission, dependencies in scontrol" {
	dir=$(camp_dir loop)
	wf="$BATS_TEST_TMPDIR/loop.yaml"
	cat > "$wf" <<'YAML'
name: loop36
app:
  command: "{prefix}/apps/stencil2d --scaling strong --size 96 --iterations 20 --compute 10"
ladder: [1, 4, 9, 16]
repetitions: 1
size: 96
target: 36
truth: 36
stages:
  - model
  - name: extrap
    per-target: true
  - replay
  - proxy
  - report
acceptance:
  visits: 0.9
  time: -100
  proxy: -100
  model_time: -100
  interval: 0
  ranking: -1
  topk: 0
YAML
	scontrol update PartitionName=debug State=DOWN
	run "$LADDER" campaign run "$wf" --site "$SITE" --dir "$dir" --no-wait
	assert_success
	assert_output --partial "campaign loop36 submitted"
	report=$(camp_state "$dir" report id)
	truth=$(camp_state "$dir" truth-p36 id)
	model=$(camp_state "$dir" model id)
	[ -n "$report" ] && [ -n "$truth" ] && [ -n "$model" ]
	dep=$(slurm_job_field "$report" Dependency)
	[[ ,$dep, == *"afterok:$truth(unfulfilled)"* ]] || { echo "report $report: $dep lacks the truth run $truth"; false; }
	[[ ,$dep, == *"afterok:$model(unfulfilled)"* ]] || { echo "report $report: $dep lacks the model stage $model"; false; }
	[ "$(slurm_job_field "$truth" NumTasks)" = 36 ]
	# the proxy: written, built and run in one job of the target's size after the extrapolation
	proxy=$(camp_state "$dir" proxy-t36 id)
	[ "$(slurm_job_field "$proxy" NumTasks)" = 36 ]
	dep=$(slurm_job_field "$proxy" Dependency)
	[[ ,$dep, == *"afterok:$(camp_state "$dir" extrap-t36 id)(unfulfilled)"* ]] || { echo "proxy $proxy: $dep"; false; }
	# the truth is not an input of the merge
	[[ $(slurm_job_field "$(camp_state "$dir" merge id)" Dependency) != *"afterok:$truth("* ]]
	scontrol update PartitionName=debug State=UP
	run "$LADDER" campaign wait "$dir"
	assert_success
	assert_output --partial "campaign loop36 completed"
	[ "$(slurm_job_state "$report")" = COMPLETED ]
	[ "$(slurm_job_field "$truth" NodeList)" = "n[1-2]" ]
	jq -e . "$dir/report/report.json" > /dev/null
	[ "$(jq '.targets[0].ranks' "$dir/report/report.json")" -eq 36 ]
	[ "$(jq -r '.targets[0].truth[0]' "$dir/report/report.json")" = "$dir/truth/p36/trace.h5" ]
	[ "$(jq '.figures[] | select(.name == "events") | .value' "$dir/report/report.json")" = 1 ]
	[ "$(jq '.figures[] | select(.name == "counts") | .value' "$dir/report/report.json")" = 1 ]
	[ "$(jq '.figures[] | select(.name == "model_visits") | .value' "$dir/report/report.json")" = 1 ]
	[ "$(jq '.pass' "$dir/report/report.json")" = true ]
	# the proxy ran on both nodes and the report has its time
	[ "$(slurm_job_field "$proxy" NodeList)" = "n[1-2]" ]
	[ "$(jq '.ranks' "$dir/proxy/p36/proxy.json")" -eq 36 ]
	[ "$(jq '.targets[0].proxy.time' "$dir/report/report.json")" = "$(jq '.total_time' "$dir/proxy/p36/proxy.json")" ]
	grep -q '<svg' "$dir/report/report.html"
	run "$LADDER" validate "$dir/history.h5" "$dir/truth/p36/trace.h5" "$dir/extrap/p36/trace.h5"
	assert_success
}
