#!/usr/bin/env bash
# Fingerprints of the partitions a representative set of runs writes, to show that a
# restructuring leaves every partition bit for bit the same.
#   scripts/partition_md5.sh > before.tsv      (on the old tree)
#   scripts/partition_md5.sh > after.tsv && diff before.tsv after.tsv
# Runs: 8 small shared graphs of different families x k in {2, 8, 32, 128} for the graph model
# (presets default, fast, strong) and the hypergraph model (default preset); an .hgr at two k;
# the METIS backend where its balance repair is forced (epsilon 0, two balance constraints).
# One line per run: "model preset graph k md5-or-error seconds". Environment: BUILD_DIR (default build),
# SHARED_DIR, THREADS (default 2), GRAPHS, KS, MODELS="graph hypergraph hgr metis".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
THREADS="${THREADS:-2}"
GRAPHS="${GRAPHS:-cora citeseer airfoil1 4elt polblogs power-grid pgp-giantcompo wiki-vote}"
KS="${KS:-2 8 32 128}"
MODELS="${MODELS:-graph hypergraph hgr metis}"
GNNPART="$BUILD_DIR/gnnpart"
[ -x "$GNNPART" ] || { echo "$GNNPART not built" >&2; exit 1; }
WORK="$(mktemp -d /tmp/gnnpart_md5.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
DATA="$SHARED_DIR/datasets"

# run LABEL INPUT K ARGS...: partitions INPUT into K blocks and prints the fingerprint.
run() {
  local label="$1" input="$2" k="$3"
  shift 3
  local out="$WORK/part" start end
  local result
  rm -f "$out"
  start=$(date +%s.%N)
  # A run the balance bound makes infeasible (a hub heavier than a block) is recorded by its
  # message: that answer must stay the same too.
  if result="$("$GNNPART" -q partition "$input" -k "$k" -t "$THREADS" -o "$out" "$@" 2>&1)"; then
    result="$(md5sum <"$out" | cut -d' ' -f1)"
  else
    result="failed: $result"
  fi
  end=$(date +%s.%N)
  printf '%s\t%s\t%s\t%s\t%.2f\n' "$label" "$(basename "$input")" "$k" "$result" \
    "$(echo "$end - $start" | bc)"
}

for model in $MODELS; do
  case "$model" in
  graph)
    for preset in default fast strong; do
      for g in $GRAPHS; do
        for k in $KS; do run "graph $preset" "$DATA/$g.edges.gz" "$k" --preset "$preset"; done
      done
    done ;;
  hypergraph)
    for g in $GRAPHS; do
      for k in $KS; do run "hypergraph default" "$DATA/$g.edges.gz" "$k" --model hypergraph; done
    done ;;
  hgr)
    for k in 2 32; do run "hgr default" "$DATA/ibm01.hgr.gz" "$k"; done ;;
  metis)
    # epsilon 0 with a second constraint (the training set) makes METIS overshoot, so
    # repair_balance runs (the log line "moved N vertices" says so under -v).
    for g in cora citeseer pubmed; do
      for k in 8 32; do
        run "metis repair" "$DATA/$g.edges.gz" "$k" --algo metis -e 0 \
          --balance-set "$DATA/$g.train.gz"
      done
    done ;;
  *) echo "unknown model $model" >&2; exit 1 ;;
  esac
done
