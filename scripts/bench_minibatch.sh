#!/usr/bin/env bash
# Fetch mini-batches (DistDGL's scheme) of gnnpart-train: measured remote input rows per step
# against the prediction (docs/cost_model.md, "Mini-batches"). Per (graph, k, partitioner) it
# writes the layout (labels and train/val/test, random features: the rows do not depend on the
# width), trains under `mpirun -np k` (NETWORK) for at least STEPS steps, and reports the
# mean measured rows per step (all ranks), the expectation lib/cost estimates on
# PREDICT_SAMPLES fresh steps, their relative difference, how many steps the trainer's own
# recount on the whole graph matched exactly, and for comparison the stochastic hypergraph
# model's expected volume (`gnnpart evaluate --minibatch`, one global batch of k*B seeds, an
# independent tree per seed). With COST=PROFILE (gnnpart-train --calibrate) it also reports the
# mean measured seconds per step against the model's prediction for the same steps (docs/
# cost_model.md, "Mini-batches: time per step"; meaningful with one rank per core only), and
# `gnnpart evaluate --minibatch --cost`'s prediction over the same fresh steps made in one
# process before training (evaluate_step_s); stderr then ranks each (graph, k)'s partitions
# by it against the measured times (the predicted fastest within 3% of the measured fastest?).
# One CSV row per run on stdout, progress on stderr. PARTITIONERS: any of bench_partition's
# (scripts/bench_common.sh) but epoch.
# Environment (all optional):
#   BUILD_DIR (build)  GRAPHS ("cora citeseer pubmed")  KS ("2 4")
#   PARTITIONERS ("metis hypergraph random")  BATCH_SIZE (32)  FANOUTS (10,25: input layer
#   first)  STEPS (100)  PREDICT_SAMPLES (2000)  FEATURE_DIM (16)  SEED (1)  COST (none; a
#   profile, or "calibrate": one calibrated per k on the run's network)  NETWORK (shm, or tcp:
#   MPI over TCP on the loopback of a private network namespace limited by tbf to TCP_RATE
#   (1gbit), as bench_cost.sh's; needs root)  KEEP_PROFILES (unset: a directory that receives
#   COST=calibrate's profiles as profile.NETWORK.K.json)
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
NETWORK="${NETWORK:-shm}"
KEEP_PROFILES="${KEEP_PROFILES:-}"
TCP_RATE="${TCP_RATE:-1gbit}"
cost=()
[ -n "$COST" ] && cost=(--cost "$COST")
source "$ROOT/scripts/bench_common.sh"
bench_scratch minibatch
bench_commit lib app trainer
ROOT_FLAG=()
[ "$(id -u)" = 0 ] && ROOT_FLAG=(--allow-run-as-root)
NETNS="gnnpart_minibatch_$$"
if [ "$NETWORK" = tcp ]; then
  trap 'ip netns del "$NETNS" 2>/dev/null || true; rm -rf "$WORK"' EXIT
  bench_setup_tcp || exit 1
elif [ "$NETWORK" != shm ]; then
  echo "bench_minibatch: NETWORK is shm or tcp, not $NETWORK" >&2; exit 1
fi

# The stochastic model's fanouts are hop 1 first.
HOP_FANOUTS="$(echo "$FANOUTS" | tr ',' '\n' | tac | paste -sd, -)"

HEADER="commit,network,graph,n,k,partitioner,batch_size,fanouts,steps,measured_rows_per_step"
HEADER+=",predicted_rows_per_step,predicted_stderr,relative_error,exact_steps"
HEADER+=",stochastic_model_rows,load1,measured_step_s,predicted_step_s,step_error,evaluate_step_s"
echo "$HEADER"
echo "$HEADER" > "$WORK/rows.csv"
# COST=calibrate: one profile per rank count on this network, before any graph.
if [ "$COST" = calibrate ]; then
  for k in $KS; do
    bench_launcher "$NETWORK" "$k"
    "${LAUNCH[@]}" "$TRAIN" --calibrate -o "$WORK/profile.$k.json" --transport "$NETWORK" >&2
    # The model's error moves with the calibration: keep what the predictions used.
    [ -z "$KEEP_PROFILES" ] || { mkdir -p "$KEEP_PROFILES" &&
      cp "$WORK/profile.$k.json" "$KEEP_PROFILES/profile.$NETWORK.$k.json"; }
  done
