"""Trainer layouts (docs/layout.md): load a block as torch tensors, or a whole layout as NumPy
arrays and check it.

    block = gnnpart.layout.load("cora-4", rank)     # torch tensors of block `rank`
    a_hat = block.gcn_adjacency()                   # D^-1/2 (A+I) D^-1/2, sparse CSR
    python3 -m gnnpart.layout LAYOUT_DIR [--expect-rows N]   # load every block and check it

This module reads files only (NumPy, json; torch only in load()), so scripts/layout_loader.py
runs it from a source tree without the compiled extension.
"""
import json
import os
import sys
import warnings

import numpy as np


def read_manifest(path):
    with open(os.path.join(path, "layout.json")) as f:
        manifest = json.load(f)
    if manifest.get("format") != "gnnpart-layout" or manifest.get("format_version") != 1:
        raise ValueError(f"{path}: not a gnnpart layout of format version 1")
    return manifest


def load_block_numpy(path, rank):
    """{array name: numpy array} of part<rank>/*.npy."""
    block_dir = os.path.join(path, f"part{rank}")
    return {name[:-4]: np.load(os.path.join(block_dir, name), allow_pickle=False)
            for name in sorted(os.listdir(block_dir)) if name.endswith(".npy")}


def load_numpy(path):
    """The manifest and every block's arrays: {"manifest": dict, "blocks": [dict, ...]}."""
    manifest = read_manifest(path)
    return {"manifest": manifest,
            "blocks": [load_block_numpy(path, p) for p in range(manifest["k"])]}


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


class Block:
    """One block of a vertex layout as torch tensors (local ids: owned rows first, then halo).

    owned, halo, halo_owner, degree   int64 global ids / owners / global degrees
    adjacency      (owned, owned + halo) sparse CSR 0/1 tensor of the owned rows
    send, recv     [(neighbour block, int64 local ids)], in the layout's order: send[i]'s rows
                   fill the neighbour's recv slots for this block, position by position
    features       (owned, F) float32, row i = owned vertex i (None without --features)
    labels         (owned,) int64, -1 = none (None without --labels)
    train_mask, val_mask, test_mask   (owned,) bool
    manifest       layout.json as a dict
    """

    def __init__(self, manifest, rank, arrays):
        import torch
        self.manifest, self.rank = manifest, rank
        t = {name: torch.from_numpy(a.astype(np.int64) if a.dtype.kind in "iu" else a)
             for name, a in arrays.items()}
        self.owned, self.halo = t["owned"], t["halo"]
        self.halo_owner, self.degree = t["halo_owner"], t["degree"]
        self.num_owned, self.num_halo = len(self.owned), len(self.halo)
        self.row_offsets, self.columns = t["row_offsets"], t["columns"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "sparse CSR support is in beta"
            self.adjacency = torch.sparse_csr_tensor(
                self.row_offsets, self.columns, torch.ones(len(self.columns)),
                size=(self.num_owned, self.num_owned + self.num_halo))
        self.send = [(q, torch.from_numpy(ids.astype(np.int64)))
                     for q, ids in neighbour_slices(arrays, "send_offsets", "send_local").items()]
        self.recv = [(q, torch.from_numpy(ids.astype(np.int64)))
                     for q, ids in neighbour_slices(arrays, "recv_offsets", "recv_local").items()]
        self.features = None
        if "feat_offsets" in arrays:
            self.features = torch.from_numpy(features_dense(arrays, manifest["features_source_dim"]))
        self.labels = t.get("labels")
        for name in ("train", "val", "test"):
            mask = torch.zeros(self.num_owned, dtype=torch.bool)
            if name in t:
                mask[t[name]] = True
            setattr(self, name + "_mask", mask)

    def local_to_global(self):
        """Global id of every local id (owned, then halo)."""
        import torch
        return torch.cat([self.owned, self.halo])

    def global_edges(self):
        """(sources, destinations): the block's adjacency entries in global ids, row by row."""
        import torch
        rows = torch.repeat_interleave(self.owned, torch.diff(self.row_offsets))
        return rows, self.local_to_global()[self.columns]

    def gcn_adjacency(self, dtype=None):
        """Â = D^-1/2 (A + I) D^-1/2 restricted to the owned rows, D = global degree + 1, as a
        sparse CSR tensor over (owned, owned + halo) columns (self loops included)."""
        import torch
        n_own = self.num_owned
        rows = torch.repeat_interleave(torch.arange(n_own), torch.diff(self.row_offsets))
        rows = torch.cat([rows, torch.arange(n_own)])
        cols = torch.cat([self.columns, torch.arange(n_own)])
        scale = (self.degree.to(torch.float64) + 1.0).rsqrt()
        values = scale[rows] * scale[cols]
        order = torch.argsort(rows * (n_own + self.num_halo) + cols)
        rows, cols, values = rows[order], cols[order], values[order]
        crow = torch.zeros(n_own + 1, dtype=torch.int64)
        crow[1:] = torch.cumsum(torch.bincount(rows, minlength=n_own), 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return torch.sparse_csr_tensor(crow, cols, values.to(dtype or torch.float32),
                                           size=(n_own, n_own + self.num_halo))


def load(path, rank):
    """Block `rank` of the vertex layout in directory `path` as a Block of torch tensors."""
    manifest = read_manifest(path)
    if manifest["kind"] != "vertex":
        raise ValueError(f"{path}: gnnpart.layout.load reads vertex layouts, not "
                         f"'{manifest['kind']}' layouts")
    if not 0 <= rank < manifest["k"]:
        raise ValueError(f"{path}: rank {rank} outside [0, {manifest['k']})")
    return Block(manifest, rank, load_block_numpy(path, rank))


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
    for p, b in enumerate(blocks):
        assert np.sum(b["master"] != p) == len(b["mirror_local"]), "mirror missing from lists"
    return total


def check(layout):
    """Checks the lists of a load_numpy() layout against each other; returns the rows one
    layer's exchange moves (= layout.json's predicted rows_per_layer)."""
    m = layout["manifest"]
    assert len(layout["blocks"]) == m["k"]
    rows = check_vertex_layout(layout) if m["kind"] == "vertex" else check_edge_layout(layout)
    assert rows == m["predicted"]["rows_per_layer"], (rows, m["predicted"]["rows_per_layer"])
    return rows


def main(argv):
    usage = "usage: python3 -m gnnpart.layout LAYOUT_DIR [--expect-rows N]"
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip() + "\n\n" + usage)
        return 0 if len(argv) >= 2 else 2
    layout = load_numpy(argv[1])
    rows = check(layout)
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
