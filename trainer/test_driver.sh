#!/usr/bin/env bash
# CTest steps of the trainer (registered in trainer/tests.cmake). Environment: GNNPART, TRAIN,
# PYTHON (a python3 with numpy), SOURCE_DIR, SHARED_DIR, WORK (scratch directory).
#   test_driver.sh layout NAME K MODEL     partition with METIS (or MODEL) and write the layout
#   test_driver.sh train NAME K MIN_ACC ARGS...   mpirun -np K gnnpart-train, check the JSON
#   test_driver.sh loader NAME K MODEL     numpy loader checks every .npy of the layout
#   test_driver.sh edge NAME K             HDRF edge partition, vertex-cut layout, loader check
#   test_driver.sh calibrate NAME K        --calibrate on K ranks; evaluate --cost reads the
#                                          profile and predicts the METIS layout's 4 blocks
#   test_driver.sh minibatch NAME K ARGS...  layerwise mini-batches on K ranks and on 1 rank
#                                          (the layout NAME.graph.1): same losses, rows in bounds
#   test_driver.sh fetch NAME K MIN_ACC ARGS...  fetch mini-batches (DistDGL's scheme) on K ranks,
#                                          twice: identical runs; the first step --verify'd;
#                                          measured rows per step equal the recount, and
#                                          --predict --check-batches recounts the dumped
#                                          batches alike (a corrupted dump fails)
# Exit 77 = skipped (the partitioning model is not available in this build).
set -euo pipefail
step=$1 name=$2 k=$3
shift 3

dataset() {  # datasets/ of the project first, then ../shared/datasets
  local f
  for f in "$SOURCE_DIR/datasets/$1" "$SHARED_DIR/datasets/$1"; do
    [ -e "$f" ] && { echo "$f"; return; }
  done
  echo ""
}

graph=$(dataset "$name.edges.gz")
[ -n "$graph" ] || { echo "no dataset $name.edges.gz" >&2; exit 1; }
mkdir -p "$WORK"

case $step in
layout)
  model=$1
  dir="$WORK/$name.$model.$k"
  part="$dir.part"
  if [ "$model" = graph ]; then
    "$GNNPART" partition "$graph" -k "$k" --algo metis --seed 1 -o "$part" --quiet
  elif ! "$GNNPART" partition "$graph" -k "$k" --model "$model" --seed 1 -o "$part" --quiet \
      2> "$dir.err"; then
    cat "$dir.err" >&2
    grep -q "not available" "$dir.err" && { echo "--model $model: skipped" >&2; exit 77; }
    exit 1
  fi
  side=()
  for s in labels train val test features; do
    f=$(dataset "$name.$s.gz")
    [ -n "$f" ] && side+=("--$s" "$f")
  done
  "$GNNPART" layout "$graph" "$part" -o "$dir" --model "$model" "${side[@]}"
  ;;
