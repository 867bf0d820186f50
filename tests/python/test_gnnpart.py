"""pytest suite of the Python module gnnpart (run by ctest python_module with Debian's python3)."""
import os
import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import gnnpart

from conftest import CORA, SOURCE_DIR, read_edge_index, read_vertex_set, run_cli


def grid_edge_index(rows, cols, dtype=np.int64):
    """Each undirected grid edge once, as a PyG edge_index half."""
    src, dst = [], []
    for r in range(rows):
        for c in range(cols):
            u = r * cols + c
            if c + 1 < cols:
                src.append(u)
                dst.append(u + 1)
            if r + 1 < rows:
                src.append(u)
                dst.append(u + cols)
    return np.array([src, dst], dtype=dtype)


def to_csr(edge_index, n):
    """Symmetric CSR (indptr, indices) of an undirected edge_index, computed here."""
    src = np.concatenate([edge_index[0], edge_index[1]])
    dst = np.concatenate([edge_index[1], edge_index[0]])
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(indptr, src + 1, 1)
    return np.cumsum(indptr), dst.astype(np.int64)


def comm_volume(edge_index, parts):
    """Sum over u of (distinct blocks among u and its neighbours) - 1, recomputed in Python."""
    blocks = [{p} for p in parts.tolist()]
    for u, v in zip(edge_index[0].tolist(), edge_index[1].tolist()):
        blocks[u].add(int(parts[v]))
        blocks[v].add(int(parts[u]))
    return sum(len(b) - 1 for b in blocks)


def test_partition_edge_index_is_balanced_and_metrics_agree():
    ei = grid_edge_index(12, 12)
    parts = gnnpart.partition(ei, 4, model="hypergraph", vertex_weights="unit", seed=1, threads=1)
    assert parts.shape == (144,)
    assert parts.dtype == np.int64
    sizes = np.bincount(parts, minlength=4)
    assert sizes.max() <= int(1.03 * 36)
    metrics = gnnpart.evaluate(ei, parts)
    assert metrics["comm_volume"] == comm_volume(ei, parts)
    assert metrics["block_sizes"] == sizes.tolist()


@pytest.mark.parametrize("model", ["graph", "hypergraph", "stochastic"])
def test_every_model_returns_a_valid_partition(model):
    ei = grid_edge_index(10, 10)
    parts = gnnpart.partition(ei, 3, model=model, seed=2, threads=2)
    assert parts.min() >= 0 and parts.max() < 3
    assert len(np.unique(parts)) == 3


def test_int32_int64_and_csr_inputs_agree():
    ei = grid_edge_index(9, 11)
    a = gnnpart.partition(ei, 4, seed=3, threads=1)
    b = gnnpart.partition(ei.astype(np.int32), 4, seed=3, threads=1)
    indptr, indices = to_csr(ei, 99)
    c = gnnpart.partition((indptr, indices), 4, seed=3, threads=1)
    d = gnnpart.partition((indptr.astype(np.int32), indices.astype(np.int32)), 4, seed=3, threads=1)
    # a transposed (non-contiguous) view is accepted too
    e = gnnpart.partition(np.ascontiguousarray(ei.T).T, 4, seed=3, threads=1)
    for other in (b, c, d, e):
        np.testing.assert_array_equal(a, other)


def test_errors_raise_value_error_or_type_error_with_the_library_message():
    ei = grid_edge_index(3, 3)
    with pytest.raises(ValueError, match="k"):
        gnnpart.partition(ei, 0)
    with pytest.raises(ValueError, match="epsilon"):
        gnnpart.partition(ei, 2, epsilon=-0.5)
    with pytest.raises(ValueError, match="model"):
        gnnpart.partition(ei, 2, model="nonsense")
    with pytest.raises(ValueError):
        gnnpart.partition(np.zeros((3, 4), dtype=np.int64), 2)
    with pytest.raises(ValueError, match="symmetric"):
        gnnpart.partition((np.array([0, 1, 1]), np.array([1])), 2)
    with pytest.raises(TypeError, match="integers"):
        gnnpart.partition(ei.astype(np.float64), 2)
    with pytest.raises(TypeError):
        gnnpart.partition("edges.txt", 2)
    with pytest.raises(ValueError):
        gnnpart.evaluate(ei, np.array([0, 5, 0, 0, 0, 0, 0, 0, 0]), num_parts=2)


def test_k_above_n_gives_the_cli_message(tmp_path):
    edges = tmp_path / "path.edges"
    edges.write_text("0 1\n1 2\n")
    cli = run_cli("partition", edges, "-k", 5, "-o", tmp_path / "out.part", check=False)
    assert cli.returncode == 2
    with pytest.raises(ValueError) as error:
        gnnpart.partition(np.array([[0, 1], [1, 2]]), 5)
    assert cli.stderr.strip() == "gnnpart: error: " + str(error.value)


def test_write_layout_writes_the_assignment():
    ei = grid_edge_index(6, 6)
    parts = np.repeat(np.arange(3), 12)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "layout")
        info = gnnpart.write_layout(ei, parts, out, graph_name="grid")
        assert info["rows_per_layer"] == comm_volume(ei, parts)
        with open(os.path.join(out, "assignment.txt")) as f:
            assert [int(line) for line in f] == parts.tolist()
        assert os.path.exists(os.path.join(out, "layout.json"))


def test_docstrings_are_present():
    for name, words in (("partition", ("balance", "epsilon", "torch")),
                        ("evaluate", ("comm_volume", "evaluate --json")),
                        ("write_layout", ("layout.json", "rows_per_layer"))):
        assert all(word in getattr(gnnpart, name).__doc__ for word in words), name


