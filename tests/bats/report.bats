#!/usr/bin/env bats
# ladder report: the closed loop on the local executor (ladder 1-16, models, the real application
# traced at 64, report stage), the report's three forms (self-contained HTML with plots, JSON,
# Markdown), the checks at the target with explicit inputs, thresholds deciding the exit status,
# and the nightly history with an injected regression.

load helper

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

@test "HTML in a real headless browser (chromium): every plot rendered, no console message; screenshot kept" {
	command -v chromium > /dev/null || skip "chromium is not installed (make deps installs it)"
	html="$BATS_FILE_TMPDIR/night1/report/report.html"
	art="$BUILD_DIR/test-artifacts/report"
	mkdir -p "$art"
	browse() { # PAGE OUT: the DOM after rendering into OUT, the browser's log into OUT.log
		timeout 120 chromium --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
			--user-data-dir="$BATS_TEST_TMPDIR/profile" "$@"
	}
	# the log check can fail: a page that writes to the console is caught
	printf '<!DOCTYPE html><html><body><script>console.error("broken")</script></body></html>' > "$BATS_TEST_TMPDIR/bad.html"
	browse --dump-dom "file://$BATS_TEST_TMPDIR/bad.html" > /dev/null 2> "$BATS_TEST_TMPDIR/bad.log"
	grep -q ':CONSOLE' "$BATS_TEST_TMPDIR/bad.log"
	browse --dump-dom "file://$html" > "$BATS_TEST_TMPDIR/dom.html" 2> "$BATS_TEST_TMPDIR/page.log"
	run grep ':CONSOLE' "$BATS_TEST_TMPDIR/page.log"
	assert_failure
	# the rendered document holds every plot the file has, each with its curves and a size
	plots=$(grep -o '<svg' "$html" | wc -l)
	[ "$plots" -ge 4 ]
	[ "$(grep -o '<svg' "$BATS_TEST_TMPDIR/dom.html" | wc -l)" -eq "$plots" ]
	[ "$(grep -oE '<svg[^>]* width="560" height="360"' "$BATS_TEST_TMPDIR/dom.html" | wc -l)" -eq "$plots" ]
	browse --window-size=1280,2400 --screenshot="$art/report.png" "file://$html" > /dev/null 2>&1
	[ "$(stat -c %s "$art/report.png")" -gt 50000 ]
	head -c 8 "$art/report.png" | od -An -c | grep -q 'P   N   G'
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
		--json "$out.json" --markdown "$out.md" --quiet
	assert_success
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
		--thresholds time=-1000,events=1,counts=1 --quiet
	assert_success
	# a what-if replay (compute x2) is a row of its own and leaves the time accuracy alone
	"$LADDER" replay --quiet --compute-scale 2 --json "$BATS_TEST_TMPDIR/whatif.json" "$truth"
	run "$LADDER" report "$dir/campaign.h5" --extrap "$truth" --replay "$BATS_TEST_TMPDIR/whatif.json" \
		--replay "$BATS_TEST_TMPDIR/replay.json" --json "$out.json" --markdown "$out.md" --quiet
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
}

@test "history: three nights appended, then a night whose app does 4x the work at 64 is flagged and fails" {
	hist="$BATS_FILE_TMPDIR/history.h5"
	# the repetition noise of a shared 2-core machine moves timing figures by tenths: a wide margin
	th="margin=0.5"
	run "$LADDER" report "$BATS_FILE_TMPDIR/night1/campaign.h5" --history "$hist" --thresholds "$th" --quiet
	assert_success
	for night in night2 night3; do
		loop_campaign "$night" 20 > /dev/null 2>&1
		run "$LADDER" report "$BATS_FILE_TMPDIR/$night/campaign.h5" --history "$hist" --thresholds "$th" \
			-o "$BATS_FILE_TMPDIR/$night/nightly"
		j="$BATS_FILE_TMPDIR/$night/nightly/report.json"
		# the same application: the figures of calls and bytes are exact and never regress
		jq -e '[.figures[] | select(.name | test("^model_(visits|bytes_sent|bytes_recv|msgs_sent|msgs_recv)$"))]
			| length == 5 and all(.value == 1 and .trailing_median == 1 and .state != "REGRESSED")' "$j"
		# the figures of measured time (model_time, interval, ranking, topk) compare runs made at
		# other moments, so they move with the machine's load between them (model_time from 0.13 to
		# -0.44 between two nights at load 130): each is judged against its trailing median by the
		# margin, and the exit status is that verdict
		jq -e 'all(.figures[]; (.state == "REGRESSED") ==
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
	grep -q "figures over the nights" "$out/report.html"
	run "$LADDER" validate "$hist"
	assert_success
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
	assert_output --partial "Exit status: 0 every threshold held"
}