fi
for g in $GRAPHS; do
  graph="$(dataset "$g.edges.gz")"
  [ -n "$graph" ] || { echo "bench_minibatch: no dataset $g" >&2; continue; }
  bench_side_files "$g"
  train_file="$(dataset "$g.train.gz")"
  train_flag=()
  [ -n "$train_file" ] && train_flag=(--train "$train_file")
  for k in $KS; do
    bench_launcher "$NETWORK" "$k"
    [ "$COST" = calibrate ] && cost=(--cost "$WORK/profile.$k.json")
    for p in $PARTITIONERS; do
      part="$WORK/$g.$k.$p.part"
      dir="$WORK/$g.$k.$p"
      # stochastic: the stochastic hypergraph model for one batch of every rank's seeds.
      TRAIN_FILE="$train_file" SAMPLED_BATCH="$((k * BATCH_SIZE))" \
        bench_partition "$p" "$graph" "$k" "$part"
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
      "${LAUNCH[@]}" "$TRAIN" "$dir" \
        --batch-size "$BATCH_SIZE" --fanouts "$FANOUTS" --epochs "$epochs" --seed "$SEED" \
        --feature-dim "$FEATURE_DIM" --predict-samples "$PREDICT_SAMPLES" "${cost[@]}" \
        --json "$WORK/run.json" > /dev/null
      "$GNNPART" evaluate "$graph" "$part" --minibatch "${train_flag[@]}" \
        --batch-size "$((k * BATCH_SIZE))" --fanouts "$HOP_FANOUTS" --samples 200 --json \
        > "$WORK/stochastic.json"
      # The same fresh steps predicted in one process from the partition alone: the trainer's
      # shape (hidden 16, classes = largest label + 1, random dense features).
      echo '{}' > "$WORK/step.json"
      if [ -n "$COST" ]; then
        "$GNNPART" evaluate "$graph" "$part" --minibatch "${train_flag[@]}" "${cost[@]}" \
          --batch-size "$BATCH_SIZE" --fanouts "$HOP_FANOUTS" --samples "$PREDICT_SAMPLES" \
          --seed "$SEED" --feature-dim "$FEATURE_DIM" --classes "$(bench_classes "$g")" --json \
          > "$WORK/step.json"
      fi
      python3 - "$WORK/run.json" "$WORK/stochastic.json" "$COMMIT" "$g" "$k" "$p" "$FANOUTS" \
        "$(cut -d' ' -f1 /proc/loadavg)" "$WORK/step.json" "$NETWORK" <<'EOF' | tee -a "$WORK/rows.csv"
import json, sys
r, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
commit, g, k, p, fanouts, load = sys.argv[3:9]
e = json.load(open(sys.argv[9])).get("minibatch_cost", {}).get("predicted_step_s", -1)
network = sys.argv[10]
rows = r["measured_rows_by_batch"]
exact = sum(a == b for a, b in zip(rows, r["recounted_rows_by_batch"]))
m, pred = r["measured_rows_per_batch"], r["predicted_rows_per_batch"]
# A partition can fetch nothing (every sampled neighbour local): no relative error then.
rel = (m - pred) / pred if pred > 0 else (0.0 if m == 0 else float("inf"))
print(f"{commit},{network},{g},{s['n']},{k},{p},{r['batch_size']},{fanouts.replace(',', '-')},{len(rows)},"
      f"{m:.3f},{pred:.3f},{r['predicted_rows_stderr']:.3f},{rel:.4f},{exact},"
      f"{s['minibatch_volume_mean']:.3f},{load},", end="")
t, tp = r["batch_time_s"], r.get("predicted_batch_time_s", -1)
print((f"{t:.6f},{tp:.6f},{(tp - t) / t:.4f}" if tp > 0 else ",,") +
      (f",{e:.6f}" if e > 0 else ","))
EOF
    done
  done
done
[ -z "$COST" ] || python3 - "$WORK/rows.csv" <<'EOF' >&2
import csv, sys
cases = {}
for row in csv.DictReader(open(sys.argv[1])):
    cases.setdefault((row["network"], row["graph"], row["k"]), []).append(row)
hits = 0
for (net, g, k), rows in cases.items():
    best = min(rows, key=lambda r: float(r["evaluate_step_s"]))
    fastest = min(rows, key=lambda r: float(r["measured_step_s"]))
    gap = float(best["measured_step_s"]) / float(fastest["measured_step_s"]) - 1
    hits += gap <= 0.03
    print(f"bench_minibatch: {net} {g} k={k}: predicted fastest {best['partitioner']}, measured fastest "
          f"{fastest['partitioner']}, gap {gap:.4f}" + (" (within 3%)" if gap <= 0.03 else ""))
print(f"bench_minibatch: predicted fastest within 3% of the measured fastest in {hits} of "
      f"{len(cases)} cases")
EOF
