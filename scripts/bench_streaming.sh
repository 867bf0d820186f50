#!/usr/bin/env bash
# Streaming partitioner benchmark: one CSV row per run on stdout (progress on stderr).
#   edges/s of the first pass (wall clock, and per CPU second of the partitioning thread, which
#   is robust to other load on the machine), peak RSS (/usr/bin/time -v), edge cut and comm volume (evalpart,
#   the independent checker), replication factor and edge imbalance (edge partitioners), and
#   METIS's comm volume and wall time on the same (graph, k), from a gpmetis run in the same
#   sitting (METIS=0, or no gpmetis: the volume from ../shared/baselines/best.tsv, no time).
#   At the end, geometric means per algorithm of volume and time against METIS go to stderr.
# On generated graphs cut and volume come from gnnpart's own metrics pass over the stream
# (tests check it against evalpart), as evalpart cannot read binary streams.
# Inputs: the shared datasets (text edge lists: sorted externally first, time reported apart)
# and generated R-MAT graphs of 10M and 100M edges (cached under $BUILD_DIR/bench_streaming:
# a binary adjacency stream for the vertex partitioners, a shuffled binary edge stream for the
# edge partitioners).
# Environment (all optional):
#   BUILD_DIR   build tree with the gnnpart binary          (default: build)
#   DATASETS    shared dataset names, "" for none           (default: all *.edges.gz)
#   GENERATED   "10m 100m" subset, "" for none              (default: "10m 100m")
#   KS          block counts                                (default: "8 32")
#   ALGOS       ldg fennel fennel3 volume buffered1 buffered buffered3 hdrf dbh 2ps (default: all;
#               fennel3 = 3 passes; buffered = its default of 2 passes (one restreaming),
#               buffered1/buffered2/buffered3 = exactly 1/2/3 passes)
#   METIS       1: run gpmetis (-objtype=cut, same seed and epsilon) on each shared (graph, k)
#   SEED        (default 0)   EPSILON (default 0.03)   MEMORY_MB sort buffer (default 256)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED="${GNNPART_SHARED_DIR:-$ROOT/../shared}"
GNNPART="$BUILD_DIR/gnnpart"
CACHE="$BUILD_DIR/bench_streaming"
SEED="${SEED:-0}"
EPSILON="${EPSILON:-0.03}"
MEMORY_MB="${MEMORY_MB:-256}"
KS="${KS:-8 32}"
ALGOS="${ALGOS:-ldg fennel fennel3 volume buffered1 buffered buffered3 hdrf dbh 2ps}"
METIS="${METIS:-1}"
command -v gpmetis >/dev/null || METIS=0
GENERATED="${GENERATED-10m 100m}"
if [[ -z "${DATASETS+x}" ]]; then
  DATASETS="$(cd "$SHARED/datasets" && ls *.edges.gz | sed 's/\.edges\.gz$//' | tr '\n' ' ')"
fi
SHARED_DIR="$SHARED"
source "$ROOT/scripts/bench_common.sh"
bench_scratch streaming  # WORK and the `timed` clock (microseconds) for gpmetis's wall time
mkdir -p "$CACHE"
[[ -x "$GNNPART" ]] || { echo "no $GNNPART (build first)" >&2; exit 1; }
EVALPART="$BUILD_DIR/tests/evalpart"
if [[ ! -x "$EVALPART" ]]; then
  EVALPART="$CACHE/evalpart"
  [[ -x "$EVALPART" ]] || g++ -O3 -march=native -std=c++17 -w -o "$EVALPART" \
    "$SHARED/tools/evalpart/evalpart.cpp" -lz
fi
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
[[ -n "$(git -C "$ROOT" status --porcelain 2>/dev/null)" ]] && COMMIT="$COMMIT+dirty"

json_field() {  # json_field FILE KEY
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d.get(sys.argv[2], ""); print(v)' "$1" "$2"
}
rss_mb() {  # from /usr/bin/time -v output
  awk -F: '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$1"
}
metis_volume() {  # dataset k
  awk -F'\t' -v d="$1" -v k="$2" '$1==d && $3==k {print $5; exit}' "$SHARED/baselines/best.tsv" 2>/dev/null
}

