"""gnnpart: (hyper)graph partitioning for distributed GNN training.

    import gnnpart
    parts = gnnpart.partition(data.edge_index, 4, balance=[data.train_mask])
    gnnpart.evaluate(data.edge_index, parts)          # the dict of `gnnpart evaluate --json`

Graphs are a PyG-style edge_index (2 x m; directed edges are symmetrized, duplicates and self
loops dropped) or a CSR pair (indptr, indices) storing every edge in both directions, as NumPy
arrays or torch CPU tensors; results come back as the same kind. Option defaults are the C++
API's (`gnnpart.defaults()`), the same as the CLI's. Bad arguments raise ValueError (bad value,
with the library's message) or TypeError (wrong type or dtype).

Modules: gnnpart.layout (trainer layouts as torch tensors), gnnpart.torch (halo exchange over
torch.distributed), gnnpart.export (DistDGL and PyG partition directories),
gnnpart.examples.gcn (distributed full-batch GCN).
"""
import numpy as np

from . import _core

__version__ = _core.__version__
__all__ = ["partition", "evaluate", "write_layout", "defaults", "predict_epoch_time",
           "predict_step_time"]


def defaults():
    """The option defaults shared with the CLI and the C/C++ APIs, as a dict."""
    return _core.defaults()


def _is_tensor(x):
    return type(x).__module__.startswith("torch")


def _to_numpy(x, what):
    """A NumPy view of a numpy array or torch CPU tensor (no copy for CPU tensors)."""
    if _is_tensor(x):
        if x.device.type != "cpu":
            raise ValueError(f"{what} must be a CPU tensor, not on {x.device}")
        if x.is_sparse or x.layout != __import__("torch").strided:
            raise TypeError(f"{what} must be a dense tensor")
        return x.detach().numpy()
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (list, tuple)):
        return np.asarray(x)
    raise TypeError(f"{what} must be a numpy array or a torch tensor, not {type(x).__name__}")


def _graph_arg(graph):
    """(graph for _core, True when the caller used torch)."""
    if isinstance(graph, (tuple, list)):
        if len(graph) != 2:
            raise ValueError("graph must be edge_index (2 x m) or a pair (indptr, indices)")
        torch_in = _is_tensor(graph[0]) or _is_tensor(graph[1])
        return (_to_numpy(graph[0], "indptr"), _to_numpy(graph[1], "indices")), torch_in
    return _to_numpy(graph, "edge_index"), _is_tensor(graph)


def _num_vertices(graph, num_nodes):
    if isinstance(graph, tuple):
        return len(graph[0]) - 1
    if num_nodes is not None:
        return int(num_nodes)
    return int(graph.max()) + 1 if graph.size else 0


def _constraints(graph, num_nodes, node_weights, balance):
    """The n x ncon vertex-weight matrix: base weights (node_weights, else 1) and one 0/1
    column per balance mask, as `--vertex-weights FILE --balance-set FILE...` builds it."""
    if node_weights is None and not balance:
        return None
    n = _num_vertices(graph, num_nodes)
    columns = []
    if node_weights is not None:
        w = _to_numpy(node_weights, "node_weights")
        if w.ndim != 1 or len(w) != n:
            raise ValueError(f"node_weights must hold one weight per vertex ({n}), "
                             f"not shape {tuple(w.shape)}")
        if w.dtype.kind not in "iub":
            raise TypeError(f"node_weights must hold integers, not {w.dtype}")
        columns.append(w.astype(np.int64))
    else:
        columns.append(np.ones(n, dtype=np.int64))
    for i, mask in enumerate(balance or []):
        m = _to_numpy(mask, f"balance[{i}]")
        if m.dtype == np.bool_:
            if m.shape != (n,):
                raise ValueError(f"balance[{i}] must be a mask of {n} vertices, "
                                 f"not shape {tuple(m.shape)}")
            column = m.astype(np.int64)
        elif m.dtype.kind in "iu" and m.ndim == 1:
            if len(m) and (m.min() < 0 or m.max() >= n):
                raise ValueError(f"balance[{i}]: vertex id outside [0, {n})")
            column = np.zeros(n, dtype=np.int64)
            column[m] = 1
        else:
            raise TypeError(f"balance[{i}] must be a boolean mask or an array of vertex ids, "
                            f"not {m.dtype}")
        if not column.any():
            raise ValueError(f"balance set {i + 1} is empty")
        columns.append(column)
    return np.ascontiguousarray(np.stack(columns, axis=1))


