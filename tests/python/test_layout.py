"""gnnpart.layout: blocks as torch tensors, checked against the .npy files and the graph."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

from conftest import CORA, SOURCE_DIR, read_edge_index
from gnnpart import layout


def test_blocks_reassemble_the_graph_and_match_the_manifest(cora_layouts):
    path = cora_layouts["graph"]
    manifest = json.load(open(os.path.join(path, "layout.json")))
    edge_index, n = read_edge_index(CORA)
    expected = {(int(u), int(v)) for u, v in edge_index.T if u != v}
    expected |= {(v, u) for u, v in expected}
    seen, owner, rows_sent = set(), torch.full((n,), -1), 0
    for p in range(manifest["k"]):
        block = layout.load(path, p)
        info = manifest["blocks"][p]
        assert (block.num_owned, block.num_halo) == (info["owned"], info["halo"])
        assert int(block.train_mask.sum()) == info["train"]
        assert int(block.test_mask.sum()) == info["test"]
        assert block.labels.shape == (block.num_owned,)
        owner[block.owned] = p
        local_to_global = torch.cat([block.owned, block.halo])
        dense = block.adjacency.to_dense()
        rows, cols = torch.nonzero(dense, as_tuple=True)
        seen |= {(int(block.owned[r]), int(local_to_global[c])) for r, c in zip(rows, cols)}
        # Â from the layout against D^-1/2 (A+I) D^-1/2 computed here from the global degrees.
        degree = torch.from_numpy(np.bincount(edge_index.ravel(), minlength=n)).to(torch.float64)
        a_hat = block.gcn_adjacency(torch.float64).to_dense()
        ref = dense.to(torch.float64)
        ref[torch.arange(block.num_owned), torch.arange(block.num_owned)] = 1.0
        scale = (degree[local_to_global] + 1).rsqrt()
        ref = ref * scale[:block.num_owned, None] * scale[None, :]
        assert torch.allclose(a_hat, ref, atol=1e-15)
        rows_sent += sum(len(ids) for _, ids in block.send)
        if block.features is not None:
            assert block.features.shape == (block.num_owned, manifest["features_source_dim"])
    assert seen == expected
    assert bool((owner >= 0).all())
    assert rows_sent == manifest["predicted"]["rows_per_layer"]


def test_send_lists_fill_the_receivers_halo_slots(cora_layouts):
    path = cora_layouts["hypergraph"]
    blocks = [layout.load(path, p) for p in range(4)]
    for p, block in enumerate(blocks):
        for q, send in block.send:
            recv = dict(blocks[q].recv)[p]
            assert torch.equal(block.owned[send], blocks[q].halo[recv - blocks[q].num_owned])


def test_load_rejects_a_rank_outside_the_layout(cora_layouts):
    with pytest.raises(ValueError, match="rank 4"):
        layout.load(cora_layouts["graph"], 4)


def test_module_and_script_check_the_layout(cora_layouts):
    path = cora_layouts["graph"]
    rows = json.load(open(os.path.join(path, "layout.json")))["predicted"]["rows_per_layer"]
    for command in ([sys.executable, "-m", "gnnpart.layout"],
                    [sys.executable, os.path.join(SOURCE_DIR, "scripts", "layout_loader.py")]):
        done = subprocess.run(command + [path, "--expect-rows", str(rows)], check=True,
                              capture_output=True, text=True)
        assert f"rows per layer {rows}" in done.stdout
