#!/usr/bin/env bats
# ladder report: the closed loop on the local executor (ladder 1-16, models, the real application
# traced at 64, report stage), the report's three forms (self-contained HTML with plots, JSON,
# Markdown), the checks at the target with explicit inputs, thresholds deciding the exit status,
# and the nightly history with an injected regression.

load helper

# the timing figures of 64 ranks on a few shared cores are noise: recorded, not gated
NOISE="model_time=-100,interval=0,ranking=-1,topk=0"

# campaign NAME ITERATIONS_AT_64: the loop workflow run on the local executor into $BATS_FILE_TMPDIR/NAME
loop_campaign() {
	local dir="$BATS_FILE_TMPDIR/$1"
	sed "s/ITERATIONS_AT_64/$2/" "$TOP/tests/report/loop.yaml.in" > "$BATS_FILE_TMPDIR/$1.yaml"
	"$LADDER" campaign run "$BATS_FILE_TMPDIR/$1.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir"
}

setup_file() {
	loop_campaign night1 20 > "$BATS_FILE_TMPDIR/night1.out" 2>&1
}

@test "campaign: the truth run at 64 is a job of its own, the report stage waits for it and writes HTML, Markdown, JSON" {
	dir="$BATS_FILE_TMPDIR/night1"
	run cat "$BATS_FILE_TMPDIR/night1.out"
	assert_output --partial "campaign loop completed"
	[ -s "$dir/truth/p64/trace.h5" ]
	grep -q "^RESULT app=stencil2d ranks=64 " "$dir/logs/truth-p64.log"
	# and once untraced, timed: the application time the replay and the proxy are measured against
	[ "$(grep -c "^RESULT app=stencil2d ranks=64 " "$dir/logs/truth-p64.log")" -eq 2 ]
	[ "$(jq .ranks "$dir/truth/p64/time.json")" -eq 64 ]
	[ "$(jq -r ".targets[0].app_time_from" "$dir/report/report.json")" = untraced ]
	[ "$(jq ".targets[0].app_time" "$dir/report/report.json")" = "$(jq .time "$dir/truth/p64/time.json")" ]
	# the traced run's time is kept beside it: its wall time, the tracer's own time taken off
	[ "$(jq ".targets[0].traced_time" "$dir/report/report.json")" = "$("$LADDER" inspect --json "$dir/truth/p64/trace.h5" | jq .wall_time)" ]
	grep -q "^- application time: .* s, untraced (median of 1 run timed by \`ladder time\`" "$dir/report/report.md"
	# the truth is not part of the ladder the models are fitted to
	run "$LADDER" inspect --json "$dir/campaign.h5"
	assert_success
	[ "$(jq '[.runs[] | select(.ranks == 64)] | length' <<< "$output")" -eq 0 ]
	[ "$(jq -r '.jobs[] | select(.name == "report") | .deps | index("truth-p64") != null' "$dir/state.json")" = true ]
	[ "$(jq -r '.jobs[] | select(.name == "merge") | .deps | index("truth-p64") == null' "$dir/state.json")" = true ]
	for f in report.html report.md report.json; do [ -s "$dir/report/$f" ]; done
	jq -e . "$dir/report/report.json" > /dev/null
	# the models met the truth: every model row of a measured call path has a measurement and an accuracy
	[ "$(jq '[.models[] | select(.measured != null)] | length' "$dir/report/report.json")" -gt 20 ]
	[ "$(jq '[.models[] | select(.measured != null and .accuracy == null and .prediction != 0)] | length' \
		"$dir/report/report.json")" -eq 0 ]
	# visits do not depend on timing: predicted exactly at 64 from 1-16 (stencil2d's calls per rank are known)
	[ "$(jq '.figures[] | select(.name == "model_visits") | .value' "$dir/report/report.json")" = 1 ]
	[ "$(jq '.figures[] | select(.name == "model_visits") | .state' "$dir/report/report.json")" = '"held"' ]
	run jq -e '.ranking.spearman >= -1 and .ranking.spearman <= 1 and .ranking.callpaths > 5' "$dir/report/report.json"
	assert_success
	grep -q "| model_visits | 64 | 1 | 0.9 |" "$dir/report/report.md"
	grep -q "^campaign loop completed" "$BATS_FILE_TMPDIR/night1.out"
}

