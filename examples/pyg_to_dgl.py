#!/usr/bin/env python3
"""PyG edge_index in, DGL-pipeline assignment files out.

Partitions a graph given as a PyG-style edge_index (2 x m, int64) with gnnpart and writes what
DGL's ParMETIS-free pipeline (dgl.distributed partition_graph with part_method="custom" /
the "chunked graph" pipeline) reads: one file per node type, one block id per line, line i
being the block of node i.

    /usr/bin/python3 examples/pyg_to_dgl.py datasets/cora.edges.gz 8 out_dir
    # -> out_dir/_N.txt (homogeneous graph: node type "_N")

With PyTorch Geometric installed, pass data.edge_index.numpy() to assign() directly.
"""
import gzip
import os
import sys

import numpy as np

import gnnpart


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


def assign(edge_index, num_parts, num_nodes=None, seed=0, threads=None):
    """Block id per node, minimising full-batch GCN communication volume."""
    return gnnpart.partition(edge_index, num_parts, model="hypergraph", seed=seed,
                             threads=threads, num_nodes=num_nodes)


def write_dgl_assignment(parts, out_dir, node_type="_N"):
    """DGL pipeline format: <out_dir>/<node_type>.txt, one block id per line (atomic)."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, node_type + ".txt")
    tmp = path + ".tmp"
    np.savetxt(tmp, parts, fmt="%d")
    os.replace(tmp, path)
    return path


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: pyg_to_dgl.py EDGES K OUT_DIR", file=sys.stderr)
        return 2
    edge_index, n = read_edge_index(argv[1])
    parts = assign(edge_index, int(argv[2]), num_nodes=n)
    path = write_dgl_assignment(parts, argv[3])
    metrics = gnnpart.evaluate(edge_index, parts, num_parts=int(argv[2]), num_nodes=n)
    print(f"{path}: {len(parts)} nodes, comm volume {metrics['comm_volume']} rows/layer, "
          f"imbalance {metrics['imbalance']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
