#!/usr/bin/env bash
# Several scripts/bench_cost.sh instances at once, each on its own CPU set with one rank pinned
# per core, and one CSV and summary over all of them (how docs/cost_model.md's "dev5" sitting
# ran on a 16-core machine). One argument per instance, CPUS:NETWORK:GRAPHS:KS, graphs and k
# comma-separated; an instance runs its (graph, k) cases one after another:
#   scripts/bench_cost_parallel.sh 0-7:shm:cora,citeseer:8 8-11:shm:pubmed:4 12-15:tcp:cora:4
# Environment: as bench_cost.sh (ROUNDS, RUN_SECONDS, WARMUP, PARTITIONERS, BUILD_DIR, ...), and
#   OUT_DIR (cost_parallel)  LIMIT (seconds an instance may take; unset: no limit)
# Writes OUT_DIR/rows.csv (every instance's rows with a `cpus` column), OUT_DIR/rounds.csv,
# OUT_DIR/summary.csv (scripts/cost_summary.py over all instances), and per instance
# OUT_DIR/CPUS/ (bench_cost.sh's KEEP_DIR: profiles, partitions, every run's --json) and
# OUT_DIR/CPUS.log. Exits non-zero when an instance failed or ran out of its LIMIT; the rows of
# the cases that finished are kept.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT_DIR="${OUT_DIR:-cost_parallel}"
LIMIT="${LIMIT:-}"
[ $# -ge 1 ] || { echo "usage: scripts/bench_cost_parallel.sh CPUS:NETWORK:GRAPHS:KS..." >&2; exit 1; }
mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"

sets=()
for spec in "$@"; do
  IFS=: read -r cpus network graphs ks <<< "$spec"
  [ -n "$cpus" ] && [ -n "$network" ] && [ -n "$graphs" ] && [ -n "$ks" ] ||
    { echo "bench_cost_parallel: '$spec' is not CPUS:NETWORK:GRAPHS:KS" >&2; exit 1; }
  sets+=("$cpus")
  keep="$OUT_DIR/$cpus"
  mkdir -p "$keep"
  (
    limit=()
    [ -n "$LIMIT" ] && limit=(timeout "$LIMIT")
    CPUS="$cpus" NETWORKS="$network" GRAPHS="${graphs//,/ }" KS="${ks//,/ }" KEEP_DIR="$keep" \
      SUMMARY="$keep/summary.csv" PHASES="$keep/phases.csv" \
      "${limit[@]}" bash "$ROOT/scripts/bench_cost.sh" > "$keep/rows.csv" 2> "$OUT_DIR/$cpus.log"
  ) &
done

failed=0
for _ in "${sets[@]}"; do
  wait -n || failed=1
done

# One table over the instances: bench_cost.sh's rows with the instance's CPU set appended.
first=1
for cpus in "${sets[@]}"; do
  rows="$OUT_DIR/$cpus/rows.csv"
  [ -s "$rows" ] || continue
  if [ "$first" = 1 ]; then
    head -n 1 "$rows" | sed 's/$/,cpus/' > "$OUT_DIR/rows.csv"
    head -n 1 "$OUT_DIR/$cpus/rounds.csv" 2>/dev/null > "$OUT_DIR/rounds.csv" || true
    first=0
  fi
  tail -n +2 "$rows" | sed "s/\$/,$cpus/" >> "$OUT_DIR/rows.csv"
  [ -s "$OUT_DIR/$cpus/rounds.csv" ] && tail -n +2 "$OUT_DIR/$cpus/rounds.csv" >> "$OUT_DIR/rounds.csv"
done
[ "$first" = 0 ] || { echo "bench_cost_parallel: no instance finished a case" >&2; exit 1; }
rounds=()
[ "$(wc -l < "$OUT_DIR/rounds.csv")" -gt 1 ] && rounds=(--rounds "$OUT_DIR/rounds.csv")
python3 "$ROOT/scripts/cost_summary.py" "$OUT_DIR/rows.csv" --summary "$OUT_DIR/summary.csv" \
  "${rounds[@]}" >&2
cat "$OUT_DIR/summary.csv"
exit "$failed"
