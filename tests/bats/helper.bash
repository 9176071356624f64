# Shared setup for the bats suites: assertions, paths to the build, scratch directories.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
BUILD_DIR=${LADDER_BUILD:-$TOP/build}
LADDER="$BUILD_DIR/bin/ladder"
export PATH="$BUILD_DIR/bin:$PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

# mpirun with the options every test wants on this machine
mpirun_n() {
	local n=$1; shift
	mpirun --oversubscribe --allow-run-as-root -np "$n" "$@"
}

