"""Distributed full-batch GCN over a gnnpart layout, one process per block (torch.distributed,
gloo, CPU), the PyTorch counterpart of gnnpart-train.

    gnnpart partition cora.edges.gz -k 4 --layout cora-4 --labels cora.labels.gz \\
        --train cora.train.gz --val cora.val.gz --test cora.test.gz --features cora.features.gz
    python3 -m gnnpart.examples.gcn cora-4 --world-size 4 --epochs 200 --verify --json run.json

The model is gnnpart-train's: Z = Â H W + b with Â = D^-1/2 (A+I) D^-1/2, ReLU between layers,
dropout on every layer's input (the mask a hash of seed, epoch, layer, global vertex id and
column, so it does not depend on the partition), softmax cross-entropy on the training
vertices, Adam, weight decay on the first layer; gradients are summed with all_reduce. A layer
that narrows multiplies by W before it exchanges. Features are the layout's (row-normalised),
or random ones from the seed (--feature-dim) when the layout has none.

--verify runs one epoch in float64 and compares every layer's pre-activations and every
parameter gradient with a single-process GCN on the whole graph, reassembled by rank 0 from all
blocks; it fails (exit code 2) above 1e-5. --json FILE writes the keys of gnnpart-train --json:
measured_rows_per_layer, measured_rows_by_layer, predicted_rows_per_layer, verify_max_abs_diff,
train/val/test_accuracy, loss, epoch_time_s (mean over epochs of the slowest rank's time).
Processes start with torch.multiprocessing.spawn and meet at tcp://127.0.0.1:PORT (a free
port); under `mpirun -np K` each process takes its rank from OpenMPI's environment and they
meet at 127.0.0.1:$MASTER_PORT (default 29533). (Debian's torchrun fails on Python 3.11.)
"""
import argparse
import json
import os
import socket
import sys
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from gnnpart import layout as gl
from gnnpart.torch import HaloExchange

VERIFY_TOLERANCE = 1e-5
_MASK64 = (1 << 64) - 1


def _signed(x):
    x &= _MASK64
    return x - (1 << 64) if x >= 1 << 63 else x


def _shr(x, s):
    """Logical right shift of int64 tensors (torch's >> is arithmetic)."""
    return (x >> s) & ((1 << (64 - s)) - 1)


def _mix(x):
    """splitmix64's finaliser on int64 tensors (wrapping arithmetic)."""
    x = x + _signed(0x9E3779B97F4A7C15)
    x = (x ^ _shr(x, 30)) * _signed(0xBF58476D1CE4E5B9)
    x = (x ^ _shr(x, 27)) * _signed(0x94D049BB133111EB)
    return x ^ _shr(x, 31)


def random_bits(seed, stream, rows, cols):
    """53 random bits per (global row, column) pair (broadcast int64 tensors): a pure function
    of (seed, stream, row, column), so every partition and the single-process reference draw
    the same values."""
    base = _mix(torch.tensor([_signed(seed * 0x100000001B3 + stream)], dtype=torch.int64))
    h = rows.to(torch.int64) * _signed(0xD6E8FEB86659FD93) + (
        cols.to(torch.int64) * _signed(0x9E3779B97F4A7C15) + base)
    h = (h ^ _shr(h, 32)) * _signed(0xD6E8FEB86659FD93)
    h = (h ^ _shr(h, 32)) * _signed(0xD6E8FEB86659FD93)
    return _shr(h ^ _shr(h, 32), 11)


def uniform_hash(seed, stream, rows, width):
    bits = random_bits(seed, stream, rows.unsqueeze(1), torch.arange(width))
    return bits.to(torch.float64) * 2.0**-53


def dropout_scale(seed, epoch, layer, rows, cols, rate, dtype):
    """0 or 1 / (1 - rate) per (row, column) pair."""
    keep = random_bits(seed, (epoch << 8) | layer, rows, cols) >= int(rate * 2**53)
    return keep.to(dtype) * (1.0 / (1.0 - rate))


class SparseInput:
    """The input features of some rows as CSR; dropout touches only the stored entries (a zero
    stays zero), which gives the dense dropout's result at a fraction of the hashing."""

    def __init__(self, dense, rows):
        csr = dense.to_sparse_csr()
        self.crow, self.col, self.values = csr.crow_indices(), csr.col_indices(), csr.values()
        self.entry_rows = rows[torch.repeat_interleave(torch.arange(dense.shape[0]),
                                                       torch.diff(self.crow))]
        self.shape = dense.shape

    def matrix(self, scale=None):
        values = self.values if scale is None else self.values * scale
        return torch.sparse_csr_tensor(self.crow, self.col, values, size=self.shape)


