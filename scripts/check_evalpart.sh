#!/usr/bin/env bash
# Agreement of `gnnpart evaluate` with the independent checker evalpart (../shared/tools/evalpart)
# on METIS partitions of every graph in ../shared/datasets/*.edges.gz. Prints one CSV line per
# graph and k; exits non-zero on any mismatch.
#
# usage: scripts/check_evalpart.sh [GNNPART [EVALPART]]
#   defaults: build/gnnpart and build/tests/evalpart; K_LIST="8" (space-separated k values),
#   DATASETS=../shared/datasets.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gnnpart=${1:-$root/build/gnnpart}
evalpart=${2:-$root/build/tests/evalpart}
datasets=${DATASETS:-$root/../shared/datasets}
k_list=${K_LIST:-8}

for tool in "$gnnpart" "$evalpart"; do
  [ -x "$tool" ] || { echo "check_evalpart: $tool is not an executable (build first)" >&2; exit 2; }
done
shopt -s nullglob
graphs=("$datasets"/*.edges.gz)
[ ${#graphs[@]} -gt 0 ] || { echo "check_evalpart: no *.edges.gz in $datasets" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Value of a top-level number in a flat JSON object.
json_value() {
  local match
  match=$(grep -o "\"$2\": [-0-9.eE+]*" <<<"$1" | head -n 1) || true
  echo "${match#*: }"
}

keys=(n m edge_cut comm_volume max_send_volume max_recv_volume imbalance_vertices num_comm_pairs
  boundary_vertices empty_blocks)
echo "graph,k,${keys[*]// /,},seconds,status" | tr ' ' ','
failures=0
for graph in "${graphs[@]}"; do
  name=$(basename "$graph" .edges.gz)
  n=$(set +o pipefail; gzip -dc "$graph" | sed -n '/^[^#%]/q; s/^# vertices: *\([0-9][0-9]*\).*/\1/p')
  for k in $k_list; do
    start=$(date +%s.%N)
    part=$tmp/$name.part.$k
    status=ok
    if ! "$gnnpart" partition "$graph" -k "$k" --algo metis --seed 1 -o "$part" --quiet; then
      echo "$name,$k,partition failed" ; failures=$((failures + 1)); continue
    fi
    ours=$("$gnnpart" evaluate "$graph" "$part" -k "$k" --json) || status=evaluate_failed
    theirs=$("$evalpart" -k "$k" ${n:+--n "$n"} "$graph" "$part") || status=evalpart_failed
    line="$name,$k"
    if [ "$status" = ok ]; then
      for key in "${keys[@]}"; do
        a=$(json_value "$ours" "$key")
        b=$(json_value "$theirs" "$key")
        if [ -z "$a" ] || [ -z "$b" ] ||
          ! awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6) }'; then
          status=mismatch
          echo "check_evalpart: $name k=$k: $key gnnpart=$a evalpart=$b" >&2
        fi
        line="$line,$a"
      done
    fi
    seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
    echo "$line,$seconds,$status"
    [ "$status" = ok ] || failures=$((failures + 1))
  done
done
if [ "$failures" -gt 0 ]; then
  echo "check_evalpart: $failures disagreement(s)" >&2
  exit 1
fi
echo "check_evalpart: gnnpart evaluate agrees with evalpart on ${#graphs[@]} graphs" >&2