train)
  min_acc=$1
  shift
  model=graph
  if [ "${1:-}" = "--partition-model" ]; then model=$2; shift 2; fi
  dir="$WORK/$name.$model.$k"
  [ -f "$dir/layout.json" ] || { echo "missing layout $dir" >&2; exit 77; }
  json="$WORK/$name.$model.$k.train.json"
  root=()
  [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
  OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$k" --oversubscribe "${root[@]}" \
    "$TRAIN" "$dir" --verify --json "$json" "$@"
  if [ "$name" = cora ]; then
    # --json through a FIFO: written directly and the FIFO left in place (a rename into place
    # would replace a device such as /dev/null with a regular file).
    fifo="$WORK/$name.$model.$k.fifo"
    rm -f "$fifo"
    mkfifo "$fifo"
    timeout 300 cat "$fifo" > "$json.fifo" &
    reader=$!
    OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$k" --oversubscribe "${root[@]}" \
      "$TRAIN" "$dir" --json "$fifo" "$@" > /dev/null
    wait "$reader"
    [ -p "$fifo" ] || { echo "--json replaced the FIFO by a file" >&2; exit 1; }
    rm -f "$fifo"
    "$PYTHON" -c 'import json, sys; assert json.load(open(sys.argv[1]))["ranks"] > 0' "$json.fifo"
  fi
  "$PYTHON" - "$json" "$min_acc" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
min_acc = float(sys.argv[2])
print(f"measured rows/layer {r['measured_rows_per_layer']} (by layer {r['measured_rows_by_layer']}),"
      f" predicted {r['predicted_rows_per_layer']}, verify diff {r['verify_max_abs_diff']:.3g},"
      f" test accuracy {r['test_accuracy']:.4f}")
assert r["verify_max_abs_diff"] <= 1e-5, "distributed epoch differs from the reference"
assert all(m == r["predicted_rows_per_layer"] for m in r["measured_rows_by_layer"]), \
    "measured rows per layer != predicted communication volume"
# The transposed exchange of a layer moves the same rows back (layer 0 may skip it).
predicted, back = r["predicted_rows_per_layer"], r["measured_backward_rows"]
assert back % max(predicted, 1) == 0 and back <= len(r["measured_rows_by_layer"]) * predicted
assert r["test_accuracy"] >= min_acc, f"test accuracy {r['test_accuracy']} < {min_acc}"
# Per-phase timers: every rank reports every phase; a rank's phases add up to its own epoch,
# which is at most the slowest rank's (means over the epochs after the first).
phases = r["phases_s"]
assert len(phases) == r["ranks"] and [p["rank"] for p in phases] == list(range(r["ranks"]))
times = r["epoch_times_s"][1:] or r["epoch_times_s"]
for p in phases:
    assert all(v >= 0 for v in p.values())
    total = sum(v for key, v in p.items() if key != "rank")
    assert 0 < total <= sum(times) / len(times) * 1.01 + 1e-4, (total, times)
    assert p["gemm"] > 0 and p["spmm_local"] > 0 and p["adam"] > 0
EOF
  ;;
loader)
  model=$1
  dir="$WORK/$name.$model.$k"
  [ -f "$dir/layout.json" ] || { echo "missing layout $dir" >&2; exit 77; }
  "$PYTHON" "$SOURCE_DIR/scripts/layout_loader.py" "$dir"
  ;;