def _like_input(array, torch_in):
    if torch_in:
        import torch
        return torch.from_numpy(array)
    return array


def _given(**kwargs):
    """Keyword arguments the caller set; the rest keep _core's defaults (api::Options{})."""
    return {k: v for k, v in kwargs.items() if v is not None}


def partition(edge_index, num_parts, *, model=None, objective=None, epsilon=None, seed=None,
              threads=None, preset=None, algorithm=None, vertex_weights=None, node_weights=None,
              balance=None, num_nodes=None):
    """Partitions the vertices into num_parts blocks; returns one block id per vertex (int64),
    a torch tensor when the graph was given as torch tensors, else a NumPy array.

    edge_index  (2, m) integer array/tensor, or a CSR pair (indptr, indices)
    model       "graph" (edge cut, the default: METIS's objective at about its speed),
                "hypergraph" (column-net: exact full-batch GCN communication volume, about
                15% less than METIS at about 3x the time) or "stochastic" (expected
                mini-batch volume; warns: it has no training set here)
    objective   "cut" or "volume" (graph model), "km1", "cut" or "soed" (hypergraph models),
                "max-volume" (model "hypergraph": largest per-block send + receive volume)
    epsilon     allowed imbalance: every constraint's block weight is at most
                floor((1 + epsilon) * ceil(W / k))
    seed        random seed; the same seed and threads give the same partition (the CLI's)
    threads     worker threads of this call (<= 0: all hardware threads)
    preset      "fast", "default" or "strong"
    algorithm   "multilevel" or "metis" (graph model only)
    vertex_weights  hypergraph models: "unit" (the default: blocks keep their share of
                vertices) or "degree" (deg + 1, the SpMM work of a row); with node_weights or
                balance the models balance those constraints instead
    node_weights    one integer weight per vertex (the CLI's --vertex-weights FILE)
    balance     list of boolean masks (or vertex-id arrays), e.g. [train_mask, val_mask]:
                one more balance constraint each, so every block gets its share of those
                vertices (DistDGL's multi-constraint balance; the CLI's --balance-set)
    num_nodes   vertices of an edge_index graph (default: largest id + 1)

    Unset options take gnnpart.defaults(), the defaults of the CLI."""
    graph, torch_in = _graph_arg(edge_index)
    constraints = _constraints(graph, num_nodes, node_weights, balance)
    if constraints is not None:
        # The hypergraph models then balance exactly these constraints (the CLI's rule).
        if vertex_weights not in (None, "unit", "graph"):
            raise ValueError(f"vertex_weights='{vertex_weights}' cannot be combined with "
                             f"node_weights or balance; pass the weights as node_weights")
        vertex_weights = "graph"
    parts = _core.partition(graph, int(num_parts), num_nodes=num_nodes, constraints=constraints,
                            **_given(model=model, objective=objective, epsilon=epsilon,
                                     seed=seed, threads=threads, preset=preset,
                                     algorithm=algorithm, vertex_weights=vertex_weights))
    return _like_input(parts, torch_in)


