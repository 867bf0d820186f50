#!/usr/bin/env bash
# Epoch-time model against the trainer (docs/cost_model.md): for every (network, graph, k) it
# calibrates a profile with `gnnpart-train --calibrate` on k ranks, predicts every partition's
# epoch time with `gnnpart evaluate --cost`, trains each with gnnpart-train and takes the median
# epoch after the warm-up, over several rounds that visit the partitions round-robin (so that
# load from other jobs falls on all of them alike). One CSV row per run on stdout; the summary
# (geometric-mean error, rank correlation, whether the predicted fastest is the measured fastest
# or within 3% of it) goes to $SUMMARY, progress to stderr.
# Networks: shm (MPI over shared memory) and tcp (MPI over TCP on the loopback of a private
# network namespace whose bandwidth `tc qdisc ... tbf` limits; needs root, `ip netns` and tbf;
# the script says so and skips it when the machine forbids it).
# Timing under load: with sched_autogroup a nice value only acts inside its session, so run it
# in its own session with the group's nice lowered (docs/cost_model.md, "Scheduling"):
#   setsid -w bash -c 'echo -15 > /proc/self/autogroup && exec nice -n -15 "$@"' _ scripts/bench_cost.sh
# Environment (all optional):
#   BUILD_DIR (build)  GRAPHS ("cora citeseer pubmed ca-condmat soc-brightkite")  KS ("2 4 8")
#   NETWORKS ("shm tcp")  TCP_RATE (1gbit)  FEATURE_DIM (256)  HIDDEN (128)  LAYERS (2)
#   EPOCHS (auto: enough for RUN_SECONDS (2) of the fastest predicted epoch, 8 to 60)
#   WARMUP (2)  ROUNDS (3: partitioners whose partitions are byte-identical pool their runs)
#   PARTITIONERS (all of: metis graph-cut graph-volume hypergraph
#   hypergraph-unit max-volume epoch fennel ldg random; `epoch` is the hypergraph engine's
#   --objective epoch with the network's profile, so it is partitioned per network, after the
#   calibration)  SUMMARY (cost_summary.csv)  SEED (1)
#   PHASES (cost_phases.csv: per run and rank, each phase's predicted and measured seconds, the
#   trainer's --json "phases_s" of the median round against evaluate --cost's); the summary's
#   rounds_ok is the rounds' own ranking (cost_summary.py --rounds): the test's noise ceiling
#   CPUS (unset: the whole machine, Open MPI's default binding): a CPU set as taskset reads it
#   ("0-7", "8-15", "0,2,4"); the script re-runs itself under `taskset -c CPUS` (partitioners,
#   layouts and mpirun stay inside), every mpirun gets --bind-to none and scripts/pin_rank.sh
#   pins rank r to the set's (r mod |CPUS|)-th CPU, and ranks_per_core is k / |CPUS|. The
#   default SUMMARY and PHASES, the scratch directory and the network namespace carry the set
#   in their names, so several instances on disjoint sets run at once (docs/cost_model.md,
#   "Several instances on one machine").
#   KEEP_DIR (unset): a directory that receives, per (network, graph, k) in NETWORK.GRAPH.K/,
#   the calibrated profile, the calibration's output, the partitions, evaluate's prediction and
#   every run's --json, for TCP `tc -s qdisc` of the namespace (the bucket's drops and
#   overlimits so far), and machine.txt (lscpu, Open MPI, CPUS): what a run on a borrowed
#   machine needs to be diagnosed afterwards, or re-predicted with another model
#   (`gnnpart evaluate GRAPH DIR/*.part --cost DIR/profile.json ...`).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CPUS="${CPUS:-}"
if [ -n "$CPUS" ] && [ -z "${BENCH_COST_PINNED:-}" ]; then
  command -v taskset >/dev/null || { echo "bench_cost: CPUS needs taskset (util-linux)" >&2; exit 1; }
  BENCH_COST_PINNED=1 exec taskset -c "$CPUS" bash "$0" "$@"
fi
# TAG names this instance's files and namespace: "cpus0-7" for CPUS=0-7, "" without CPUS.
TAG=""
CPU_LIST=""
if [ -n "$CPUS" ]; then
  TAG="cpus${CPUS//,/_}"
  CPU_LIST="$(python3 -c 'import sys
cpus = []
for part in sys.argv[1].split(","):
    lo, _, hi = part.partition("-")
    cpus += range(int(lo), int(hi or lo) + 1)
