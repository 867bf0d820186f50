#!/usr/bin/env bash
# ctest python_install: `cmake --install BUILD --prefix STAGE`, then `import gnnpart` with the
# documented PYTHONPATH from outside the source and build trees: the package, its extension,
# the layout loader and the example are all installed, and the installed CLI finds the package
# for `gnnpart export --to pyg`.
set -euo pipefail
build=$1 python=$2 site=$3
stage="$build/stage-python"
rm -rf "$stage"
cmake --install "$build" --prefix "$stage" >/dev/null
export PYTHONPATH="$stage/$site"
cd "$(mktemp -d)"
"$python" - "$stage" <<'PY'
import os, sys
import numpy as np
import gnnpart, gnnpart.layout, gnnpart.export, gnnpart.torch, gnnpart.examples.gcn
stage = os.path.realpath(sys.argv[1])
for module in (gnnpart, gnnpart._core, gnnpart.layout, gnnpart.examples.gcn):
    assert os.path.realpath(module.__file__).startswith(stage), module.__file__
ring = np.array([[i for i in range(12)], [(i + 1) % 12 for i in range(12)]])
parts = gnnpart.partition(ring, 3, model="graph", seed=1, threads=1)
assert sorted(np.bincount(parts).tolist()) == [4, 4, 4], parts
assert gnnpart.evaluate(ring, parts)["edge_cut"] == 3
print("installed gnnpart", gnnpart.__version__, "from", os.path.dirname(gnnpart.__file__))
PY
"$python" -m gnnpart.layout --help >/dev/null
printf '0 1\n1 2\n2 3\n3 0\n' > ring.edges
"$stage/bin/gnnpart" -q partition ring.edges -k 2 --layout ring-layout -o ring.part
"$stage/bin/gnnpart" -q export ring-layout --to pyg -o ring-pyg
env -u PYTHONPATH "$stage/bin/gnnpart" -q export ring-layout --to pyg -o ring-pyg2
"$python" -c "import torch; assert torch.load('ring-pyg2/node_map.pt').tolist() == [int(l) for l in open('ring.part')]"
echo "PASS python_install ($stage/$site)"
