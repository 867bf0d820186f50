"""Exports read back the way DGL's dispatch_data.py and torch_geometric.distributed read them
(docs/export.md): ids, CSC order, ownership by the destination's part, sizes."""
import json
import os

import numpy as np
import pytest
import torch

import gnnpart
import gnnpart.export
from conftest import CORA, CORA_FEATURES, read_partition, run_cli


def read_features(n):
    """The sparse 'row col value' feature file as a dense float32 matrix, read here."""
    import gzip
    rows, cols, values = [], [], []
    with gzip.open(CORA_FEATURES, "rt") as f:
        for line in f:
            if line.strip() and not line.startswith(("#", "%")):
                r, c, v = line.split()[:3]
                rows.append(int(r)), cols.append(int(c)), values.append(float(v))
    x = torch.zeros(n, max(cols) + 1)
    x[torch.tensor(rows), torch.tensor(cols)] = torch.tensor(values)
    return x


def check_distdgl(directory, parts, k):
    """What tools/partition_algo/base.py load_partition_meta and dispatch_data.py expect."""
    with open(os.path.join(directory, "partition_meta.json")) as f:
        meta = json.load(f)
    assert meta == {"algo_name": "metis", "num_parts": k, "version": "1.0.0"}
    ids = np.loadtxt(os.path.join(directory, "_N.txt"), dtype=np.int64, ndmin=1)
    np.testing.assert_array_equal(ids, parts)


def test_distdgl_from_cli_and_python_agree(tmp_path, cora):
    edge_index, n = cora
    part = tmp_path / "cora.part.4"
    run_cli("-q", "partition", CORA, "-k", 4, "-o", part)
    parts = read_partition(part)
    run_cli("-q", "export", part, "--to", "distdgl", "-o", tmp_path / "cli")
    check_distdgl(tmp_path / "cli", parts, 4)
    assert gnnpart.export.distdgl(torch.from_numpy(parts), tmp_path / "py") == 4
    for name in ("_N.txt", "partition_meta.json"):
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "py" / name).read_bytes()


def test_distdgl_from_a_layout_and_bad_input(tmp_path, cora_layouts):
    layout = cora_layouts["graph"]
    run_cli("-q", "export", layout, "--to", "distdgl", "-o", tmp_path / "dgl")
    check_distdgl(tmp_path / "dgl", read_partition(os.path.join(layout, "assignment.txt")), 4)
    bad = tmp_path / "bad.part"
    bad.write_text("0\n1\nx\n")
    done = run_cli("export", bad, "--to", "distdgl", "-o", tmp_path / "out", check=False)
    assert done.returncode == 1 and f"{bad}:3" in done.stderr
    assert not (tmp_path / "out" / "partition_meta.json").exists()
    with pytest.raises(ValueError, match="outside"):
        gnnpart.export.distdgl(np.array([0, 3]), tmp_path / "x", num_parts=2)


def load_pyg(root):
    meta = json.load(open(os.path.join(root, "META.json")))
    node_map = torch.load(os.path.join(root, "node_map.pt"))
    edge_map = torch.load(os.path.join(root, "edge_map.pt"))
    parts = []
    for p in range(meta["num_parts"]):
        part = os.path.join(root, f"part_{p}")
        graph = torch.load(os.path.join(part, "graph.pt"))
        nf = os.path.join(part, "node_feats.pt")
        ef = os.path.join(part, "edge_feats.pt")
        parts.append((graph, torch.load(nf) if os.path.exists(nf) else None,
                      torch.load(ef) if os.path.exists(ef) else None))
    return meta, node_map, edge_map, parts


