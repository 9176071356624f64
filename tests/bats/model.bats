#!/usr/bin/env bats
# ladder model: Extra-P inputs through the CLI, the models and ranking it prints, the export
# Extra-P reads, and how bad input and bad usage are reported.

load helper

FIX="$TOP/tests/model/fixtures"

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# the formula of a call path's model for a metric, from the JSON output
formula() {
	jq -r --arg cp "$2" --arg m "${3:-time}" \
		'.models[] | select(.callpath == $cp and .metric == $m) | .model.formula' "$1"
}

@test "ladder model --help shows the usage, the options and the campaign form" {
	run "$LADDER" model --help
	assert_success
	assert_line --index 0 "usage: ladder model CAMPAIGN.h5 [--params p|p,n] [--reduce R] [options]"
	assert_line --index 1 --partial "ladder model --input FILE [options]"
	for opt in --params --reduce --input --target --metric --terms --exponents --cv --aggregate --format --export --level --bootstrap; do
		assert_output --partial -- "$opt"
	done
	run "$LADDER" --help
	assert_output --partial "model"
}

@test "an Extra-P text file gives the expected models, ranked at the target" {
	run "$LADDER" model --input "$FIX/weak.txt" --target 4096
	assert_success
	assert_output --partial "metric time; target p=4096"
	assert_line --regexp '^1 +main->solve +3289 .* p +1\.0000 +0\.00% +12 \+ 0\.8 \* p$'
	assert_output --partial "2 + 0.3 * log2(p)^2"
	assert_output --partial "0.5 + 0.02 * p^(1/2) * log2(p)"
	assert_line --regexp '^5 +main->init +3 '
	assert_output --partial "time grows as p^(1/2) but its requirements as constant: likely wait states"
	run "$LADDER" model --input "$FIX/weak.txt" --target 4096 --format json
	assert_success
	echo "$output" > "$TMP/out.json"
	[ "$(formula "$TMP/out.json" main-\>sweep-\>MPI_Recv)" = "0.1 + 0.4 * p^(1/2)" ]
	[ "$(formula "$TMP/out.json" main-\>sweep-\>MPI_Recv bytes_recv)" = "6.554e+04" ]
	[ "$(jq -r '.ranking[0].callpath' "$TMP/out.json")" = "main->solve" ]
	[ "$(jq -r '.ranking[] | select(.callpath == "main->sweep->MPI_Recv") | .wait_states' "$TMP/out.json")" = true ]
	[ "$(jq -r '.ranking[] | select(.callpath == "main->sweep->MPI_Recv") | .growth' "$TMP/out.json")" = "p^(1/2)" ]
	jq -e '.ranking[] | .prediction | .lo <= .value and .value <= .hi' "$TMP/out.json" >/dev/null
	# every prediction says whether the ladder supports it; a supported one has an interval within 10x
	jq -e '[.ranking[] | .prediction | (.supported | type == "boolean") and ((.supported | not) or .hi <= 10 * .lo)] | all' "$TMP/out.json" >/dev/null
}

@test "the JSON, JSON Lines and id-based JSON inputs give the same models" {
	for f in weak.json weak.jsonl legacy.json; do
		run "$LADDER" model --input "$FIX/$f" --format json
		assert_success
		echo "$output" > "$TMP/$f.out"
	done
	[ "$(formula "$TMP/weak.json.out" main/solve)" = "12 + 0.8 * p" ]
	[ "$(formula "$TMP/weak.json.out" main/solve/MPI_Allreduce)" = "0.5 + 0.02 * p^(1/2) * log2(p)" ]
	[ "$(formula "$TMP/weak.jsonl.out" main-\>solve)" = "12 + 0.8 * p" ]
	[ "$(formula "$TMP/legacy.json.out" main-\>solve)" = "12 + 0.8 * p" ]
}

@test "two parameters: products of per-parameter terms, predicted at p and n" {
	run "$LADDER" model --input "$FIX/two_params.txt" --target p=1024,n=1600
	assert_success
	assert_output --partial "1 + 0.01 * log2(p) * n"
	assert_output --partial "2 + 0.001 * n + 0.5 * log2(p)"
	assert_line --regexp '^1 +kernel +161 '
}

