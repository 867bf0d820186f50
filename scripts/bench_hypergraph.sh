#!/usr/bin/env bash
# Hypergraph-model benchmark: communication volume (km1 of the column-net hypergraph) and time of
# gnnpart's hypergraph model, gnnpart's graph model and gpmetis on every shared graph, and km1
# of gnnpart on every shared hypergraph (.hgr.gz).
#   scripts/bench_hypergraph.sh
# Environment (subsets and settings):
#   DATASETS="cora ibm01"    names (default: every *.edges.gz and *.hgr.gz)   KS="2 8 32 128"
#   SEEDS="0 1 2"   THREADS (gnnpart; default 1, 2 and powers of two up to the cores)
#   EPS=0.03   PRESET=default|fast|strong
#   GRAPH_OBJECTIVE=cut|volume (gnnpart graph model)   VERTEX_WEIGHTS=unit (hypergraph model;
#   unit keeps the balance comparable with the baselines, which balance vertex counts)
#   BUILD_DIR (default build)   SHARED_DIR   CSV (default BUILD_DIR/bench_hypergraph.csv)
#   METIS=0 / GRAPH=0 skip gpmetis / gnnpart's graph model.
# Graphs are converted once (evalpart) to an unweighted METIS .graph in BUILD_DIR/bench_cache;
# every partition is evaluated by evalpart (graphs: comm_volume = km1 of the column-net model;
# hypergraphs: km1). One CSV row per run on stdout and in CSV:
#   commit,dataset,k,seed,threads,tool,model,km1,imbalance,wall_s,peak_rss_mb,cores
# wall_s / peak_rss_mb come from /usr/bin/time -v around the whole process; cores is the
# machine's core count. At the end, geometric means go to stderr: gnnpart hypergraph / gpmetis
# (volume and time, paired by dataset, k, seed, per thread count), gnnpart graph / gpmetis,
# every tool / best known (best.tsv), and gnnpart's speedup over 1 thread per size (edges of a
# graph, pins of a hypergraph).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
KS="${KS:-2 8 32 128}"
SEEDS="${SEEDS:-0 1 2}"
EPS="${EPS:-0.03}"
PRESET="${PRESET:-default}"
GRAPH_OBJECTIVE="${GRAPH_OBJECTIVE:-cut}"
VERTEX_WEIGHTS="${VERTEX_WEIGHTS:-unit}"
METIS="${METIS:-1}"
GRAPH="${GRAPH:-1}"
CSV="${CSV:-$BUILD_DIR/bench_hypergraph.csv}"
if [ -z "${DATASETS:-}" ]; then
  DATASETS="$(cd "$SHARED_DIR/datasets" && ls *.edges.gz *.hgr.gz | sed -E 's/\.(edges|hgr)\.gz$//' | tr '\n' ' ')"
fi

source "$ROOT/scripts/bench_common.sh"
bench_build_gnnpart "$BUILD_DIR/bench_hypergraph_build.log"
bench_threads
bench_evalpart
if [ "$METIS" = 1 ]; then
  bench_need_gpmetis
fi

CACHE="$BUILD_DIR/bench_cache"
mkdir -p "$CACHE"
bench_scratch hypergraph
bench_commit

# evaluate_graph GRAPH PART K / evaluate_hgr HGR PART K: print "km1 imbalance" (a graph's km1 is
# the comm_volume of bench_evaluate).
evaluate_graph() {
  local cut vol imb
  read -r cut vol imb < <(bench_evaluate "$@")
  echo "$vol $imb"
}
evaluate_hgr() {
  "$EVALPART" -k "$3" --hgr "$1" "$2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["km1"], d["imbalance"])'
}

header="commit,dataset,k,seed,threads,tool,model,km1,imbalance,wall_s,peak_rss_mb,cores"
# A CSV from before the cores column is kept aside rather than mixed.
bench_csv "$header"
SIZES="$WORK/sizes.txt"
: >"$SIZES"