print(",".join(map(str, cpus)))' "$CPUS")"
fi
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${GNNPART_SHARED_DIR:-$ROOT/../shared}"
GNNPART="$BUILD_DIR/gnnpart"
TRAIN="$BUILD_DIR/gnnpart-train"
GRAPHS="${GRAPHS:-cora citeseer pubmed ca-condmat soc-brightkite}"
KS="${KS:-2 4 8}"
NETWORKS="${NETWORKS:-shm tcp}"
TCP_RATE="${TCP_RATE:-1gbit}"
FEATURE_DIM="${FEATURE_DIM:-256}"
HIDDEN="${HIDDEN:-128}"
LAYERS="${LAYERS:-2}"
EPOCHS="${EPOCHS:-auto}"
RUN_SECONDS="${RUN_SECONDS:-2}"
WARMUP="${WARMUP:-2}"
ROUNDS="${ROUNDS:-3}"
SEED="${SEED:-1}"
PARTITIONERS="${PARTITIONERS:-metis graph-cut graph-volume hypergraph hypergraph-unit max-volume epoch fennel ldg random}"
SUMMARY="${SUMMARY:-cost_summary${TAG:+.$TAG}.csv}"
PHASES="${PHASES:-cost_phases${TAG:+.$TAG}.csv}"
KEEP_DIR="${KEEP_DIR:-}"
echo "network,graph,k,partitioner,rank,phase,predicted_s,measured_s" > "$PHASES"
source "$ROOT/scripts/bench_common.sh"
bench_scratch "cost${TAG:+_$TAG}"
bench_commit lib app trainer
CORES="$(nproc)"  # the whole machine, or under taskset the set
if [ -n "$CPU_LIST" ]; then
  CORES="$(echo "$CPU_LIST" | tr ',' '\n' | wc -l)"
  echo "bench_cost: CPUS=$CPUS: $CORES CPUs ($CPU_LIST), one rank pinned to each" >&2
fi
ROOT_FLAG=()
[ "$(id -u)" = 0 ] && ROOT_FLAG=(--allow-run-as-root)
NETNS="gnnpart_cost${TAG:+_$TAG}_$$"
if [ -n "$KEEP_DIR" ]; then
  mkdir -p "$KEEP_DIR"
  { date -u; echo "CPUS=${CPUS:-all} ($CPU_LIST) commit $COMMIT"; uname -a; lscpu
    lscpu -e; mpirun --version 2>&1 | head -1; } > "$KEEP_DIR/machine.txt" 2>&1 || true
fi
trap 'ip netns del "$NETNS" 2>/dev/null || true; rm -rf "$WORK"' EXIT


HEADER="commit,network,graph,n,k,ranks_per_core,partitioner,layers,feature_dim,hidden,classes,predicted_s,measured_s,error,critical_rank,load1"
echo "$HEADER"
echo "$HEADER" > "$WORK/rows.csv"
echo "network,graph,k,partitioner,round,epoch_s" > "$WORK/rounds.csv"

# Partitions and layouts once per (graph, k).
for g in $GRAPHS; do
  graph="$(dataset "$g.edges.gz")"
  [ -n "$graph" ] || { echo "bench_cost: no dataset $g" >&2; continue; }
  bench_side_files "$g"
  for k in $KS; do
    for p in $PARTITIONERS; do
      [ "$p" = epoch ] && continue  # needs the network's profile: below
      bench_partition "$p" "$graph" "$k" "$WORK/$g.$k.$p.part"
      "$GNNPART" layout "$graph" "$WORK/$g.$k.$p.part" -o "$WORK/$g.$k.$p" "${SIDE[@]}" >/dev/null
    done
  done
done

for network in $NETWORKS; do
  if [ "$network" = tcp ]; then bench_setup_tcp || continue; fi
  for g in $GRAPHS; do
    graph="$(dataset "$g.edges.gz")"
    [ -n "$graph" ] || continue
    classes="$(bench_classes "$g")"
    n="$("$GNNPART" info "$graph" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["n"])')"
    for k in $KS; do
      bench_launcher "$network" "$k"
      profile="$WORK/profile.$network.$k.json"
      "${LAUNCH[@]}" "$TRAIN" --calibrate -o "$profile" --transport "$network" \
        > "$WORK/calibrate.txt"
      cat "$WORK/calibrate.txt" >&2
      if [[ " $PARTITIONERS " == *" epoch "* ]]; then
        PROFILE="$profile" CLASSES="$classes" bench_partition epoch "$graph" "$k" "$WORK/$g.$k.epoch.part"
        bench_side_files "$g"
        rm -rf "$WORK/$g.$k.epoch"
        "$GNNPART" layout "$graph" "$WORK/$g.$k.epoch.part" -o "$WORK/$g.$k.epoch" "${SIDE[@]}" \
          >/dev/null
      fi
      parts=()
      for p in $PARTITIONERS; do parts+=("$WORK/$g.$k.$p.part"); done
      "$GNNPART" evaluate "$graph" "${parts[@]}" --cost "$profile" --layers "$LAYERS" \
        --feature-dim "$FEATURE_DIM" --hidden "$HIDDEN" --classes "$classes" --json \
        > "$WORK/predicted.json"
      epochs="$EPOCHS"
      if [ "$epochs" = auto ]; then
        epochs="$(python3 -c 'import json, math, sys
