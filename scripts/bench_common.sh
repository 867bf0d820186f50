# Sourced by scripts/bench_*.sh. Needs ROOT, BUILD_DIR and SHARED_DIR set (GNNPART for
# bench_random_partition).
#   bench_scratch NAME       WORK = a scratch directory removed on exit; calibrates `timed`
#   bench_commit [PATHS...]  COMMIT = short hash, "+dirty" when PATHS (default lib app) changed
#   bench_evalpart           EVALPART = the independent checker, built into BUILD_DIR if missing
#   timed CMD...             runs CMD under /usr/bin/time -v; prints "wall_s peak_rss_mb"
#   last_cpu_s               user + sys seconds of the last `timed` command
#   Clocks: /usr/bin/time -v gives the peak RSS and the CPU time (user + sys, printed to
#   0.01 s). Its own wall clock prints to 0.01 s too, which rounds most runs on small graphs,
#   so wall_s comes from bash's $EPOCHREALTIME (microseconds) read just before and after
#   /usr/bin/time, less what /usr/bin/time itself adds (its exec and fork, about 0.8 ms on the
#   2-core machine): TIMER_OVERHEAD_US, measured once per run of a script by bench_scratch as
#   the median of 21 `/usr/bin/time -v /bin/true` minus the median of 21 `/bin/true`, both
#   timed the same way. wall_s is then the time bash would measure around CMD alone (its fork,
#   exec, run and exit), the same clock for every tool a script compares.
#   dataset NAME             the path of datasets/NAME (the repository's, else shared/'s), or ""
#   bench_side_files NAME    SIDE = (--labels F --train F ...) for the side files of graph NAME
#   bench_metis_graph GZ OUT converts a shared edge list once into an unweighted METIS .graph
#   bench_partition NAME GRAPH K OUT  partitioner NAME (metis graph-cut graph-volume hypergraph
#                            hypergraph-unit max-volume epoch stochastic fennel ldg random) with
#                            SEED; epoch also needs PROFILE LAYERS FEATURE_DIM HIDDEN CLASSES;
#                            stochastic SAMPLED_BATCH (seeds per batch, all ranks), HOP_FANOUTS
#                            and TRAIN_FILE (empty: every vertex trains)
#   bench_launcher NETWORK K  LAUNCH = the mpirun of K ranks over NETWORK: shm (self,vader) or tcp
#                            (self,tcp on lo of network namespace NETNS); uses ROOT_FLAG and,
#                            when set, CPU_LIST (one rank pinned per CPU, scripts/pin_rank.sh)
#   bench_setup_tcp          creates NETNS with lo limited by tbf to TCP_RATE; returns 1 and
#                            says why on stderr when the machine forbids it (needs root)
#   bench_classes NAME       gnnpart-train's class count for graph NAME: largest label + 1 of
#                            its labels file (at least 2), 4 without one (synthetic labels)
#   bench_random_partition GRAPH K SEED OUT  a balanced random split (a seeded shuffle dealt
#                            round-robin), the floor partitioners are compared with
#   bench_build_gnnpart LOG  GNNPART = BUILD_DIR/gnnpart, configured if need be and rebuilt (log in
#                            LOG); an existing binary is kept with a warning when the build fails
#   bench_evaluate GRAPH PART K  prints "edge_cut comm_volume imbalance" (evalpart)
#   bench_csv HEADER         CSV starts with HEADER (a CSV with another header is moved to
#                            CSV.old); ROWS = this invocation's rows; prints HEADER
#   emit ROW                 appends ROW to CSV and ROWS, prints it
#   bench_ufactor EPS        gpmetis's -ufactor for imbalance EPS (in thousandths, rounded)
#   bench_need_gpmetis       exits with a hint when gpmetis is not installed
#   bench_gpmetis GRAPH K SEED EPS  `timed` gpmetis (kway, cut) on a copy of GRAPH in WORK;
#                            prints "wall_s peak_rss_mb"; the partition is WORK/in.graph.part.K
#   bench_threads            CORES = the machine's cores; THREADS (unless set) = 1, 2 and every
#                            power of two up to CORES, and CORES itself
#   bench_size FILE          edges of a METIS .graph, pins of an hMETIS .hgr
#   bench_speedup ROWS SIZES HEADER KEY...  stderr: geometric mean of wall_s(1 thread) /
#                            wall_s(t threads) of the gnnpart rows, per size class and t, paired by
#                            the KEY columns (SIZES: "dataset size" lines)

