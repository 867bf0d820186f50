#!/usr/bin/env bash
# Fetch mini-batches (DistDGL's scheme) of gnnpart-train: measured remote input rows per step
# against the prediction (docs/cost_model.md, "Mini-batches"). Per (graph, k, partitioner) it
# writes the layout (labels and train/val/test, random features: the rows do not depend on the
# width), trains under `mpirun -np k --oversubscribe` for at least STEPS steps, and reports the
# mean measured rows per step (all ranks), the expectation lib/cost estimates on
# PREDICT_SAMPLES fresh steps, their relative difference, how many steps the trainer's own
# recount on the whole graph matched exactly, and for comparison the stochastic hypergraph
# model's expected volume (`gnnpart evaluate --minibatch`, one global batch of k*B seeds, an
# independent tree per seed). With COST=PROFILE (gnnpart-train --calibrate) it also reports the
# mean measured seconds per step against the model's prediction for the same steps (docs/
# cost_model.md, "Mini-batches: time per step"; meaningful with one rank per core only).
# One CSV row per run on stdout, progress on stderr.
# Environment (all optional):
#   BUILD_DIR (build)  GRAPHS ("cora citeseer pubmed")  KS ("2 4")
#   PARTITIONERS ("metis hypergraph random")  BATCH_SIZE (32)  FANOUTS (10,25: input layer
#   first)  STEPS (100)  PREDICT_SAMPLES (2000)  FEATURE_DIM (16)  SEED (1)  COST (none)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${GNNPART_SHARED_DIR:-$ROOT/../shared}"
GNNPART="$BUILD_DIR/gnnpart"
TRAIN="$BUILD_DIR/gnnpart-train"
GRAPHS="${GRAPHS:-cora citeseer pubmed}"
KS="${KS:-2 4}"
PARTITIONERS="${PARTITIONERS:-metis hypergraph random}"
BATCH_SIZE="${BATCH_SIZE:-32}"
FANOUTS="${FANOUTS:-10,25}"
STEPS="${STEPS:-100}"
PREDICT_SAMPLES="${PREDICT_SAMPLES:-2000}"
FEATURE_DIM="${FEATURE_DIM:-16}"
SEED="${SEED:-1}"
COST="${COST:-}"
cost=()
[ -n "$COST" ] && cost=(--cost "$COST")
source "$ROOT/scripts/bench_common.sh"
bench_scratch minibatch
bench_commit lib app trainer
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)

# The stochastic model's fanouts are hop 1 first.
HOP_FANOUTS="$(echo "$FANOUTS" | tr ',' '\n' | tac | paste -sd, -)"

HEADER="commit,graph,n,k,partitioner,batch_size,fanouts,steps,measured_rows_per_step"
HEADER+=",predicted_rows_per_step,predicted_stderr,relative_error,exact_steps"
echo "$HEADER,stochastic_model_rows,load1,measured_step_s,predicted_step_s,step_error"
for g in $GRAPHS; do
  graph="$(dataset "$g.edges.gz")"
  [ -n "$graph" ] || { echo "bench_minibatch: no dataset $g" >&2; continue; }
  bench_side_files "$g"
  train_file="$(dataset "$g.train.gz")"
  for k in $KS; do
    for p in $PARTITIONERS; do
      part="$WORK/$g.$k.$p.part"
      dir="$WORK/$g.$k.$p"
      case $p in
      metis) "$GNNPART" partition "$graph" -k "$k" --algo metis --seed "$SEED" -o "$part" --quiet ;;
      hypergraph) "$GNNPART" partition "$graph" -k "$k" --model hypergraph --seed "$SEED" \
                    -o "$part" --quiet ;;
      random) bench_random_partition "$graph" "$k" "$SEED" "$part" ;;  # balanced
      *) echo "unknown partitioner $p" >&2; exit 1 ;;
      esac
      "$GNNPART" layout "$graph" "$part" -o "$dir" "${SIDE[@]}" > /dev/null
      # Steps per epoch = ceil(train / (k * B)) (all vertices train without a train file).
      epochs="$(python3 - "$train_file" "$graph" "$k" "$BATCH_SIZE" "$STEPS" <<'EOF'
import gzip, sys
train_file, graph = sys.argv[1:3]
k, b, steps = (int(x) for x in sys.argv[3:6])
if train_file:
    train = sum(1 for line in gzip.open(train_file, "rt") if line.strip() and line[0] != "#")
else:
    ids = set()
    for line in gzip.open(graph, "rt"):
        if line.strip() and line[0] not in "#%":
            ids.update(line.split()[:2])
    train = len(ids)
per_epoch = max(1, -(-train // (k * b)))
print(-(-steps // per_epoch))
EOF
)"
      echo "bench_minibatch: $g k=$k $p: $epochs epochs" >&2
      OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$k" --oversubscribe "${root[@]}" "$TRAIN" "$dir" \
        --batch-size "$BATCH_SIZE" --fanouts "$FANOUTS" --epochs "$epochs" --seed "$SEED" \
        --feature-dim "$FEATURE_DIM" --predict-samples "$PREDICT_SAMPLES" "${cost[@]}" \
        --json "$WORK/run.json" > /dev/null
      train_flag=()
      [ -n "$train_file" ] && train_flag=(--train "$train_file")
      "$GNNPART" evaluate "$graph" "$part" --minibatch "${train_flag[@]}" \
        --batch-size "$((k * BATCH_SIZE))" --fanouts "$HOP_FANOUTS" --samples 200 --json \
        > "$WORK/stochastic.json"
      python3 - "$WORK/run.json" "$WORK/stochastic.json" "$COMMIT" "$g" "$k" "$p" "$FANOUTS" \
        "$(cut -d' ' -f1 /proc/loadavg)" <<'EOF'
import json, sys
r, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
commit, g, k, p, fanouts, load = sys.argv[3:9]
rows = r["measured_rows_by_batch"]
exact = sum(a == b for a, b in zip(rows, r["recounted_rows_by_batch"]))
m, pred = r["measured_rows_per_batch"], r["predicted_rows_per_batch"]
print(f"{commit},{g},{s['n']},{k},{p},{r['batch_size']},{fanouts.replace(',', '-')},{len(rows)},"
      f"{m:.3f},{pred:.3f},{r['predicted_rows_stderr']:.3f},{(m - pred) / pred:.4f},{exact},"
      f"{s['minibatch_volume_mean']:.3f},{load},", end="")
t, tp = r["batch_time_s"], r.get("predicted_batch_time_s", -1)
print(f"{t:.6f},{tp:.6f},{(tp - t) / t:.4f}" if tp > 0 else ",,")
EOF
    done
  done
done