for name in $DATASETS; do
  if [ -f "$SHARED_DIR/datasets/$name.hgr.gz" ]; then
    hgr="$CACHE/$name.hgr"
    [ -s "$hgr" ] || { gzip -dc "$SHARED_DIR/datasets/$name.hgr.gz" | grep -v '^%' >"$hgr.tmp" && mv "$hgr.tmp" "$hgr"; }
    echo "$name $(bench_size "$hgr")" >>"$SIZES"
    for k in $KS; do
      for seed in $SEEDS; do
        for t in $THREADS; do
          read -r wall rss < <(timed "$GNNPART" partition "$hgr" -k "$k" --preset "$PRESET" \
            -e "$EPS" --seed "$seed" -t "$t" -o "$WORK/out.part")
          read -r km1 imb < <(evaluate_hgr "$hgr" "$WORK/out.part" "$k")
          emit "$COMMIT,$name,$k,$seed,$t,gnnpart,hypergraph,$km1,$imb,$wall,$rss,$CORES"
        done
      done
    done
    continue
  fi
  gz="$SHARED_DIR/datasets/$name.edges.gz"
  graph="$CACHE/$name.graph"
  bench_metis_graph "$gz" "$graph"
  echo "$name $(bench_size "$graph")" >>"$SIZES"
  for k in $KS; do
    for seed in $SEEDS; do
      if [ "$METIS" = 1 ]; then
        read -r wall rss < <(bench_gpmetis "$graph" "$k" "$seed" "$EPS")
        read -r km1 imb < <(evaluate_graph "$graph" "$WORK/in.graph.part.$k" "$k")
        emit "$COMMIT,$name,$k,$seed,1,gpmetis,graph,$km1,$imb,$wall,$rss,$CORES"
      fi
      for t in $THREADS; do
        if [ "$GRAPH" = 1 ]; then
          read -r wall rss < <(timed "$GNNPART" partition "$graph" -k "$k" --model graph \
            --objective "$GRAPH_OBJECTIVE" --preset "$PRESET" -e "$EPS" --seed "$seed" \
            -t "$t" -o "$WORK/out.part")
          read -r km1 imb < <(evaluate_graph "$graph" "$WORK/out.part" "$k")
          emit "$COMMIT,$name,$k,$seed,$t,gnnpart,graph,$km1,$imb,$wall,$rss,$CORES"
        fi
        read -r wall rss < <(timed "$GNNPART" partition "$graph" -k "$k" --model hypergraph \
          --vertex-weights "$VERTEX_WEIGHTS" --preset "$PRESET" -e "$EPS" --seed "$seed" \
          -t "$t" -o "$WORK/out.part")
        read -r km1 imb < <(evaluate_graph "$graph" "$WORK/out.part" "$k")
        emit "$COMMIT,$name,$k,$seed,$t,gnnpart,hypergraph,$km1,$imb,$wall,$rss,$CORES"
      done
    done
  done
done

python3 - "$ROWS" "$SHARED_DIR/baselines/best.tsv" "$EPS" <<'PY' >&2
import csv, math, sys
from collections import defaultdict
cols = "commit,dataset,k,seed,threads,tool,model,km1,imbalance,wall_s,peak_rss_mb,cores".split(",")
rows = [dict(zip(cols, r)) for r in csv.reader(open(sys.argv[1]))]
eps = float(sys.argv[3])
best = {}
with open(sys.argv[2]) as f:
    for b in csv.DictReader(f, delimiter="\t"):
        v = b["best_comm_volume"] if b["kind"] == "graph" else b["best_km1"]
        if v: best[(b["dataset"], b["k"])] = float(v)
def gm(xs):
    xs = [max(x, 1e-9) for x in xs]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
metis = {(r["dataset"], r["k"], r["seed"]): r for r in rows if r["tool"] == "gpmetis"}
threads = sorted({r["threads"] for r in rows if r["tool"] == "gnnpart"}, key=int)
for model in ("hypergraph", "graph"):
  for t in threads:
    vol, time, over = [], [], 0
    for r in rows:
        if r["tool"] != "gnnpart" or r["model"] != model or r["threads"] != t: continue
        over += float(r["imbalance"]) > eps + 1e-9
        m = metis.get((r["dataset"], r["k"], r["seed"]))
        if not m: continue
        vol.append(float(r["km1"]) / max(float(m["km1"]), 1))
        time.append(max(float(r["wall_s"]), 1e-6) / max(float(m["wall_s"]), 1e-6))
    if vol:
        print(f"gnnpart {model} ({t} threads) / gpmetis: volume {gm(vol):.3f}, time {gm(time):.2f} ({len(vol)} pairs)")
    if over: print(f"gnnpart {model} ({t} threads): {over} runs over epsilon")
by_tool = defaultdict(list)
for r in rows:
    b = best.get((r["dataset"], r["k"]))
    if b: by_tool[(r["tool"], r["model"], r["threads"], r["dataset"] in {x[0] for x in metis})].append(float(r["km1"]) / b)
for (tool, model, t, is_graph), xs in sorted(by_tool.items()):
    kind = "graphs" if is_graph else "hypergraphs"
    print(f"{tool} {model} ({t} threads) / best known ({kind}): {gm(xs):.3f} ({len(xs)} runs)")
PY
bench_speedup "$ROWS" "$SIZES" "$header" dataset k seed model
