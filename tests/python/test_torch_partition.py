"""gnnpart.partition / evaluate with torch tensors: the CLI's partition for the same flags,
DistDGL-style balance masks, the metrics of `gnnpart evaluate --json`."""
import json
import os

import numpy as np
import pytest
import torch

import gnnpart
from conftest import CORA, DATASETS, read_edge_index, read_partition, read_vertex_set, run_cli


@pytest.fixture(scope="module")
def cora_torch():
    edge_index, n = read_edge_index(CORA)
    return torch.from_numpy(edge_index), n


@pytest.mark.parametrize("model", ["graph", "hypergraph"])
def test_torch_input_gives_the_clis_partition(cora_torch, tmp_path, model):
    edge_index, n = cora_torch
    parts = gnnpart.partition(edge_index, 4, model=model, seed=3, threads=2, num_nodes=n)
    assert isinstance(parts, torch.Tensor) and parts.dtype == torch.int64
    out = tmp_path / "cora.part"
    run_cli("-q", "partition", CORA, "-k", 4, "--model", model, "--seed", 3, "-t", 2, "-o", out)
    np.testing.assert_array_equal(parts.numpy(), read_partition(out))


def test_same_seed_and_threads_give_the_same_partition(cora_torch):
    edge_index, n = cora_torch
    a = gnnpart.partition(edge_index, 8, model="graph", seed=5, threads=2, num_nodes=n)
    b = gnnpart.partition(edge_index.clone(), 8, model="graph", seed=5, threads=2, num_nodes=n)
    assert torch.equal(a, b)


@pytest.mark.parametrize("model", ["graph", "hypergraph"])
def test_train_mask_balances_training_vertices_like_the_cli(cora_torch, tmp_path, model):
    edge_index, n = cora_torch
    train = read_vertex_set(os.path.join(DATASETS, "cora.train.gz"))
    mask = torch.zeros(n, dtype=torch.bool)
    mask[train] = True
    k, eps = 4, 0.03
    parts = gnnpart.partition(edge_index, k, model=model, epsilon=eps, seed=2, threads=1,
                              balance=[mask], num_nodes=n)
    # Recomputed here: each block's vertices and training vertices within the bound.
    for weights in (torch.ones(n, dtype=torch.int64), mask.to(torch.int64)):
        per_block = torch.bincount(parts, weights=weights, minlength=k)
        bound = int((1 + eps) * -(-int(weights.sum()) // k))
        assert int(per_block.max()) <= bound, (model, per_block.tolist(), bound)
    out = tmp_path / "cora.part"
    run_cli("-q", "partition", CORA, "-k", k, "--model", model, "--seed", 2, "-t", 1,
            "--balance-set", os.path.join(DATASETS, "cora.train.gz"), "-o", out)
    np.testing.assert_array_equal(parts.numpy(), read_partition(out))
    # Vertex ids work like a mask.
    by_ids = gnnpart.partition(edge_index, k, model=model, seed=2, threads=1,
                               balance=[torch.from_numpy(train)], num_nodes=n)
    assert torch.equal(parts, by_ids)


def test_evaluate_returns_the_clis_json(cora_torch, tmp_path):
    edge_index, n = cora_torch
    parts = gnnpart.partition(edge_index, 8, model="graph", seed=1, threads=1, num_nodes=n)
    metrics = gnnpart.evaluate(edge_index, parts, num_nodes=n, feature_dim=1433)
    path = tmp_path / "cora.part"
    np.savetxt(path, parts.numpy(), fmt="%d")
    cli = json.loads(run_cli("evaluate", CORA, path, "--feature-dim", 1433, "--json").stdout)
    cli.pop("graph", None), cli.pop("partition", None)
    assert set(metrics) == set(cli), set(metrics) ^ set(cli)
    for key, value in cli.items():
        assert metrics[key] == pytest.approx(value, rel=1e-5, abs=1e-6), key  # JSON: 6 digits


def test_bad_arguments_raise_type_and_value_errors(cora_torch):
    edge_index, n = cora_torch
    with pytest.raises(TypeError, match="integers"):
        gnnpart.partition(edge_index.to(torch.float32), 2)
    with pytest.raises(ValueError, match="mask of"):
        gnnpart.partition(edge_index, 2, balance=[torch.zeros(3, dtype=torch.bool)], num_nodes=n)
    with pytest.raises(ValueError, match="empty"):
        gnnpart.partition(edge_index, 2, balance=[torch.zeros(n, dtype=torch.bool)], num_nodes=n)
    with pytest.raises(TypeError, match="mask"):
        gnnpart.partition(edge_index, 2, balance=[torch.zeros(n)], num_nodes=n)
    with pytest.raises(ValueError, match="node_weights"):
        gnnpart.partition(edge_index, 2, node_weights=torch.ones(5, dtype=torch.int64))
    with pytest.raises(ValueError, match="negative"):
        gnnpart.partition(edge_index, 2, node_weights=-torch.ones(n, dtype=torch.int64),
                          num_nodes=n)
