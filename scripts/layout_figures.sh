#!/usr/bin/env bash
# Regenerates the figures docs/layout.md quotes, with the commands it shows: Cora at k = 4
# (METIS partition, one thread), its layout with labels, split and features, and the
# mini-batch run of gnnpart-train (B = 32, fanouts 10,25) next to the layout's prediction.
#   scripts/layout_figures.sh [BUILD_DIR]      (default: build)
# Prints one "figure: value" line each; the last line is the sentence of docs/layout.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
data="$root/datasets"
mpi_flags=(--oversubscribe)                    # more ranks than cores is fine for these runs
[ "$(id -u)" = 0 ] && mpi_flags+=(--allow-run-as-root)

"$build/gnnpart" partition "$data/cora.edges.gz" -k 4 --algo metis -t 1 --quiet \
  -o "$work/cora.part.4"
"$build/gnnpart" layout "$data/cora.edges.gz" "$work/cora.part.4" -o "$work/cora-4" \
  --labels "$data/cora.labels.gz" --train "$data/cora.train.gz" --val "$data/cora.val.gz" \
  --test "$data/cora.test.gz" --features "$data/cora.features.gz" \
  --batch-size 32 --fanouts 10,25 --quiet
OMPI_MCA_mpi_yield_when_idle=1 mpirun -np 4 "${mpi_flags[@]}" "$build/gnnpart-train" \
  "$work/cora-4" --minibatch-mode layerwise --batch-size 32 --fanouts 10,25 \
  --json "$work/mb.json" > /dev/null
python3 - "$work/mb.json" "$work/cora-4/layout.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
layout = json.load(open(sys.argv[2]))
measured = run["measured_rows_per_batch"]
predicted = run["predicted_rows_per_batch"]
print(f"rows_per_layer (full batch): {layout['predicted']['rows_per_layer']}")
print(f"measured_rows_per_batch: {measured:.1f}")
print(f"predicted_rows_per_batch: {predicted:.1f}")
print(f"(Cora, k = 4, B = 32, fanouts 10,25: measured {measured:.1f}, predicted {predicted:.1f})")
PY
