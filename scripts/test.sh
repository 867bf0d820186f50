#!/usr/bin/env bash
# Installs the dependencies, builds gnnpart and its tests (Release) in build/, and runs the whole
# test suite with CTest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD_DIR:-build}  # build directory, relative to the repository
# The tests read the shared datasets and build the independent checker from shared/tools.
shared=${GNNPART_SHARED_DIR:-$(cd .. && pwd)/shared}
if [ ! -d "$shared/datasets" ] || [ ! -d "$shared/tools/evalpart" ]; then
  echo "test.sh: $shared/datasets or $shared/tools/evalpart not found; put shared/ beside the repository or set GNNPART_SHARED_DIR" >&2
  exit 1
fi

bash scripts/setup.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGNNPART_BUILD_TESTS=ON \
  -DGNNPART_SHARED_DIR="$shared"
cmake --build "$build" -j2
cd "$build"
ctest --output-on-failure -j2
