#!/bin/bash
# scripts/stream_metrics.py (the bounded-memory check used for the 10^9-edge run, which
# evalpart cannot hold) against `gnnpart evaluate` on a small generated edge stream, for a
# multilevel and a streaming partition, every key they share.
# Usage: stream_metrics_agreement.sh GNNPART SCRIPTS_DIR. Skipped (77) without numpy.
set -u
gnnpart=$1
script=$2/stream_metrics.py
/usr/bin/python3 -c 'import numpy' 2> /dev/null || { echo "SKIP: no numpy"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$gnnpart" generate rmat --vertices 20000 --edges 150000 --relabel --seed 3 -o "$dir/g.bin" \
  > /dev/null || exit 1
"$gnnpart" partition "$dir/g.bin" -k 8 -o "$dir/ml.8" > /dev/null || exit 1
"$gnnpart" stream "$dir/g.bin" -k 32 --algo fennel -o "$dir/fennel.32" > /dev/null || exit 1
status=0
for run in ml:8 fennel:32; do
  part=$dir/${run%:*}.${run#*:}
  k=${run#*:}
  "$gnnpart" evaluate "$dir/g.bin" "$part" --json > "$dir/eval.json" || exit 1
  # Three passes over vertex ranges, so that the volume's range split is exercised.
  /usr/bin/python3 "$script" "$dir/g.bin" "$part" "$k" --volume-passes 3 > "$dir/stream.json" ||
    exit 1
  /usr/bin/python3 - "$dir/eval.json" "$dir/stream.json" "$run" << 'PY' || status=1
import json, sys
evaluated, streamed = (json.load(open(p)) for p in sys.argv[1:3])
keys = ['n', 'm', 'k', 'edge_cut', 'comm_volume', 'empty_blocks']
bad = [key for key in keys if evaluated[key] != streamed[key]]
if abs(evaluated['imbalance_vertices'] - streamed['imbalance_vertices']) > 1e-6:
    bad.append('imbalance_vertices')
print(sys.argv[3], {key: (evaluated[key], streamed[key]) for key in keys})
if streamed['edge_cut'] == 0 or bad:
    print('FAIL:', bad or 'no edge cut to compare')
    sys.exit(1)
PY
done
[ "$status" -eq 0 ] && echo PASS
exit "$status"
