"""gnnpart's partition in the formats of DistDGL's and PyG's distributed training (docs/export.md).

    gnnpart.export.distdgl(parts, "cora-dgl")                  # _N.txt + partition_meta.json
    gnnpart.export.pyg(data.edge_index, parts, "cora-pyg", x=data.x)
    python3 -m gnnpart.export pyg LAYOUT_DIR OUT_DIR           # what `gnnpart export --to pyg` runs

distdgl: the output of step 1 of DGL's distributed partitioning pipeline, read by
tools/distpartitioning/dispatch_data.py --partitions-dir (written by lib/export, the same code
as `gnnpart export --to distdgl`).

pyg: the directory torch_geometric.distributed reads (Partitioner's output; LocalGraphStore /
LocalFeatureStore.from_partition): META.json, node_map.pt, edge_map.pt and part_<i>/graph.pt
(edge_id, row, col, size; sorted by destination, CSC), node_feats.pt and edge_feats.pt. An edge
belongs to the part of its destination (col), as in PyG's ClusterData(sparse_format='csc').
"""
import json
import os
import shutil
import sys
import tempfile

import numpy as np


def distdgl(parts, out_dir, *, num_parts=None, node_type="_N"):
    """Writes DGL's partition assignment: OUT_DIR/<node_type>.txt (one partition id per line,
    line i = node i) and OUT_DIR/partition_meta.json. Returns the number of parts."""
    from . import _core, _to_numpy
    return _core.write_distdgl(_to_numpy(parts, "parts"), os.fspath(out_dir),
                               num_parts=num_parts, node_type=node_type)


