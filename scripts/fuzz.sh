#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with Debian's clang (ASan + UBSan) in build-fuzz/ and runs
# each one for SECONDS (default 60), seeded with the matching fixtures of tests/fixtures and
# fuzz/seeds. Prints one line per target (seconds, executions, corpus size, crashes) and exits 1
# when any target found a crash, a leak, a hang (> 10 s) or an allocation over 2 GiB; the input
# that caused it is in build-fuzz/findings/TARGET/ (turn it into a fixture with its fix).
#   scripts/fuzz.sh [SECONDS]      JOBS=2 runs two targets at a time; TARGETS="edge_list metis"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
jobs=${JOBS:-1}
build=${FUZZ_BUILD_DIR:-build-fuzz}
all_targets="edge_list metis hmetis matrix_market binary_cache partition_files binary_stream layout_json npy"
targets=${TARGETS:-$all_targets}

command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang)" >&2; exit 1; }
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DGNNPART_FUZZ=ON -DGNNPART_BUILD_TESTS=OFF -DGNNPART_NATIVE=OFF >/dev/null
cmake --build "$build" -j2 --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)

# Seeds: the fixtures of the target's format (valid and malformed) and fuzz/seeds/TARGET.
seed_patterns() {
  case $1 in
    edge_list) echo "tests/fixtures/malformed/el_* tests/fixtures/tiny/*.el tests/fixtures/tiny/*.edges* tests/fixtures/tiny/*.csv" ;;
    metis) echo "tests/fixtures/malformed/metis_* tests/fixtures/tiny/*.graph" ;;
    hmetis) echo "tests/fixtures/malformed/hgr_* tests/fixtures/tiny/*.hgr" ;;
    matrix_market) echo "tests/fixtures/malformed/mtx_* tests/fixtures/tiny/*.mtx" ;;
    partition_files) echo "tests/fixtures/malformed/part_* tests/fixtures/malformed/vset_* tests/fixtures/malformed/values_* tests/fixtures/tiny/*.part tests/fixtures/tiny/*.train" ;;
    *) echo "" ;;
  esac
}

run_target() {
  local t=$1 corpus="$build/corpus/$1" findings="$build/findings/$1/" log="$build/logs/$1.log"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  for f in $(seed_patterns "$t") fuzz/seeds/"$t"/*; do
    [ -f "$f" ] && cp -n "$f" "$corpus/" 2>/dev/null || true
  done
  local status=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$build/fuzz/fuzz_$t" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -max_len=4096 -print_final_stats=1 -artifact_prefix="$findings" \
    >"$log" 2>&1 || status=$?
  local execs crashes
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  crashes=$(find "$findings" -type f ! -name 'slow-unit-*' | wc -l) # slow units are only noted
  printf '%-16s %6s s %12s execs %6s corpus %3s crashes (exit %s)\n' "$t" "$seconds" "${execs:-?}" \
    "$(find "$corpus" -type f | wc -l)" "$crashes" "$status"
  [ "$status" -eq 0 ] && [ "$crashes" -eq 0 ]
}

failed=0
running=0
for t in $targets; do
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: findings under $build/findings/ (logs in $build/logs/)" >&2
  exit 1
fi
