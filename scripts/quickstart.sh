#!/usr/bin/env bash
# From a fresh clone: install the dependencies, build gnnpart (Release) in build/, then partition
# Cora into 8 blocks and print the partition's communication metrics.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD_DIR:-build}  # build directory, relative to the repository

bash scripts/setup.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 --target gnnpart

mkdir -p "$build"/quickstart
echo
"$build"/gnnpart partition datasets/cora.edges.gz -k 8 -o "$build"/quickstart/cora.part.8
echo
# The same partition evaluated again, with the bytes a GCN layer of Cora's 1433 features sends.
"$build"/gnnpart evaluate datasets/cora.edges.gz "$build"/quickstart/cora.part.8 --feature-dim 1433
