#!/usr/bin/env bash
# Installs the dependencies, builds gnnpart and its tests (Release) in build/, and runs the whole
# test suite with CTest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD_DIR:-build}  # build directory, relative to the repository

bash scripts/setup.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGNNPART_BUILD_TESTS=ON
cmake --build "$build" -j2
cd "$build"
ctest --output-on-failure -j2
