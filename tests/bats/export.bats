#!/usr/bin/env bats
# ladder export: OTF2 archives that otf2-print reads with the same calls per rank and function as
# the container, MPI records whose sizes add up to the profile's bytes; Chrome trace JSON that jq
# parses and that follows the trace-event format; Extra-P JSON read back into the same models.

load helper

setup_file() {
	export WORK="$BATS_FILE_TMPDIR"
	cd "$WORK"
	"$LADDER" --quiet trace -o s2d.h5 -- mpirun --oversubscribe -np 9 "$LADDER_BUILD/apps/stencil2d" --iterations 30 > /dev/null
	"$LADDER" --quiet trace -o cg.h5 -- mpirun --oversubscribe -np 4 "$LADDER_BUILD/apps/cg" --iterations 10 > /dev/null
}

setup() {
	cd "$WORK"
}

# "rank<TAB>function<TAB>calls" from otf2-print's ENTER records
otf2_counts() {
	otf2-print "$1/traces.otf2" | sed -n 's/^ENTER *\([0-9]*\) .*Region: "\([^"]*\)".*/\1\t\2/p' |
		sort | uniq -c | awk '{print $2 "\t" $3 "\t" $1}' | sort
}

# the same from the container's profile (traced functions only: untraced ones leave no events)
container_counts() {
	"$LADDER" inspect --counts "$1" | awk -F'\t' 'NR > 1 && $3 > 0 {print $1 "\t" $2 "\t" $3}' | sort
}

@test "export otf2: otf2-print reads the archive; calls per rank and function equal the container's" {
	for f in s2d cg; do
		rm -rf "$f.otf2"
		run "$LADDER" export --format otf2 -o "$f.otf2" "$f.h5"
		assert_success
		assert_output --partial "timestamps synthesized"
		otf2-print "$f.otf2/traces.otf2" > /dev/null
		diff <(otf2_counts "$f.otf2") <(container_counts "$f.h5")
	done
}

@test "export otf2: message records carry the profile's bytes, every send has its receive" {
	rm -rf s2d.otf2 && "$LADDER" --quiet export --format otf2 -o s2d.otf2 s2d.h5
	otf2-print s2d.otf2/traces.otf2 > events.txt
	sends=$(grep -c '^MPI_ISEND ' events.txt)
	recvs=$(grep -c '^MPI_IRECV ' events.txt)
	[ "$sends" -gt 0 ]
	[ "$sends" -eq "$recvs" ]
	[ "$(grep -c '^MPI_ISEND_COMPLETE ' events.txt)" -eq "$sends" ]
	# bytes per rank: the Isend records' lengths against the profile's MPI_Isend bytes sent
	awk '$1 == "MPI_ISEND" { for (i = 1; i <= NF; i++) if ($i == "Length:") { s[$2] += $(i + 1); sub(",", "", s[$2]) } }
	     END { for (r in s) print r "\t" s[r] }' events.txt | sort > otf2.bytes
	"$LADDER" inspect --counts s2d.h5 | awk -F'\t' '$2 == "MPI_Isend" && $4 > 0 {print $1 "\t" $4}' | sort > profile.bytes
	diff otf2.bytes profile.bytes
	# collectives name their operation and communicator
	grep -q "MPI_COLLECTIVE_END .*Operation: ALLREDUCE, Communicator: " events.txt
	# the archive says its times were synthesized
	otf2-print -A s2d.otf2/traces.otf2 | grep -A1 'LADDER::TIMESTAMPS' | grep -q synthesized
}

@test "export otf2: sub-communicators are defined with their members (cg's rows and columns)" {
	rm -rf cg.otf2 && "$LADDER" --quiet export --format otf2 -o cg.otf2 cg.h5
	run otf2-print -G cg.otf2/traces.otf2
	assert_success
	# world plus at least the row and column communicators, each of 2 of the 4 ranks
	[ "$(grep -c '^COMM ' <<< "$output")" -ge 4 ]
	grep -E '^GROUP .*Type: COMM_GROUP.* 2 Members' <<< "$output"
}