def check_pyg(root, edge_index, parts, x=None, edge_attr=None):
    """The invariants LocalGraphStore / LocalFeatureStore.from_partition rely on."""
    meta, node_map, edge_map, blocks = load_pyg(root)
    n, e = len(parts), edge_index.shape[1]
    k = int(parts.max()) + 1
    assert meta == {"num_parts": k, "node_types": None, "edge_types": None,
                    "node_offset": None, "is_hetero": False, "is_sorted": True}
    assert node_map.dtype == torch.int64 and torch.equal(node_map, parts)
    assert edge_map.dtype == torch.int64 and edge_map.shape == (e,)
    assert torch.equal(edge_map, parts[edge_index[1]])  # the destination's part owns the edge
    all_ids = []
    for p, (graph, nfeat, efeat) in enumerate(blocks):
        eid, row, col = graph["edge_id"], graph["row"], graph["col"]
        assert graph["size"] == (n, n)
        assert eid.dtype == row.dtype == col.dtype == torch.int64
        assert torch.equal(row, edge_index[0, eid]) and torch.equal(col, edge_index[1, eid])
        assert bool((edge_map[eid] == p).all())
        key = col * n + row  # CSC: by destination, then source
        assert bool((key[1:] >= key[:-1]).all())
        all_ids.append(eid)
        nodes = torch.nonzero(parts == p).flatten()
        if x is not None:
            assert torch.equal(nfeat["global_id"], nodes)
            assert torch.equal(nfeat["feats"]["x"], x[nodes])
        else:
            assert nfeat is None
        if edge_attr is not None:
            assert torch.equal(efeat["global_id"], eid)
            assert torch.equal(efeat["feats"]["edge_attr"], edge_attr[eid])
    assert torch.equal(torch.sort(torch.cat(all_ids)).values, torch.arange(e))


def test_pyg_round_trip_from_python(tmp_path, cora):
    edge_index, n = cora
    ei = torch.from_numpy(np.concatenate([edge_index, edge_index[::-1]], axis=1).copy())
    parts = gnnpart.partition(ei, 4, model="graph", seed=1, threads=1, num_nodes=n)
    x = torch.randn(n, 5)
    edge_attr = torch.arange(ei.shape[1], dtype=torch.float32).unsqueeze(1)
    gnnpart.export.pyg(ei, parts, tmp_path / "pyg", x=x, edge_attr=edge_attr)
    check_pyg(tmp_path / "pyg", ei, parts, x, edge_attr)
    # Rewriting replaces the export; a non-export path is left alone.
    gnnpart.export.pyg(ei, parts, tmp_path / "pyg")
    check_pyg(tmp_path / "pyg", ei, parts)
    other = tmp_path / "notes"
    other.mkdir()
    (other / "keep.txt").write_text("mine")
    with pytest.raises(ValueError, match="not a PyG partition directory"):
        gnnpart.export.pyg(ei, parts, other)
    assert (other / "keep.txt").read_text() == "mine"
    with pytest.raises(ValueError, match="one block per node"):
        gnnpart.export.pyg(ei, parts[:10], tmp_path / "short", num_nodes=n)
    assert not (tmp_path / "short").exists()


def test_pyg_round_trip_from_a_layout_with_the_cli(tmp_path, cora_layouts, cora):
    layout = cora_layouts["hypergraph"]
    run_cli("-q", "export", layout, "--to", "pyg", "-o", tmp_path / "pyg")
    edge_index, n = cora
    u, v = edge_index
    keep = u != v
    both = np.unique(np.concatenate([np.stack([u[keep], v[keep]]), np.stack([v[keep], u[keep]])],
                                    axis=1), axis=1)  # CSR order: by source, then destination
    parts = torch.from_numpy(read_partition(os.path.join(layout, "assignment.txt")))
    x = read_features(n) if os.path.exists(CORA_FEATURES) else None
    check_pyg(tmp_path / "pyg", torch.from_numpy(both), parts, x)
    done = run_cli("export", tmp_path / "pyg" / "META.json", "--to", "pyg", "-o",
                   tmp_path / "again", check=False)
    assert done.returncode == 2 and "needs a layout directory" in done.stderr