@test "HTML: one self-contained page, a plot per leading call path, nothing fetched from elsewhere" {
	html="$BATS_FILE_TMPDIR/night1/report/report.html"
	run grep -Eio "(https?:|src=|@import|<script|<link)" "$html"
	assert_failure
	[ "$(grep -o '<svg' "$html" | wc -l)" -ge 4 ]
	[ "$(grep -o '<svg' "$html" | wc -l)" -eq "$(grep -o '</svg>' "$html" | wc -l)" ]
	# every plot shows the ladder, the model, the interval and the measurement at the target
	[ "$(grep -o 'measured at the target' "$html" | wc -l)" -ge 4 ]
	grep -q 'main/MPI_Allreduce' "$html"
	grep -q '</html>' "$html"
	# well-formed enough for an XML parser once the HTML void elements are closed
	python3 - "$html" <<'PY'
import re, sys, xml.dom.minidom
page = open(sys.argv[1]).read()
for svg in re.findall(r"<svg.*?</svg>", page, re.S):
    xml.dom.minidom.parseString(svg.replace("<svg", '<svg xmlns:xlink="x"', 1))
PY
}

@test "absent extrapolated trace: the report says so plainly and computes no time accuracy" {
	dir="$BATS_FILE_TMPDIR/night1"
	[ ! -e "$dir/extrap/p64/trace.h5" ]
	grep -q "extrapolated trace: \*\*absent\*\* — no extrapolated trace at 64 ranks" "$dir/report/report.md"
	[ "$(jq '.targets[0].extrap' "$dir/report/report.json")" = null ]
	[ "$(jq '.figures[] | select(.name == "time") | .value' "$dir/report/report.json")" = null ]
	[ "$(jq -r '.figures[] | select(.name == "time") | .state' "$dir/report/report.json")" = "not computed" ]
}

@test "stand-in input (a measured run at 64 given as the extrapolated trace, not an extrapolation): events, counts, replay time accuracy, thresholds gate the exit status" {
	dir="$BATS_FILE_TMPDIR/night1"
	truth="$dir/truth/p64/trace.h5"
	"$LADDER" replay --quiet --json "$BATS_TEST_TMPDIR/replay.json" "$truth"
	out="$BATS_TEST_TMPDIR/r"
	run "$LADDER" report "$dir/campaign.h5" --extrap "$truth" --replay "$BATS_TEST_TMPDIR/replay.json" \
		--thresholds "time=-100,$NOISE" --json "$out.json" --markdown "$out.md" --quiet
	assert_success
	# a measured run is no extrapolation: the state is not PASS, whatever the figures
	[ "$(jq -r '.state' "$out.json")" = "NOT VALIDATED" ]
	grep -q "^\*\*State: NOT VALIDATED\*\*" "$out.md"
	[ "$(jq '.targets[0].events_equal' "$out.json")" = true ]
	[ "$(jq '.targets[0].counts_equal' "$out.json")" = true ]
	# the input is measured, and the report says it is not an extrapolation
	[ "$(jq '.targets[0].extrap_synthetic' "$out.json")" = false ]
	grep -q "not marked synthetic" "$out.md"
	# accuracy from the two times the files hold: 1 - |T_replay - T_app| / T_app
	t_replay=$(jq '.total_time' "$BATS_TEST_TMPDIR/replay.json")
	t_app=$(jq '.targets[0].app_time' "$out.json")
	expect=$(awk -v r="$t_replay" -v a="$t_app" 'BEGIN { d = r - a; if (d < 0) d = -d; printf "%.6f", 1 - d / a }')
	[ "$(jq '.figures[] | select(.name == "time") | .value * 1000000 | round / 1000000' "$out.json")" = "$expect" ] ||
		[ "$(printf '%.6f' "$(jq '.figures[] | select(.name == "time") | .value' "$out.json")")" = "$expect" ]
	# thresholds: accuracy cannot exceed 1, so time=1.5 must fail; a met threshold passes
	run "$LADDER" report "$dir/campaign.h5" --extrap "$truth" --replay "$BATS_TEST_TMPDIR/replay.json" \
		--thresholds time=1.5 --json "$out.json" --quiet
	assert_failure 1
	[ "$(jq -r '.figures[] | select(.name == "time") | .state' "$out.json")" = MISSED ]
	[ "$(jq '.pass' "$out.json")" = false ]
	run "$LADDER" report "$dir/campaign.h5" --extrap "$truth" --replay "$BATS_TEST_TMPDIR/replay.json" \
		--thresholds "time=-1000,events=1,counts=1,$NOISE" --quiet
	assert_success
	# a what-if replay (compute x2) is a row of its own and leaves the time accuracy alone
	"$LADDER" replay --quiet --compute-scale 2 --json "$BATS_TEST_TMPDIR/whatif.json" "$truth"
	run "$LADDER" report "$dir/campaign.h5" --extrap "$truth" --replay "$BATS_TEST_TMPDIR/whatif.json" \
		--replay "$BATS_TEST_TMPDIR/replay.json" --thresholds "time=-100,$NOISE" --json "$out.json" --markdown "$out.md" --quiet
	assert_success
	[ "$(jq '.targets[0].whatif | length' "$out.json")" -eq 1 ]
	[ "$(jq '.targets[0].whatif[0].compute_scale' "$out.json")" = 2 ]
	[ "$(jq '.targets[0].whatif[0].time' "$out.json")" = "$(jq '.total_time' "$BATS_TEST_TMPDIR/whatif.json")" ]
	[ "$(jq '.targets[0].replay_time' "$out.json")" = "$t_replay" ]
	grep -q "^- what if compute x2, messages x1: " "$out.md"
}