@test "export otf2: recorded timestamps are used when the run kept them" {
	LADDER_TRACE_TIMESTAMPS=1 "$LADDER" --quiet trace -o ts.h5 -- mpirun --oversubscribe -np 4 "$LADDER_BUILD/apps/stencil2d" --iterations 5 > /dev/null
	rm -rf ts.otf2
	run "$LADDER" export --format otf2 -o ts.otf2 ts.h5
	assert_success
	assert_output --partial "timestamps recorded"
	otf2-print -A ts.otf2/traces.otf2 | grep -A1 'LADDER::TIMESTAMPS' | grep -q recorded
	diff <(otf2_counts ts.otf2) <(container_counts ts.h5)
}

@test "export chrome: recorded timestamps keep the gaps between calls (starts count from MPI_Init's start)" {
	LADDER_TRACE_TIMESTAMPS=1 "$LADDER" --quiet trace -o gaps.h5 -- mpirun --oversubscribe -np 4 "$LADDER_BUILD/apps/stencil2d" --iterations 5 > /dev/null
	"$LADDER" --quiet export --format chrome -o gaps.json gaps.h5
	# per rank, in time order: no call starts before the previous one ended, and the compute between
	# the iterations' calls shows as gaps of more than a microsecond
	local per_rank
	per_rank=$(jq -c '[.traceEvents[] | select(.ph == "X")] | group_by(.tid)
		| map(sort_by(.ts) | [range(1; length) as $i | .[$i].ts - (.[$i-1].ts + .[$i-1].dur)])
		| map({min: min, gaps: map(select(. > 1)) | length})' gaps.json)
	[ "$(jq length <<< "$per_rank")" -eq 4 ]
	jq -e 'all(.[]; .min >= -0.01 and .gaps >= 5)' <<< "$per_rank"
}

@test "wall time: the slowest rank's from MPI_Init's return to MPI_Finalize, without the time spent in the tracer" {
	LADDER_TRACE_TIMESTAMPS=1 "$LADDER" --quiet trace -o wall.h5 -- mpirun --oversubscribe -np 4 "$LADDER_BUILD/apps/stencil2d" --iterations 5 > /dev/null
	"$LADDER" --quiet export --format chrome -o wall.json wall.h5
	wall=$("$LADDER" inspect --json wall.h5 | jq .wall_time)
	own=$("$LADDER" inspect --json wall.h5 | jq -r .labels.tracer_time)
	# each rank's span from its first call after MPI_Init to MPI_Finalize, plus the compute gap
	# before that first call, less the time its wrappers took (at most the label tracer_time): the
	# wall time is the longest of these (within half a millisecond). The tracer's start-up (a
	# Comm_dup, a Bcast) and its merge after MPI_Finalize took milliseconds more and are not in it.
	span=$(jq '[.traceEvents[] | select(.ph == "X")] | group_by(.tid) | map(sort_by(.ts) | .[-1].ts - .[1].ts) | max / 1e6' wall.json)
	gap0=$("$LADDER" inspect --timing wall.h5 | awk -F'\t' '$2 == "MPI_Init#0" && $8 > g {g = $8} END {print g + 0}')
	awk -v w="$wall" -v s="$span" -v g="$gap0" -v o="$own" 'BEGIN {
		printf "wall %.6f s, longest span %.6f s, first gap %.6f s, in the tracer %.6f s\n", w, s, g, o
		exit !(o >= 0 && o < s && w >= s - o - 5e-4 && w <= s + g + 5e-4) }'
}

@test "export otf2: LAMMPS (a real application) exports with the same calls per rank and function" {
	command -v lmp || skip "LAMMPS (lmp) is not installed"
	cp "$TOP/tests/fixtures/lammps/in.lj" .
	run_lmp() { mpirun -np 4 lmp -in in.lj -var x 0.5 -var y 0.5 -var z 0.5 -var steps 50 -log none -screen none; }
	"$LADDER" --quiet trace -o lmp.h5 -- bash -c "$(declare -f run_lmp); run_lmp" > /dev/null
	rm -rf lmp.otf2
	"$LADDER" --quiet export --format otf2 -o lmp.otf2 lmp.h5
	diff <(otf2_counts lmp.otf2) <(container_counts lmp.h5)
}

