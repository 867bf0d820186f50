#!/usr/bin/env python3
"""PyG edge_index in, DistDGL partition assignment out.

Partitions a graph given as a PyG-style edge_index (2 x m, int64) with gnnpart's default model
(the CLI's), one unit of weight per node, and writes what step 1 of DGL's distributed partitioning pipeline writes: OUT_DIR/_N.txt
(one partition id per line, node type "_N" of a homogeneous graph) and partition_meta.json, the
--partitions-dir of DGL's tools/distpartitioning/dispatch_data.py (docs/export.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/pyg_to_dgl.py datasets/cora.edges.gz 8 out_dir
    # installed (cmake --install): PYTHONPATH=PREFIX/lib/python3.11/dist-packages, or nothing
    # for the prefixes on python3's path (/usr/local, /usr)

With PyTorch Geometric installed, pass data.edge_index (a torch tensor) to assign() directly,
and balance=[data.train_mask] to give every part its share of training nodes.
"""
import gzip
import sys

import numpy as np

import gnnpart
import gnnpart.export


def read_edge_index(path):
    """An edge list file (SNAP style, '#' comments, optionally gzipped) as (edge_index, n)."""
    opener = gzip.open if path.endswith(".gz") else open
    n = None
    with opener(path, "rt") as f:
        rows = []
        for line in f:
            if line.startswith("#"):
                if line.startswith("# vertices:"):
                    n = int(line.split(":")[1])
                continue
            fields = line.split()
            if len(fields) >= 2:
                rows.append((int(fields[0]), int(fields[1])))
    edge_index = np.array(rows, dtype=np.int64).T.copy()
    return edge_index, n


def assign(edge_index, num_parts, num_nodes=None, seed=0, threads=None, balance=None):
    """Block id per node with gnnpart's default model and objective (gnnpart.defaults()).
    DistDGL balances node counts, so the nodes weigh 1 each (vertex_weights="unit")."""
    return gnnpart.partition(edge_index, num_parts, seed=seed, threads=threads,
                             num_nodes=num_nodes, balance=balance, vertex_weights="unit")


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: pyg_to_dgl.py EDGES K OUT_DIR", file=sys.stderr)
        return 2
    edge_index, n = read_edge_index(argv[1])
    k = int(argv[2])
    parts = assign(edge_index, k, num_nodes=n)
    gnnpart.export.distdgl(parts, argv[3], num_parts=k)
    metrics = gnnpart.evaluate(edge_index, parts, num_parts=k, num_nodes=n)
    print(f"{argv[3]}/_N.txt: {len(parts)} nodes in {k} parts, comm volume "
          f"{metrics['comm_volume']} rows/layer, imbalance {metrics['imbalance_vertices']:.3f} "
          f"(vertices)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
