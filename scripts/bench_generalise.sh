#!/usr/bin/env bash
# Generalisation benchmark (issue #20): the graph engine's edge cut and the hypergraph model's
# communication volume against gpmetis on generated graphs outside ../shared/datasets, several
# families, several generator seeds, vertex ids relabelled by a random permutation (so no
# locality of a generator's id order can help).
#   scripts/bench_generalise.sh
# Environment (subsets and settings):
#   FAMILIES="mesh web"   names from the suite below (default: all)   KS="2 8 32 128"
#   GEN_SEEDS="1 2"       generator seeds (one graph each)   SEED=0 partitioner seed
#   SCALE=1               multiplies every family's vertex and edge counts
#   THREADS=1 (gnnpart)   EPS=0.03   PRESET=default|fast|strong   HYPERGRAPH=0 skips that model
#   GRAPH=0 skips the graph engine's runs (gpmetis and the hypergraph model only)
#   BUILD_DIR (default build)   SHARED_DIR   CSV (default BUILD_DIR/bench_generalise.csv)
# Suite (name: generate arguments; sizes give 10^4-10^5 edges at SCALE=1):
#   mesh    triangulated 2D grid, 40000 vertices            (structured mesh, max degree 6)
#   grid3d  7-point 3D grid, 27000 vertices                  (structured mesh, max degree 6)
#   hubmesh the 2D mesh plus one vertex of degree 200        (a mesh with one hub)
#   rgg     2D random geometric, 30000 vertices, 150000 edges (unstructured mesh-like)
#   ba      Barabasi-Albert, 20000 vertices, 5 edges each   (power-law, no locality)
#   rmat    R-MAT Graph500 a=.57 b=.19 c=.19, 2^15 vertices, 200000 edges (power-law)
#   web     copying model in hosts, 30000 vertices, <= 240000 edges (web-like)
#   webrmat R-MAT a=.65 b=.15 c=.15, 2^15 vertices, 150000 edges (more skewed, web-like)
# Every graph is generated with --relabel, written as an edge list, converted once to a METIS
# .graph (evalpart) in BUILD_DIR/bench_cache/generated, and every partition is evaluated by
# evalpart. One CSV row per run on stdout and in CSV:
#   commit,family,dataset,n,m,k,seed,threads,tool,model,edge_cut,comm_volume,imbalance,wall_s,peak_rss_mb,cores
# At the end, geometric means go to stderr per family and overall: gnnpart graph cut / gpmetis
# cut (target <= 0.97) and gnnpart hypergraph volume / gpmetis volume (target <= 0.85), paired
# by dataset and k, with the time ratios of the same runs.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SHARED_DIR="${SHARED_DIR:-$ROOT/../shared}"
KS="${KS:-2 8 32 128}"
GEN_SEEDS="${GEN_SEEDS:-1 2}"
SEED="${SEED:-0}"
SCALE="${SCALE:-1}"
THREADS="${THREADS:-1}"
EPS="${EPS:-0.03}"
PRESET="${PRESET:-default}"
HYPERGRAPH="${HYPERGRAPH:-1}"
GRAPH="${GRAPH:-1}"
CSV="${CSV:-$BUILD_DIR/bench_generalise.csv}"
FAMILIES="${FAMILIES:-mesh grid3d hubmesh rgg ba rmat web webrmat}"

# family -> "kind vertices edges [flags]" at SCALE = 1.
suite() {
  case "$1" in
    mesh) echo "mesh 40000 0" ;;
    grid3d) echo "grid3d 27000 0" ;;
    hubmesh) echo "mesh 40000 0 --hub-degree 200" ;;
    rgg) echo "rgg 30000 150000" ;;
    ba) echo "ba 20000 100000" ;;
    rmat) echo "rmat 32768 200000" ;;
    web) echo "web 30000 240000" ;;
    webrmat) echo "rmat 32768 150000 --rmat 0.65 0.15 0.15" ;;
    *) echo "unknown family '$1'" >&2; return 1 ;;
  esac
}

source "$ROOT/scripts/bench_common.sh"
bench_build_gnnpart "$BUILD_DIR/bench_generalise_build.log"
bench_evalpart
bench_need_gpmetis
CORES="$(nproc)"

CACHE="$BUILD_DIR/bench_cache/generated"
mkdir -p "$CACHE"
bench_scratch generalise
bench_commit

header="commit,family,dataset,n,m,k,seed,threads,tool,model,edge_cut,comm_volume,imbalance,wall_s,peak_rss_mb,cores"
bench_csv "$header"

for family in $FAMILIES; do
  read -r kind vertices edges flags < <(suite "$family")
  vertices="$(awk -v x="$vertices" -v s="$SCALE" 'BEGIN {printf "%d", x * s}')"
  edges="$(awk -v x="$edges" -v s="$SCALE" 'BEGIN {printf "%d", x * s}')"
  for gen_seed in $GEN_SEEDS; do
    name="${family}_n${vertices}_s${gen_seed}"
    gz="$CACHE/$name.edges.gz"
    graph="$CACHE/$name.graph"
    if [ ! -s "$gz" ]; then
      # shellcheck disable=SC2086  # flags are words
      "$GNNPART" --quiet generate "$kind" --vertices "$vertices" --edges "$edges" \
        --seed "$gen_seed" --relabel $flags -o "$gz"
    fi
    bench_metis_graph "$gz" "$graph"
    read -r n m < <(awk '/^%/ {next} {print $1, $2; exit}' "$graph")
    for k in $KS; do
      read -r wall rss < <(bench_gpmetis "$graph" "$k" "$SEED" "$EPS")
      read -r cut vol imb < <(bench_evaluate "$graph" "$WORK/in.graph.part.$k" "$k")
      emit "$COMMIT,$family,$name,$n,$m,$k,$SEED,1,gpmetis,graph,$cut,$vol,$imb,$wall,$rss,$CORES"
      if [ "$GRAPH" = 1 ]; then
        read -r wall rss < <(timed "$GNNPART" partition "$graph" -k "$k" --model graph \
          --preset "$PRESET" -e "$EPS" --seed "$SEED" -t "$THREADS" -o "$WORK/out.part")
        read -r cut vol imb < <(bench_evaluate "$graph" "$WORK/out.part" "$k")
        emit "$COMMIT,$family,$name,$n,$m,$k,$SEED,$THREADS,gnnpart,graph,$cut,$vol,$imb,$wall,$rss,$CORES"
      fi
      [ "$HYPERGRAPH" = 1 ] || continue
      read -r wall rss < <(timed "$GNNPART" partition "$graph" -k "$k" --model hypergraph \
        --vertex-weights unit --preset "$PRESET" -e "$EPS" --seed "$SEED" -t "$THREADS" \
        -o "$WORK/out.part")
      read -r cut vol imb < <(bench_evaluate "$graph" "$WORK/out.part" "$k")
      emit "$COMMIT,$family,$name,$n,$m,$k,$SEED,$THREADS,gnnpart,hypergraph,$cut,$vol,$imb,$wall,$rss,$CORES"
    done
  done
done

python3 "$ROOT/scripts/generalise_summary.py" "$ROWS" "$header" "$EPS" >&2
