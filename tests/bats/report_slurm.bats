#!/usr/bin/env bats
# The closed loop as one Slurm submission on the test cluster (tests/slurm, 2 virtual nodes of 8
# CPUs): ladder 1-8, the real application at the target 16 spanning both nodes, models and the
# report stage, every dependency visible in scontrol before anything runs; the report produced.

load helper
load slurm_helper
load campaign_helper

setup_file() {
	slurm_up --cpus 8
	export SITE="$TOP/site-configs/slurm-localhost.yaml"
}

teardown_file() {
	slurm_down
}

teardown() {
	scontrol update PartitionName=debug State=UP 2> /dev/null || true
}

@test "slurm: ladder, truth at the target, models, report — one submission, dependencies in scontrol, report produced" {
	dir=$(camp_dir loop)
	wf="$BATS_TEST_TMPDIR/loop.yaml"
	cat > "$wf" <<'YAML'
name: loop16
app:
  command: "{prefix}/apps/stencil2d --scaling strong --size 96 --iterations 20 --compute 10"
ladder: [1, 2, 4, 8]
repetitions: 2
size: 96
target: 16
truth: 16
stages:
  - model
  - name: extrap
    per-target: true
  - replay
  - report
acceptance:
  visits: 0.9
YAML
	scontrol update PartitionName=debug State=DOWN
	run "$LADDER" campaign run "$wf" --site "$SITE" --dir "$dir" --no-wait
	assert_success
	assert_output --partial "campaign loop16 submitted"
	report=$(camp_state "$dir" report id)
	truth=$(camp_state "$dir" truth-p16 id)
	model=$(camp_state "$dir" model id)
	[ -n "$report" ] && [ -n "$truth" ] && [ -n "$model" ]
	dep=$(slurm_job_field "$report" Dependency)
	[[ ,$dep, == *"afterok:$truth(unfulfilled)"* ]] || { echo "report $report: $dep lacks the truth run $truth"; false; }
	[[ ,$dep, == *"afterok:$model(unfulfilled)"* ]] || { echo "report $report: $dep lacks the model stage $model"; false; }
	[ "$(slurm_job_field "$truth" NumTasks)" = 16 ]
	# the truth is not an input of the merge
	[[ $(slurm_job_field "$(camp_state "$dir" merge id)" Dependency) != *"afterok:$truth("* ]]
	scontrol update PartitionName=debug State=UP
	run "$LADDER" campaign wait "$dir"
	assert_success
	assert_output --partial "campaign loop16 completed"
	[ "$(slurm_job_state "$report")" = COMPLETED ]
	[ "$(slurm_job_field "$truth" NodeList)" = "n[1-2]" ]
	jq -e . "$dir/report/report.json" > /dev/null
	[ "$(jq '.targets[0].ranks' "$dir/report/report.json")" -eq 16 ]
	[ "$(jq -r '.targets[0].truth[0]' "$dir/report/report.json")" = "$dir/truth/p16/trace.h5" ]
	[ "$(jq '.figures[] | select(.name == "model_visits") | .value' "$dir/report/report.json")" = 1 ]
	[ "$(jq '.pass' "$dir/report/report.json")" = true ]
	grep -q '<svg' "$dir/report/report.html"
	run "$LADDER" validate "$dir/history.h5" "$dir/truth/p16/trace.h5"
	assert_success
}