def init_params(widths, seed, dtype):
    """Glorot-uniform weights from (seed, layer), zero biases; identical on every rank."""
    params = []
    for l in range(len(widths) - 1):
        g = torch.Generator().manual_seed(seed * 1000 + l)
        bound = (6.0 / (widths[l] + widths[l + 1])) ** 0.5
        w = (torch.rand(widths[l], widths[l + 1], generator=g, dtype=torch.float64) * 2 - 1) * bound
        params.append([w.to(dtype).requires_grad_(), torch.zeros(widths[l + 1], dtype=dtype,
                                                                  requires_grad=True)])
    return params


def gcn_forward(params, x, a_hat, exchange, rows, epoch, args, train):
    """Pre-activations of every layer; x is a SparseInput, `exchange` maps owned rows to
    owned + halo rows."""
    pre, h = [], None
    drop = train and args.dropout > 0
    for l, (w, b) in enumerate(params):
        if l == 0:
            scale = (dropout_scale(args.seed, epoch, 0, x.entry_rows, x.col, args.dropout,
                                   x.values.dtype) if drop else None)
            h = x.matrix(scale)
        elif drop:
            h = h * dropout_scale(args.seed, epoch, l, rows.unsqueeze(1),
                                  torch.arange(h.shape[1]), args.dropout, h.dtype)
        if w.shape[1] < w.shape[0]:
            z = a_hat @ exchange(h @ w) + b
        else:
            z = (a_hat @ exchange(h.to_dense() if l == 0 else h)) @ w + b
        pre.append(z)
        h = torch.relu(z) if l + 1 < len(params) else z
    return pre


def labelled_loss(logits, labels, mask, total):
    mask = mask & (labels >= 0)
    if not mask.any():
        return logits.sum() * 0.0
    return torch.nn.functional.cross_entropy(logits[mask], labels[mask], reduction="sum") / total


def row_normalised(features):
    sums = features.sum(1, keepdim=True)
    return torch.where(sums > 0, features / sums.clamp_min(1e-30), features)


def input_features(block, args, rows):
    if block.features is not None:
        return row_normalised(block.features.to(torch.float64))
    return uniform_hash(args.seed ^ 0x66656174, 0, rows, args.feature_dim) * 2 - 1


def whole_graph(path, manifest, args):
    """Rank 0's single-process view: Â over all n vertices, features, labels, train mask."""
    n = manifest["n"]
    rows, cols = [], []
    degree = np.zeros(n, dtype=np.int64)
    x, labels, train = None, torch.full((n,), -1, dtype=torch.int64), torch.zeros(n, dtype=bool)
    for p in range(manifest["k"]):
        block = gl.load(path, p)
        sources, destinations = block.global_edges()
        rows.append(sources)
        cols.append(destinations)
        degree[block.local_to_global().numpy()] = block.degree.numpy()
        feats = input_features(block, args, block.owned)
        if x is None:
            x = torch.zeros(n, feats.shape[1], dtype=torch.float64)
        x[block.owned] = feats
        if block.labels is not None:
            labels[block.owned] = block.labels
        train[block.owned] = block.train_mask
    rows = torch.cat(rows + [torch.arange(n)])
    cols = torch.cat(cols + [torch.arange(n)])
    scale = (torch.from_numpy(degree).to(torch.float64) + 1).rsqrt()
    a_hat = torch.sparse_coo_tensor(torch.stack([rows, cols]), scale[rows] * scale[cols],
                                    (n, n)).coalesce().to_sparse_csr()
    return a_hat, x, labels, train


