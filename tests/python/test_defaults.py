"""The Python package's defaults are the CLI's and the C API's (include/gnnpart/gnnpart_defaults.h):
the same partition for the same flags with every default left alone."""
import os
import re
import subprocess
import tempfile

import numpy as np
import pytest

import gnnpart

SOURCE_DIR = os.environ.get("GNNPART_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CORA = os.path.join(SOURCE_DIR, "datasets", "cora.edges.gz")
DEFAULTS_H = os.path.join(SOURCE_DIR, "include", "gnnpart", "gnnpart_defaults.h")


def header_defaults():
    """GNNPART_* values of the header, enum names resolved to their numbers."""
    values = {}
    for name, value in re.findall(r"#define (GNNPART_\w+) (\S+)", open(DEFAULTS_H).read()):
        values[name] = values.get(value, value)
    return values


def test_package_defaults_are_the_headers():
    h = header_defaults()
    d = gnnpart.defaults()
    assert d["epsilon"] == float(h["GNNPART_DEFAULT_EPSILON"])
    assert d["seed"] == int(h["GNNPART_DEFAULT_SEED"])
    assert d["threads"] == int(h["GNNPART_DEFAULT_THREADS"])
    assert d["batch_size"] == int(h["GNNPART_DEFAULT_BATCH_SIZE"])
    assert d["num_batches"] == int(h["GNNPART_DEFAULT_NUM_BATCHES"])
    model = {h["GNNPART_MODEL_GRAPH"]: "graph", h["GNNPART_MODEL_HYPERGRAPH"]: "hypergraph",
             h["GNNPART_MODEL_STOCHASTIC"]: "stochastic"}[h["GNNPART_DEFAULT_MODEL"]]
    assert d["model"] == model
    assert d["vertex_weights"] == "default" and d["preset"] == "default"


@pytest.mark.skipif(not os.environ.get("GNNPART_BINARY"), reason="needs GNNPART_BINARY (ctest sets it)")
@pytest.mark.parametrize("flags", [[], ["--model", "hypergraph"]])
def test_defaults_give_the_clis_partition(cora, flags):
    edge_index, n = cora
    kwargs = {"model": flags[1]} if flags else {}
    parts = gnnpart.partition(edge_index, 4, num_nodes=n, **kwargs)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cora.part")
        subprocess.run([os.environ["GNNPART_BINARY"], "-q", "partition", CORA, "-k", "4", "-o", out]
                       + flags, check=True)
        with open(out) as f:
            cli = np.array([int(line) for line in f], dtype=np.int64)
    np.testing.assert_array_equal(parts, cli)
    sizes = np.bincount(parts, minlength=4)
    assert sizes.max() <= int(1.03 * -(-n // 4))