@test "--export extra-p-json writes Extra-P's JSON input, which reads back to the same models" {
	run "$LADDER" model --input "$FIX/weak.txt" --export extra-p-json "$TMP/x.json" --format json
	assert_success
	echo "$output" > "$TMP/direct.json"
	# Extra-P's schema: parameters (strings), measurements: callpath -> metric -> [{point, values}]
	jq -e '(.parameters == ["p"]) and (.measurements | length == 5)
	       and ([.measurements[][][] | (.point | length == 1) and (.values | length == 5)] | all)' "$TMP/x.json" >/dev/null
	[ "$(jq -r '.ladder.models | length' "$TMP/x.json")" = 20 ]
	run "$LADDER" model --input "$TMP/x.json" --format json
	assert_success
	echo "$output" > "$TMP/back.json"
	for cp in main-\>solve main-\>sweep-\>MPI_Recv main-\>exchange-\>MPI_Sendrecv; do
		[ "$(formula "$TMP/direct.json" "$cp")" = "$(formula "$TMP/back.json" "$cp")" ]
	done
	# the option's earlier name is an alias
	"$LADDER" --quiet model --input "$FIX/weak.txt" --export extrap-json "$TMP/alias.json" >/dev/null
	cmp "$TMP/x.json" "$TMP/alias.json"
	run "$LADDER" model --input "$FIX/weak.txt" --export extra-p "$TMP/y.json"
	assert_failure 2
	assert_output --partial "--export expects the format extra-p-json, got 'extra-p'"
}

@test "options: k-fold, aggregate, terms, exponents, top, basic" {
	run "$LADDER" model -i "$FIX/weak.txt" --cv k=3 --aggregate mean --terms 2 --exponents 'default;strong' --top 2
	assert_success
	assert_output --partial "mean of repetitions; k-fold cross-validation; up to 2 terms"
	[ "$(printf '%s\n' "$output" | grep -cE '^[0-9]+ +main')" -eq 2 ]
	run "$LADDER" model -i "$FIX/weak.txt" --basic --format json
	assert_success
	echo "$output" | jq -e '[.models[] | select(.status == "ok") | .model.terms | length <= 1] | all' >/dev/null
}

@test "noisy repetitions: the leading term, and intervals at 16x that contain the truth" {
	# 20 + 0.5 p and 10 + 0.3 p log2 p + 0.002 p^2 on p = 2..128, five repetitions each within +-4.5%
	awk 'BEGIN { n = split("1.03 0.97 1.045 0.96 1.01 0.985 1.02 0.955 1.04 0.99 1.0 0.965 1.035 0.975 1.025", w, " ");
	             print "PARAMETER p"; print "POINTS 2 4 8 16 32 64 128"; k = 0;
	             for (f = 0; f < 2; f++) { print (f ? "REGION main/sum" : "REGION main/linear"); print "METRIC time";
	                 for (p = 2; p <= 128; p *= 2) {
	                     v = f ? 10 + 0.3 * p * log(p) / log(2) + 0.002 * p * p : 20 + 0.5 * p;
	                     printf "DATA"; for (r = 0; r < 5; r++) printf " %.6g", v * w[k++ % n + 1]; print "" } } }' \
		> "$TMP/noisy.txt"
	run "$LADDER" model -i "$TMP/noisy.txt" --target 2048 --format json
	assert_success
	echo "$output" > "$TMP/out.json"
	[ "$(jq -r '.ranking[] | select(.callpath == "main/linear") | .growth' "$TMP/out.json")" = "p" ]
	# the truths at p = 2048: 1044 and 15157; the sum's leading term cannot be told from this data,
	# so its interval is the wider (relative to its prediction)
	jq -e '.models[] | select(.callpath == "main/linear") | .prediction | .lo <= 1044 and 1044 <= .hi' "$TMP/out.json" >/dev/null
	jq -e '.models[] | select(.callpath == "main/sum") | .prediction | .lo <= 15157 and 15157 <= .hi' "$TMP/out.json" >/dev/null
	jq -e '[.models[] | .prediction | (.hi - .lo) / .value] | .[1] > .[0]' "$TMP/out.json" >/dev/null
}