@test "stand-in input that differs (a measured 64-rank run with other iterations): events differ, events=1 fails" {
	dir="$BATS_FILE_TMPDIR/night1"
	other="$BATS_TEST_TMPDIR/other.h5"
	LADDER_TRACE_CALLSITE_DEPTH=1 "$LADDER" trace -o "$other" -- \
		mpirun --oversubscribe -np 64 "$BUILD_DIR/apps/stencil2d" --scaling strong --size 96 --iterations 7 --compute 10 > /dev/null
	run "$LADDER" report "$dir/campaign.h5" --extrap "$other" --thresholds events=1 \
		--json "$BATS_TEST_TMPDIR/r.json" --markdown "$BATS_TEST_TMPDIR/r.md" --quiet
	assert_failure 1
	[ "$(jq '.targets[0].events_equal' "$BATS_TEST_TMPDIR/r.json")" = false ]
	[ "$(jq '.targets[0].events_ranks_differ' "$BATS_TEST_TMPDIR/r.json")" -eq 64 ]
	[ "$(jq '.targets[0].counts_equal' "$BATS_TEST_TMPDIR/r.json")" = false ]
	grep -q "events (extrapolated vs real, every rank): DIFFERENT on 64 ranks; first: rank" "$BATS_TEST_TMPDIR/r.md"
	[ "$(jq -r '.state' "$BATS_TEST_TMPDIR/r.json")" = FAIL ]
	# events that differ fail the report whatever the thresholds say: no rule makes them pass
	run "$LADDER" report "$dir/campaign.h5" --extrap "$other" --thresholds "events=none,counts=none,$NOISE" \
		--json "$BATS_TEST_TMPDIR/r.json" --html "$BATS_TEST_TMPDIR/r.html" --markdown "$BATS_TEST_TMPDIR/r.md" --quiet
	assert_failure 1
	[ "$(jq -r '.state' "$BATS_TEST_TMPDIR/r.json")" = FAIL ]
	[ "$(jq '.pass' "$BATS_TEST_TMPDIR/r.json")" = false ]
	grep -q "^\*\*State: FAIL\*\*" "$BATS_TEST_TMPDIR/r.md"
	grep -q "The extrapolated trace differs from the real run at 64 ranks" "$BATS_TEST_TMPDIR/r.md"
	grep -q '<div class="state FAIL" id=state><b>FAIL</b>' "$BATS_TEST_TMPDIR/r.html"
}

