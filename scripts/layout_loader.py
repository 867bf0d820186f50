#!/usr/bin/env python3
"""Load a gnnpart layout directory (docs/layout.md) with numpy and check it.

    python3 scripts/layout_loader.py LAYOUT_DIR [--expect-rows N]

As a module: load_layout(path) returns the manifest and, per block, a dict of numpy arrays
(every part<p>/*.npy); check_layout(layout) verifies the lists against each other and returns
the number of rows one layer's exchange moves.
"""
import json
import os
import sys

import numpy as np


def load_layout(path):
    with open(os.path.join(path, "layout.json")) as f:
        manifest = json.load(f)
    blocks = []
    for p in range(manifest["k"]):
        block_dir = os.path.join(path, f"part{p}")
        arrays = {}
        for name in sorted(os.listdir(block_dir)):
            if name.endswith(".npy"):
                arrays[name[:-4]] = np.load(os.path.join(block_dir, name), allow_pickle=False)
        blocks.append(arrays)
    return {"manifest": manifest, "blocks": blocks}


def neighbour_slices(block, offsets_name, list_name):
    """{neighbour block: array of local ids} from an offsets/list pair."""
    offsets, values = block[offsets_name], block[list_name]
    assert offsets.shape == (len(block["neighbors"]) + 1,), offsets_name
    assert offsets[0] == 0 and offsets[-1] == len(values), offsets_name
    assert np.all(np.diff(offsets) >= 0), offsets_name
    return {int(q): values[offsets[i]:offsets[i + 1]] for i, q in enumerate(block["neighbors"])}


def features_dense(block, dim):
    """Owned rows of the sliced features as a dense float32 matrix."""
    offsets = block["feat_offsets"]
    dense = np.zeros((len(offsets) - 1, dim), dtype=np.float32)
    rows = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    dense[rows, block["feat_cols"]] = block["feat_values"]
    return dense


def check_vertex_layout(layout):
    m, blocks = layout["manifest"], layout["blocks"]
    n, k = m["n"], m["k"]
    owner = np.full(n, -1, dtype=np.int64)
    for p, b in enumerate(blocks):
        assert np.all(owner[b["owned"]] == -1), "vertex owned twice"
        owner[b["owned"]] = p
    assert np.all(owner >= 0), "vertex owned by no block"
    total, edges = 0, 0
    for p, b in enumerate(blocks):
        own, halo = len(b["owned"]), len(b["halo"])
        assert np.all(np.diff(b["owned"]) > 0)
        assert np.array_equal(owner[b["halo"]], b["halo_owner"]), "halo owner wrong"
        assert np.all(b["halo_owner"] != p)
        assert np.all(np.diff(b["halo_owner"]) >= 0), "halo not grouped by owner"
        assert len(b["row_offsets"]) == own + 1 and b["row_offsets"][-1] == len(b["columns"])
        assert np.all((b["columns"] >= 0) & (b["columns"] < own + halo))
        assert len(b["degree"]) == own + halo
        assert np.array_equal(np.diff(b["row_offsets"]), b["degree"][:own]), "degree != row length"
        edges += len(b["columns"])
        sends = neighbour_slices(b, "send_offsets", "send_local")
        recvs = neighbour_slices(b, "recv_offsets", "recv_local")
        filled = np.sort(np.concatenate(list(recvs.values()) or [np.zeros(0, np.int64)]))
        assert np.array_equal(filled, np.arange(own, own + halo)), "halo slots not filled once"
        for q, send in sends.items():
            assert q != p and 0 <= q < k
            assert np.all((send >= 0) & (send < own))
            # What p sends to q is what q receives from p, same vertices in the same order.
            other = blocks[q]
            recv = neighbour_slices(other, "recv_offsets", "recv_local").get(p)
            assert recv is not None, f"{q} does not list {p} as neighbour"
            sent_ids = b["owned"][send]
            recv_ids = other["halo"][recv - len(other["owned"])]
            assert np.array_equal(sent_ids, recv_ids), f"send {p}->{q} != receive at {q}"
            total += len(send)
        for q, recv in recvs.items():
            assert np.all(blocks[q]["owned"][neighbour_slices(blocks[q], "send_offsets",
                                                               "send_local")[p]]
                          == b["halo"][recv - own])
        for name in ("train", "val", "test"):
            if name in b:
                assert np.all((b[name] >= 0) & (b[name] < own)), name
        if "labels" in b:
            assert len(b["labels"]) == own
        if "feat_offsets" in b:
            dense = features_dense(b, m["features_source_dim"])
            assert dense.shape == (own, m["features_source_dim"])
    assert edges == 2 * m["m"], "local CSRs do not hold every edge twice"
    return total


def check_edge_layout(layout):
    blocks = layout["blocks"]
    master_of = {}
    total = 0
    for p, b in enumerate(blocks):
        copies = len(b["vertices"])
        assert len(b["master"]) == copies and np.all(np.diff(b["vertices"]) > 0)
        assert np.all((b["edge_src"] < copies) & (b["edge_dst"] < copies))
        for v, q in zip(b["vertices"].tolist(), b["master"].tolist()):
            assert master_of.setdefault(v, q) == q, "two masters for one vertex"
        mirrors = neighbour_slices(b, "mirror_offsets", "mirror_local")
        for q, mine in mirrors.items():
            theirs = neighbour_slices(blocks[q], "master_offsets", "master_local")[p]
            assert np.array_equal(b["vertices"][mine], blocks[q]["vertices"][theirs])
            assert np.all(b["master"][mine] == q)
            total += len(mine)
        assert total >= 0
    for p, b in enumerate(blocks):
        assert np.sum(b["master"] != p) == len(b["mirror_local"]), "mirror missing from lists"
    return total


def check_layout(layout):
    m = layout["manifest"]
    assert m["format"] == "gnnpart-layout" and m["format_version"] == 1
    assert len(layout["blocks"]) == m["k"]
    rows = check_vertex_layout(layout) if m["kind"] == "vertex" else check_edge_layout(layout)
    assert rows == m["predicted"]["rows_per_layer"], (rows, m["predicted"]["rows_per_layer"])
    return rows


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    layout = load_layout(argv[1])
    rows = check_layout(layout)
    if "--expect-rows" in argv:
        expected = int(argv[argv.index("--expect-rows") + 1])
        assert rows == expected, f"rows per layer {rows} != expected {expected}"
    files = sum(len(b) for b in layout["blocks"])
    m = layout["manifest"]
    print(f"layout {argv[1]}: {m['kind']} layout of {m['graph']} (n = {m['n']}, k = {m['k']}), "
          f"{files} arrays loaded, send/receive lists consistent, rows per layer {rows}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
