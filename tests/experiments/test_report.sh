#!/usr/bin/env bash
# CTest experiments_report: runs scripts/experiments/run.sh on Cora at k in {2, 4} (the trainer at
# k = 2 when gnnpart-train is built) into a temporary directory, checks that every figure of the
# generated REPORT.md is recomputed from the CSV (check_report.py), and that the checker rejects a
# report with one figure altered. Usage: test_report.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1" build="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export BUILD_DIR="$build" EXP_OUT="$tmp/results" EXP_DATASETS=cora EXP_KS="2 4" EXP_TRAIN_KS=2
export EXP_TRAIN_DATASETS=cora EXP_GENERATED= EXP_GEN_KS=
[ -x "$build/gnnpart-train" ] && command -v mpirun >/dev/null || export EXP_NO_TRAIN=1
bash "$src/scripts/experiments/run.sh" --quick 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
for f in REPORT.md volume_vs_k.png time_vs_edges.png quality_vs_time.png \
         predicted_vs_measured.png partition.csv trainer.csv; do
  [ -s "$EXP_OUT/$f" ] || { echo "test_report: $f missing" >&2; exit 1; }
done
rows=$(($(wc -l <"$EXP_OUT/partition.csv") - 1))
[ "$rows" -eq 20 ] || { echo "test_report: $rows partition rows, expected 2 k x 10 methods" >&2; exit 1; }
/usr/bin/python3 "$src/tests/experiments/check_report.py" "$EXP_OUT"

# The checker must notice a wrong figure: change METIS's comm volume ratio of graph-volume.
cp -r "$EXP_OUT" "$tmp/bad"
/usr/bin/python3 - "$tmp/bad/REPORT.md" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
row = re.search(r"^\| graph-volume \| \d+ \| ([0-9.]+) \|", s, re.M)
bad = f"{float(row.group(1)) + 0.01:.3f}"
s = s[:row.start(1)] + bad + s[row.end(1):]
open(p, "w").write(s)
PY
if /usr/bin/python3 "$src/tests/experiments/check_report.py" "$tmp/bad" 2>/dev/null; then
  echo "test_report: the checker accepted an altered report" >&2
  exit 1
fi
echo "test_report: ok"