@test "too noisy and too few points are said, not fitted" {
	cat > "$TMP/m.json" <<-'JSON'
	{"parameters": ["p"], "measurements": {
	  "main/noisy": {"time": [{"point": [2], "values": [5, 10, 15]}, {"point": [4], "values": [14, 9, 6]},
	                          {"point": [8], "values": [6, 10, 15]}, {"point": [16], "values": [15, 11, 5]},
	                          {"point": [32], "values": [5, 9, 14]}]},
	  "main/late": {"time": [{"point": [16], "values": [1]}, {"point": [32], "values": [2]}]},
	  "main/grow": {"time": [{"point": [2], "values": [2]}, {"point": [4], "values": [4]}, {"point": [8], "values": [8]},
	                         {"point": [16], "values": [16]}, {"point": [32], "values": [32]}]}}}
	JSON
	run "$LADDER" model -i "$TMP/m.json" --target 512
	assert_success
	assert_output --partial "too noisy to model: repetitions spread by"
	assert_output --partial "measured at 2 points; the search needs at least 3"
	assert_line --regexp '^1 +main/grow +512 '
	assert_output --partial "1 modeled, 1 too noisy, 1 with too few points"
}

@test "progress goes to stderr for large inputs, the table to stdout" {
	awk 'BEGIN { print "PARAMETER p"; print "POINTS 2 4 8 16 32";
	             for (c = 0; c < 700; c++) { print "REGION k" c; print "METRIC time";
	                 for (p = 2; p <= 32; p *= 2) print "DATA " (c + 1) * p;
	                 print "METRIC visits"; for (p = 2; p <= 32; p *= 2) print "DATA " c + 2;
	                 print "METRIC bytes_sent"; for (p = 2; p <= 32; p *= 2) print "DATA " p * p } }' > "$TMP/big.txt"
	run --separate-stderr "$LADDER" model -i "$TMP/big.txt" --bootstrap 0 --top 3
	assert_success
	[[ $stderr == *"modeling: "*"/2100 (100%)"* ]]
	[[ $output != *"modeling:"* ]]
	assert_line --regexp '^1 +k699 '
	run --separate-stderr "$LADDER" --quiet model -i "$TMP/big.txt" --bootstrap 0 --top 3
	[ -z "$stderr" ]
}

# one error: exit status 1 and one line on stderr containing the message
bad_input() {
	local msg=$1; shift
	run --separate-stderr "$LADDER" model "$@"
	assert_failure 1
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == *"$msg"* ]] || { echo "stderr: $stderr"; return 1; }
}

@test "a missing input file is an error" {
	bad_input "nofile.txt: No such file or directory" -i "$TMP/nofile.txt"
}

@test "a NaN value names file, line, region, metric and point" {
	printf 'PARAMETER p\nPOINTS 2 4 8 16 32\nREGION main/x\nMETRIC time\nDATA 1\nDATA 2\nDATA nan\nDATA 4\nDATA 5\n' > "$TMP/nan.txt"
	bad_input "nan.txt:7: region 'main/x', metric 'time', point (p=8): NaN value" -i "$TMP/nan.txt"
}

@test "a negative value is an error" {
	printf 'PARAMETER p\nPOINTS 2 4 8 16 32\nREGION main/x\nMETRIC time\nDATA 1\nDATA -2\n' > "$TMP/neg.txt"
	bad_input "neg.txt:6: region 'main/x', metric 'time', point (p=4): negative value -2" -i "$TMP/neg.txt"
}

@test "fewer points than the search needs is an error" {
	printf 'PARAMETER p\nPOINTS 4 8\nREGION a\nMETRIC time\nDATA 1\nDATA 2\n' > "$TMP/few.txt"
	bad_input "the experiment has 2 measurement points; the model search needs at least 3" -i "$TMP/few.txt"
}

