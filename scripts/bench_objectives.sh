#!/usr/bin/env bash
# Bottleneck-objective benchmark (issue #19): the column-net model partitioned with
# --objective max-volume against the default km1 partition of the same seed, on the shared
# graphs. Every partition is re-evaluated by `gnnpart evaluate --json` (per-block send and
# receive volumes recomputed from the graph, not the refiner's counters).
#   scripts/bench_objectives.sh
# Environment:
#   DATASETS="cora pubmed"   names (default: the 11 graphs of shared/baselines/graphs.tsv)
#   KS="8 32"   SEEDS="0"   THREADS=1   EPS=0.03   OBJECTIVES="km1 max-volume"
#   BUILD_DIR (default build)   SHARED_DIR   CSV (default BUILD_DIR/bench_objectives.csv)
#   GNNPART: a gnnpart binary to use as is (default: BUILD_DIR/gnnpart, built first)
#   COST=profile.json (with FEATURE_DIM=16 HIDDEN=16): also the epoch model's predicted epoch of
#   every partition (evaluate --cost), and OBJECTIVES may name epoch (partition --cost)
#   KM1_CSV=docs/objectives_bench_idle.csv: the km1 rows of the ratios from that CSV where this
#   run has none (OBJECTIVES=max-volume when only the refiner changed: its km1 partitions are
#   the same; the time ratios then compare two sittings)
# One CSV row per run on stdout and in CSV:
#   commit,dataset,k,seed,threads,objective,total_volume,max_block_volume,max_send,max_recv,
#   imbalance,wall_s,peak_rss_mb,predicted_epoch_s (empty without COST),cpu_s (user + system)
# At the end, on stderr: geometric means over (dataset, seed) per k and overall of max-volume /
# km1 for the largest per-block send + receive volume (target <= 0.75) and the total volume
# (target <= 1.05), and of the wall and CPU time (same sitting; quote with the load).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
KS="${KS:-8 32}"
SEEDS="${SEEDS:-0}"
THREADS="${THREADS:-1}"
EPS="${EPS:-0.03}"
OBJECTIVES="${OBJECTIVES:-km1 max-volume}"
CSV="${CSV:-$BUILD_DIR/bench_objectives.csv}"
COST="${COST:-}"
SHAPE=(--feature-dim "${FEATURE_DIM:-16}" --hidden "${HIDDEN:-16}")
if [ -z "${DATASETS:-}" ]; then
  DATASETS="$(awk -F'\t' 'NR > 1 {print $1}' "$SHARED_DIR/baselines/graphs.tsv" | sort -u | tr '\n' ' ')"
fi

source "$ROOT/scripts/bench_common.sh"
[ -n "${GNNPART:-}" ] || bench_build_gnnpart "$BUILD_DIR/bench_objectives_build.log"
bench_scratch objectives
bench_commit

HEADER="commit,dataset,k,seed,threads,objective,total_volume,max_block_volume,max_send,max_recv,imbalance,wall_s,peak_rss_mb,predicted_epoch_s,cpu_s"
echo "$HEADER" | tee "$CSV"
for name in $DATASETS; do
  gz="$SHARED_DIR/datasets/$name.edges.gz"
  [ -f "$gz" ] || { echo "missing $gz" >&2; exit 1; }
  for k in $KS; do
    for seed in $SEEDS; do
      for objective in $OBJECTIVES; do
        part="$WORK/$name.$k.$seed.$objective.part"
        cost=()
        [ -n "$COST" ] && cost=(--cost "$COST" "${SHAPE[@]}")
        given=()
        [ "$objective" = epoch ] && given=("${cost[@]}")
        read -r wall rss < <(timed "$GNNPART" partition "$gz" -k "$k" -e "$EPS" --seed "$seed" \
          --threads "$THREADS" --model hypergraph --objective "$objective" -o "$part" -q \
          "${given[@]}")
        cpu="$(last_cpu_s)"
        "$GNNPART" evaluate "$gz" "$part" -k "$k" --json -q "${cost[@]}" >"$WORK/eval.json"
        metrics="$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["comm_volume"], d["max_block_volume"], d["max_send_volume"], d["max_recv_volume"],
      "%.4f" % d["imbalance_vertices"], sep=",")' "$WORK/eval.json")"
        epoch="$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1])).get("cost", {}).get("predicted_epoch_s", ""))' "$WORK/eval.json")"
        echo "$COMMIT,$name,$k,$seed,$THREADS,$objective,$metrics,$wall,$rss,$epoch,$cpu" | tee -a "$CSV"
      done
    done
  done
done

python3 - "$CSV" "${KM1_CSV:-}" >&2 <<'EOF'
import csv, math, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
by = {(r["dataset"], r["k"], r["seed"], r["objective"]): r for r in rows}
if sys.argv[2]:
    for r in csv.DictReader(open(sys.argv[2])):
        key = (r["dataset"], r["k"], r["seed"], r["objective"])
        if r["objective"] == "km1" and key not in by:
            by[key] = r
ratios = defaultdict(lambda: defaultdict(list))
for (d, k, s, o), r in by.items():
    base = by.get((d, k, s, "km1"))
    if o == "epoch" and base is not None and r["predicted_epoch_s"]:
        e, b = float(r["predicted_epoch_s"]), float(base["predicted_epoch_s"])
        ratios[k]["epoch"].append(e / b)
        ratios["all"]["epoch"].append(e / b)
        print(f"{d} k={k} seed={s}: predicted epoch {e:.6g} / {b:.6g} s = {e / b:.4f}")
    if o != "max-volume" or base is None:
        continue
    for key in ("max_block_volume", "total_volume", "wall_s", "cpu_s"):
        b, v = float(base.get(key) or 0), float(r.get(key) or 0)
        if b > 0 and v > 0:
            ratios[k][key].append(v / b)
            ratios["all"][key].append(v / b)
    print(f"{d} k={k} seed={s}: max block volume {r['max_block_volume']} / {base['max_block_volume']}"
          f" = {int(r['max_block_volume']) / max(1, int(base['max_block_volume'])):.4f}, total "
          f"{r['total_volume']} / {base['total_volume']} = "
          f"{int(r['total_volume']) / max(1, int(base['total_volume'])):.4f}")
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
for k in sorted(ratios, key=lambda x: (x == "all", x)):
    m = ratios[k]
    if m["max_block_volume"]:
        print(f"k={k}: geometric mean max-volume / km1 over {len(m['max_block_volume'])} graphs: "
              f"max block volume {gm(m['max_block_volume']):.4f} (target <= 0.75), total volume "
              f"{gm(m['total_volume']):.4f} (target <= 1.05), wall time {gm(m['wall_s']):.3f}, CPU "
              f"time {gm(m['cpu_s']):.3f} (over {len(m['cpu_s'])} runs with both above 0)")
    if m["epoch"]:
        print(f"k={k}: geometric mean predicted epoch, epoch / km1 objective over "
              f"{len(m['epoch'])} graphs: {gm(m['epoch']):.4f}")
EOF
