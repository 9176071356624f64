# shellcheck shell=bash
# tests/slurm/lib.sh — functions shared by tests/slurm/up, down and restart-ctld.
#
# Sourced, not executed. Everything here works on one cluster root ROOT laid out as
#   ROOT/etc/slurm.conf   ROOT/env   ROOT/ports   ROOT/run/*.pid   ROOT/log/*.log
#   ROOT/munge/           ROOT/state/            ROOT/spool/<node>/ ROOT/tmp/<node>/
# A process counts as belonging to ROOT only when its initial environment carries
# SLURM_CONF=ROOT/etc/slurm.conf (every daemon is started with it, and slurmstepd and job
# tasks inherit it), so a stale or reused PID in a pid file is never signalled.

# seconds a daemon gets after SIGTERM before SIGKILL
LADDER_SLURM_KILL_TIMEOUT=${LADDER_SLURM_KILL_TIMEOUT:-10}
# where clusters register their port ranges, so concurrent `up`s do not pick the same ports
LADDER_SLURM_REGISTRY=${LADDER_SLURM_REGISTRY:-/tmp/ladder-slurm-ports}

say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { say "error: $*"; exit 1; }

# owned_by_root PID ROOT: true when PID is alive and belongs to this cluster: a daemon started
# with LADDER_SLURM_DAEMON=ROOT in its environment, a slurm* process working in ROOT/log (where
# slurmd puts slurmstepd, whose process title overwrites its environment), or a job task (its
# environment has SLURM_JOB_ID and SLURM_CONF=ROOT/etc/slurm.conf). Uses builtins only.
owned_by_root() {
	local pid=$1 root=$2 comm='' e job='' conf='' env=()
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	{ mapfile -d "" env < "/proc/$pid/environ"; } 2>/dev/null || return 1
	for e in "${env[@]}"; do
		case $e in
		"LADDER_SLURM_DAEMON=$root") return 0 ;;
		"SLURM_CONF=$root/etc/slurm.conf") conf=1 ;;
		SLURM_JOB_ID=*) job=1 ;;
		esac
	done
	[ -n "$conf" ] && [ -n "$job" ] && return 0
	{ read -r comm < "/proc/$pid/comm"; } 2>/dev/null || return 1
	[[ $comm == slurm* ]] && [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$root/log" ]
}

# pidfile_pid FILE: the PID in FILE, or nothing
pidfile_pid() {
	[ -s "$1" ] || return 0
	local pid
	read -r pid < "$1" || true
	[[ ${pid:-} =~ ^[0-9]+$ ]] && echo "$pid"
	return 0
}

# ancestors: this process and every process above it (never to be signalled)
ancestors() {
	local pid=${BASHPID:-$$} stat fields
	while [ -n "$pid" ] && [ "$pid" != 0 ]; do
		echo "$pid"
		{ read -r stat < "/proc/$pid/stat"; } 2>/dev/null || break
		read -ra fields <<< "${stat##*) }"    # the fields after "pid (comm) ": state ppid ...
		pid=${fields[1]}
	done
}

# stray_pids ROOT: every live process of this cluster except this one and its ancestors
stray_pids() {
	local root=$1 d pid skip
	skip=" $(ancestors | tr '\n' ' ') "
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[[ $skip == *" $pid "* ]] && continue
		owned_by_root "$pid" "$root" && echo "$pid"
	done
	return 0
}

# stop_pids ROOT PID...: SIGTERM, wait up to LADDER_SLURM_KILL_TIMEOUT, SIGKILL what is left,
# then wait until all are gone. Only PIDs owned by ROOT are touched.
stop_pids() {
	local root=$1; shift
	local pids=() left=() pid deadline killed=
	for pid in "$@"; do owned_by_root "$pid" "$root" && pids+=("$pid"); done
	[ ${#pids[@]} -gt 0 ] || return 0
	kill -TERM "${pids[@]}" 2>/dev/null || true
	deadline=$((SECONDS + LADDER_SLURM_KILL_TIMEOUT))
	while :; do
		left=()
		for pid in "${pids[@]}"; do owned_by_root "$pid" "$root" && left+=("$pid"); done
		[ ${#left[@]} -gt 0 ] || return 0
		if [ $SECONDS -ge $deadline ]; then
			if [ -n "$killed" ]; then
				say "error: still alive after SIGKILL: ${left[*]}"
				return 1
			fi
			say "SIGKILL after ${LADDER_SLURM_KILL_TIMEOUT}s: ${left[*]}"
			kill -KILL "${left[@]}" 2>/dev/null || true
			killed=1
			deadline=$((SECONDS + 5))
			pids=("${left[@]}")
		fi
		sleep 0.05
	done
}

# listening_ports: every TCP port something listens on (ss when installed, else /proc/net)
listening_ports() {
	if command -v ss > /dev/null; then
		ss -Htln 2>/dev/null | awk '{n = split($4, a, ":"); print a[n]}'
		return 0
	fi
	local f _ addr st
	for f in /proc/net/tcp /proc/net/tcp6; do
		[ -r "$f" ] || continue
		while read -r _ addr _ st _; do
			[ "$st" = 0A ] && echo $((16#${addr##*:}))    # 0A = LISTEN, port in hex
		done < "$f"
	done
	return 0
}

# release_ports ROOT: drop the cluster's port range from the registry (only its own entry)
release_ports() {
	local root=$1 base='' r=''
	[ -s "$root/ports" ] && read -r base _ < "$root/ports"
	[ -n "$base" ] && [ -e "$LADDER_SLURM_REGISTRY/$base" ] || return 0
	read -r _ _ r < "$LADDER_SLURM_REGISTRY/$base" || true
	[ "${r:-}" != "$root" ] || rm -f "$LADDER_SLURM_REGISTRY/$base"
}

# log_tails ROOT: the last lines of every daemon log, for error messages
log_tails() {
	local f
	for f in "$1"/log/*.log; do
		[ -e "$f" ] || continue
		printf -- '---- %s (last 15 lines)\n' "$f"
		tail -n 15 "$f"
	done
}

# ctld_start ROOT: start slurmctld (keeping saved state) and wait until it answers
ctld_start() {
	local root=$1
	SLURM_CONF="$root/etc/slurm.conf" LADDER_SLURM_DAEMON="$root" slurmctld \
		>> "$root/log/slurmctld.out" 2>&1 < /dev/null || return 1
	ctld_wait "$root"
}

# ctld_wait ROOT [SECONDS]: wait until slurmctld answers a ping
ctld_wait() {
	local root=$1 timeout=${2:-${LADDER_SLURM_TIMEOUT:-30}} deadline
	deadline=$((SECONDS + timeout))
	until SLURM_CONF="$root/etc/slurm.conf" scontrol ping 2>/dev/null | grep -q 'is UP'; do
		[ $SECONDS -lt $deadline ] || return 1
		local pid
		pid=$(pidfile_pid "$root/run/slurmctld.pid")
		if [ -n "$pid" ] && ! owned_by_root "$pid" "$root"; then return 1; fi
		sleep 0.05
	done
}