minibatch)
  root=()
  [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
  for ranks in 1 "$k"; do
    dir="$WORK/$name.graph.$ranks"
    [ -f "$dir/layout.json" ] || { echo "missing layout $dir" >&2; exit 77; }
    OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$ranks" --oversubscribe "${root[@]}" \
      "$TRAIN" "$dir" --json "$WORK/$name.minibatch.$ranks.json" "$@"
  done
  "$PYTHON" - "$WORK/$name.minibatch.1.json" "$WORK/$name.minibatch.$k.json" <<'EOF'
import json, sys
one, many = (json.load(open(f)) for f in sys.argv[1:3])
print(f"rows per batch: mean {many['measured_rows_per_batch']:.1f}, max "
      f"{max(many['measured_rows_by_batch'])}, full-batch epoch {many['full_batch_rows_per_epoch']};"
      f" loss {many['final_loss']:.9f} ({one['final_loss']:.9f} on 1 rank);"
      f" test accuracy {many['test_accuracy']:.4f}")
# The sample depends on the seed only, so 1 and k ranks train the same model.
assert abs(one["final_loss"] - many["final_loss"]) <= 1e-9 * max(1.0, abs(one["final_loss"]))
assert abs(one["test_accuracy"] - many["test_accuracy"]) <= 1e-12
assert all(r == 0 for r in one["measured_rows_by_batch"])
# A batch never needs more rows than the full-batch exchange of its layers, and some need some.
assert all(r <= many["full_batch_rows_per_epoch"] for r in many["measured_rows_by_batch"])
assert any(r > 0 for r in many["measured_rows_by_batch"])
assert many["test_accuracy"] >= 0.7
EOF
  ;;
fetch)
  min_acc=$1
  shift
  root=()
  [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
  dir="$WORK/$name.graph.$k"
  [ -f "$dir/layout.json" ] || { echo "missing layout $dir" >&2; exit 77; }
  out="$WORK/$name.fetch.$k"
  for run in a b; do
    verify=()
    [ "$run" = a ] && verify=(--verify)  # the first step against a single-process step
    OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$k" --oversubscribe "${root[@]}" \
      "$TRAIN" "$dir" --minibatch-mode fetch --json "$out.$run.json" "${verify[@]}" \
      --dump-batches "$out.$run.dump.json" --predict-samples 20 "$@"
  done
  cmp "$out.a.dump.json" "$out.b.dump.json" || { echo "same seed, different batches" >&2; exit 1; }
  OMPI_MCA_mpi_yield_when_idle=1 mpirun -np 1 "${root[@]}" "$TRAIN" "$dir" --predict \
    --predict-samples 0 --check-batches "$out.a.dump.json" --json "$out.check.json" "$@"
  # A dump with one fetched row left out must fail the recount (exit 2).
  "$PYTHON" - "$out.a.dump.json" "$out.bad.dump.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
step = next(s for s in d["steps"] if any(r["fetched"] for r in s["ranks"]))
next(r for r in step["ranks"] if r["fetched"])["fetched"].pop()
json.dump(d, open(sys.argv[2], "w"))
EOF
  set +e
  OMPI_MCA_mpi_yield_when_idle=1 mpirun -np 1 "${root[@]}" "$TRAIN" "$dir" --predict \
    --predict-samples 0 --check-batches "$out.bad.dump.json" "$@" > /dev/null
  bad=$?
  set -e
  [ "$bad" = 2 ] || { echo "a corrupted dump passed the check (exit $bad)" >&2; exit 1; }
  "$PYTHON" - "$out.a.json" "$out.b.json" "$out.check.json" "$min_acc" <<'EOF'
import json, sys
a, b, check = (json.load(open(f)) for f in sys.argv[1:4])
min_acc = float(sys.argv[4])
m = a["measured_rows_by_batch"]
print(f"fetch: {len(m)} steps, rows per step mean {a['measured_rows_per_batch']:.2f} "
      f"(min {min(m)}, max {max(m)}), predicted {a['predicted_rows_per_batch']:.2f} "
      f"+- {a['predicted_rows_stderr']:.2f}; loss {a['final_loss']:.6f}; "
      f"test accuracy {a['test_accuracy']:.4f}; verify diff {a['verify_max_abs_diff']:.3g}")
assert 0 <= a["verify_max_abs_diff"] <= 1e-9, "distributed step differs from the reference"
# Identical samples: the rows fetched are the rows recounted on the whole graph, step by step,
# both by the trainer's own recount and by the checker reading the dumped batches.
assert m == a["recounted_rows_by_batch"], "measured != recounted rows"
assert check["checked_steps"] == len(m) and check["mismatched_steps"] == 0
assert check["dumped_rows_by_batch"] == m == check["recounted_rows_by_batch"]
# Same seed: the same run.
assert m == b["measured_rows_by_batch"] and a["final_loss"] == b["final_loss"]
assert any(r > 0 for r in m) and a["predicted_rows_per_batch"] > 0
assert a["test_accuracy"] >= min_acc, f"test accuracy {a['test_accuracy']} < {min_acc}"
EOF
  ;;
calibrate)
  root=()
  [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
  profile="$WORK/$name.profile.$k.json"
  rm -f "$profile"
  # Without -o: one clear error, exit 1, no profile.
  if OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$k" --oversubscribe "${root[@]}" "$TRAIN" \
      --calibrate 2> "$WORK/calibrate.err"; then
    echo "--calibrate without -o succeeded" >&2; exit 1
  fi
  grep -q "needs -o" "$WORK/calibrate.err" || { cat "$WORK/calibrate.err" >&2; exit 1; }
  OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$k" --oversubscribe "${root[@]}" "$TRAIN" \
    --calibrate -o "$profile" --transport shm --calibrate-rows 2000
  part="$WORK/$name.graph.4.part"
  [ -f "$part" ] || { echo "missing $part" >&2; exit 77; }
  "$GNNPART" evaluate "$graph" "$part" --cost "$profile" --feature-dim 64 --hidden 32 --json \
    > "$WORK/$name.cost.json"
  # Fetch mini-batches priced with the profile (the layout has 4 blocks: 4 ranks), and a
  # malformed profile: one line naming FILE:LINE, exit 1, before any training.
  dir="$WORK/$name.graph.4"
  [ -f "$dir/layout.json" ] || { echo "missing layout $dir" >&2; exit 77; }
  OMPI_MCA_mpi_yield_when_idle=1 mpirun -np 4 --oversubscribe "${root[@]}" "$TRAIN" "$dir" \
    --epochs 2 --batch-size 16 --fanouts 5,10 --predict-samples 20 --cost "$profile" \
    --json "$WORK/$name.step_time.json" > /dev/null
  printf '{\n  "name": "bad",\n  "source": "guessed"\n}\n' > "$WORK/bad_profile.json"
  set +e
  OMPI_MCA_mpi_yield_when_idle=1 mpirun -np 4 --oversubscribe "${root[@]}" "$TRAIN" "$dir" \
    --epochs 2 --batch-size 16 --fanouts 5,10 --cost "$WORK/bad_profile.json" \
    > "$WORK/bad_profile.out" 2> "$WORK/bad_profile.err"
  bad=$?
  set -e
  [ "$bad" != 0 ] || { echo "a malformed profile was accepted" >&2; exit 1; }
  [ "$(grep -c 'bad_profile.json:3: ' "$WORK/bad_profile.err")" = 1 ] ||
    { cat "$WORK/bad_profile.err" >&2; exit 1; }
  if grep -q "^epoch" "$WORK/bad_profile.out"; then
    echo "trained on a bad profile" >&2; exit 1
  fi
  "$PYTHON" - "$profile" "$WORK/$name.cost.json" "$WORK/$name.step_time.json" <<'EOF'
import json, sys
profile, cost = (json.load(open(f)) for f in sys.argv[1:3])
print(f"profile: latency {profile['latency_s']:.3g} s, {profile['seconds_per_byte']:.3g} s/byte; "
      f"predicted epoch {cost['cost']['predicted_epoch_s']:.4g} s")
assert profile["source"] == "measured" and profile["ranks"] >= 2
assert profile["latency_s"] > 0 and profile["seconds_per_byte"] > 0
for table in ("spmm", "gemm", "gemm_at_b", "gemm_a_bt"):
    assert all(p["seconds"] > 0 for p in profile[table]), table
# The trainer's HaloExchange (pack, wait per byte, unpack) by rows exchanged, increasing, and
# the banded SpMM blocks (cache hits) at the random blocks' sizes.
for grid in ("pack_grid", "exchange_byte_grid", "unpack_grid", "spmm_near_grid",
             "spmm_transposed_near_grid"):
    rows = [g["rows"] for g in profile[grid]]
    assert len(rows) >= 3 and rows == sorted(set(rows)), (grid, rows)
    assert all(r["seconds"] >= 0 for g in profile[grid] for r in g["rates"]), grid
assert all(r["seconds"] > 0 for grid in ("pack_grid", "unpack_grid", "spmm_near_grid")
           for g in profile[grid] for r in g["rates"])
assert [g["rows"] for g in profile["spmm_near_grid"]] == [g["rows"] for g in profile["spmm_grid"]]
assert profile.get("reuse_cache_bytes", 0) >= 0
# The allreduce by bytes (8 B to 2 MiB, each after the exchange gap) and the shared medium's
# share (absent when 0).
sizes = [p["bytes"] for p in profile["allreduce_table"]]
assert sizes == [8, 65536, 262144, 524288, 1048576, 2097152], sizes
assert all(p["seconds"] > 0 for p in profile["allreduce_table"])
# A larger allreduce never costs less (a preempted smaller size is bounded by the larger's).
times = [p["seconds"] for p in profile["allreduce_table"]]
assert times == sorted(times), times
assert 0 <= profile.get("shared_network", 0) <= 1
assert cost["cost"]["allreduce_s"] > 0
ranks = cost["cost"]["ranks"]
assert len(ranks) == 4 and cost["cost"]["predicted_epoch_s"] > 0
# The figures per rank are the layout's: rows add up to n, sends to the receives.
assert sum(r["rows"] for r in ranks) == cost["n"]
assert sum(r["send_rows"] for r in ranks) == sum(r["recv_rows"] for r in ranks) == cost["comm_volume"]
# The fetch mode's sampling rates, and its steps priced rank by rank.
assert profile["sample_draw_s"] > 0 and profile["sample_index_s"] > 0
step = json.load(open(sys.argv[3]))
assert step["predicted_batch_time_s"] > 0 and step["predicted_batch_time_fresh_s"] > 0
assert len(step["predicted_rank_work_s"]) == 4 and min(step["predicted_rank_work_s"]) > 0
assert max(step["predicted_rank_work_s"]) < step["predicted_batch_time_s"]
print(f"fetch steps: measured {step['batch_time_s']:.4g} s, predicted {step['predicted_batch_time_s']:.4g} s")
EOF
  ;;
edge)
  dir="$WORK/$name.edge.$k"
  "$GNNPART" stream "$graph" -k "$k" --algo hdrf --seed 1 -o "$dir.epart" > /dev/null
  "$GNNPART" layout "$graph" "$dir.epart" -o "$dir" --edge-partition --model hdrf --quiet
  "$PYTHON" "$SOURCE_DIR/scripts/layout_loader.py" "$dir"
  ;;
*)
  echo "unknown step $step" >&2
  exit 2
  ;;
esac
