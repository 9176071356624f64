# bench/lib.sh — shared by the benchmark scripts: medians, alternating runs, RESULT fields.

# median of numbers given as arguments
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

# the spread of numbers given as arguments, (max - min) / median in percent: whether two medians
# differ by more than the rounds they come from do
spread_pct() {
	local m
	m=$(median "$@")
	printf '%s\n' "$@" | sort -g | awk -v m="$m" 'NR == 1 {lo = $1} {hi = $1} END {printf "%.1f", 100 * (hi - lo) / m}'
}

# quartile Q (1 or 3) of numbers given after Q (the value at rank ceil(Q*N/4))
quartile() {
	local q=$1; shift
	printf '%s\n' "$@" | sort -g | awk -v q="$q" '{v[NR]=$1} END {i = int((q * NR + 3) / 4); print v[i < 1 ? 1 : i]}'
}

# the value of KEY=... in a RESULT line on stdin
result_field() { grep -o "$1=[^ ]*" | head -1 | cut -d= -f2; }

# ratio A/B with 4 digits
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }

TRACER="$LADDER_BUILD/lib/libladder-trace.so"

# the machine's load, for the record: figures from a shared machine are noisy
load_line() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"; }

# the CPU time a rank of a traced run spent in compute gaps, the most of any group's ranks (what
# a replay's "compute", emulated gaps on the CPU clock, the most of any rank, is to reproduce);
# a group's ranks are its gaps before its first call (from "start", one per rank)
gap_cpu_per_rank() {
	"$LADDER_BUILD/bin/ladder" inspect --timing --json "$1" | jq -r '.gaps[] | "\(.group) \(.previous) \(.count) \(.count * .cpu_mean_s)"' |
		awk '$2 == "start" {ranks[$1] += $3} {cpu[$1] += $4}
			END {for (g in cpu) if (ranks[g] && cpu[g] / ranks[g] > m) m = cpu[g] / ranks[g]; print m}'
}

# accuracy in percent, 1 - |measured - reference| / reference
accuracy_pct() { awk -v m="$1" -v r="$2" 'BEGIN {d = m - r; if (d < 0) d = -d; printf "%.1f", 100 * (1 - d / r)}'; }

# of timing reports (ladder-replay --json, a proxy's --json): the one with the median total_time
median_json() {
	for f in "$@"; do printf '%s %s\n' "$(jq .total_time "$f")" "$f"; done | sort -g |
		awk '{v[NR] = $2} END {print v[int((NR + 1) / 2)]}'
}

# closed_loop APP DIR ROUNDS "STAGES": the closed loop of workflows/loop/APP.yaml (ladder up to 16,
# extrapolation to 64, the real application traced and timed untraced at 64, replay and proxy at
# 64, report) on the local executor into DIR; then ROUNDS - 1 more rounds of the truth job and of
# the STAGES (replay, proxy) at 64, their job scripts run again in turn; then `ladder report` on
# all of them: the untraced runs' median time against the median replay and proxy run,
# DIR/loop.json. When the loop cannot close, DIR/failed holds one line: what failed and why (the
# extrapolation's refusal).
closed_loop() {
	local app=$1 dir=$2 rounds=$3 stages=$4 ladder="$LADDER_BUILD/bin/ladder" top k s
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	mkdir -p "$(dirname "$dir")"
	"$ladder" campaign run "$top/workflows/loop/$app.yaml" --site "$top/site-configs/local.yaml" --dir "$dir" \
		> "$dir.log" 2>&1
	if [ ! -s "$dir/extrap/p64/trace.h5" ]; then
		printf 'refused: %s\n' "$(grep -v -e '^ladder: job' -e '^$' "$dir/logs/extrap-t64.log" 2>/dev/null |
			sed 's/^ladder: //; s#^[^ ]*/campaign.h5: ##' | head -1 | cut -c1-150)" > "$dir/failed"
		return 1
	fi
	mkdir -p "$dir/rounds"
	for k in $(seq "$rounds"); do
		if [ "$k" -gt 1 ]; then
			bash "$dir/jobs/truth-p64.sh" > "$dir/rounds/truth-$k.log" 2>&1 || true
			for s in $stages; do bash "$dir/jobs/$s-t64.sh" > "$dir/rounds/$s-$k.log" 2>&1 || true; done
		fi
		cp "$dir/truth/p64/trace.h5" "$dir/rounds/truth-$k.h5" 2> /dev/null
		cp "$dir/truth/p64/time.json" "$dir/rounds/time-$k.json" 2> /dev/null
		for s in $stages; do
			if [ ! -s "$dir/$s/p64/$s.json" ]; then
				printf '%s failed: %s\n' "$s" "$(grep -v '^ladder: job' "$dir/logs/$s-t64.log" | grep -m1 -i 'error\|ladder\|cannot' |
					cut -c1-160)" > "$dir/failed"
				return 1
			fi
			mv "$dir/$s/p64/$s.json" "$dir/rounds/$s-$k.json"
		done
	done
	local inputs=()
	for k in $(seq "$rounds"); do
		[ -s "$dir/rounds/truth-$k.h5" ] && inputs+=(--truth "$dir/rounds/truth-$k.h5")
		[ -s "$dir/rounds/time-$k.json" ] && inputs+=(--timed "$dir/rounds/time-$k.json")
	done
	for s in $stages; do inputs+=("--$s" "$(median_json "$dir/rounds/$s"-*.json)"); done
	"$ladder" report "$dir/campaign.h5" "${inputs[@]}" --target 64 --json "$dir/loop.json" --quiet > "$dir/report.log" 2>&1
	[ -s "$dir/loop.json" ] || { echo "report failed: $(head -1 "$dir/report.log")" > "$dir/failed"; return 1; }
}
