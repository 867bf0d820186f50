#!/usr/bin/env bash
# Peak memory of the column-net hypergraph model (issue #20: peak RSS at most 3x the model's
# pin array, 4 bytes per pin, on graphs with more than 1M pins), this build against a baseline
# binary in the same sitting.
#   BASE=/path/to/old/gnnpart scripts/bench_hgmem.sh
# Runs `gnnpart partition G.graph -k K --model hypergraph` (unit weights, seed 0) under
# /usr/bin/time -v. Environment: BUILD_DIR (default build), BASE (baseline binary; none: this
# build only), SHARED_DIR, GRAPHS (default: the shared graphs above 1M pins), KS (2 8 32 128),
# THREADS (2), CSV (default BUILD_DIR/bench_hgmem.csv). Graphs are converted once (evalpart) to
# METIS .graph files in BUILD_DIR/bench_cache. CSV columns:
#   commit,dataset,k,threads,tool,pins,peak_rss_mb,rss_over_pins,cpu_s,wall_s,md5
# pins = n + 2m (net u = u and its neighbours); rss_over_pins = peak RSS / (4 bytes x pins);
# cpu_s = user + system time. stderr: per run, the RSS and CPU ratios of this build to BASE.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
GRAPHS="${GRAPHS:-cnr-2000 dblp-2010 cornell5 uk-2007-05-100k}"
KS="${KS:-2 8 32 128}"
THREADS="${THREADS:-2}"
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

bench_csv "commit,dataset,k,threads,tool,pins,peak_rss_mb,rss_over_pins,cpu_s,wall_s,md5" >/dev/null
for name in $GRAPHS; do
  graph="$CACHE/$name.graph"
  bench_metis_graph "$(dataset "$name.edges.gz")" "$graph"
  pins="$(awk '!/^%/ {print $1 + 2 * $2; exit}' "$graph")"
  for k in $KS; do
    tools="gnnpart"
    [ -n "$BASE" ] && tools="base gnnpart"
    declare -A rss=() cpu=()
    for tool in $tools; do
      bin="$GNNPART"
      [ "$tool" = base ] && bin="$BASE"
      read -r r c w m < <(run "$tool" "$bin" "$graph" "$k")
      ratio="$(echo "$r $pins" | awk '{printf "%.2f", $1 * 1048576 / (4 * $2)}')"
      emit "$COMMIT,$name,$k,$THREADS,$tool,$pins,$r,$ratio,$c,$w,$m"
      rss[$tool]="$r"
      cpu[$tool]="$c"
    done
    if [ -n "$BASE" ]; then
      echo "$name k=$k: RSS ${rss[base]} -> ${rss[gnnpart]} MB, CPU ${cpu[base]} -> ${cpu[gnnpart]} s" \
        "($(echo "${cpu[gnnpart]} ${cpu[base]}" | awk '{printf "%.3f", $1 / $2}')x)" >&2
    fi
  done
done
