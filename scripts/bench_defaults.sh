#!/usr/bin/env bash
# What a new user gets from the defaults (issue 17): `gnnpart partition G -k K --model
# hypergraph` with no other flag against METIS (`--algo metis`, its cut objective), checked by
# the independent evalpart: vertex-count imbalance within epsilon = 0.03, communication volume.
#   scripts/bench_defaults.sh [GRAPH=cnr-2000] [K=32]   env: BUILD_DIR, SHARED_DIR, THREADS
# One CSV line per run: commit,dataset,k,epsilon,threads,seed,method,comm_volume,
#   imbalance_vertices,max_block,bound,wall_s,peak_rss_mb
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
source "$ROOT/scripts/bench_common.sh"
graph="${1:-cnr-2000}"
k="${2:-32}"
threads="${THREADS:-0}"   # 0: the default, all cores
bench_scratch defaults
bench_commit
EVALPART="$BUILD_DIR/tests/evalpart"; [ -x "$EVALPART" ] || bench_evalpart
input="$SHARED_DIR/datasets/$graph.edges.gz"
n="$({ gzip -dc "$input" 2>/dev/null || true; } | awk '/^# vertices:/ {print $3; exit} !/^#/ {exit}')"
echo "commit,dataset,k,epsilon,threads,seed,method,comm_volume,imbalance_vertices,max_block,bound,wall_s,peak_rss_mb"
for method in hypergraph-default metis; do
  flags=(--model hypergraph)
  [ "$method" = metis ] && flags=(--algo metis)
  thread_flags=()
  [ "$threads" != 0 ] && thread_flags=(-t "$threads")
  read -r wall rss < <(timed "$BUILD_DIR/gnnpart" --quiet partition "$input" -k "$k" \
    "${flags[@]}" "${thread_flags[@]}" -o "$WORK/$method.part" --json "$WORK/$method.json")
  used_threads="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['threads'])" \
    "$WORK/$method.json")"
  "$EVALPART" "$input" "$WORK/$method.part" ${n:+--n "$n"} > "$WORK/$method.eval"
  python3 - "$WORK/$method.eval" "$WORK/$method.part" "$k" <<PY
import json, math, sys
metrics = json.load(open(sys.argv[1]))
k = int(sys.argv[3])
sizes = [0] * k
for line in open(sys.argv[2]):
    sizes[int(line)] += 1
n = sum(sizes)
bound = math.floor(1.03 * math.ceil(n / k))
print(",".join(str(x) for x in ["$COMMIT", "$graph", k, 0.03, "$used_threads", 0, "$method",
      metrics["comm_volume"], f"{metrics['imbalance_vertices']:.6f}", max(sizes), bound,
      "$wall", "$rss"]))
PY
done