def evaluate(edge_index, parts, *, num_parts=None, threads=None, num_nodes=None, feature_dim=0):
    """Metrics of a partition, as the dict `gnnpart evaluate --json` writes: n, m, k, edge_cut,
    weighted_edge_cut, comm_volume (sum over vertices of lambda - 1: feature rows sent per GCN
    layer), max_send_volume, max_recv_volume, max_block_volume,
    num_comm_pairs, boundary_vertices, halo_ratio,
    imbalance_vertices, imbalance (per constraint), empty_blocks, block_sizes, and with
    feature_dim F > 0 feature_dim and bytes_per_layer. num_parts defaults to max(parts) + 1."""
    graph, _ = _graph_arg(edge_index)
    return _core.evaluate(graph, _to_numpy(parts, "parts"), num_parts=num_parts,
                          num_nodes=num_nodes, feature_dim=int(feature_dim),
                          **_given(threads=threads))


def predict_epoch_time(edge_index, parts, profile, *, num_parts=None, layers=None,
                       feature_dim=None, hidden=None, classes=None, dropout=None,
                       feature_density=None, threads=None, num_nodes=None):
    """Predicted seconds of one full-batch epoch of gnnpart-train with one rank per block, on the
    machine that `mpirun -np P gnnpart-train --calibrate -o PROFILE` measured (docs/
    cost_model.md); the figure of `gnnpart evaluate --cost`. Returns a dict: seconds,
    standard_error (0), critical_rank (the slowest rank), rank_seconds (every rank's total).
    The GCN shape: layers, feature_dim, hidden, classes, dropout, feature_density (nonzero share
    of the input features); defaults as the CLI's."""
    graph, _ = _graph_arg(edge_index)
    return _core.predict_epoch_time(
        graph, _to_numpy(parts, "parts"), str(profile), num_parts=num_parts, num_nodes=num_nodes,
        **_given(layers=layers, feature_dim=feature_dim, hidden=hidden, classes=classes,
                 dropout=dropout, feature_density=feature_density, threads=threads))


def predict_step_time(edge_index, parts, profile, fanouts, *, num_parts=None, train=None,
                      batch_size=None, samples=None, seed=None, feature_dim=None, hidden=None,
                      classes=None, dropout=None, feature_density=None, threads=None,
                      num_nodes=None):
    """Predicted seconds of one mini-batch step of gnnpart-train's fetch mode (DistDGL's scheme:
    each rank samples batch_size seeds of its own training vertices, fetches the remote input
    rows once, computes locally, allreduces gradients), expected over `samples` fresh steps; the
    figure of `gnnpart evaluate --minibatch --cost`. fanouts: one per layer, hop 1 first (PyG's
    num_neighbors order; gnnpart-train and DGL take them reversed). train: the training vertices
    (a mask is not accepted; default every vertex). Returns a dict: seconds, standard_error,
    critical_rank (the busiest rank), rank_seconds (every rank's own work per step)."""
    graph, _ = _graph_arg(edge_index)
    train_ids = None if train is None else _to_numpy(train, "train")
    return _core.predict_step_time(
        graph, _to_numpy(parts, "parts"), str(profile), [int(f) for f in fanouts],
        num_parts=num_parts, num_nodes=num_nodes, train=train_ids,
        **_given(batch_size=batch_size, samples=samples, seed=seed, feature_dim=feature_dim,
                 hidden=hidden, classes=classes, dropout=dropout,
                 feature_density=feature_density, threads=threads))


def write_layout(edge_index, parts, directory, *, num_parts=None, graph_name=None, model=None,
                 objective=None, threads=None, num_nodes=None):
    """Writes the trainer layout directory (layout.json, assignment.txt, part<p>/*.npy; see
    docs/layout.md) atomically, replacing an existing layout. Returns the predicted traffic:
    rows_per_layer, max_send_rows, max_recv_rows, messages. Features and labels are added by
    `gnnpart layout ... --features/--labels` (CLI)."""
    graph, _ = _graph_arg(edge_index)
    return _core.write_layout(graph, _to_numpy(parts, "parts"), str(directory),
                              num_parts=num_parts, num_nodes=num_nodes,
                              **_given(graph_name=graph_name, model=model, objective=objective,
                                       threads=threads))