def verify(block, a_hat, x, labels, train, train_total, args):
    """One float64 epoch, distributed and single-process; max |difference| on rank 0."""
    params = init_params(args.widths, args.seed, torch.float64)
    exchange = HaloExchange(block)
    pre = gcn_forward(params, SparseInput(x, block.owned), a_hat, exchange, block.owned, 0, args,
                      True)
    labelled_loss(pre[-1], labels, train, train_total).backward()
    grads = [p.grad for layer in params for p in layer]
    all_reduce_sum(grads)
    gathered = [None] * args.world_size if block.rank == 0 else None
    dist.gather_object(([z.detach() for z in pre], block.owned), gathered, dst=0)
    if block.rank != 0:
        return 0.0
    ref_a, ref_x, ref_labels, ref_train = whole_graph(args.layout, block.manifest, args)
    ref_params = init_params(args.widths, args.seed, torch.float64)
    n = block.manifest["n"]
    ref_pre = gcn_forward(ref_params, SparseInput(ref_x, torch.arange(n)), ref_a, lambda h: h,
                          torch.arange(n), 0, args, True)
    labelled_loss(ref_pre[-1], ref_labels, ref_train, train_total).backward()
    diff = 0.0
    for layer_pre, owned in gathered:
        for l, z in enumerate(layer_pre):
            diff = max(diff, (z - ref_pre[l].detach()[owned]).abs().max().item())
    for g, p in zip(grads, [p for layer in ref_params for p in layer]):
        diff = max(diff, (g - p.grad).abs().max().item())
    return diff


def accuracy(logits, labels, mask):
    mask = mask & (labels >= 0)
    counts = torch.tensor([(logits[mask].argmax(1) == labels[mask]).sum().item(),
                           mask.sum().item()], dtype=torch.float64)
    dist.all_reduce(counts)
    return counts[0].item() / counts[1].item() if counts[1] > 0 else 0.0


def all_reduce_vector(values, op=dist.ReduceOp.SUM):
    t = torch.tensor(values, dtype=torch.float64)
    dist.all_reduce(t, op=op)
    return t


def all_reduce_sum(tensors, extra=None):
    """Sums the tensors over all ranks in place with one all_reduce; returns the sum of
    `extra` (a scalar) when given."""
    parts = [t.reshape(-1) for t in tensors] + ([extra.reshape(1).to(tensors[0].dtype)]
                                                if extra is not None else [])
    flat = torch.cat(parts)
    dist.all_reduce(flat)
    offset = 0
    for t in tensors:
        t.copy_(flat[offset:offset + t.numel()].view_as(t))
        offset += t.numel()
    return flat[-1].item() if extra is not None else None


def global_sum(value, op=dist.ReduceOp.SUM):
    t = torch.tensor([float(value)], dtype=torch.float64)
    dist.all_reduce(t, op=op)
    return t.item()


def worker(rank, args, port):
    torch.set_num_threads(args.threads)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=args.world_size)
    block = gl.load(args.layout, rank)
    if block.labels is None:
        raise SystemExit(f"{args.layout}: the layout has no labels; write it with --labels")
    x64 = input_features(block, args, block.owned)
    if block.features is None and rank == 0:
        print(f"gcn: note: {args.layout} has no features (write it with --features); training "
              f"on random features of width {args.feature_dim}", file=sys.stderr)
    classes = int(global_sum(block.labels.max().item() + 1, dist.ReduceOp.MAX))
    args.widths = [x64.shape[1]] + [args.hidden] * (args.layers - 1) + [classes]
    train_total = global_sum((block.train_mask & (block.labels >= 0)).sum().item())
    if train_total == 0:
        raise SystemExit(f"{args.layout}: no labelled training vertex; write it with --train")
    report = {"layout": args.layout, "world_size": args.world_size,
              "predicted_rows_per_layer": block.manifest["predicted"]["rows_per_layer"]}
    if args.verify:
        a64 = block.gcn_adjacency(torch.float64)
        report["verify_max_abs_diff"] = verify(block, a64, x64, block.labels, block.train_mask,
                                               train_total, args)

    a_hat = block.gcn_adjacency(torch.float32)
    x = SparseInput(x64.to(torch.float32), block.owned)
    params = init_params(args.widths, args.seed, torch.float32)
    flat_params = [p for layer in params for p in layer]
    optimizer = torch.optim.Adam([{"params": params[0], "weight_decay": args.weight_decay},
                                  {"params": flat_params[2:]}], lr=args.lr)
    exchange = HaloExchange(block)
    rows_by_layer, epoch_times, loss_sum = [], [], 0.0
    for epoch in range(args.epochs):
        start = time.perf_counter()
        optimizer.zero_grad()
        calls = len(exchange.rows_per_call)
        pre = gcn_forward(params, x, a_hat, exchange, block.owned, epoch, args, True)
        loss = labelled_loss(pre[-1], block.labels, block.train_mask, train_total)
        loss.backward()
        # One all_reduce per epoch: every gradient and the loss.
        loss_sum = all_reduce_sum([p.grad for p in flat_params], loss.detach())
        optimizer.step()
        epoch_times.append(time.perf_counter() - start)
        if epoch == 0:  # one forward exchange per layer
            rows_by_layer = exchange.rows_per_call[calls:]
    report["loss"] = loss_sum
    rows_by_layer = [int(r) for r in all_reduce_vector(rows_by_layer)]
    slowest = all_reduce_vector(epoch_times, dist.ReduceOp.MAX)  # the slowest rank, per epoch
    with torch.no_grad():
        logits = gcn_forward(params, x, a_hat, exchange, block.owned, 0, args, False)[-1]
    for name in ("train", "val", "test"):
        report[f"{name}_accuracy"] = accuracy(logits, block.labels, getattr(block, name + "_mask"))
    report["measured_rows_by_layer"] = rows_by_layer
    report["measured_rows_per_layer"] = rows_by_layer[0] if rows_by_layer else 0
    report["epochs"] = args.epochs
    report["epoch_time_s"] = float(slowest.mean()) if len(slowest) else 0.0
    dist.destroy_process_group()
    if rank == 0:
        finish(report, args)


