# bench/lib.sh — shared by the benchmark scripts: medians, alternating runs, RESULT fields.

# median of numbers given as arguments
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

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
