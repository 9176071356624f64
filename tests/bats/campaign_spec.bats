#!/usr/bin/env bats
# ladder campaign without running anything: golden job scripts for every site config, errors in
# workflow and site files (one message naming file, line and field), shell injection attempts,
# help, usage errors, nightly schedule entries.

load helper
load campaign_helper

golden_check() { # SITE: dry run of stencil2d, compare three scripts with the golden ones
	local site=$1 dir prefix
	dir=$(camp_dir "golden-$site")
	run "$LADDER" -q campaign run "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/$site.yaml" \
		--dir "$dir" --dry-run
	assert_success
	# the dry run prints every script
	assert_output --partial "==> $dir/jobs/run-p4-r1.sh <=="
	[ "$(ls "$dir/jobs" | wc -l)" -eq "$(stencil2d_jobs "$site")" ]
	[ ! -e "$dir/state.json" ]
	prefix=$(cd "$BUILD_DIR" && pwd -P)
	for job in run-p4-r1 run-p16-r3 merge; do
		sed -e "s#$dir#@DIR@#g" -e "s#$prefix#@PREFIX@#g" "$dir/jobs/$job.sh" > "$dir/$job.norm"
		diff -u "$CAMP_FIX/golden/$site/$job.sh" "$dir/$job.norm"
	done
}

@test "golden: local site scripts (mpirun launch line, no #SBATCH header)" {
	golden_check local
	run grep -c '^#SBATCH' "$CAMP_FIX/golden/local/run-p4-r1.sh"
	assert_output 0
	grep -q '^LD_PRELOAD=@PREFIX@/lib/libladder-trace.so.* mpirun --oversubscribe -np 4 @PREFIX@/apps/stencil2d ' \
		"$CAMP_FIX/golden/local/run-p4-r1.sh"
}

@test "golden: slurm-localhost scripts (#SBATCH header, srun launch line, 2 nodes for 16 ranks)" {
	golden_check slurm-localhost
	grep -qx '#SBATCH --nodes=2' "$CAMP_FIX/golden/slurm-localhost/run-p16-r3.sh"
	grep -qx '#SBATCH --ntasks-per-node=8' "$CAMP_FIX/golden/slurm-localhost/run-p16-r3.sh"
	grep -q ' srun --mpi=pmix -n 16 @PREFIX@/apps/stencil2d ' "$CAMP_FIX/golden/slurm-localhost/run-p16-r3.sh"
}

@test "golden: production example scripts (account, qos, modules, extra #SBATCH lines, login shell)" {
	golden_check example-production
	grep -qx '#!/bin/bash -l' "$CAMP_FIX/golden/example-production/merge.sh"
	grep -qx '#SBATCH --account=proj042' "$CAMP_FIX/golden/example-production/merge.sh"
	grep -qx '#SBATCH --constraint=cpu' "$CAMP_FIX/golden/example-production/merge.sh"
	grep -qx 'module load openmpi/4.1.5' "$CAMP_FIX/golden/example-production/run-p4-r1.sh"
}