def test_keyword_defaults_are_the_cpp_apis():
    """Unset options come from api::Options{} through _core (one source of defaults)."""
    import inspect
    d = gnnpart.defaults()
    core = gnnpart._core.partition.__doc__
    for key in ("model", "epsilon", "seed", "preset", "objective", "algorithm"):
        assert key in d
    assert f"model: str = '{d['model']}'" in core and f"epsilon: float = {d['epsilon']}" in core
    assert all(p.default is None for p in
               inspect.signature(gnnpart.partition).parameters.values() if p.kind == p.KEYWORD_ONLY)
    ei = grid_edge_index(10, 10)
    explicit = gnnpart.partition(ei, 3, model=d["model"], epsilon=d["epsilon"], seed=d["seed"],
                                 threads=d["threads"], preset=d["preset"])
    np.testing.assert_array_equal(gnnpart.partition(ei, 3), explicit)


def test_python_matches_the_cli_on_cora():
    edge_index, n = read_edge_index(CORA)
    parts = gnnpart.partition(edge_index, 8, model="hypergraph", seed=7, threads=2, num_nodes=n)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cora.part")
        run_cli("-q", "partition", CORA, "-k", "8", "--model", "hypergraph", "--seed", "7",
                "-t", "2", "-o", out)
        with open(out) as f:
            cli = np.array([int(line) for line in f], dtype=np.int64)
    np.testing.assert_array_equal(parts, cli)


def test_pyg_to_dgl_example_runs_its_documented_command(tmp_path):
    """examples/pyg_to_dgl.py's own command (PYTHONPATH=build/python, as ctest sets it)."""
    out = tmp_path / "dgl"
    done = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "examples", "pyg_to_dgl.py"),
                           CORA, "8", str(out)], capture_output=True, text=True, check=True)
    assert "_N.txt" in done.stdout
    parts = np.loadtxt(out / "_N.txt", dtype=np.int64)
    edge_index, n = read_edge_index(CORA)
    assert len(parts) == n and set(parts.tolist()) == set(range(8))
    assert np.bincount(parts).max() <= int(1.03 * -(-n // 8))  # the default epsilon's bound
    with open(out / "partition_meta.json") as f:
        assert json.load(f) == {"algo_name": "metis", "num_parts": 8, "version": "1.0.0"}


# A slow network (100 MB/s, 20 us a message) with the sampling rates the step model needs.
SLOW_PROFILE = {
    "name": "test", "source": "assumed", "transport": "none", "ranks": 2, "latency_s": 2e-05,
    "seconds_per_byte": 1e-08, "sync_jitter": 0, "allreduce_latency_s": 2e-05,
    "allreduce_seconds_per_byte": 1e-09, "overlap": 0,
    "spmm": [{"width": 1, "seconds": 2e-09}], "gemm": [{"width": 1, "seconds": 1e-09}],
    "gemm_at_b": [{"width": 1, "seconds": 1e-09}], "gemm_a_bt": [{"width": 1, "seconds": 1e-09}],
    "elementwise_s": 1e-09, "dropout_s": 2e-09, "adam_s": 5e-09, "sample_draw_s": 3e-08,
    "sample_index_s": 1e-07}


def test_predicted_times_are_the_clis(tmp_path):
    """predict_epoch_time / predict_step_time give `gnnpart evaluate --cost` and
    `--minibatch --cost`'s figures for the same partition, training set and fanouts."""
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps(SLOW_PROFILE))
    part_file = tmp_path / "cora.part"
    run_cli("partition", CORA, "-k", 2, "--model", "hypergraph", "-q", "-o", part_file)
    parts = np.array([int(line) for line in open(part_file)], dtype=np.int64)
    edge_index, n = read_edge_index(CORA)
    train = os.path.join(SOURCE_DIR, "datasets", "cora.train.gz")
    shape = ["--feature-dim", 64, "--hidden", 16, "--classes", 7]
    epoch = json.loads(run_cli("evaluate", CORA, part_file, "--cost", profile, "--json",
                               *shape).stdout)["cost"]
    got = gnnpart.predict_epoch_time(edge_index, parts, profile, num_nodes=n, feature_dim=64,
                                     hidden=16, classes=7)
    assert got["seconds"] == pytest.approx(epoch["predicted_epoch_s"], rel=1e-5)
    assert got["critical_rank"] == epoch["critical_rank"]
    step = json.loads(run_cli("evaluate", CORA, part_file, "--minibatch", "--cost", profile,
                              "--train", train, "--batch-size", 16, "--fanouts", "5,3",
                              "--samples", 30, "--seed", 2, "--json",
                              *shape).stdout)["minibatch_cost"]
    got = gnnpart.predict_step_time(edge_index, parts, profile, [5, 3], num_nodes=n,
                                    train=read_vertex_set(train), batch_size=16, samples=30,
                                    seed=2, feature_dim=64, hidden=16, classes=7)
    assert got["seconds"] == pytest.approx(step["predicted_step_s"], rel=1e-5)
    assert got["standard_error"] == pytest.approx(step["predicted_step_stderr_s"], rel=1e-4)
    assert [r["work_s"] for r in step["ranks"]] == pytest.approx(got["rank_seconds"], rel=1e-5)
    with pytest.raises(ValueError, match="fanout -1"):
        gnnpart.predict_step_time(edge_index, parts, profile, [5, -1], num_nodes=n)