@test "export otf2: an existing archive is not overwritten; bad usage is exit 2" {
	rm -rf again.otf2 && "$LADDER" --quiet export --format otf2 -o again.otf2 s2d.h5
	run --separate-stderr "$LADDER" export --format otf2 -o again.otf2 s2d.h5
	assert_failure 1
	[[ $stderr == *"already holds an OTF2 archive"* ]]
	run "$LADDER" export --format vtf -o x s2d.h5
	assert_failure 2
	run "$LADDER" export --format otf2 s2d.h5
	assert_failure 2
	run --separate-stderr "$LADDER" export --format chrome -o x.json --ranks 3-99 s2d.h5
	assert_failure 1
	[[ $stderr == *"rank 99 does not exist"* ]]
	run --separate-stderr "$LADDER" export --format chrome -o x.json missing.h5
	assert_failure 1
	[[ $stderr == *missing.h5* ]]
}

@test "export chrome: valid JSON in the trace-event format, one complete event per call" {
	run "$LADDER" export --format chrome -o s2d.json s2d.h5
	assert_success
	jq empty s2d.json
	# every event has name, ph, ts, pid, tid; complete events a non-negative duration
	[ "$(jq '[.traceEvents[] | select((.name|type) != "string" or (.ph|type) != "string"
	          or (.pid|type) != "number" or (.tid|type) != "number"
	          or (.ph == "X" and ((.ts|type) != "number" or .dur < 0)))] | length' s2d.json)" -eq 0 ]
	# only complete (X) and metadata (M) events: nothing to balance
	[ "$(jq '[.traceEvents[] | select(.ph != "X" and .ph != "M")] | length' s2d.json)" -eq 0 ]
	# calls per rank equal the container's
	jq -r '.traceEvents[] | select(.ph == "X") | "\(.tid)\t\(.name)"' s2d.json | sort | uniq -c |
		awk '{print $2 "\t" $3 "\t" $1}' | sort > chrome.counts
	diff chrome.counts <(container_counts s2d.h5)
	# each rank's events in time order
	[ "$(jq '[.traceEvents[] | select(.ph == "X")] | group_by(.tid) | map(. as $e | [range(1; length)] |
	          map(select($e[.].ts < $e[. - 1].ts)) | length) | add' s2d.json)" -eq 0 ]
	jq -e '.otherData.timestamps | test("synthesized")' s2d.json
	jq -e '.otherData.ranks == 9' s2d.json
}

@test "export chrome: --ranks, --from/--to and --max-events keep files small" {
	"$LADDER" --quiet export --format chrome -o all.json s2d.h5
	"$LADDER" --quiet export --format chrome -o two.json --ranks 2,5 s2d.h5
	[ "$(jq -r '[.traceEvents[] | select(.ph == "X") | .tid] | unique | join(",")' two.json)" = "2,5" ]
	"$LADDER" --quiet export --format chrome -o few.json --max-events 7 s2d.h5
	[ "$(jq '[.traceEvents[] | select(.ph == "X" and .tid == 4)] | length' few.json)" -eq 7 ]
	# a window in the middle of the run: every event overlaps it, and there are fewer
	mid=$(jq '[.traceEvents[] | select(.ph == "X") | .ts] | (max + min) / 2 / 1e6' all.json)
	"$LADDER" --quiet export --format chrome -o win.json --from "$mid" --to "$mid" s2d.h5
	n_all=$(jq '[.traceEvents[] | select(.ph == "X")] | length' all.json)
	n_win=$(jq '[.traceEvents[] | select(.ph == "X")] | length' win.json)
	[ "$n_win" -lt "$n_all" ]
	jq -e --argjson t "$mid" '[.traceEvents[] | select(.ph == "X") | select(.ts / 1e6 > $t + 1e-9 or (.ts + .dur) / 1e6 < $t - 1e-9)] | length == 0' win.json
}

