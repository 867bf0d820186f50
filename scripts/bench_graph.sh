#!/usr/bin/env bash
# Graph partitioning benchmark: gnnpart's multilevel engine against gpmetis (Debian `metis`).
#   scripts/bench_graph.sh                      all ../shared/datasets/*.edges.gz
# Environment (subsets and settings):
#   DATASETS="cora pubmed"   names (default: every *.edges.gz)    KS="2 8 32 128"
#   SEEDS="0 1 2"            THREADS (gnnpart; default 1, 2 and powers of two up to the cores)
#   PRESET=default|fast|strong
#   EPS=0.03   OBJECTIVE=cut|volume (gnnpart)   BUILD_DIR (default build)   SHARED_DIR
#   CSV=path (default BUILD_DIR/bench_graph.csv)   METIS=0 skips gpmetis (reuses no rows)
# Each input is converted once to an unweighted METIS .graph (isolated vertices kept) in
# BUILD_DIR/bench_cache; both tools read that file. Every partition is evaluated by evalpart
# (built from ../shared/tools/evalpart). One CSV row per run on stdout and in CSV:
#   commit,dataset,k,seed,threads,tool,preset,edge_cut,comm_volume,imbalance,wall_s,peak_rss_mb,cores,cpu_s
# peak_rss_mb / cpu_s (user + sys, to 0.01 s) come from /usr/bin/time -v around the whole
# process (read, partition, write); wall_s is the same process's wall time to the microsecond
# (bash's $EPOCHREALTIME around /usr/bin/time less /usr/bin/time's own start, measured at the
# start of each run: `timed` in bench_common.sh), the same clock for gpmetis and gnnpart; cores
# is the machine's core count. On a loaded machine compare cpu_s of 1-thread runs rather than
# wall_s. At the end, geometric means of gnnpart/gpmetis per
# metric and thread count (paired by dataset, k, seed), and gnnpart's speedup over 1 thread per
# graph size (edges), go to stderr.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
KS="${KS:-2 8 32 128}"
SEEDS="${SEEDS:-0 1 2}"
PRESET="${PRESET:-default}"
EPS="${EPS:-0.03}"
OBJECTIVE="${OBJECTIVE:-cut}"
METIS="${METIS:-1}"
CSV="${CSV:-$BUILD_DIR/bench_graph.csv}"
if [ -z "${DATASETS:-}" ]; then
  DATASETS="$(cd "$SHARED_DIR/datasets" && ls *.edges.gz | sed 's/\.edges\.gz$//' | tr '\n' ' ')"
fi

source "$ROOT/scripts/bench_common.sh"
bench_build_gnnpart "$BUILD_DIR/bench_graph_build.log"
bench_threads
bench_evalpart
bench_need_gpmetis

CACHE="$BUILD_DIR/bench_cache"
mkdir -p "$CACHE"
bench_scratch graph
bench_commit

header="commit,dataset,k,seed,threads,tool,preset,edge_cut,comm_volume,imbalance,wall_s,peak_rss_mb,cores,cpu_s"
# A CSV from before the cores column is kept aside rather than mixed.
bench_csv "$header"
SIZES="$WORK/sizes.txt"
: >"$SIZES"

for name in $DATASETS; do
  gz="$SHARED_DIR/datasets/$name.edges.gz"
  graph="$CACHE/$name.graph"
  bench_metis_graph "$gz" "$graph"
  echo "$name $(bench_size "$graph")" >>"$SIZES"
  for k in $KS; do
    for seed in $SEEDS; do
      if [ "$METIS" = 1 ]; then
        read -r wall rss < <(bench_gpmetis "$graph" "$k" "$seed" "$EPS")
        cpu="$(last_cpu_s)"
        read -r cut vol imb < <(bench_evaluate "$graph" "$WORK/in.graph.part.$k" "$k")
        emit "$COMMIT,$name,$k,$seed,1,gpmetis,cut,$cut,$vol,$imb,$wall,$rss,$CORES,$cpu"
      fi
      for t in $THREADS; do
        read -r wall rss < <(timed "$GNNPART" partition "$graph" -k "$k" --preset "$PRESET" \
          --objective "$OBJECTIVE" -e "$EPS" --seed "$seed" -t "$t" -o "$WORK/out.part")
        cpu="$(last_cpu_s)"
        read -r cut vol imb < <(bench_evaluate "$graph" "$WORK/out.part" "$k")
        emit "$COMMIT,$name,$k,$seed,$t,gnnpart,$PRESET,$cut,$vol,$imb,$wall,$rss,$CORES,$cpu"
      done
    done
  done
done

# Geometric means of gnnpart / gpmetis over the runs of this invocation.
python3 - "$ROWS" <<'PY' >&2
import csv, math, sys
from collections import defaultdict
cols = "commit,dataset,k,seed,threads,tool,preset,edge_cut,comm_volume,imbalance,wall_s,peak_rss_mb,cores,cpu_s".split(",")
rows = [dict(zip(cols, r)) for r in csv.reader(open(sys.argv[1]))]
metis = {(r["dataset"], r["k"], r["seed"]): r for r in rows if r["tool"] == "gpmetis"}
ratios = defaultdict(lambda: defaultdict(list))
for r in rows:
    if r["tool"] != "gnnpart": continue
    m = metis.get((r["dataset"], r["k"], r["seed"]))
    if not m: continue
    for key, floor in (("edge_cut", 1), ("comm_volume", 1), ("wall_s", 1e-6), ("cpu_s", 0.01), ("peak_rss_mb", 0.1)):
        a, b = max(float(r[key]), floor), max(float(m[key]), floor)
        ratios[(r["preset"], r["threads"])][key].append(a / b)
for (preset, threads), d in sorted(ratios.items(), key=lambda x: (x[0][0], int(x[0][1]))):
    parts = ["%s %.3f" % (k, math.exp(sum(map(math.log, v)) / len(v))) for k, v in d.items()]
    print("geomean gnnpart(%s, %s threads)/gpmetis over %d runs: %s" % (preset, threads, len(d["edge_cut"]), ", ".join(parts)))
PY
bench_speedup "$ROWS" "$SIZES" "$header" dataset k seed preset
