#!/usr/bin/env bash
# Benchmark of the distributed partitioner: gnnpart-mpi on P ranks against PT-Scotch's dgpart
# on the same P, gnnpart's shared-memory engine (gnnpart partition, 1 thread) and its buffered
# streaming partitioner (gnnpart stream --algo buffered), on the largest shared graphs and on
# generated R-MAT graphs (by default 10^8 and 5 * 10^8 edges: hours on a small machine; set
# GENERATED to smaller VERTICES:EDGES pairs, or "" to skip them). One CSV line per run on stdout:
#   commit,dataset,n,m,k,epsilon,seed,method,ranks,edge_cut,comm_volume,imbalance,wall_s,
#   peak_rss_mb_max_rank,peak_rss_mb_per_rank,load1
# Metrics come from the independent checker evalpart; peak RSS is measured per rank with
# /usr/bin/time (ranks separated by ";"); load1 is the 1-minute load average when the run
# started. For every k the shared-memory runs come first, then the ranked methods alternate
# per P (gnnpart-mpi P, dgpart P, the volume objective P, then the next P), so the runs
# compared share the same load. At the end
# (stderr) the geometric means per P: gnnpart-mpi's cut over the shared-memory engine's and
# over dgpart's, its wall time over dgpart's, and the volume objective's volume over the
# shared-memory engine's volume objective. dgpart is optional: scripts/setup.sh --bench installs it.
# Environment: BUILD_DIR (default build), SHARED_DIR (default ../shared), GRAPHS (shared
# graph names), GENERATED (R-MAT sizes as VERTICES:EDGES, binary input for gnnpart-mpi),
# GENERATE_FLAGS (more `gnnpart generate` flags, e.g. "--relabel"; R-MAT is written in bounded
# memory: one bucket of --memory-limit MiB, the buckets in $WORK, so 10^9 edges need about
# 16 GB of disk for the .bin file and its buckets),
# KS (default "8 32 128"), RANKS (default "1 2 4"), SEED (default 1), METHODS (default
# "mpi dgpart shared stream"; also "mpi-volume" and "shared-volume": --objective volume),
# ROWS_OUT (also append the CSV rows to this file).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
GRAPHS="${GRAPHS-cnr-2000 uk-2007-05-100k dblp-2010 cornell5}"
GENERATED="${GENERATED-10000000:100000000 50000000:500000000}"
KS="${KS:-8 32 128}"
RANKS="${RANKS:-1 2 4}"
SEED="${SEED:-1}"
METHODS="${METHODS:-mpi dgpart shared stream}"
EPSILON=0.03
source "$ROOT/scripts/bench_common.sh"
bench_scratch dist
bench_commit lib app mpi
bench_evalpart
GNNPART="$BUILD_DIR/gnnpart"
GNNPART_MPI="$BUILD_DIR/gnnpart-mpi"
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)

# Every rank under /usr/bin/time; its peak RSS lands in $WORK/rss.RANK (KB).
cat > "$WORK/per_rank_time.sh" <<'SH'
#!/bin/sh
exec /usr/bin/time -f %M -o "$RSS_PREFIX.${OMPI_COMM_WORLD_RANK:-0}" "$@"
SH
chmod +x "$WORK/per_rank_time.sh"

# run_ranks P CMD...: prints "wall_s max_mb per_rank_mb;..."
run_ranks() {
  local p=$1
  shift
  rm -f "$WORK"/rss.*
  local start end load
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  RSS_PREFIX="$WORK/rss" OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$p" --oversubscribe \
    "${root[@]}" -x RSS_PREFIX "$WORK/per_rank_time.sh" "$@" > "$WORK/stdout.txt" 2> "$WORK/stderr.txt" \
    || { tail -5 "$WORK/stderr.txt" >&2; return 1; }
  end=$(date +%s.%N)
  local list="" max=0 r kb
  for ((r = 0; r < p; ++r)); do
    kb=$(tail -1 "$WORK/rss.$r")
    list+="${list:+;}$(awk -v k="$kb" 'BEGIN{printf "%.1f", k/1024}')"
    [ "$kb" -gt "$max" ] && max=$kb
  done
  awk -v s="$start" -v e="$end" -v m="$max" -v l="$list" -v a="$load" \
    'BEGIN{printf "%.2f %.1f %s %s\n", e-s, m/1024, l, a}'
}

