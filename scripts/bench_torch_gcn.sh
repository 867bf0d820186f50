#!/usr/bin/env bash
# The PyTorch trainer (python3 -m gnnpart.examples.gcn) next to the C++/MPI reference trainer
# (gnnpart-train) on the same Cora layouts, k = 4, graph and hypergraph models: one CSV line per
# run with the rows sent per layer against layout.json's prediction, the verify difference, the
# test accuracy after EPOCHS epochs (default 200) and the mean epoch time (slowest rank).
#   scripts/bench_torch_gcn.sh [BUILD_DIR]      (needs ../shared for cora.features.gz)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build}"
SHARED_DIR="${GNNPART_SHARED_DIR:-$ROOT/../shared}"
EPOCHS="${EPOCHS:-200}"
PYTHON=/usr/bin/python3
source "$ROOT/scripts/bench_common.sh"
bench_scratch torch_gcn
bench_commit lib app python trainer
D="$ROOT/datasets"
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
echo "commit,dataset,k,model,trainer,epochs,measured_rows_per_layer,predicted_rows_per_layer,verify_max_abs_diff,test_accuracy,epoch_time_s"
for model in graph hypergraph; do
  layout="$WORK/cora-$model"
  "$BUILD_DIR/gnnpart" -q partition "$D/cora.edges.gz" -k 4 --model "$model" --seed 1 \
    -o "$WORK/cora.$model.part.4"
  "$BUILD_DIR/gnnpart" -q layout "$D/cora.edges.gz" "$WORK/cora.$model.part.4" -o "$layout" \
    --labels "$D/cora.labels.gz" --train "$D/cora.train.gz" --val "$D/cora.val.gz" \
    --test "$D/cora.test.gz" --features "$SHARED_DIR/datasets/cora.features.gz"
  PYTHONPATH="$BUILD_DIR/python" "$PYTHON" -m gnnpart.examples.gcn "$layout" --world-size 4 \
    --epochs "$EPOCHS" --verify --json "$WORK/torch.json" >&2
  OMPI_MCA_mpi_yield_when_idle=1 mpirun -np 4 --oversubscribe "${root[@]}" \
    "$BUILD_DIR/gnnpart-train" "$layout" --epochs "$EPOCHS" --verify --json "$WORK/mpi.json" >&2
  for run in torch:gnnpart.examples.gcn mpi:gnnpart-train; do
    "$PYTHON" - "$WORK/${run%%:*}.json" "$COMMIT,cora,4,$model,${run#*:},$EPOCHS" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]},{r['measured_rows_per_layer']},{r['predicted_rows_per_layer']},"
      f"{r['verify_max_abs_diff']:.3g},{r['test_accuracy']:.4f},{r['epoch_time_s']:.5f}")
PY
  done
done