@test "no verdict without a rule: figures not computed or without a threshold are NOT VALIDATED, never PASS" {
	dir="$BATS_FILE_TMPDIR/night1"
	out="$BATS_TEST_TMPDIR/r"
	# no extrapolated trace and no replay: events, counts and time could not be computed
	run "$LADDER" report "$dir/campaign.h5" --thresholds "$NOISE" --json "$out.json" --markdown "$out.md" --html "$out.html" --quiet
	assert_success
	[ "$(jq -r '.state' "$out.json")" = "NOT VALIDATED" ]
	[ "$(jq '.pass' "$out.json")" = false ]
	run grep -c "PASS" "$out.md"
	[ "$output" = 0 ]
	grep -q "^\*\*State: NOT VALIDATED\*\*" "$out.md"
	grep -q "^- events at 64 ranks could not be computed\.$" "$out.md"
	grep -q "<b>NOT VALIDATED</b>" "$out.html"
	# every figure has a rule: the defaults, said as such
	[ "$(jq '[.figures[] | select(.threshold == null)] | length' "$out.json")" -eq 0 ]
	[ "$(jq -r '.figures[] | select(.name == "events") | "\(.threshold) \(.default_threshold)"' "$out.json")" = "1 true" ]
	# a figure with its rule taken away is not validated either, even when its value is perfect
	run "$LADDER" report "$dir/campaign.h5" --thresholds "$NOISE,visits=none" --json "$out.json" --quiet
	[ "$(jq -r '.figures[] | select(.name == "model_visits") | "\(.value) \(.state)"' "$out.json")" = "1 no rule" ]
	[ "$(jq -r '.state' "$out.json")" = "NOT VALIDATED" ]
	# --strict turns NOT VALIDATED into exit 1
	run "$LADDER" report "$dir/campaign.h5" --thresholds "$NOISE" --strict --quiet
	assert_failure 1
}

@test "lossy extrapolation: its kept share (calls, bytes, per function) is in the headline of HTML, Markdown and JSON, and it is not PASS" {
	dir="$BATS_FILE_TMPDIR/night1"
	lossy="$BATS_TEST_TMPDIR/lossy.h5"
	# the labels a lossy extrapolation writes into its synthetic run, set on a traced stand-in
	LADDER_TRACE_CALLSITE_DEPTH=1 "$LADDER" trace -o "$lossy" --label lossy_dropped_calls=930 \
		--label lossy_expected_calls=2000 --label lossy_expected_bytes=4000000 \
		--label lossy_kept_calls_share=0.5350 --label lossy_kept_bytes_share=0.0003 \
		--label "lossy_kept_by_function=MPI_Isend 600 1280 1200 4000000" -- \
		mpirun --oversubscribe -np 64 "$BUILD_DIR/apps/stencil2d" --scaling strong --size 96 --iterations 20 --compute 10 > /dev/null
	out="$BATS_TEST_TMPDIR/r"
	run "$LADDER" report "$dir/campaign.h5" --extrap "$lossy" --thresholds "$NOISE,time=none" \
		--json "$out.json" --markdown "$out.md" --html "$out.html" --quiet
	assert_success
	[ "$(jq -r '.state' "$out.json")" = "NOT VALIDATED" ]
	[ "$(jq '.targets[0].lossy.kept_calls_share' "$out.json")" = 0.535 ]
	[ "$(jq '.targets[0].lossy.kept_bytes_share' "$out.json")" = 0.0003 ]
	[ "$(jq '.targets[0].lossy.expected_calls' "$out.json")" = 2000 ]
	[ "$(jq -r '.targets[0].lossy.by_function[0] | "\(.name) \(.kept_calls) \(.expected_calls) \(.kept_bytes) \(.expected_bytes)"' "$out.json")" = \
		"MPI_Isend 600 1280 1200 4000000" ]
	sentence="The extrapolation at 64 ranks is lossy: it keeps 53.5% of the 2000 expected calls and 0.0% of the 3.81 MiB expected bytes: MPI_Isend 46.9% of calls, 0.0% of bytes."
	[ "$(jq -r '.lossy[0]' "$out.json")" = "$sentence" ]
	# in the Markdown's headline, before the state and the figures
	[ "$(grep -n -m1 "^- \*\*Lossy\*\*: $sentence" "$out.md" | cut -d: -f1)" -lt "$(grep -n -m1 '^\*\*State' "$out.md" | cut -d: -f1)" ]
	# and the page's, right under the prediction
	grep -q "<p class=lossy id=lossy><b>Lossy:</b> $sentence</p>" "$out.html"
	grep -q "is lossy (it keeps 53.5% of the calls, 0.0% of the bytes): not a validation of the whole application" "$out.md"
	# a malformed share label is named, never guessed
	LADDER_TRACE_CALLSITE_DEPTH=1 "$LADDER" trace -o "$BATS_TEST_TMPDIR/bad.h5" --label lossy_expected_calls=12x \
		-- mpirun --oversubscribe -np 64 "$BUILD_DIR/apps/stencil2d" --scaling strong --size 96 --iterations 20 --compute 10 > /dev/null
	run "$LADDER" report "$dir/campaign.h5" --extrap "$BATS_TEST_TMPDIR/bad.h5" --thresholds "$NOISE" --json "$out.json" --quiet
	[ "$(jq -r '.targets[0].lossy.problem' "$out.json")" = "label 'lossy_expected_calls' is missing or malformed" ]
	[ "$(jq -r '.state' "$out.json")" != PASS ]
}