def _write_directory(out_dir, write):
    """Builds the directory beside OUT_DIR and renames it into place: no partial export. An
    existing export (holding META.json) or empty directory is replaced."""
    out_dir = os.path.abspath(os.fspath(out_dir))
    if os.path.exists(out_dir) and not (
            os.path.isdir(out_dir) and (not os.listdir(out_dir)
                                        or os.path.exists(os.path.join(out_dir, "META.json")))):
        raise ValueError(f"{out_dir}: exists and is not a PyG partition directory; not replaced")
    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=os.path.basename(out_dir) + ".tmp.", dir=parent)
    try:
        write(staging)
        os.chmod(staging, 0o755)
        if os.path.exists(out_dir):
            old = staging + ".old"
            os.rename(out_dir, old)
            os.rename(staging, out_dir)
            shutil.rmtree(old)
        else:
            os.rename(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def pyg(edge_index, parts, out_dir, *, num_parts=None, num_nodes=None, x=None, edge_attr=None):
    """Writes the partition directory of torch_geometric.distributed.

    edge_index  (2, E) int64 (PyG's convention, both directions of an undirected edge); edge i
                of the export is column i, kept as given (not symmetrized)
    parts       block of every node (gnnpart.partition's result)
    x           optional (N, F) node features -> part_<i>/node_feats.pt
    edge_attr   optional (E, ...) edge features -> part_<i>/edge_feats.pt
    """
    import torch
    from . import _to_numpy
    ei = torch.as_tensor(_to_numpy(edge_index, "edge_index")).to(torch.int64)
    node_map = torch.as_tensor(_to_numpy(parts, "parts")).to(torch.int64)
    if ei.dim() != 2 or ei.shape[0] != 2:
        raise ValueError(f"edge_index must have shape (2, E), not {tuple(ei.shape)}")
    n = int(num_nodes) if num_nodes is not None else len(node_map)
    if node_map.dim() != 1 or len(node_map) != n:
        raise ValueError(f"parts must hold one block per node ({n}), not {tuple(node_map.shape)}")
    k = int(num_parts) if num_parts is not None else int(node_map.max()) + 1 if n else 0
    if n and (node_map.min() < 0 or node_map.max() >= k):
        raise ValueError(f"block ids must lie in [0, {k})")
    if ei.numel() and (ei.min() < 0 or ei.max() >= n):
        raise ValueError(f"edge_index holds a node id outside [0, {n})")
    if x is not None and (x.shape[0] != n):
        raise ValueError(f"x must have one row per node ({n}), not {x.shape[0]}")
    if edge_attr is not None and edge_attr.shape[0] != ei.shape[1]:
        raise ValueError(f"edge_attr must have one row per edge ({ei.shape[1]})")
    row, col = ei[0], ei[1]
    edge_map = node_map[col]  # an edge lives with its destination

    def write(root):
        meta = {"num_parts": k, "node_types": None, "edge_types": None, "node_offset": None,
                "is_hetero": False, "is_sorted": True}
        with open(os.path.join(root, "META.json"), "w") as f:
            json.dump(meta, f)
        torch.save(node_map.clone(), os.path.join(root, "node_map.pt"))
        torch.save(edge_map.clone(), os.path.join(root, "edge_map.pt"))
        for p in range(k):
            part = os.path.join(root, f"part_{p}")
            os.makedirs(part)
            eids = torch.nonzero(edge_map == p).flatten()
            # CSC order: by destination, then source (then edge id: np.lexsort is stable).
            order = torch.from_numpy(np.lexsort((row[eids].numpy(), col[eids].numpy())))
            eids = eids[order]
            torch.save({"edge_id": eids, "row": row[eids].clone(), "col": col[eids].clone(),
                        "size": (n, n)}, os.path.join(part, "graph.pt"))
            nodes = torch.nonzero(node_map == p).flatten()
            if x is not None:
                feats = torch.as_tensor(_to_numpy(x, "x"))[nodes].clone()
                torch.save({"global_id": nodes, "feats": {"x": feats}},
                           os.path.join(part, "node_feats.pt"))
            if edge_attr is not None:
                attrs = torch.as_tensor(_to_numpy(edge_attr, "edge_attr"))[eids].clone()
                torch.save({"global_id": eids, "feats": {"edge_attr": attrs}},
                           os.path.join(part, "edge_feats.pt"))

    _write_directory(out_dir, write)
    return k


def layout_graph(layout_dir):
    """(edge_index, parts, x or None) of a vertex layout: edge_index holds both directions of
    every edge in CSR order (by source, then destination), so edge id = CSR position."""
    import torch
    from . import layout
    manifest = layout.read_manifest(layout_dir)
    if manifest["kind"] != "vertex":
        raise ValueError(f"{layout_dir}: a PyG export needs a vertex layout")
    n, k = manifest["n"], manifest["k"]
    parts = torch.empty(n, dtype=torch.int64)
    rows, cols = [], []
    x = None
    for p in range(k):
        block = layout.load(layout_dir, p)
        parts[block.owned] = p
        sources, destinations = block.global_edges()
        rows.append(sources)
        cols.append(destinations)
        if block.features is not None:
            if x is None:
                x = torch.zeros(n, block.features.shape[1], dtype=block.features.dtype)
            x[block.owned] = block.features
    row, col = torch.cat(rows), torch.cat(cols)
    order = torch.from_numpy(np.lexsort((col.numpy(), row.numpy())))
    return torch.stack([row[order], col[order]]), parts, x


def main(argv):
    usage = "usage: python3 -m gnnpart.export pyg LAYOUT_DIR OUT_DIR [--quiet]"
    args = [a for a in argv[1:] if a != "--quiet"]
    if len(args) != 3 or args[0] != "pyg":
        print(usage, file=sys.stderr)
        return 2
    try:
        from . import layout
        k = layout.read_manifest(args[1])["k"]
        edge_index, parts, x = layout_graph(args[1])
        pyg(edge_index, parts, args[2], num_parts=k, x=x)
    except (OSError, ValueError) as e:
        print(f"gnnpart: error: {e}", file=sys.stderr)
        return 1
    if "--quiet" not in argv:
        print(f"gnnpart: {args[1]} -> {args[2]}: {len(parts)} nodes, {edge_index.shape[1]} "
              f"directed edges in {k} parts (torch_geometric.distributed"
              f"{', node features x' if x is not None else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
