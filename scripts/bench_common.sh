# Sourced by scripts/bench_*.sh. Needs ROOT, BUILD_DIR and SHARED_DIR set.
#   bench_scratch NAME       WORK = a scratch directory removed on exit
#   bench_commit [PATHS...]  COMMIT = short hash, "+dirty" when PATHS (default lib app) changed
#   bench_evalpart           EVALPART = the independent checker, built into BUILD_DIR if missing
#   timed CMD...             runs CMD under /usr/bin/time -v; prints "wall_s peak_rss_mb"
#   bench_metis_graph GZ OUT converts a shared edge list once into an unweighted METIS .graph

bench_scratch() {
  WORK="$(mktemp -d "/tmp/gnnpart_bench_$1.XXXXXX")"
  trap 'rm -rf "$WORK"' EXIT
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
  local log="$WORK/time.txt"
  if ! /usr/bin/time -v "$@" >"$WORK/stdout.txt" 2>"$log"; then
    echo "command failed: $*" >&2
    tail -5 "$log" >&2
    return 1
  fi
  awk -F': ' '
    /Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]}
    /Maximum resident set size/ {rss = $2 / 1024}
    END {printf "%.2f %.1f\n", s, rss}' "$log"
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