@test "history: three nights appended, then a night whose app does 4x the work at 64 is flagged and fails" {
	hist="$BATS_FILE_TMPDIR/history.h5"
	# the repetition noise of a shared 2-core machine moves timing figures by tenths: a wide margin
	# and its timing figures are recorded, not judged (no rule: no threshold, no regression)
	th="margin=0.5,model_time=none,interval=none,ranking=none,topk=none"
	run "$LADDER" report "$BATS_FILE_TMPDIR/night1/campaign.h5" --history "$hist" --thresholds "$th" --quiet
	assert_success
	for night in night2 night3; do
		loop_campaign "$night" 20 > "$BATS_TEST_TMPDIR/$night.out" 2>&1 ||
			{ tail -20 "$BATS_TEST_TMPDIR/$night.out" "$BATS_FILE_TMPDIR/$night/logs/report.log"; false; }
		run "$LADDER" report "$BATS_FILE_TMPDIR/$night/campaign.h5" --history "$hist" --thresholds "$th" \
			-o "$BATS_FILE_TMPDIR/$night/nightly"
		j="$BATS_FILE_TMPDIR/$night/nightly/report.json"
		# the same application: the figures of calls and bytes are exact and never regress
		jq -e '[.figures[] | select(.name | test("^model_(visits|bytes_sent|bytes_recv|msgs_sent|msgs_recv)$"))]
			| length == 5 and all(.value == 1 and .trailing_median == 1 and .state != "REGRESSED")' "$j"
		# the figures of measured time (model_time, interval, ranking, topk) compare runs made at
		# other moments, so they move with the machine's load between them (model_time from 0.13 to
		# -0.44 between two nights at load 130): with no rule they are recorded and never regress;
		# a figure with a rule is judged against its trailing median by the margin, and the exit
		# status is that verdict
		jq -e 'all(.figures[] | select(.name | test("^model_time|^interval$|^ranking$|^topk$")); .state == "no rule")' "$j"
		jq -e 'all(.figures[] | select(.state != "no rule"); (.state == "REGRESSED") ==
			(.value != null and .trailing_median != null and .value < .trailing_median - 0.5))' "$j"
		jq -e '[.figures[] | select(.name | test("^model_time|^interval$|^ranking$|^topk$")) | .value | numbers] | length == 4' "$j"
		if jq -e 'any(.figures[]; .state == "REGRESSED")' "$j" > /dev/null; then
			assert_failure 1
			assert_output --partial REGRESSED
		else
			assert_success
			refute_output --partial REGRESSED
		fi
	done
	# night 3 judged model_time against the median of nights 1 and 2 (of two values, their mean)
	jq -e -n --slurpfile a "$BATS_FILE_TMPDIR/night2/nightly/report.json" \
		--slurpfile b "$BATS_FILE_TMPDIR/night3/nightly/report.json" '
		($a[0].figures[] | select(.name == "model_time")) as $x
		| ($b[0].figures[] | select(.name == "model_time")) as $y
		| ($x.trailing_median + $x.value) / 2 - $y.trailing_median | . * . < 1e-18'
	run "$LADDER" validate "$hist"
	assert_success
	nfig=$(jq '.figures | length' "$BATS_FILE_TMPDIR/night3/nightly/report.json")
	[ "$(h5dump -H -d /nights "$hist" | grep -o 'DATASPACE  SIMPLE { ( [0-9]* )' | grep -o '[0-9]*')" -eq $((3 * nfig)) ]
	[ "$(jq '.figures[] | select(.name == "model_visits") | .nights' "$BATS_FILE_TMPDIR/night3/nightly/report.json")" -eq 2 ]
	# the injected regression: the real application at 64 iterates 80 times, the ladder 20
	loop_campaign night4 80 > /dev/null 2>&1 || true   # its report stage misses visits=0.9: the campaign fails
	[ "$(jq -r '.jobs[] | select(.name == "report") | .state' "$BATS_FILE_TMPDIR/night4/state.json")" = FAILED ]
	out="$BATS_FILE_TMPDIR/night4/nightly"
	run "$LADDER" report "$BATS_FILE_TMPDIR/night4/campaign.h5" --history "$hist" --thresholds "$th" -o "$out"
	assert_failure 1
	[ "$(jq -r '.figures[] | select(.name == "model_visits") | .state' "$out/report.json")" = REGRESSED ]
	[ "$(jq '.figures[] | select(.name == "model_visits") | .trailing_median' "$out/report.json")" = 1 ]
	[ "$(jq '.figures[] | select(.name == "model_visits") | .value < 0.5' "$out/report.json")" = true ]
	[ "$(jq '.pass' "$out/report.json")" = false ]
	grep -q "| model_visits | 64 | .* | REGRESSED |" "$out/report.md"
	grep -q "<td class=\"fail\">REGRESSED</td>" "$out/report.html"
	# the trend plot of the past nights is in the page
	grep -q "Nightly trend" "$out/report.html"
	run "$LADDER" validate "$hist"
	assert_success
}