@test "every workflow in workflows/ plans against every site config" {
	for wf in "$TOP"/workflows/*.yaml; do
		for site in "$TOP"/site-configs/*.yaml; do
			dir=$(camp_dir "plan-$(basename "$wf" .yaml)-$(basename "$site" .yaml)")
			run "$LADDER" -q campaign run "$wf" --site "$site" --dir "$dir" --dry-run
			[ "$status" -eq 0 ] || { echo "$wf on $site: $output"; false; }
			ls "$dir"/jobs/run-p*-r3.sh > /dev/null
		done
	done
}

@test "the validity filter drops rungs the app cannot run, with a note" {
	dir=$(camp_dir filter)
	cat > "$BATS_TEST_TMPDIR/wf.yaml" <<-EOF
	name: filtered
	app: {command: "{prefix}/apps/cg --size {size}"}
	ladder:
	  generate: powers-of-two
	  from: 1
	  to: 16
	  valid: {command: "{prefix}/apps/cg --expect --ranks {ranks} --size {size}"}
	size: 24
	EOF
	run "$LADDER" campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run
	assert_success
	assert_output --partial "note: rung 2 dropped by ladder.valid.command (exit status 2"
	assert_output --partial "note: rung 8 dropped"
	[ "$(ls "$dir/jobs" | tr '\n' ' ')" = "merge.sh run-p1-r1.sh run-p16-r1.sh run-p4-r1.sh " ]
}

@test "--dated BASE: the campaign goes to BASE/YYYY-MM-DD and BASE/latest points at it" {
	base=$(camp_dir dated)
	run "$LADDER" -q campaign run "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --dated "$base" --dry-run
	assert_success
	day=$(date +%Y-%m-%d)
	[ -e "$base/$day/jobs/merge.sh" ]
	[ "$(readlink "$base/latest")" = "$day" ]
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --dated "$base" --dir x
	assert_failure 2
}

@test "stages missing from this build are skipped with a note; merge depends on every run" {
	dir=$(camp_dir stages)
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run
	assert_success
	for st in model extrap report; do
		if "$LADDER" "$st" --help > /dev/null 2>&1; then
			# per-target stages (extrap) have one job per target: extrap-t64
			[ -e "$dir/jobs/$st.sh" ] || [ -e "$dir/jobs/$st-t64.sh" ]
			# the model predicts at the workflow's target
			[ "$st" != model ] || grep -q "/bin/ladder model $dir/campaign.h5 --target 64 || status" "$dir/jobs/model.sh"
			refute_output --partial "note: stage '$st' skipped"
		else
			[ ! -e "$dir/jobs/$st.sh" ]
			assert_output --partial "note: stage '$st' skipped: 'ladder $st' is not part of this build"
		fi
	done
	# a stage whose program is missing (a ladder command or a program) is left out; a stage after
	# it is kept and depends on what the missing one consumed
	cat > "$BATS_TEST_TMPDIR/wf.yaml" <<-EOF
	name: staged
	app: {command: "{prefix}/apps/stencil2d --size 48"}
	ladder: [1, 4]
	stages:
	  - name: fit
	    command: "ladder no-such-command {campaign}"
	  - name: largest
	    command: "{prefix}/bin/ladder inspect {campaign} --target-is {target_max}"
	  - name: plot
	    command: "{prefix}/bin/no-such-program {campaign}"
	  - name: topic
	    command: "ladder site {campaign}"
	  - name: summary
	    command: "ladder inspect {campaign}"
	    after: [fit, plot]
	EOF
	dir=$(camp_dir stages2)
	run "$LADDER" campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run
	assert_success
	assert_output --partial "note: stage 'fit' skipped: 'ladder no-such-command' is not part of this build"
	assert_output --partial "note: stage 'plot' skipped: '$BUILD_DIR"
	# a help topic is not a command (commands.def)
	assert_output --partial "note: stage 'topic' skipped: 'ladder site' is not part of this build"
	[ -e "$dir/jobs/summary.sh" ]
	# without a target, {target_max} is the largest rung
	grep -q "/bin/ladder inspect $dir/campaign.h5 --target-is 4 || status" "$dir/jobs/largest.sh"
	[ ! -e "$dir/jobs/fit.sh" ]
	[ ! -e "$dir/jobs/plot.sh" ]
	grep -q "/bin/ladder inspect $dir/campaign.h5 || status" "$dir/jobs/summary.sh"
	grep -q "ladder merge -o $dir/campaign.h5 $dir/runs/p1/r1/trace.h5 $dir/runs/p4/r1/trace.h5 || status" "$dir/jobs/merge.sh"
}

@test "the built-in replay stage replays what extrap writes: refused without extrap, skipped with it" {
	wf=$BATS_TEST_TMPDIR/wf.yaml
	printf 'name: r\napp: {command: "{prefix}/apps/stencil2d"}\nladder: [1, 4]\ntarget: 16\nstages:\n  - model\n  - replay\n' > "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$(camp_dir replay1)" --dry-run
	assert_failure 1
	assert_output "ladder: $wf:7: field 'stages[1]': stage 'replay' reads what stage 'extrap' writes: list 'extrap' above it, or give 'replay' a command"
	printf 'name: r\napp: {command: "{prefix}/apps/stencil2d"}\nladder: [1, 4]\ntarget: 16\nstages:\n  - extrap\n  - replay\n' > "$wf"
	dir=$(camp_dir replay2)
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run
	assert_success
	if ! "$LADDER" extrap --help > /dev/null 2>&1; then
		assert_output --partial "note: stage 'replay' skipped: it reads what stage 'extrap' writes, which is skipped"
		[ ! -e "$dir/jobs/replay-t16.sh" ]
	else
		grep -q 'ladder-replay .*/extrap/p16/trace.h5' "$dir/jobs/replay-t16.sh"
	fi
}