# METIS text -> Scotch source graph (base 1, no weights).
metis_to_scotch() {
  awk 'NR == 1 { print 0; print $1, 2 * $2; print 1, "000"; next } /^%/ { next }
       { printf "%d", NF; for (i = 1; i <= NF; ++i) printf " %s", $i; printf "\n" }' "$1" > "$2"
}

# Scotch mapping ("n" then "vertex block" lines, base 1) -> gpmetis partition.
scotch_to_part() {
  tail -n +2 "$1" | sort -n -k1,1 | awk '{ print $2 }' > "$2"
}

emit() {  # dataset n m k method ranks eval_json timing
  local dataset=$1 n=$2 m=$3 k=$4 method=$5 ranks=$6 json=$7
  shift 7
  local wall=$1 max=$2 per=$3 load=$4
  python3 - "$json" <<PY | tee -a "$ROWS"
import json, sys
r = json.load(open(sys.argv[1]))
print(f"$COMMIT,$dataset,{r['n']},{r['m']},$k,$EPSILON,$SEED,$method,$ranks,{r['edge_cut']},"
      f"{r['comm_volume']},{r['imbalance_vertices']:.4f},$wall,$max,$per,$load")
PY
}

run_mpi() {  # dataset input text k p method objective
  local t
  t=$(run_ranks "$5" "$GNNPART_MPI" partition "$2" -k "$4" -e $EPSILON --seed "$SEED" \
      --objective "$7" -o "$WORK/part" --quiet) || return 0
  "$EVALPART" "${n_arg[@]}" -k "$4" "$3" "$WORK/part" > "$WORK/eval.json"
  emit "$1" 0 0 "$4" "$6" "$5" "$WORK/eval.json" $t
}

run_dgpart() {  # dataset text grf k p
  local t metis="$WORK/$1.graph"
  command -v dgpart > /dev/null || return 0
  [ -s "$3" ] || { "$EVALPART" "${n_arg[@]}" "$2" --write-metis "$metis" > /dev/null
                   metis_to_scotch "$metis" "$3"; rm -f "$metis"; }
  t=$(run_ranks "$5" dgpart "$4" "$3" "$WORK/map" -b$EPSILON -Cf) || return 0
  scotch_to_part "$WORK/map" "$WORK/part"
  "$EVALPART" "${n_arg[@]}" -k "$4" "$2" "$WORK/part" > "$WORK/eval.json"
  emit "$1" 0 0 "$4" dgpart "$5" "$WORK/eval.json" $t
}

run_shared() {  # dataset text k method objective
  local t
  t=$(run_ranks 1 "$GNNPART" partition "$2" -k "$3" -e $EPSILON --seed "$SEED" -t 1 \
      --objective "$5" -o "$WORK/part" --quiet) || return 0
  "$EVALPART" "${n_arg[@]}" -k "$3" "$2" "$WORK/part" > "$WORK/eval.json"
  emit "$1" 0 0 "$3" "$4" 1 "$WORK/eval.json" $t
}

has() { case " $METHODS " in *" $1 "*) return 0 ;; esac; return 1; }