generate() {  # name vertices edges
  local name=$1 n=$2 m=$3
  if [[ ! -s "$CACHE/$name.adj" ]]; then
    echo "generating $name (adjacency)" >&2
    "$GNNPART" -q generate rmat --vertices "$n" --edges "$m" --seed 1 -t 2 --format adjacency \
      --memory-limit 1024 --temp-dir "$CACHE" -o "$CACHE/$name.adj"
  fi
  if [[ ! -s "$CACHE/$name.bin" ]]; then
    echo "generating $name (shuffled edge stream)" >&2
    "$GNNPART" -q generate rmat --vertices "$n" --edges "$m" --seed 1 -t 2 --shuffle \
      --format binary -o "$CACHE/$name.bin"
  fi
}

HEADER="commit,dataset,input,n,m,k,epsilon,algo,passes,threads,seed,sort_s,partition_s,edges_per_s,edges_per_cpu_s,peak_rss_mb,edge_cut,comm_volume,imbalance,replication_factor,edge_imbalance,metis_comm_volume,comm_volume_vs_metis,metis_wall_s"
echo "$HEADER"
ROWS="$CACHE/rows.$$"
: >"$ROWS"

# metis_run dataset input k: sets METIS_VOLUME and METIS_WALL (gpmetis on the same graph, with
# isolated vertices kept, evaluated by evalpart), or the best.tsv volume and no time.
metis_run() {
  local dataset=$1 input=$2 k=$3 graph="$CACHE/$1.graph" n
  METIS_VOLUME="" METIS_WALL=""
  if [[ $METIS != 1 ]]; then
    METIS_VOLUME=$(metis_volume "$dataset" "$k")
    return
  fi
  if [[ ! -s $graph ]]; then
    n="$({ gzip -dc "$input" 2>/dev/null || true; } | awk '/^# vertices:/ {print $3; exit} !/^#/ {exit}')"
    "$EVALPART" "$input" ${n:+--n "$n"} --write-metis "$graph.tmp" >/dev/null
    mv "$graph.tmp" "$graph"
  fi
  local ufactor wall rss
  ufactor=$(bench_ufactor "$EPSILON")
  cp "$graph" "$CACHE/metis_in.$$"
  if ! read -r wall rss < <(timed gpmetis -ptype=kway -objtype=cut -ufactor="$ufactor" \
      -seed="$SEED" "$CACHE/metis_in.$$" "$k"); then
    echo "gpmetis failed on $dataset k=$k" >&2
    rm -f "$CACHE/metis_in.$$"*
    return
  fi
  METIS_WALL=$wall
  METIS_VOLUME=$(json_field <("$EVALPART" -k "$k" "$graph" "$CACHE/metis_in.$$.part.$k") comm_volume)
  rm -f "$CACHE/metis_in.$$"*
}

