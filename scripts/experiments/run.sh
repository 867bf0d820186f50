#!/usr/bin/env bash
# Reproducible comparison of gnnpart's partitioners against METIS, in the partitioner and in the
# trainer. Writes results/partition.csv, results/trainer.csv, results/*.png and results/REPORT.md.
#
#   scripts/experiments/run.sh [--quick]
#
# --quick: Cora, CiteSeer, PubMed and three small graphs, k in {2, 4, 8, 32}, the trainer at
#          k in {2, 4, 8}, one small R-MAT graph (100k edges) at k in {8, 32}.
# Full:    every *.edges.gz graph in ../shared/datasets (not the .hgr hypergraphs), k in
#          {2, ..., 128}, the trainer at k in {2, 4, 8}, plus R-MAT graphs with 1M, 10M and 100M edges at k in {8, 64} (fewer methods on the big
#          ones: no hypergraph model above 500k generated edges, see methods_for).
# Environment (all optional): BUILD_DIR (default build/; built here if gnnpart is missing),
# EXP_OUT (default results/), EXP_DATASETS_DIR, EXP_DATASETS, EXP_KS, EXP_TRAIN_KS,
# EXP_TRAIN_DATASETS, EXP_GENERATED ("N:M ..."), EXP_GEN_KS, EXP_SEED (1), EXP_EPOCHS (5),
# EXP_NO_TRAIN=1 (skip gnnpart-train).
# Every run uses one thread and a fixed seed: rerunning gives the same CSV values except the
# time and memory columns.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mode=full
case "${1:-}" in
  --quick) mode=quick ;;
  "") ;;
  -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "run.sh: unknown argument '$1' (usage: run.sh [--quick])" >&2; exit 2 ;;
esac

build="${BUILD_DIR:-$root/build}"
[[ "$build" = /* ]] || build="$PWD/$build"
if [ ! -x "$build/gnnpart" ] || { [ -z "${EXP_NO_TRAIN:-}" ] && [ ! -x "$build/gnnpart-train" ]; }; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  targets=(gnnpart)
  [ -z "${EXP_NO_TRAIN:-}" ] && targets+=(gnnpart-train)
  cmake --build "$build" -j2 --target "${targets[@]}" >/dev/null
fi

export GNNPART="$build/gnnpart"
export GNNPART_TRAIN=""
if [ -z "${EXP_NO_TRAIN:-}" ]; then
  if [ -x "$build/gnnpart-train" ] && command -v mpirun >/dev/null; then
    GNNPART_TRAIN="$build/gnnpart-train"
  else
    echo "run.sh: gnnpart-train or mpirun missing; skipping the trainer runs" >&2
  fi
fi
export EXP_OUT="${EXP_OUT:-$root/results}"
export EXP_DATASETS_DIR="${EXP_DATASETS_DIR:-$root/../shared/datasets}"
export EXP_COMMIT="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"

if [ "$mode" = quick ]; then
  : "${EXP_DATASETS:=cora citeseer pubmed power-grid polblogs airfoil1}"
  : "${EXP_KS:=2 4 8 32}"
  : "${EXP_TRAIN_KS:=2 4 8}"
  : "${EXP_GENERATED=16384:100000}"
  : "${EXP_GEN_KS=8 32}"
else
  if [ -z "${EXP_DATASETS:-}" ]; then
    EXP_DATASETS="$(cd "$EXP_DATASETS_DIR" && ls -- *.edges.gz | sed 's/\.edges\.gz$//' | tr '\n' ' ')"
  fi
  : "${EXP_KS:=2 4 8 16 32 64 128}"
  : "${EXP_TRAIN_KS:=2 4 8}"
  : "${EXP_GENERATED:=131072:1000000 1048576:10000000 8388608:100000000}"
  : "${EXP_GEN_KS:=8 64}"
fi
: "${EXP_TRAIN_DATASETS:=cora citeseer pubmed}"
export EXP_DATASETS EXP_KS EXP_TRAIN_KS EXP_TRAIN_DATASETS EXP_GENERATED EXP_GEN_KS

mkdir -p "$EXP_OUT/graphs"
for spec in $EXP_GENERATED; do
  n="${spec%%:*}" m="${spec##*:}"
  out="$EXP_OUT/graphs/rmat-$n-$m.edges"
  if [ ! -s "$out" ]; then
    echo "experiments: generating R-MAT n=$n m=$m" >&2
    "$GNNPART" generate rmat -n "$n" -m "$m" -s 1 -t 1 --shuffle -o "$out"
  fi
done

start=$(date +%s)
/usr/bin/python3 "$root/scripts/experiments/run_experiments.py"
/usr/bin/python3 "$root/scripts/experiments/report.py" "$EXP_OUT"
if [ -s "$EXP_OUT/failures.txt" ]; then
  echo "experiments: $(wc -l <"$EXP_OUT/failures.txt") runs failed, see $EXP_OUT/failures.txt" >&2
  exit 1
fi
echo "experiments: $mode run done in $(( $(date +%s) - start )) s; see $EXP_OUT/REPORT.md" >&2