bench_graph() {  # dataset gnnpart_mpi_input edge_list_text n_arg
  local dataset=$1 input=$2 text=$3 grf="$WORK/$1.grf" k p t
  n_arg=()
  [ -n "${4:-}" ] && n_arg=(--n "$4")
  for k in $KS; do
    has shared && run_shared "$dataset" "$text" "$k" gnnpart-shared cut
    has shared-volume && run_shared "$dataset" "$text" "$k" gnnpart-shared-volume volume
    for p in $RANKS; do
      has mpi && run_mpi "$dataset" "$input" "$text" "$k" "$p" gnnpart-mpi cut
      has dgpart && run_dgpart "$dataset" "$text" "$grf" "$k" "$p"
      has mpi-volume && run_mpi "$dataset" "$input" "$text" "$k" "$p" gnnpart-mpi-volume volume
    done
    if has stream; then
      t=$(run_ranks 1 "$GNNPART" stream "$input" -k "$k" --algo buffered -e $EPSILON \
          --seed "$SEED" --temp-dir "$WORK" -o "$WORK/part" --no-metrics) && {
        "$EVALPART" "${n_arg[@]}" -k "$k" "$text" "$WORK/part" > "$WORK/eval.json"
        emit "$dataset" 0 0 "$k" gnnpart-stream 1 "$WORK/eval.json" $t; }
    fi
  done
}

ROWS="$WORK/rows.csv"
: > "$ROWS"
echo "commit,dataset,n,m,k,epsilon,seed,method,ranks,edge_cut,comm_volume,imbalance,wall_s,peak_rss_mb_max_rank,peak_rss_mb_per_rank,load1"
for g in $GRAPHS; do
  gz="$SHARED_DIR/datasets/$g.edges.gz"
  [ -f "$gz" ] || { echo "missing $gz" >&2; continue; }
  gzip -dc "$gz" > "$WORK/$g.edges" # plain text: the split input gnnpart-mpi scales with
  bench_graph "$g" "$WORK/$g.edges" "$WORK/$g.edges"
  rm -f "$WORK/$g.edges" "$WORK/$g.grf"
done
for size in $GENERATED; do
  v=${size%%:*} e=${size##*:}
  name="rmat-$v-$e"
  # shellcheck disable=SC2086 # GENERATE_FLAGS is a list of flags
  for out in "$WORK/$name.bin" "$WORK/$name.edges"; do
    "$GNNPART" generate rmat --vertices "$v" --edges "$e" --seed "$SEED" ${GENERATE_FLAGS:-} \
      --temp-dir "$WORK" -o "$out" --quiet
  done
  bench_graph "$name" "$WORK/$name.bin" "$WORK/$name.edges" "$v"
  rm -f "$WORK/$name".*
done
[ -n "${ROWS_OUT:-}" ] && cat "$ROWS" >> "$ROWS_OUT"
# Geometric means of the paired ratios (same dataset and k; ranked methods also the same P).
python3 - "$ROWS" <<'PY' >&2
import csv, math, sys
from collections import defaultdict
rows = list(csv.reader(open(sys.argv[1])))
val = {}
for r in rows:
    dataset, k, method, ranks = r[1], r[4], r[7], r[8]
    val[(dataset, k, method, ranks)] = {"cut": float(r[9]), "volume": float(r[10]),
                                        "wall": float(r[12])}
def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
pairs = [("gnnpart-mpi", "gnnpart-shared", "cut", False), ("gnnpart-mpi", "dgpart", "cut", True),
         ("gnnpart-mpi", "dgpart", "wall", True),
         ("gnnpart-mpi-volume", "gnnpart-shared-volume", "volume", False),
         ("gnnpart-mpi-volume", "gnnpart-mpi", "volume", True)]
for a, b, key, same_p in pairs:
    by_p = defaultdict(list)
    for (dataset, k, method, ranks), v in val.items():
        if method != a:
            continue
        other = val.get((dataset, k, b, ranks if same_p else "1"))
        if other and other[key] > 0 and v[key] > 0:
            by_p[ranks].append(v[key] / other[key])
    for p in sorted(by_p, key=int):
        print(f"P={p}: {key} {a} / {b}: geometric mean {gm(by_p[p]):.4f} ({len(by_p[p])} pairs)")
PY