run_one() {  # dataset input algo k evaluate(0/1) evalgraph
  local dataset=$1 input=$2 algo=$3 k=$4 evaluate=$5 evalgraph=$6
  local flags="--algo $algo" passes=1
  case $algo in
    fennel3) flags="--algo fennel --passes 3"; passes=3 ;;
    volume) flags="--algo fennel --objective volume --passes 2"; passes=2 ;;
    buffered) passes=2 ;;  # the default
    buffered1) flags="--algo buffered --passes 1"; passes=1 ;;
    buffered2) flags="--algo buffered --passes 2"; passes=2 ;;
    buffered3) flags="--algo buffered --passes 3"; passes=3 ;;
  esac
  local out="$CACHE/out.$$" json="$CACHE/json.$$" tv="$CACHE/time.$$" metrics="--no-metrics"
  [[ $evaluate == 0 ]] && metrics=""
  echo "$dataset k=$k $algo" >&2
  if ! /usr/bin/time -v "$GNNPART" -q stream "$input" -k "$k" $flags -e "$EPSILON" --seed "$SEED" \
      --memory-limit "$MEMORY_MB" --temp-dir "$CACHE" $metrics --json -o "$out" \
      >"$json" 2>"$tv"; then
    echo "run failed: $(grep -m1 error "$tv")" >&2
    return
  fi
  local n m sort_s part_s eps rss cut="" vol="" imb="" rf="" eimb="" metis="" ratio="" metis_wall=""
  n=$(json_field "$json" n); m=$(json_field "$json" m)
  sort_s=$(json_field "$json" sort_seconds); part_s=$(json_field "$json" partition_seconds)
  eps=$(json_field "$json" edges_per_second); rss=$(rss_mb "$tv")
  local cpu_eps; cpu_eps=$(json_field "$json" edges_per_cpu_second)
  case $algo in
    hdrf|dbh|2ps)
      rf=$(json_field "$json" replication_factor); eimb=$(json_field "$json" edge_imbalance)
      sort_s="" ;;
    *)
      if [[ $evaluate == 1 ]]; then
        "$EVALPART" -k "$k" --n "$n" "$evalgraph" "$out" >"$json.eval"
        cut=$(json_field "$json.eval" edge_cut); vol=$(json_field "$json.eval" comm_volume)
        imb=$(json_field "$json.eval" imbalance_vertices)
        metis=$METIS_VOLUME metis_wall=$METIS_WALL
        [[ -n "$metis" && "$metis" != 0 ]] && ratio=$(python3 -c "print(f'{$vol/$metis:.3f}')")
      else
        cut=$(json_field "$json" edge_cut); vol=$(json_field "$json" comm_volume)
        imb=$(json_field "$json" imbalance_vertices)
      fi ;;
  esac
  echo "$COMMIT,$dataset,$(basename "$input"),$n,$m,$k,$EPSILON,$algo,$passes,1,$SEED,$sort_s,$part_s,$eps,$cpu_eps,$rss,$cut,$vol,$imb,$rf,$eimb,$metis,$ratio,$metis_wall" | tee -a "$ROWS"
  rm -f "$out" "$json" "$json.eval" "$tv"
}

for dataset in $DATASETS; do
  input="$SHARED/datasets/$dataset.edges.gz"
  for k in $KS; do
    metis_run "$dataset" "$input" "$k"
    for algo in $ALGOS; do run_one "$dataset" "$input" "$algo" "$k" 1 "$input"; done
  done
done

for size in $GENERATED; do
  case $size in
    10m) name=rmat-10m; generate "$name" 1000000 10000000 ;;
    100m) name=rmat-100m; generate "$name" 10000000 100000000 ;;
    *) echo "unknown generated size $size" >&2; continue ;;
  esac
  for k in $KS; do
    for algo in $ALGOS; do
      case $algo in
        hdrf|dbh|2ps) input="$CACHE/$name.bin" ;;
        *) input="$CACHE/$name.adj" ;;
      esac
      run_one "$name" "$input" "$algo" "$k" 0 ""
    done
  done
done

# Geometric means per algorithm against METIS over the (graph, k) of this invocation: volume, and
# time (sort + partition seconds against gpmetis's wall time, which includes its reading).
python3 - "$ROWS" "$HEADER" <<'PY' >&2
import csv, math, sys
from collections import defaultdict
cols = sys.argv[2].split(",")
acc = defaultdict(lambda: defaultdict(list))
for r in csv.reader(open(sys.argv[1])):
    r = dict(zip(cols, r))
    if r["comm_volume_vs_metis"]:
        acc[r["algo"]]["volume"].append(float(r["comm_volume_vs_metis"]))
    if r["metis_wall_s"]:
        own = float(r["sort_s"] or 0) + float(r["partition_s"] or 0)
        acc[r["algo"]]["time"].append(max(own, 1e-6) / max(float(r["metis_wall_s"]), 1e-6))
for algo, d in acc.items():
    parts = ["%s %.3f (max %.3f)" % (key, math.exp(sum(map(math.log, v)) / len(v)), max(v))
             for key, v in d.items() if v]
    print("geomean %s/gpmetis over %d (graph, k): %s" % (algo, len(d["volume"]), ", ".join(parts)))
PY
rm -f "$ROWS"