dataset() {
  local f
  for f in "$ROOT/datasets/$1" "$SHARED_DIR/datasets/$1"; do
    [ -e "$f" ] && { echo "$f"; return; }
  done
  echo ""
}

bench_side_files() {
  local s f
  SIDE=()
  for s in labels train val test; do
    f="$(dataset "$1.$s.gz")"
    [ -n "$f" ] && SIDE+=("--$s" "$f")
  done
  return 0
}

bench_scratch() {
  WORK="$(mktemp -d "/tmp/gnnpart_bench_$1.XXXXXX")"
  trap 'rm -rf "$WORK"' EXIT
  bench_timer_overhead
}

# Median microseconds of 21 runs of CMD... timed the way `timed` times, output discarded.
# ${EPOCHREALTIME/[.,]/}: the clock in microseconds (its decimal point follows the locale),
# read without a subshell.
median_wall_us() {
  local i t0 t1 times=()
  for i in $(seq 21); do
    t0=${EPOCHREALTIME/[.,]/}
    "$@" >/dev/null 2>&1
    t1=${EPOCHREALTIME/[.,]/}
    times+=($((10#$t1 - 10#$t0)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 11p
}

bench_timer_overhead() {
  local bare wrapped
  bare="$(median_wall_us /bin/true)"
  wrapped="$(median_wall_us /usr/bin/time -v /bin/true)"
  TIMER_OVERHEAD_US=$((wrapped > bare ? wrapped - bare : 0))
  echo "timer: wall_s = \$EPOCHREALTIME around /usr/bin/time -v less its own ${TIMER_OVERHEAD_US} us" \
       "(median of 21: ${wrapped} us with it, ${bare} us without, around /bin/true)" >&2
}

bench_commit() {
  local paths=("$@")
  [ ${#paths[@]} -eq 0 ] && paths=(lib app)
  COMMIT="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  if [ -n "$(git -C "$ROOT" status --porcelain -- "${paths[@]}" 2>/dev/null)" ]; then
    COMMIT="$COMMIT+dirty"
  fi
}

bench_evalpart() {
  EVALPART="$BUILD_DIR/evalpart"
  if [ ! -x "$EVALPART" ]; then
    g++ -O3 -march=native -std=c++17 -w -o "$EVALPART" "$SHARED_DIR/tools/evalpart/evalpart.cpp" -lz
  fi
}

timed() {
  local log="$WORK/time.txt" t0 t1 us
  t0=${EPOCHREALTIME/[.,]/}
  if ! /usr/bin/time -v "$@" >"$WORK/stdout.txt" 2>"$log"; then
    echo "command failed: $*" >&2
    tail -5 "$log" >&2
    return 1
  fi
  t1=${EPOCHREALTIME/[.,]/}
  us=$((10#$t1 - 10#$t0 - ${TIMER_OVERHEAD_US:-0}))
  [ "$us" -lt 1 ] && us=1
  awk -F': ' -v us="$us" '
    /Maximum resident set size/ {rss = $2 / 1024}
    END {printf "%.6f %.1f\n", us / 1e6, rss}' "$log"
}

last_cpu_s() {
  awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f\n", s}' "$WORK/time.txt"
}

bench_metis_graph() {
  local gz="$1" graph="$2" n
  [ -s "$graph" ] && return 0
  # The "# vertices: N" header keeps trailing isolated vertices. gzip dies of SIGPIPE when awk
  # stops reading early; under pipefail that must not end the script.
  n="$({ gzip -dc "$gz" 2>/dev/null || true; } | awk '/^# vertices:/ {print $3; exit} !/^#/ {exit}')"
  "$EVALPART" "$gz" ${n:+--n "$n"} --write-metis "$graph.tmp" >/dev/null
  mv "$graph.tmp" "$graph"
}

bench_build_gnnpart() {
  GNNPART="$BUILD_DIR/gnnpart"
  # BENCH_NO_BUILD=1: run the binary that is there (a packed build on a machine that cannot
  # build, scripts/pack_for_remote.sh).
  if [ "${BENCH_NO_BUILD:-0}" = 1 ]; then
    [ -x "$GNNPART" ] || { echo "BENCH_NO_BUILD=1 but $GNNPART is not there" >&2; exit 1; }
    return 0
  fi
  mkdir -p "$BUILD_DIR" "$(dirname "$1")"
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >"$1" 2>&1 ||
      { echo "configuring $BUILD_DIR failed (see $1)" >&2; exit 1; }
  fi
  if ! cmake --build "$BUILD_DIR" --target gnnpart -j2 >"$1" 2>&1; then
    [ -x "$GNNPART" ] || { echo "building gnnpart failed (see $1)" >&2; exit 1; }
    echo "warning: rebuilding gnnpart failed; using the existing $GNNPART" >&2
  fi
}

bench_evaluate() {
  "$EVALPART" -k "$3" "$1" "$2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["edge_cut"], d["comm_volume"], d["imbalance_vertices"])'
}

bench_csv() {
  [ -f "$CSV" ] && [ "$(head -1 "$CSV")" != "$1" ] && mv "$CSV" "$CSV.old"
  [ -f "$CSV" ] || echo "$1" >"$CSV"
  echo "$1"
  ROWS="$WORK/rows.csv"
  : >"$ROWS"
}

emit() {
  echo "$1" | tee -a "$CSV" >>"$ROWS"
  echo "$1"
}

bench_ufactor() {
  awk -v e="$1" 'BEGIN {printf "%d", e * 1000 + 0.5}'
}

bench_need_gpmetis() {
  command -v gpmetis >/dev/null || { echo "gpmetis not found (apt-get install metis)" >&2; exit 1; }
}

bench_gpmetis() {
  cp "$1" "$WORK/in.graph"
  timed gpmetis -ptype=kway -objtype=cut -ufactor="$(bench_ufactor "$4")" -seed="$3" \
    "$WORK/in.graph" "$2"
}

bench_threads() {
  CORES="$(nproc)"
  if [ -z "${THREADS:-}" ]; then
    THREADS="1 2"
    local t=4
    while [ "$t" -le "$CORES" ]; do
      THREADS="$THREADS $t"
      t=$((t * 2))
    done
    [ "$CORES" -gt 2 ] && [ $((CORES & (CORES - 1))) -ne 0 ] && THREADS="$THREADS $CORES"
  fi
  return 0
}

bench_size() {
  case "$1" in
    *.hgr) awk '/^%/ {next} !h {h = 1; nets = $1; fmt = $3 + 0; next}
                done < nets {done++; pins += NF - (fmt == 1 || fmt == 11)} END {print pins}' "$1" ;;
    *) awk '/^%/ {next} {print $2; exit}' "$1" ;;
  esac
}

bench_speedup() {
  python3 - "$@" <<'PY' >&2
import csv, math, sys
from collections import defaultdict
rows_file, sizes_file, header, keys = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4:]
sizes = dict(line.split() for line in open(sizes_file) if line.strip())
def size_class(d):
    m = int(sizes.get(d, 0))
    return "< 100k" if m < 100_000 else "100k-1M" if m < 1_000_000 else ">= 1M"
wall = {}
for r in csv.reader(open(rows_file)):
    r = dict(zip(header, r))
    if r["tool"] == "gnnpart":
        wall[tuple(r[k] for k in keys) + (r["threads"],)] = max(float(r["wall_s"]), 1e-6)
speedups = defaultdict(list)
for key, w in wall.items():
    one = wall.get(key[:-1] + ("1",))
    if one is not None and key[-1] != "1":
        speedups[(size_class(key[keys.index("dataset")]), int(key[-1]))].append(one / w)
order = {"< 100k": 0, "100k-1M": 1, ">= 1M": 2}
for (cls, t), xs in sorted(speedups.items(), key=lambda x: (order[x[0][0]], x[0][1])):
    gm = math.exp(sum(map(math.log, xs)) / len(xs))
    print(f"speedup {t} threads vs 1, graphs with {cls} edges/pins: {gm:.2f} ({len(xs)} runs)")
PY
}

# bench_partition NAME GRAPH K OUT: the partitioners the cost and mini-batch benches compare.
bench_partition() {
  local name=$1 graph=$2 k=$3 out=$4
  local common=(-k "$k" --seed "$SEED" -o "$out" --quiet)
  case $name in
  metis) "$GNNPART" partition "$graph" "${common[@]}" --algo metis ;;
  graph-cut) "$GNNPART" partition "$graph" "${common[@]}" --objective cut ;;
  graph-volume) "$GNNPART" partition "$graph" "${common[@]}" --objective volume ;;
  hypergraph) "$GNNPART" partition "$graph" "${common[@]}" --model hypergraph ;;
  hypergraph-unit) "$GNNPART" partition "$graph" "${common[@]}" --model hypergraph \
                     --vertex-weights unit ;;
  max-volume) "$GNNPART" partition "$graph" "${common[@]}" --model hypergraph \
                --objective max-volume ;;
  epoch) "$GNNPART" partition "$graph" "${common[@]}" --model hypergraph --objective epoch \
           --cost "$PROFILE" --layers "$LAYERS" --feature-dim "$FEATURE_DIM" --hidden "$HIDDEN" \
           --classes "$CLASSES" ;;
  stochastic) "$GNNPART" partition "$graph" "${common[@]}" --model stochastic \
                ${TRAIN_FILE:+--train "$TRAIN_FILE"} --batch-size "$SAMPLED_BATCH" \
                --fanouts "$HOP_FANOUTS" ;;
  fennel | ldg) "$GNNPART" stream "$graph" -k "$k" --algo "$name" -s "$SEED" -o "$out" \
                  >/dev/null ;;
  random) bench_random_partition "$graph" "$k" "$SEED" "$out" ;;  # balanced
  *) echo "unknown partitioner $name" >&2; return 1 ;;
  esac
}