@test "three rungs (a code that runs on cubes only) give a model, an honest interval and the fourth rung" {
	printf 'PARAMETER p\nPOINTS 1 8 27\nREGION main\nMETRIC time\nDATA 10.1 10.3 9.9\nDATA 20.2 19.8 20.5\nDATA 30.8 31.2 29.9\nMETRIC visits\nDATA 7 7 7\nDATA 10 10 10\nDATA 13 13 13\n' > "$TMP/cube.txt"
	run "$LADDER" model -i "$TMP/cube.txt" --target 1000 --format json
	assert_success
	# time: the constant or one term, with an interval that has a width
	jq -e '.models[] | select(.metric == "time") | .status == "ok" and (.model.terms | length <= 1)
	       and .prediction.lo < .prediction.hi' <<<"$output" >/dev/null
	# visits: the exact law of a cube code, 4 + 3 cbrt(p) (34 at 1000), that one rung checks: not supported
	jq -e '.models[] | select(.metric == "visits") | .exact_law == "4 + 3*cbrt(p)" and .prediction.value == 34
	       and .prediction.supported == false and .prediction.lo < .prediction.hi' <<<"$output" >/dev/null
	run "$LADDER" model -i "$TMP/cube.txt" --target 1000 --advise
	assert_success
	assert_output --partial "p = 729 narrows the prediction"
}

@test "a non-positive parameter value where logarithms are needed is an error" {
	printf 'PARAMETER p\nPOINTS 0 4 8 16 32\nREGION a\nDATA 1\nDATA 2\nDATA 3\nDATA 4\nDATA 5\n' > "$TMP/zero.txt"
	bad_input "parameter 'p' is 0 at point (p=0); the candidate terms use logarithms" -i "$TMP/zero.txt"
	run "$LADDER" model -i "$TMP/zero.txt" --exponents 'i=1,2'
	assert_success
}

@test "inconsistent parameter sets are errors" {
	printf 'PARAMETER p\nPOINTS (2) (4 8) (8)\n' > "$TMP/arity.txt"
	bad_input "arity.txt:2: point (4 8) has 2 values but there is 1 parameter" -i "$TMP/arity.txt"
	printf 'PARAMETER p\nPOINTS 2 4 8 16 32\nREGION main/x\nMETRIC time\nDATA 1\nDATA 2\nREGION main/y\n' > "$TMP/count.txt"
	bad_input "count.txt:4: region 'main/x', metric 'time' has 2 DATA lines for 5 POINTS" -i "$TMP/count.txt"
	printf '{"parameters":["p","n"],"measurements":{"a":{"time":[{"point":[2],"values":[1]}]}}}' > "$TMP/arity.json"
	bad_input "call path 'a', metric 'time', measurement 1: the point has a different number of coordinates" -i "$TMP/arity.json"
	printf 'PARAMETER p n\nPOINTS (2 10) (4 20) (8 40) (16 80) (32 160)\nREGION a\nDATA 1\nDATA 2\nDATA 3\nDATA 4\nDATA 5\n' > "$TMP/diag.txt"
	bad_input "parameter 'p' takes only 1 value along its longest line of points" -i "$TMP/diag.txt"
}

@test "malformed files are errors with a line" {
	printf 'PARAMETER p\nPOINTS 2 4 8 16\nFROB 1\n' > "$TMP/kw.txt"
	bad_input "kw.txt:3: unknown line 'FROB'" -i "$TMP/kw.txt"
	printf '{"parameters": ["p"], "measurements": {"a": {"time": [{"point": [2], "values": [1,]}]}}}' > "$TMP/syntax.json"
	bad_input "syntax.json:1:" -i "$TMP/syntax.json"
}

@test "an unknown metric is an error that lists the metrics" {
	bad_input "no metric 'flops' (the input has: time, bytes_sent, bytes_recv, msgs_recv)" -i "$FIX/weak.txt" --metric flops
}

# a usage error: exit status 2 and one line on stderr
bad_usage() {
	local msg=$1; shift
	run --separate-stderr "$LADDER" model "$@"
	assert_failure 2
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == *"$msg"* ]] || { echo "stderr: $stderr"; return 1; }
}

