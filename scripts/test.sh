#!/usr/bin/env bash
# Installs the dependencies, builds gnnpart and its tests (Release) in build/ and runs the whole
# test suite with CTest; then builds it again with AddressSanitizer + UndefinedBehaviorSanitizer
# (-DGNNPART_SANITIZE=ON, -O1) in build-asan/ and runs the suite there (CI runs both through
# .ci/run). SANITIZE=0 skips the sanitizer run; SANITIZE=only runs just it. Each phase prints
# its wall time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD_DIR:-build}            # build directories, relative to the repository
asan_build=${ASAN_BUILD_DIR:-build-asan}
sanitize=${SANITIZE:-1}
# The tests read the shared datasets and build the independent checker from shared/tools.
shared=${GNNPART_SHARED_DIR:-$(cd .. && pwd)/shared}
if [ ! -d "$shared/datasets" ] || [ ! -d "$shared/tools/evalpart" ]; then
  echo "test.sh: $shared/datasets or $shared/tools/evalpart not found; put shared/ beside the repository or set GNNPART_SHARED_DIR" >&2
  exit 1
fi

phase() { # NAME COMMAND...: runs it and prints its wall time
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "test.sh: $name took $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s" >&2
}

bash scripts/setup.sh
if [ "$sanitize" != only ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGNNPART_BUILD_TESTS=ON \
    -DGNNPART_SHARED_DIR="$shared"
  phase "build" cmake --build "$build" -j2
  phase "tests" bash -c "cd '$build' && ctest --output-on-failure -j2"
fi
[ "$sanitize" = 0 ] && exit 0

# The sanitizer run: every test binary and the CLI under ASan + UBSan (any report fails the
# test: halt_on_error, leaks included), which covers every module of lib/ (one gtest binary
# each) and app/. Left out: the Python tests (torch and a 4-process GCN in an ASan-preloaded
# python3: minutes, and the extension's C++ is the api module already covered); the MPI trainer
# runs, gnnpart-mpi's tests and the README walkthrough, which trains under mpirun (OpenMPI's own
# leaks); the install test (an outside consumer links the sanitized static libraries without
# the sanitizer runtime); the whole-dataset evalpart agreement and experiment scripts (the unit
# tests' code paths on big inputs, ~10x slower under ASan). SANITIZE_EXCLUDE='^$' runs
# everything.
cmake -S . -B "$asan_build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DGNNPART_SANITIZE=ON -DGNNPART_BUILD_TESTS=ON \
  -DGNNPART_SHARED_DIR="$shared"
phase "sanitizer build" cmake --build "$asan_build" -j2
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
phase "sanitizer tests" bash -c "cd '$asan_build' && ctest --output-on-failure -j2 \
  -E '${SANITIZE_EXCLUDE:-^(python_.*|trainer\..*|distributed\..*|readme_walkthrough|install_and_embed|evalpart_agreement|experiments_report)\$}'"