d = json.load(open(sys.argv[1]))  # one partition: no ranking, its "cost"
fastest = min(c["predicted_epoch_s"] for c in d.get("ranking", [d.get("cost")]))
print(max(8, min(60, math.ceil(float(sys.argv[2]) / fastest))))' "$WORK/predicted.json" "$RUN_SECONDS")"
      fi
      for round in $(seq "$ROUNDS"); do
        for p in $PARTITIONERS; do
          "${LAUNCH[@]}" "$TRAIN" "$WORK/$g.$k.$p" --epochs "$epochs" --layers "$LAYERS" \
            --feature-dim "$FEATURE_DIM" --hidden "$HIDDEN" --seed "$SEED" \
            --json "$WORK/run.$p.$round.json" >/dev/null
        done
      done
      load="$(cut -d' ' -f1 /proc/loadavg)"
      if [ -n "$KEEP_DIR" ]; then
        keep="$KEEP_DIR/$network.$g.$k"
        mkdir -p "$keep"
        cp "$profile" "$keep/profile.json"
        cp "$WORK/calibrate.txt" "$WORK/predicted.json" "$keep/"
        for p in $PARTITIONERS; do cp "$WORK"/run."$p".*.json "$WORK/$g.$k.$p.part" "$keep/"; done
        [ "$network" = tcp ] && ip netns exec "$NETNS" tc -s qdisc show dev lo > "$keep/qdisc.txt"
        echo "$load" > "$keep/load.txt"
      fi
      python3 - "$WORK" "$g" "$k" "$network" "$COMMIT" "$n" "$CORES" "$LAYERS" "$FEATURE_DIM" \
        "$HIDDEN" "$classes" "$WARMUP" "$ROUNDS" "$load" "$PHASES" $PARTITIONERS <<'PY'
import json, statistics, sys
work, g, k, network, commit, n, cores, layers, fdim, hidden, classes, warmup, rounds, load, \
    phases_csv = sys.argv[1:16]
partitioners = sys.argv[16:]
predicted = {}
evaluated = json.load(open(f"{work}/predicted.json"))
for case in evaluated.get("ranking", [evaluated.get("cost")]):  # one partition: its "cost"
    name = case["partition"].rsplit("/", 1)[1][len(f"{g}.{k}."):-len(".part")]
    predicted[name] = (case["predicted_epoch_s"], case["critical_rank"], case["ranks"])
# Partitioners that return the same partition (byte-identical files) are one partition: their
# runs are pooled, and every one of them gets the pooled median (at k = 2 several coincide; runs
# of one partition differ by as much as the partitions do).
content = {p: open(f"{work}/{g}.{k}.{p}.part", "rb").read() for p in partitioners}
# Every run's median epoch by round, for the rounds' own ranking (cost_summary.py --rounds).
with open(f"{work}/rounds.csv", "a") as out:
    for p in partitioners:
        for r in range(1, int(rounds) + 1):
            times = json.load(open(f"{work}/run.{p}.{r}.json"))["epoch_times_s"][int(warmup):]
            out.write(f"{network},{g},{k},{p},{r},{statistics.median(times):.6f}\n")
for p in partitioners:
    runs = []
    for twin in (q for q in partitioners if content[q] == content[p]):
        for r in range(1, int(rounds) + 1):
            run = json.load(open(f"{work}/run.{twin}.{r}.json"))
            runs.append((statistics.median(run["epoch_times_s"][int(warmup):]), run))
    runs.sort(key=lambda x: x[0])
    measured = statistics.median(t for t, _ in runs)
    median_run = runs[len(runs) // 2][1]
    pred, critical, pred_ranks = predicted[p]
    with open(phases_csv, "a") as out:
        for rank, (m, q) in enumerate(zip(median_run.get("phases_s", []), pred_ranks)):
            for phase, seconds in q["phases_s"].items():
                out.write(f"{network},{g},{k},{p},{rank},{phase},{seconds:.6g},{m[phase]:.6g}\n")
    row = (f"{commit},{network},{g},{n},{k},{int(k) / int(cores):g},{p},{layers},{fdim},{hidden},"
           f"{classes},{pred:.6f},{measured:.6f},{(pred - measured) / measured:.4f},{critical},{load}")
    print(row, flush=True)
    open(f"{work}/rows.csv", "a").write(row + "\n")
PY
      echo "bench_cost: $network $g k=$k done ($epochs epochs per run, load $load)" >&2
    done
  done
  [ "$network" = tcp ] && ip netns del "$NETNS"
done
python3 "$ROOT/scripts/cost_summary.py" "$WORK/rows.csv" --summary "$SUMMARY" \
  --rounds "$WORK/rounds.csv" >&2
if [ -n "$KEEP_DIR" ]; then
  for f in "$WORK/rows.csv" "$WORK/rounds.csv" "$PHASES" "$SUMMARY"; do
    [ "$f" -ef "$KEEP_DIR/$(basename "$f")" ] || cp "$f" "$KEEP_DIR/"
  done
fi
