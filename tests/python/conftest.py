"""Shared fixtures: the CLI binary, Cora, and Cora layouts written by the CLI (docs/layout.md)."""
import gzip
import os
import subprocess

import numpy as np
import pytest

SOURCE_DIR = os.environ.get("GNNPART_SOURCE_DIR",
                            os.path.join(os.path.dirname(__file__), "..", ".."))
DATASETS = os.path.join(SOURCE_DIR, "datasets")
CORA = os.path.join(DATASETS, "cora.edges.gz")
SHARED = os.environ.get("GNNPART_SHARED_DIR", os.path.join(SOURCE_DIR, "..", "shared"))
CORA_FEATURES = os.path.join(SOURCE_DIR, "datasets", "cora.features.gz")  # shipped with the repo


def binary():
    path = os.environ.get("GNNPART_BINARY")
    if not path:
        pytest.skip("needs GNNPART_BINARY (ctest sets it)")
    return path


def run_cli(*args, check=True):
    return subprocess.run([binary(), *map(str, args)], check=check, capture_output=True,
                          text=True)


def read_partition(path):
    with open(path) as f:
        return np.array([int(line) for line in f], dtype=np.int64)


def read_vertex_set(path):
    with gzip.open(path, "rt") as f:
        return np.array([int(line) for line in f if line.strip() and not line.startswith("#")],
                        dtype=np.int64)


def read_edge_index(path):
    src, dst, n = [], [], None
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("#"):
                if line.startswith("# vertices:"):
                    n = int(line.split(":")[1])
                continue
            u, v = line.split()[:2]
            src.append(int(u))
            dst.append(int(v))
    return np.array([src, dst], dtype=np.int64), n


@pytest.fixture(scope="session")
def cora():
    edge_index, n = read_edge_index(CORA)
    return edge_index, n


@pytest.fixture(scope="session")
def cora_layouts(tmp_path_factory):
    """{model: layout dir} of Cora at k = 4 with labels, splits and features."""
    root = tmp_path_factory.mktemp("layouts")
    layouts = {}
    for model in ("graph", "hypergraph"):
        part = root / f"cora.{model}.part.4"
        run_cli("-q", "partition", CORA, "-k", 4, "--model", model, "--seed", 1, "-o", part)
        extra = ["--features", CORA_FEATURES] if os.path.exists(CORA_FEATURES) else []
        run_cli("-q", "layout", CORA, part, "-o", root / f"cora-{model}",
                "--labels", os.path.join(DATASETS, "cora.labels.gz"),
                "--train", os.path.join(DATASETS, "cora.train.gz"),
                "--val", os.path.join(DATASETS, "cora.val.gz"),
                "--test", os.path.join(DATASETS, "cora.test.gz"), *extra)
        layouts[model] = str(root / f"cora-{model}")
    return layouts