@test "history that exists and cannot be read: exit 1, the reason named, the file untouched" {
	hist="$BATS_TEST_TMPDIR/h.h5"
	cp "$BATS_FILE_TMPDIR/night1/history.h5" "$hist"
	# one byte of /nights' datatype changed (its 'night' string field as ASCII; the header's
	# checksum no longer matches): the file and its attributes open, /nights does not
	python3 - "$hist" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.rfind(b"\x13\x10\x00\x00\x1c\x00\x00\x00")   # a string datatype, UTF-8, 28 bytes: the last is 'night'
assert at > 0
data[at + 1] = 0
open(sys.argv[1], "wb").write(data)
PY
	before=$(sha256sum < "$hist")
	run "$LADDER" report "$BATS_FILE_TMPDIR/night1/campaign.h5" --history "$hist" --thresholds "$NOISE" -o "$BATS_TEST_TMPDIR/out"
	assert_failure 1
	assert_output --partial "$hist: cannot open dataset /nights"
	assert_output --partial "the history is left as it is"
	[ "$(sha256sum < "$hist")" = "$before" ]
	[ ! -e "$BATS_TEST_TMPDIR/out/report.html" ]
}

@test "history appends: four reports at once keep every night; a planted temporary name is not followed" {
	hist="$BATS_TEST_TMPDIR/h.h5"
	c="$BATS_FILE_TMPDIR/night1/campaign.h5"
	"$LADDER" report "$c" --history "$hist" --thresholds "$NOISE" --quiet
	# the temporary names the history had: a symlink there must not be written through
	echo victim > "$BATS_TEST_TMPDIR/victim"
	ln -s "$BATS_TEST_TMPDIR/victim" "$hist.new"
	for i in 1 2 3 4; do
		"$LADDER" report "$c" --history "$hist" --thresholds "$NOISE" --quiet &
	done
	wait
	[ "$(cat "$BATS_TEST_TMPDIR/victim")" = victim ]
	nfig=$(jq '.figures | length' "$BATS_FILE_TMPDIR/night1/report/report.json")
	[ "$(h5dump -H -d /nights "$hist" | grep -o 'DATASPACE  SIMPLE { ( [0-9]* )' | grep -o '[0-9]*')" -eq $((5 * nfig)) ]
	run "$LADDER" validate "$hist"
	assert_success
	# no temporary directory is left behind
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '.history.*')" ]
}