bench_launcher() {
  local network=$1 k=$2
  LAUNCH=(env OMPI_MCA_mpi_yield_when_idle=1 mpirun -np "$k" --oversubscribe "${ROOT_FLAG[@]}")
  if [ "$network" = shm ]; then
    LAUNCH+=(--mca btl self,vader)
  else
    LAUNCH=(ip netns exec "$NETNS" "${LAUNCH[@]}" --mca btl self,tcp --mca btl_tcp_if_include lo
            --mca oob_tcp_if_include lo)
  fi
  if [ -n "${CPU_LIST:-}" ]; then
    LAUNCH+=(--bind-to none "$ROOT/scripts/pin_rank.sh" "$CPU_LIST")
  fi
}

bench_setup_tcp() {
  if [ "$(id -u)" != 0 ]; then
    echo "bench: network tcp skipped: not root (ip netns and tc need root)" >&2; return 1
  fi
  if ! ip netns add "$NETNS" 2>"$WORK/netns.err" || ! ip netns exec "$NETNS" ip link set lo up ||
     ! ip netns exec "$NETNS" tc qdisc add dev lo root tbf rate "$TCP_RATE" burst 256kb \
         latency 50ms 2>>"$WORK/netns.err"; then
    echo "bench: network tcp skipped: the machine forbids it: $(tr '\n' ' ' < "$WORK/netns.err")" >&2
    return 1
  fi
  echo "bench: tcp = MPI over TCP on lo of netns $NETNS, tbf rate $TCP_RATE" >&2
}

bench_classes() {
  local labels
  labels="$(dataset "$1.labels.gz")"
  if [ -z "$labels" ]; then echo 4; return; fi
  gzip -dc "$labels" | awk 'BEGIN{m=1} $1+0>m{m=$1+0} END{print m+1}'
}

bench_random_partition() {
  local graph=$1 k=$2 seed=$3 out=$4 n
  n="$("$GNNPART" info "$graph" --json |
       python3 -c 'import json,sys; print(json.load(sys.stdin)["n"])')"
  python3 - "$n" "$k" "$seed" "$out" <<'PY'
import random, sys
n, k, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
order = list(range(n)); random.Random(seed).shuffle(order)
block = [0] * n
for i, u in enumerate(order): block[u] = i % k
open(out, "w").write("".join(f"{b}\n" for b in block))
PY
}
