#!/usr/bin/env bats
# make install PREFIX=...: the programs, the tracer, its public header and a pkg-config file in a
# temporary prefix; a program written against the header builds with pkg-config alone, runs
# untraced, and linked with the installed tracer (not preloaded) writes a trace with its regions
# and without the calls it paused.

load helper

setup_file() {
	export PREFIX_DIR="$BATS_FILE_TMPDIR/prefix"
	make -C "$TOP" --no-print-directory install PREFIX="$PREFIX_DIR" BUILD="$BUILD_DIR" > "$BATS_FILE_TMPDIR/install.log" 2>&1 ||
		{ cat "$BATS_FILE_TMPDIR/install.log" >&3; return 1; }
	export PKG_CONFIG_PATH="$PREFIX_DIR/lib/pkgconfig"
	cat > "$BATS_FILE_TMPDIR/app.c" <<-'EOF'
	#include <ladder-trace.h>
	#include <stdio.h>

	int main(int argc, char **argv)
	{
		int rank, sum = 0;
		MPI_Init(&argc, &argv);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		LADDER_REGION_BEGIN("solve");
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		LADDER_REGION_END("solve");
		LADDER_PAUSE();
		MPI_Barrier(MPI_COMM_WORLD);
		LADDER_RESUME();
		if (rank == 0)
			printf("sum %d\n", sum);
		MPI_Finalize();
		return 0;
	}
	EOF
}

@test "make install puts the programs, the tracer, its header and ladder-trace.pc under PREFIX" {
	for f in bin/ladder bin/ladder-replay lib/libladder-trace.so; do
		[ -x "$PREFIX_DIR/$f" ] || { echo "missing $f"; return 1; }
	done
	for f in include/ladder/trace/ladder-trace.h include/ladder/mpi/pcontrol.h lib/pkgconfig/ladder-trace.pc; do
		[ -s "$PREFIX_DIR/$f" ] || { echo "missing $f"; return 1; }
	done
	cmp "$TOP/lib/trace/ladder-trace.h" "$PREFIX_DIR/include/ladder/trace/ladder-trace.h"
	run pkg-config --modversion ladder-trace
	assert_success
	assert_output "$("$PREFIX_DIR/bin/ladder" --version | awk '{print $2}')"
	run pkg-config --cflags ladder-trace
	assert_output --partial "-I$PREFIX_DIR/include/ladder/trace"
	run pkg-config --libs ladder-trace
	assert_output --partial "-L$PREFIX_DIR/lib -lladder-trace"
}

@test "a program against the installed header builds with pkg-config and runs untraced" {
	cd "$BATS_TEST_TMPDIR"
	# shellcheck disable=SC2046
	gcc -std=c11 -Wall -Wextra -Werror -o app "$BATS_FILE_TMPDIR/app.c" \
		$(pkg-config --cflags ladder-trace) $(pkg-config --libs ompi-c)
	run ldd ./app
	assert_success
	refute_output --partial ladder-trace
	run mpirun_n 2 ./app
	assert_success
	assert_line "sum 1"
	[ ! -e trace.h5 ]
}

@test "linked with the installed tracer, the program writes its trace: regions kept, paused calls left out" {
	cd "$BATS_TEST_TMPDIR"
	# shellcheck disable=SC2046
	gcc -std=c11 -Wall -Wextra -Werror -o app "$BATS_FILE_TMPDIR/app.c" $(pkg-config --cflags --libs ladder-trace)
	run env LD_LIBRARY_PATH="$PREFIX_DIR/lib" ldd ./app
	assert_line --regexp "libladder-trace\.so => $PREFIX_DIR/lib/libladder-trace\.so"
	LD_LIBRARY_PATH="$PREFIX_DIR/lib" LADDER_TRACE_FILE="$PWD/app.h5" run mpirun_n 2 -x LD_LIBRARY_PATH -x LADDER_TRACE_FILE ./app
	assert_success
	assert_line "sum 1"
	run "$PREFIX_DIR/bin/ladder" validate app.h5
	assert_success
	run "$PREFIX_DIR/bin/ladder" inspect --counts app.h5
	assert_line --regexp $'^0\tMPI_Allreduce\t1\t'
	refute_output --partial MPI_Barrier
	run h5dump -d /profile/callpaths app.h5
	assert_output --partial '"main/solve/MPI_Allreduce"'
}
