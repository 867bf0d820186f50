#!/usr/bin/env bash
# Runs the "GNN walkthrough" block of README.md verbatim in a scratch directory (with `build`
# and `datasets` linked there) and checks what it promises: Cora trains to a real test
# accuracy without layout warnings, its mini-batch run fetches exactly the recounted rows, the
# generated graph chains through partition, layout and the trainer, and that run warns that it
# has no labels.
#   readme_walkthrough.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir="$1"
build_dir="$2"
[ -x "$build_dir/gnnpart-train" ] || { echo "no gnnpart-train (MPI missing): skipped"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ln -s "$build_dir" "$work/build"
ln -s "$source_dir/datasets" "$work/datasets"
awk '/^## GNN walkthrough/ {section = 1} section && /^```sh/ {block = 1; next}
     block && /^```/ {exit} block {print}' "$source_dir/README.md" > "$work/walkthrough.sh"
grep -q "gnnpart-train cora-4" "$work/walkthrough.sh" || { echo "walkthrough block not found"; exit 1; }

# As root Open MPI needs its opt-in, which the README documents next to the block.
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_mpi_yield_when_idle=1
(cd "$work" && bash -euo pipefail walkthrough.sh > out.txt 2> err.txt) || {
  echo "the walkthrough failed:"; cat "$work/out.txt" "$work/err.txt"; exit 1; }

out="$work/out.txt"
err="$work/err.txt"
accuracy=$(awk '/gnnpart-train: cora on 4 ranks/ {cora = 1} cora && /accuracy/ {print $7; exit}' "$out")
echo "Cora test accuracy: $accuracy"
python3 -c "import sys; sys.exit(0 if float('$accuracy') >= 0.7 else 1)" || {
  echo "Cora's test accuracy $accuracy is below 0.7"; cat "$out"; exit 1; }
grep -q "whole graph: equal, step by step" "$out" || {
  echo "the mini-batch run's rows differ from the recount"; cat "$out"; exit 1; }
grep -q "rmat-4 has no labels" "$err" || { echo "no warning for the unlabeled layout"; cat "$err"; exit 1; }
if grep "cora-4" "$err" | grep -q warning; then
  echo "a warning for Cora's complete layout:"; cat "$err"; exit 1
fi
for file in cora.part.4 cora-4/layout.json rmat.bin rmat.part.4 rmat-4/layout.json; do
  [ -e "$work/$file" ] || { echo "missing output $file"; exit 1; }
done
echo "PASS"