def finish(report, args):
    print(f"gcn: {args.layout}, {args.world_size} processes, {args.epochs} epochs: "
          f"rows sent per layer {report['measured_rows_by_layer']} "
          f"(layout.json predicts {report['predicted_rows_per_layer']}), "
          f"epoch {report['epoch_time_s'] * 1e3:.2f} ms, loss {report.get('loss', 0):.4f}, "
          f"accuracy train {report['train_accuracy']:.4f} val {report['val_accuracy']:.4f} "
          f"test {report['test_accuracy']:.4f}")
    if "verify_max_abs_diff" in report:
        ok = report["verify_max_abs_diff"] <= VERIFY_TOLERANCE
        print(f"verify: max |distributed - single process| = {report['verify_max_abs_diff']:.3e} "
              f"({'PASS' if ok else 'FAIL'}, tolerance {VERIFY_TOLERANCE:g})")
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
        os.replace(tmp, args.json)
    if report.get("verify_max_abs_diff", 0.0) > VERIFY_TOLERANCE:
        sys.exit(2)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python3 -m gnnpart.examples.gcn",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("layout", help="vertex layout directory (gnnpart partition ... --layout)")
    p.add_argument("--world-size", type=int, help="processes, one per block (default: k)")
    p.add_argument("--epochs", type=int, default=200)
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--dropout", type=float, default=0.5)
    p.add_argument("--weight-decay", type=float, default=5e-4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--feature-dim", type=int, default=16,
                   help="width of the random features of a layout without features")
    p.add_argument("--threads", type=int, default=1, help="torch threads per process")
    p.add_argument("--verify", action="store_true")
    p.add_argument("--json", help="write the report to this file")
    args = p.parse_args(argv)
    manifest = gl.read_manifest(args.layout)
    k = manifest["k"]
    if manifest["kind"] != "vertex":
        p.error(f"{args.layout} is an edge layout; the GCN needs a vertex layout")
    if not manifest.get("labels"):
        p.error(f"{args.layout} has no labels; write the layout with --labels")
    if sum(b.get("train", 0) for b in manifest["blocks"]) == 0:
        p.error(f"{args.layout} has no training vertices; write the layout with --train")
    if args.world_size is None:
        args.world_size = k
    if args.world_size != k:
        p.error(f"--world-size {args.world_size} must equal the layout's k = {k}")
    if args.layers < 1 or args.epochs < 0 or not 0 <= args.dropout < 1:
        p.error("--layers >= 1, --epochs >= 0 and 0 <= --dropout < 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    if "OMPI_COMM_WORLD_RANK" in os.environ:  # started by mpirun: one process per rank
        if int(os.environ["OMPI_COMM_WORLD_SIZE"]) != args.world_size:
            print(f"gcn: error: mpirun -np must equal --world-size {args.world_size}",
                  file=sys.stderr)
            return 2
        worker(int(os.environ["OMPI_COMM_WORLD_RANK"]), args,
               int(os.environ.get("MASTER_PORT", "29533")))
        return 0
    try:
        mp.spawn(worker, args=(args, free_port()), nprocs=args.world_size, join=True)
    except mp.ProcessExitedException as e:
        return e.exit_code if e.exit_code else 1
    except mp.ProcessRaisedException as e:
        print(f"gcn: error: {str(e).strip().splitlines()[-1]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
