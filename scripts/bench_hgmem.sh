#!/usr/bin/env bash
# Peak memory of the column-net hypergraph model (issue #20: peak RSS at most 3x the model's
# pin array, 4 bytes per pin, on graphs with more than 1M pins), this build against a baseline
# binaries in the same sitting.
#   BASE=/path/to/old/gnnpart scripts/bench_hgmem.sh
#   BASE="old=/path/a/gnnpart main=/path/b/gnnpart" REPS=3 scripts/bench_hgmem.sh
# Runs `gnnpart partition G.graph -k K --model hypergraph` (unit weights, seed 0) under
# /usr/bin/time -v. Environment: BUILD_DIR (default build), BASE (baseline binaries, each a path
# (labelled base) or LABEL=PATH; none: this build only), REPS (1: runs per binary, alternated
# A B A B ...), SHARED_DIR, GRAPHS (default: the shared graphs above 1M pins), KS (2 8 32 128),
# THREADS (2), CSV (default BUILD_DIR/bench_hgmem.csv). Graphs are converted once (evalpart) to
# METIS .graph files in BUILD_DIR/bench_cache. CSV columns:
#   commit,dataset,k,threads,tool,rep,pins,peak_rss_mb,rss_over_pins,cpu_s,wall_s,md5
# pins = n + 2m (net u = u and its neighbours); rss_over_pins = peak RSS / (4 bytes x pins);
# cpu_s = user + system time. stderr: per graph and k, the medians over the reps of each binary's
# RSS and CPU time, the ratios of this build's to each baseline's, and whether every partition
# had the same md5.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
GRAPHS="${GRAPHS:-cnr-2000 dblp-2010 cornell5 uk-2007-05-100k}"
KS="${KS:-2 8 32 128}"
THREADS="${THREADS:-2}"
REPS="${REPS:-1}"
CSV="${CSV:-$BUILD_DIR/bench_hgmem.csv}"
BASE="${BASE:-}"
source "$ROOT/scripts/bench_common.sh"
bench_scratch hgmem
bench_commit
bench_evalpart
GNNPART="$BUILD_DIR/gnnpart"
[ -x "$GNNPART" ] || { echo "$GNNPART not built" >&2; exit 1; }
CACHE="$BUILD_DIR/bench_cache"
mkdir -p "$CACHE"

# run TOOL BINARY GRAPH K: one row; prints "rss cpu md5".
run() {
  local tool="$1" bin="$2" graph="$3" k="$4" log="$WORK/time.txt" part="$WORK/part"
  rm -f "$part"
  /usr/bin/time -v "$bin" -q partition "$graph" -k "$k" -t "$THREADS" --seed 0 \
    --model hypergraph -o "$part" >"$WORK/stdout.txt" 2>"$log" ||
    { echo "failed: $bin $graph $k" >&2; tail -3 "$log" >&2; return 1; }
  awk -F': ' '
    /User time/ {cpu += $2} /System time/ {cpu += $2}
    /Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]}
    /Maximum resident set size/ {rss = $2 / 1024}
    END {printf "%.1f %.2f %.2f", rss, cpu, s}' "$log"
  echo " $(md5sum <"$part" | cut -d' ' -f1)"
}

# Baselines: labels and binaries, in run order; this build last.
labels=() bins=()
for b in $BASE; do
  case "$b" in
  *=*) labels+=("${b%%=*}") bins+=("${b#*=}") ;;
  *) labels+=(base) bins+=("$b") ;;
  esac
done
labels+=(gnnpart) bins+=("$GNNPART")

median() { tr ' ' '\n' | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

bench_csv "commit,dataset,k,threads,tool,rep,pins,peak_rss_mb,rss_over_pins,cpu_s,wall_s,md5" >/dev/null
for name in $GRAPHS; do
  graph="$CACHE/$name.graph"
  bench_metis_graph "$(dataset "$name.edges.gz")" "$graph"
  pins="$(awk '!/^%/ {print $1 + 2 * $2; exit}' "$graph")"
  for k in $KS; do
    declare -A rss=() cpu=()
    md5s=""
    for rep in $(seq "$REPS"); do
      for i in "${!labels[@]}"; do
        tool="${labels[$i]}"
        read -r r c w m < <(run "$tool" "${bins[$i]}" "$graph" "$k")
        ratio="$(echo "$r $pins" | awk '{printf "%.2f", $1 * 1048576 / (4 * $2)}')"
        emit "$COMMIT,$name,$k,$THREADS,$tool,$rep,$pins,$r,$ratio,$c,$w,$m"
        rss[$tool]="${rss[$tool]:-} $r"
        cpu[$tool]="${cpu[$tool]:-} $c"
        md5s="$md5s $m"
      done
    done
    same="$(echo "$md5s" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l | awk '{print ($1 == 1) ? "same" : "DIFFERENT"}')"
    line="$name k=$k (median of $REPS):"
    mr="$(echo ${rss[gnnpart]} | median)" mc="$(echo ${cpu[gnnpart]} | median)"
    for tool in "${labels[@]}"; do
      [ "$tool" = gnnpart ] && continue
      br="$(echo ${rss[$tool]} | median)" bc="$(echo ${cpu[$tool]} | median)"
      line="$line $tool RSS $br MB CPU $bc s ($(echo "$mc $bc" | awk '{printf "%.3f", $1 / $2}')x);"
    done
    echo "$line gnnpart RSS $mr MB ($(echo "$mr $pins" | awk '{printf "%.2f", $1 * 1048576 / (4 * $2)}')x pins) CPU $mc s; md5 $same" >&2
  done
done