@test "a malformed workflow file: one message naming file, line and field; nothing is created" {
	wf=$BATS_TEST_TMPDIR/bad.yaml
	dir=$(camp_dir malformed)
	printf 'name: bad\napp:\n  command: "{prefix}/apps/stencil2d"\nladder:\n  generate: squares\n  from: one\n  to: 16\n' > "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_failure 1
	assert_output "ladder: $wf:6: field 'ladder.from': expected an integer >= 1, got 'one'"
	[ ! -e "$dir" ]
	printf 'name: bad\napp:\n  command: "app {rnks}"\nladder: [1]\n' > "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_failure 1
	[ "${#lines[@]}" -eq 1 ]
	assert_output --partial "$wf:3: field 'app.command': unknown placeholder {rnks}"
	printf 'name: bad\napp:\n  command: app\nladder: [1]\nrepetitons: 3\n' > "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_failure 1
	assert_output --partial "$wf:5: field 'repetitons': unknown field (expected one of: name, description, vars, size, "
	printf 'name: bad\napp:\n  command: app\n ladder: [1]\n' > "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_failure 1
	assert_output --partial "$wf:4: YAML syntax error"
	[ ! -e "$dir" ]
}

@test "a malformed site file: one message naming file, line and field" {
	site=$BATS_TEST_TMPDIR/site.yaml
	printf 'name: s\nscheduler: slurm\nranks-per-node: 8\nlauncher: srun\ntime:\n  run: "1:99:00"\n' > "$site"
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml" --site "$site" --dir "$(camp_dir s1)"
	assert_failure 1
	assert_output "ladder: $site:6: field 'time.run': expected minutes, H:MM:SS or D-H:MM:SS, got '1:99:00'"
	printf 'name: s\nscheduler: slurm\nranks-per-node: 4\nmax-ranks: 4\nlauncher: srun\n' > "$site"
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml" --site "$site" --dir "$(camp_dir s2)" --dry-run
	assert_failure 1
	assert_output --partial "stencil2d.yaml:10: field 'ladder': rung 9 needs 9 ranks, but site s takes jobs of at most 4 (max-ranks in $site): raise max-ranks there if the cluster runs larger jobs, or leave the rung out of the ladder"
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml" --site "$BATS_TEST_TMPDIR/none.yaml"
	assert_failure 1
	assert_output --partial "none.yaml: cannot open: No such file or directory"
}

@test "workflow values cannot inject shell: quoted into the script, passed to the app verbatim" {
	dir=$(camp_dir inject)
	out=$BATS_TEST_TMPDIR/args
	wf=$BATS_TEST_TMPDIR/wf.yaml
	cat > "$wf" <<-EOF
	name: inject
	app:
	  command: ["$CAMP_FIX/show-args", "$out", "{a}", "{b}", "{c}", "x{d}y", "{e}"]
	ladder: [1]
	vars:
	  a: "\$(touch $BATS_TEST_TMPDIR/pwned1)"
	  b: "'; touch $BATS_TEST_TMPDIR/pwned2; echo '"
	  c: "\`touch $BATS_TEST_TMPDIR/pwned3\`"
	  d: " && touch $BATS_TEST_TMPDIR/pwned4 #"
	  e: "\${HOME} * ~ \"q\" \\\\ ;|&<>"
	EOF
	site=$BATS_TEST_TMPDIR/site.yaml
	printf 'name: direct\nscheduler: local\nmax-ranks: 4\nlauncher: [env]\n' > "$site"
	run "$LADDER" -q campaign run "$wf" --site "$site" --dir "$dir"
	# the "app" writes no trace, so the run job fails after the app ran
	assert_failure 1
	[ ! -e "$BATS_TEST_TMPDIR/pwned1" ]
	[ ! -e "$BATS_TEST_TMPDIR/pwned2" ]
	[ ! -e "$BATS_TEST_TMPDIR/pwned3" ]
	[ ! -e "$BATS_TEST_TMPDIR/pwned4" ]
	run cat "$out"
	assert_line --index 0 "[\$(touch $BATS_TEST_TMPDIR/pwned1)]"
	assert_line --index 1 "['; touch $BATS_TEST_TMPDIR/pwned2; echo ']"
	assert_line --index 2 "[\`touch $BATS_TEST_TMPDIR/pwned3\`]"
	assert_line --index 3 "[x && touch $BATS_TEST_TMPDIR/pwned4 #y]"
	assert_line --index 4 "[\${HOME} * ~ \"q\" \\ ;|&<>]"
	[ "${#lines[@]}" -eq 5 ]
	grep -q "did not write $dir/runs/p1/r1/trace.h5" "$dir/logs/run-p1-r1.log"
}

