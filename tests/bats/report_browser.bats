#!/usr/bin/env bats
# ladder report in a real browser: a small real campaign (ladder 1-16, the real application at 64,
# models, the trace extrapolated to 64 and replayed there) and a second night appended to its
# history; its report.html rendered by Debian's chromium (installed here when missing), headless.
# The page opens with the answer and the state, fits the window (no horizontal scrolling), runs
# no script (its Content-Security-Policy forbids it) and logs nothing; the screenshot is kept in
# build/test-artifacts/report/.

load helper

setup_file() {
	if ! command -v chromium > /dev/null; then
		apt-get update > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium > /dev/null
	fi
	local dir="$BATS_FILE_TMPDIR/c"
	cp "$TOP/tests/report/browser.yaml.in" "$BATS_FILE_TMPDIR/browser.yaml"
	"$LADDER" campaign run "$BATS_FILE_TMPDIR/browser.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir" \
		> "$BATS_FILE_TMPDIR/campaign.out" 2>&1
	# a second night: the report against the first one's history, with its trend plot
	"$LADDER" report "$dir/campaign.h5" --history "$dir/history.h5" -o "$dir/night2" --quiet \
		--thresholds model_time=none,interval=none,ranking=none,topk=none,time=none > "$BATS_FILE_TMPDIR/night2.out" 2>&1 || true
}

# browse ARGS...: headless chromium with a profile of its own, nothing fetched in the background
browse() {
	timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --no-first-run --enable-logging=stderr --v=0 \
		--user-data-dir="$BATS_TEST_TMPDIR/profile" "$@"
}

# probe PAGE OUT: PAGE with a script that writes the layout's widths into the document, dumped
PROBE='<script>document.addEventListener("DOMContentLoaded",function(){var p=document.createElement("pre");p.id="probe";p.textContent="width "+document.documentElement.scrollWidth+" "+innerWidth;document.body.appendChild(p)})</script>'

@test "campaign: the extrapolated trace was replayed at 64 and the report made" {
	run cat "$BATS_FILE_TMPDIR/campaign.out"
	assert_output --partial "campaign browser completed"
	[ -s "$BATS_FILE_TMPDIR/c/extrap/p64/trace.h5" ]
	[ -s "$BATS_FILE_TMPDIR/c/night2/report.html" ]
}

@test "chromium: the page opens with the prediction and the state, fits 1280 px, runs no script; screenshot kept" {
	command -v chromium
	dir="$BATS_FILE_TMPDIR/c/night2"
	html="$dir/report.html"
	art="$BUILD_DIR/test-artifacts/report"
	mkdir -p "$art"
	browse --window-size=1280,4000 --dump-dom "file://$html" > "$BATS_TEST_TMPDIR/dom.html" 2> "$BATS_TEST_TMPDIR/page.log"
	run grep ':CONSOLE' "$BATS_TEST_TMPDIR/page.log"
	assert_failure
	# the headline sentence, first thing after the title, with the counts the extrapolated trace has
	python3 - "$BATS_TEST_TMPDIR/dom.html" "$dir/report.json" <<'PY'
import json, re, sys
dom = open(sys.argv[1]).read()
rep = json.load(open(sys.argv[2]))
body = dom[dom.index("<body>"):]
first = re.search(r'<ul class="answer" id="prediction">\s*<li>(.*?)</li>', body, re.S)
assert first, "no prediction list"
assert body.index('id="prediction"') < body.index("<h2>"), "the prediction is not first"
text = first.group(1)
assert text.startswith("At 64 ranks the application is predicted to make "), text
assert "the counts of the extrapolated trace at the target" in text, text
assert rep["answer"]["counts_from"] == "extrapolated trace"
state = re.search(r'<div class="state [A-Z]+" id="state"><b>([A-Z ]+)</b>', body)
assert state and state.group(1) == rep["state"], (state and state.group(1), rep["state"])
# a measured truth, an extrapolated trace and its replay: every accuracy sentence is about a number
acc = re.search(r'<ul id="accuracy">(.*?)</ul>', body, re.S).group(1)
assert "The extrapolated trace is call-for-call the real 64-rank run." in acc or "differs from the real 64-rank run" in acc, acc
assert re.search(r"At 64 ranks the replay of the extrapolated trace ran .* the application", acc), acc
PY
	# every plot rendered: the predicted-vs-measured plots, the trend and the ladder plots
	plots=$(grep -o '<svg' "$html" | wc -l)
	[ "$plots" -ge 6 ]
	[ "$(grep -o '<svg' "$BATS_TEST_TMPDIR/dom.html" | wc -l)" -eq "$plots" ]
	grep -q "Nightly trend" "$BATS_TEST_TMPDIR/dom.html"
	# no table or plot wider than the window: measured by a probe in a copy without the policy
	sed -e "s|<meta http-equiv=\"Content-Security-Policy\"[^>]*>||" -e "s|</head>|$PROBE</head>|" "$html" > "$BATS_TEST_TMPDIR/probe.html"
	browse --window-size=1280,4000 --dump-dom "file://$BATS_TEST_TMPDIR/probe.html" > "$BATS_TEST_TMPDIR/probe.dom" 2> /dev/null
	read -r _ scroll inner < <(grep -o 'width [0-9]* [0-9]*' "$BATS_TEST_TMPDIR/probe.dom")
	echo "scrollWidth $scroll innerWidth $inner"
	[ "$inner" -eq 1280 ]
	[ "$scroll" -le "$inner" ]
	# the page's own policy stops the same script: it runs nothing
	sed -e "s|</head>|$PROBE</head>|" "$html" > "$BATS_TEST_TMPDIR/csp.html"
	browse --window-size=1280,4000 --dump-dom "file://$BATS_TEST_TMPDIR/csp.html" > "$BATS_TEST_TMPDIR/csp.dom" 2> /dev/null
	grep -q '<div class="state' "$BATS_TEST_TMPDIR/csp.dom"
	run grep -c '<pre id="probe"' "$BATS_TEST_TMPDIR/csp.dom"
	[ "$output" = 0 ]
	browse --window-size=1280,2400 --screenshot="$art/report.png" "file://$html" > /dev/null 2>&1
	[ "$(stat -c %s "$art/report.png")" -gt 50000 ]
	head -c 8 "$art/report.png" | od -An -c | grep -q 'P   N   G'
}
