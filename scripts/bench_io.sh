#!/usr/bin/env bash
# I/O throughput benchmark: one CSV row per run on stdout.
#   scripts/bench_io.sh [DATASET ...]        (names from ../shared/datasets, default cnr-2000)
# Environment: BUILD_DIR (default build-io), THREADS (default "1 2"), REPEATS (default 5),
# SHARED_DIR (default ../shared beside the repository).
# Rows: commit,dataset,mode,threads,bytes,seconds,mb_per_s,n,m,peak_rss_kb
#   edgelist_plain  read_edge_list of the gunzipped text (mmap + parallel parse)
#   edgelist_gz     read_edge_list of the .gz file (sequential inflate, then parallel parse)
#   graph_plain     read_graph of the text: parse + symmetric CSR build
#   binary          read_binary_graph of the .gnnp cache written from it
# MB/s = uncompressed text bytes (binary: file bytes) / best wall time of REPEATS reads inside
# one process; peak RSS from /usr/bin/time -v of that process. A summary line on stderr gives
# the binary load speed-up over parsing the text edge list.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-io}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
THREADS="${THREADS:-1 2}"
REPEATS="${REPEATS:-5}"
DATASETS=("$@")
[ ${#DATASETS[@]} -eq 0 ] && DATASETS=(cnr-2000)

if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
if ! cmake --build "$BUILD_DIR" --target gnnpart_io -j2 >"/tmp/gnnpart_bench_io_build.$$.log" 2>&1; then
  cat "/tmp/gnnpart_bench_io_build.$$.log" >&2
  rm -f "/tmp/gnnpart_bench_io_build.$$.log"
  exit 1
fi
rm -f "/tmp/gnnpart_bench_io_build.$$.log"
DRIVER="$BUILD_DIR/bench_io_driver"
g++ -std=c++20 -O3 -march=native -I"$ROOT/lib" -o "$DRIVER" "$ROOT/scripts/bench_io_driver.cc" \
  "$BUILD_DIR/libgnnpart_io.a" "$BUILD_DIR/libgnnpart_core.a" -ltbb -lfmt -lz

WORK="$(mktemp -d /tmp/gnnpart_bench_io.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git -C "$ROOT" status --porcelain -- lib/io 2>/dev/null)" ]; then COMMIT="$COMMIT+dirty"; fi

# run NAME MODE THREADS PATH: one CSV row.
run() {
  local name="$1" mode="$2" threads="$3" path="$4" out rss
  out="$(/usr/bin/time -v "$DRIVER" "$mode" "$path" "$threads" "$REPEATS" 2>"$WORK/time.txt")"
  rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")"
  IFS=, read -r seconds bytes n m <<<"$out"
  local mbps
  mbps="$(awk -v b="$bytes" -v s="$seconds" 'BEGIN {printf "%.1f", b / 1e6 / s}')"
  echo "$COMMIT,$name,$mode,$threads,$bytes,$seconds,$mbps,$n,$m,$rss"
}

echo "commit,dataset,mode,threads,bytes,seconds,mb_per_s,n,m,peak_rss_kb"
for name in "${DATASETS[@]}"; do
  gz="$SHARED_DIR/datasets/$name.edges.gz"
  plain="$WORK/$name.edges"
  cache="$WORK/$name.gnnp"
  gzip -dc "$gz" >"$plain"
  "$DRIVER" write-binary "$plain" 0 1 "$cache" >/dev/null
  : >"$WORK/rows.csv"
  for t in $THREADS; do
    run "$name" edgelist "$t" "$plain" | sed 's/,edgelist,/,edgelist_plain,/' >>"$WORK/rows.csv"
    run "$name" edgelist "$t" "$gz" | sed 's/,edgelist,/,edgelist_gz,/' >>"$WORK/rows.csv"
    run "$name" graph "$t" "$plain" | sed 's/,graph,/,graph_plain,/' >>"$WORK/rows.csv"
    run "$name" binary "$t" "$cache" >>"$WORK/rows.csv"
  done
  cat "$WORK/rows.csv"
  # Speed-up of the binary cache over parsing the text: best time of each over all thread counts.
  awk -F, -v d="$name" '
    $3 == "edgelist_plain" && (p == "" || $6 < p) {p = $6}
    $3 == "graph_plain" && (g == "" || $6 < g) {g = $6}
    $3 == "binary" && (b == "" || $6 < b) {b = $6}
    END {printf "# %s: binary load %.1fx faster than parsing the text edge list, %.1fx faster than parse + CSR build\n", d, p / b, g / b}
  ' "$WORK/rows.csv" >&2
  rm -f "$plain" "$cache"
done