@test "Extra-P interop: a campaign's models exported as Extra-P JSON read back into the same models" {
	for p in 1 4 9 16; do
		for rep in 1 2; do
			"$LADDER" --quiet trace -o "p$p-r$rep.h5" --label repetition=$rep -- \
				mpirun --oversubscribe -np $p "$LADDER_BUILD/apps/stencil2d" --scaling weak --size 32 --iterations 10 > /dev/null
		done
	done
	"$LADDER" --quiet merge -o campaign.h5 p*-r*.h5
	"$LADDER" model campaign.h5 --format json --export extra-p-json exported.json > from_campaign.json
	"$LADDER" model --input exported.json --format json > from_extrap.json
	jq -e '.models | length > 0' from_campaign.json
	# the same call paths, metrics and model formulas both ways
	pick='[.models[] | {callpath, metric, model}] | sort_by(.callpath, .metric)'
	diff <(jq -S "$pick" from_campaign.json) <(jq -S "$pick" from_extrap.json)
}

@test "decode --format json: valid JSON through jansson whatever the file is called, same content as the text" {
	cp s2d.h5 'a "quoted" \ name.h5'
	run "$LADDER" decode --format json --rank 4 'a "quoted" \ name.h5'
	assert_success
	[ "$(jq -r .file <<< "$output")" = 'a "quoted" \ name.h5' ]
	# the same calls in the same order as the text form, with the same parameters
	diff <(jq -r '.ranks[0].events[].fn' <<< "$output") <("$LADDER" decode --rank 4 s2d.h5 | awk '{print $1}')
	[ "$(jq -r '.ranks[0].events[] | select(.fn == "MPI_Isend") | .dest' <<< "$output" | sort -un | tr '\n' ' ')" = \
	  "$("$LADDER" decode --rank 4 s2d.h5 | sed -n 's/^MPI_Isend .* dest=\([0-9]*\) .*/\1/p' | sort -un | tr '\n' ' ')" ]
}

@test "decode --format json: a wildcard receive names the source it matched as a number" {
	"$LADDER" --quiet trace -o mw.h5 -- mpirun --oversubscribe -np 4 "$LADDER_BUILD/apps/mw" --size 12 --iterations 2 > /dev/null
	"$LADDER" decode --format json mw.h5 > mw.json
	jq -e '[.ranks[0].events[] | .. | objects | select(.any == true)] | length > 0' mw.json
	jq -e '[.ranks[0].events[] | .. | objects | select(.any == true) | .actual | type] | unique == ["number"]' mw.json
}

@test "export otf2 and chrome: an extrapolated 64-rank container exports like a measured one" {
	for p in 4 9 16; do
		"$LADDER" --quiet trace -o "x$p.h5" -- mpirun --oversubscribe -np $p "$LADDER_BUILD/apps/stencil2d" \
			--scaling weak --size 8 --iterations 4 --allreduce-every 2 > /dev/null
	done
	"$LADDER" --quiet merge -o xc.h5 x4.h5 x9.h5 x16.h5
	"$LADDER" --quiet extrap xc.h5 --target 64 -o x64.h5
	[ "$("$LADDER" inspect --json x64.h5 | jq .ranks)" -eq 64 ]
	rm -rf x64.otf2
	"$LADDER" --quiet export --format otf2 -o x64.otf2 x64.h5
	otf2-print -A x64.otf2/traces.otf2 | grep -A1 'LADDER::SYNTHETIC_RUN' | grep -q true
	diff <(otf2_counts x64.otf2) <(container_counts x64.h5)
	[ "$(otf2-print x64.otf2/traces.otf2 | grep -c '^MPI_ISEND ')" -eq \
	  "$(otf2-print x64.otf2/traces.otf2 | grep -c '^MPI_IRECV ')" ]
	"$LADDER" --quiet export --format chrome -o x64.json x64.h5
	jq -e '.otherData.synthetic_run == true and .otherData.ranks == 64' x64.json
	[ "$(jq '[.traceEvents[] | select(.ph == "X")] | length' x64.json)" -eq "$("$LADDER" inspect --json x64.h5 | jq .calls)" ]
}