@test "nightly: dated campaigns share BASE/history.h5, the report job appends to it" {
	base="$BATS_TEST_TMPDIR/nightly"
	sed "s/ITERATIONS_AT_64/20/" "$TOP/tests/report/loop.yaml.in" > "$BATS_TEST_TMPDIR/loop.yaml"
	run "$LADDER" -q campaign run "$BATS_TEST_TMPDIR/loop.yaml" --site "$TOP/site-configs/local.yaml" --dated "$base" --dry-run
	assert_success
	day=$(readlink "$base/latest")
	grep -q -- "--history $base/history.h5" "$base/$day/jobs/report.sh"
	grep -q -- "--thresholds visits=0.9" "$base/$day/jobs/report.sh"
	# a plain campaign keeps its history in its own directory
	run "$LADDER" -q campaign run "$BATS_TEST_TMPDIR/loop.yaml" --site "$TOP/site-configs/local.yaml" \
		--dir "$BATS_TEST_TMPDIR/plain" --dry-run
	assert_success
	grep -q -- "--history $BATS_TEST_TMPDIR/plain/history.h5" "$BATS_TEST_TMPDIR/plain/jobs/report.sh"
	# the workflow overrides a default threshold, or takes a figure's rule away with 'none'
	sed "s/ITERATIONS_AT_64/20/; s/^  topk: 0\$/  topk: 0\n  proxy: none/" "$TOP/tests/report/loop.yaml.in" > "$BATS_TEST_TMPDIR/none.yaml"
	run "$LADDER" -q campaign run "$BATS_TEST_TMPDIR/none.yaml" --site "$TOP/site-configs/local.yaml" \
		--dir "$BATS_TEST_TMPDIR/none" --dry-run
	assert_success
	grep -q -- "--thresholds visits=0.9,model_time=-100,interval=0,ranking=-1,topk=0,proxy=none " "$BATS_TEST_TMPDIR/none/jobs/report.sh"
	[ -s "$BATS_FILE_TMPDIR/night1/history.h5" ]
	run "$LADDER" validate "$BATS_FILE_TMPDIR/night1/history.h5"
	assert_success
}

@test "usage and input errors: exit 2 for a malformed option, 1 with one line naming the file" {
	run "$LADDER" report --thresholds time "$BATS_FILE_TMPDIR/night1/campaign.h5"
	assert_failure 2
	assert_output --partial "expected NAME=NUMBER"
	run "$LADDER" report
	assert_failure 2
	run "$LADDER" report "$BATS_TEST_TMPDIR/none.h5"
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/none.h5"
	[ "${#lines[@]}" -eq 1 ]
	run "$LADDER" report "$BATS_FILE_TMPDIR/night1/truth/p64/trace.h5"
	assert_failure 1
	assert_output --partial "expected a campaign container"
	# an untraced time (ladder time -o) that is not one, or of another rank count
	echo '{"time": "fast", "ranks": 64}' > "$BATS_TEST_TMPDIR/bad.json"
	run "$LADDER" report "$BATS_FILE_TMPDIR/night1/campaign.h5" --timed "$BATS_TEST_TMPDIR/bad.json" --quiet
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/bad.json: field 'time' (seconds, a number not below 0) and 'ranks' (an integer) expected"
	jq '.ranks = 32' "$BATS_FILE_TMPDIR/night1/truth/p64/time.json" > "$BATS_TEST_TMPDIR/t32.json"
	run "$LADDER" report "$BATS_FILE_TMPDIR/night1/campaign.h5" --timed "$BATS_TEST_TMPDIR/t32.json" --target 32 --quiet \
		--thresholds "$NOISE" \
		--json "$BATS_TEST_TMPDIR/r32.json"
	assert_success
	[ "$(jq '.targets[] | select(.ranks == 32) | .app_time' "$BATS_TEST_TMPDIR/r32.json")" = \
		"$(jq .time "$BATS_FILE_TMPDIR/night1/truth/p64/time.json")" ]
	[ "$(jq -r '.targets[] | select(.ranks == 32) | .app_time_from' "$BATS_TEST_TMPDIR/r32.json")" = untraced ]
	# found next to a campaign, a time of another rank count is refused by name
	cp -a "$BATS_FILE_TMPDIR/night1" "$BATS_TEST_TMPDIR/moved"
	cp "$BATS_TEST_TMPDIR/t32.json" "$BATS_TEST_TMPDIR/moved/truth/p64/time.json"
	run "$LADDER" report "$BATS_TEST_TMPDIR/moved/campaign.h5" --quiet
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/moved/truth/p64/time.json: field 'ranks' is 32, expected the target's 64"
	printf '{"time": 1.5, "ranks": 64' > "$BATS_TEST_TMPDIR/cut.json"
	run "$LADDER" report "$BATS_FILE_TMPDIR/night1/campaign.h5" --timed "$BATS_TEST_TMPDIR/cut.json" --quiet
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/cut.json:1:"
	run "$LADDER" report --help
	assert_success
	assert_output --partial "Exit status: 0 PASS or NOT VALIDATED (1 with --strict); 1 FAIL"
}