@test "control characters in workflow values are refused with the field named" {
	wf=$BATS_TEST_TMPDIR/wf.yaml
	printf 'name: ctl\napp:\n  command: app\nladder: [1]\nvars:\n  x: "a\\nrm -rf /"\n' > "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$(camp_dir ctl)"
	assert_failure 1
	assert_output "ladder: $wf:6: field 'vars.x': contains the control character 0x0a; control characters (including NUL, tab and newline) are not allowed"
	printf 'name: ctl\napp:\n  command: "app \\0"\nladder: [1]\n' > "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$(camp_dir ctl2)"
	assert_failure 1
	assert_output --partial "$wf:3: field 'app.command': contains the control character 0x00"
	# a campaign directory with a newline cannot be written into a script either
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" \
		--dir "$BATS_TEST_TMPDIR/a
b" --dry-run
	assert_failure 1
	assert_output --partial "contains a control character; refused"
	# and Slurm cannot take white space or '%' in the paths of #SBATCH lines
	run "$LADDER" -q campaign run "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/slurm-localhost.yaml" \
		--dir "$BATS_TEST_TMPDIR/50%" --dry-run
	assert_failure 1
	assert_output --partial "cannot be named in #SBATCH lines: it contains '%'"
}

@test "help: the campaign command, the workflow, workflow-stages and site topics" {
	run "$LADDER" help workflow
	assert_success
	assert_output --partial "ladder:"
	assert_output --partial "workflow-stages"
	run "$LADDER" help workflow-stages
	assert_success
	assert_output --partial "{outdir}"
	run "$LADDER" help site
	assert_success
	assert_output --partial "ranks-per-node"
	assert_output --partial "\"ladder-campaign-state\""
	run "$LADDER" campaign --help
	assert_success
	assert_output --partial "ladder campaign schedule WORKFLOW --site SITE --nightly HH:MM"
	run "$LADDER" --help
	assert_output --partial "campaign"
	assert_output --partial "workflow"
}

@test "usage errors" {
	run "$LADDER" campaign
	assert_failure 2
	run "$LADDER" campaign frobnicate
	assert_failure 2
	assert_output --partial "unknown subcommand 'frobnicate'"
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml"
	assert_failure 2
	assert_output --partial "needs --site SITE"
	run "$LADDER" campaign run --site x
	assert_failure 2
	run "$LADDER" campaign wait --timeout soon
	assert_failure 2
	run "$LADDER" campaign status "$BATS_TEST_TMPDIR"
	assert_failure 1
	assert_output --partial "not a campaign directory (no state.json)"
	run "$LADDER" campaign schedule "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --nightly 25:00
	assert_failure 2
	assert_output --partial "--nightly expects HH:MM"
}

@test "schedule: crontab for local sites, scrontab for Slurm sites; --install replaces the entry" {
	cd "$BATS_TEST_TMPDIR"
	run "$LADDER" campaign schedule "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --nightly 02:30
	assert_success
	assert_line --index 0 "# ladder campaign stencil2d: nightly run (managed by 'ladder campaign schedule')"
	assert_line --index 1 --regexp "^30 2 \* \* \* cd $BATS_TEST_TMPDIR && PATH=.* $BUILD_DIR/bin/ladder --quiet campaign run $TOP/workflows/stencil2d.yaml --site $TOP/site-configs/local.yaml --dated $BATS_TEST_TMPDIR/stencil2d-nightly >> $BATS_TEST_TMPDIR/stencil2d-nightly/nightly.log 2>&1\$"
	run "$LADDER" campaign schedule "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/slurm-localhost.yaml" \
		--nightly 23:05 --base /data/nightly
	assert_success
	assert_line --index 1 "#SCRON --job-name=ladder-nightly-stencil2d"
	assert_line "#SCRON --partition=debug"
	assert_line --regexp "^5 23 \* \* \* cd .* --dated /data/nightly --no-wait >> /data/nightly/nightly.log 2>&1\$"
	# --install through a stand-in crontab that keeps the table in a file
	mkdir -p bin
	cat > bin/crontab <<-'EOF'
	#!/bin/sh
	table=$CRONTAB_FILE
	if [ "$1" = -l ]; then [ -e "$table" ] || { echo "no crontab for $(id -un)" >&2; exit 1; }; cat "$table"; exit 0; fi
	cp "$1" "$table"
	EOF
	chmod +x bin/crontab
	export CRONTAB_FILE=$BATS_TEST_TMPDIR/table PATH=$BATS_TEST_TMPDIR/bin:$PATH
	run "$LADDER" campaign schedule "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --nightly 02:30 --install
	assert_success
	assert_output --partial "installed with crontab: campaign stencil2d runs every night at 02:30"
	echo "0 1 * * * other-job" >> table
	run "$LADDER" campaign schedule "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" --nightly 03:45 --install
	assert_success
	[ "$(grep -c 'ladder campaign stencil2d: nightly run' table)" -eq 1 ]
	[ "$(grep -c 'campaign run' table)" -eq 1 ]
	grep -q '^45 3 \* \* \* ' table
	grep -qx '0 1 \* \* \* other-job' table
	[ -d stencil2d-nightly ]
}