@test "usage errors exit 2 with one line" {
	bad_usage "no input: give a campaign container or --input FILE"
	bad_usage "--params expects p or p,n, got 'q'" --params q c.h5
	bad_usage "--reduce expects max, min, mean, median or sum, got 'avg'" --reduce avg c.h5
	bad_usage "give either --input FILE or a campaign, not both" -i x c.h5
	bad_usage "unknown option '--frob'" -i x --frob
	bad_usage "--cv expects loo or k=K, got 'kfold'" -i x --cv kfold
	bad_usage "--cv k=K expects an integer in [2, 100], got '1'" -i x --cv k=1
	bad_usage "--aggregate expects median, mean, min, max or midrange, got 'mode'" -i x --aggregate mode
	bad_usage "--format expects text or json" -i x --format xml
	bad_usage "--terms expects an integer in [1, 8]" -i x --terms 9
	bad_usage "--exponents: exponent spec item 'bogus'" -i x --exponents bogus
	bad_usage "--export extrap-json needs a FILE" -i x --export extrap-json
	bad_usage "--export expects the format extra-p-json" -i x --export csv y
	bad_usage "--level must be between 0 and 1" -i x --level 1.5
	bad_usage "--target: the input has 2 parameters; name them" -i "$FIX/two_params.txt" --target 100
	bad_usage "--target: the input has no parameter 'q'" -i "$FIX/two_params.txt" --target p=4,q=5
	bad_usage "--target: no value for parameter 'n'" -i "$FIX/two_params.txt" --target p=4
}

@test "a campaign form on a missing file or a run container is a one-line error, exit 1" {
	run --separate-stderr "$LADDER" model "$BATS_TEST_TMPDIR/none.h5"
	assert_failure 1
	[[ $stderr == *"none.h5: No such file or directory"* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
}

# an Extra-P text file: p = 1..16, five repetitions of values between 30 + log2(p) and
# 30 + p^(1/2) (the two agree within 3% there and part beyond), spread by +-5%
between_log_and_sqrt() {
	awk 'BEGIN {
		print "PARAMETER p"; print "POINTS ( 1 ) ( 2 ) ( 4 ) ( 8 ) ( 16 )"; print "";
		print "REGION main->solve"; print "METRIC time";
		split("1 1.05 0.95 1.025 0.975", f, " ");
		for (p = 1; p <= 16; p *= 2) {
			v = 30 + 0.5 * (log(p) / log(2) + sqrt(p)); line = "DATA";
			for (r = 1; r <= 5; r++) line = line " " v * f[1 + (r + p) % 5];
			print line
		}
	}' > "$1"
}

@test "--advise names the rung that tells two rival models apart, and the one that narrows the prediction" {
	between_log_and_sqrt "$TMP/rivals.txt"
	run "$LADDER" model -i "$TMP/rivals.txt" -e 'terms=0:1,1/2:0' -n 1 -t 1024 --advise -f json
	assert_success
	echo "$output" > "$TMP/out.json"
	# the selected model and its rival (the constant, log2(p) or p^(1/2)) cannot be told apart at
	# 16, can at the advised rung; the rungs continue the ladder by 2 short of the target
	run jq -r '.advice[0] | "\(.separate_at) \(.separation_now < 3) \(.separation >= 3) \(.narrow_at > 16 and .narrow_at < 1024)"' "$TMP/out.json"
	assert_output --regexp '^(32|64|128) true true true$'
	run "$LADDER" model -i "$TMP/rivals.txt" -e 'terms=0:1,1/2:0' -n 1 -t 1024 --advise
	assert_success
	assert_output --partial "advice for time at p=1024 (the rung to measure next):"
	assert_output --regexp "main->solve: measure p = (32|64|128) to tell"
	# no extrapolation, no advice
	run "$LADDER" model -i "$TMP/rivals.txt" -t 8 --advise
	assert_success
	assert_output --partial "main->solve: the target is within the ladder"
}

@test "4 rungs x 156 repetitions are modeled (GSL's quantile failing to converge does not abort)" {
	awk 'BEGIN {
		print "PARAMETER p"; print "POINTS ( 8 ) ( 16 ) ( 32 ) ( 64 )"; print "";
		print "REGION main->solve"; print "METRIC time";
		for (p = 8; p <= 64; p *= 2) {
			line = "DATA";
			for (r = 0; r < 156; r++) line = line " " (2 + 0.1 * p) * (1 + 0.05 * ((r * 37) % 21 - 10) / 10);
			print line
		}
	}' > "$TMP/many.txt"
	run "$LADDER" model -i "$TMP/many.txt" -t 1024
	assert_success
	assert_output --partial "1 modeled"
	assert_output --regexp "main->solve .* p +"
}
