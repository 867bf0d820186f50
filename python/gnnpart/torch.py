"""Halo exchange over torch.distributed (gloo, CPU) along a layout's send/receive lists.

    block = gnnpart.layout.load(layout_dir, rank)
    halo = gnnpart.torch.HaloExchange(block)
    h_local = halo(h_owned)              # (owned, F) -> (owned + halo, F), differentiable
    z = block.gcn_adjacency() @ h_local  # one GCN aggregation

Forward: every block posts dist.irecv for the halo slots it needs and dist.isend for the owned
rows its neighbours need, then copies the received rows into their slots. Backward runs the
same lists the other way: the gradient of each halo slot goes to the slot's owner, which adds
it into the row it sent. rows_per_call lists the rows this block posted per forward call, so
summing one call's count over ranks gives layout.json's predicted rows_per_layer.
"""
import torch
import torch.distributed as dist


def _exchange(values, send, recv):
    """Sends values[ids] to q for each (q, ids) of `send`, receives len(ids) rows from q for
    each (q, ids) of `recv`; returns [(ids, received rows)] once every message completed, and
    the number of rows posted."""
    width = values.shape[1:]
    inbox = [(ids, torch.empty((len(ids),) + width, dtype=values.dtype)) for _, ids in recv]
    requests = [dist.irecv(buf, src=q) for (q, _), (_, buf) in zip(recv, inbox) if len(buf)]
    outbox = [(q, values[ids].contiguous()) for q, ids in send if len(ids)]
    requests += [dist.isend(rows, dst=q) for q, rows in outbox]
    for request in requests:
        request.wait()
    return inbox, sum(rows.shape[0] for _, rows in outbox)


class _HaloFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, owned_rows, exchange):
        ctx.exchange = exchange
        out = owned_rows.new_empty((exchange.num_local,) + owned_rows.shape[1:])
        out[:exchange.num_owned] = owned_rows
        inbox, posted = _exchange(owned_rows, exchange.send, exchange.recv)
        for slots, rows in inbox:
            out[slots] = rows
        exchange.rows_per_call.append(posted)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        exchange = ctx.exchange
        grad_out = grad_out.contiguous()
        grad = grad_out[:exchange.num_owned].clone()
        # Reverse direction: halo slots (recv lists) go back to their owners, who add them
        # into the rows they sent (send lists).
        for rows_sent, grads in _exchange(grad_out, exchange.recv, exchange.send)[0]:
            grad.index_add_(0, rows_sent, grads)
        return grad, None


class HaloExchange:
    """Callable halo exchange of one block (a gnnpart.layout.Block) over the default process
    group, whose rank must be the block's id."""

    def __init__(self, block):
        self.num_owned = block.num_owned
        self.num_local = block.num_owned + block.num_halo
        self.send, self.recv = block.send, block.recv
        self.rows_per_call = []  # rows this block sent, per forward call

    def __call__(self, owned_rows):
        if owned_rows.shape[0] != self.num_owned:
            raise ValueError(f"halo exchange needs {self.num_owned} owned rows, "
                             f"not {owned_rows.shape[0]}")
        return _HaloFunction.apply(owned_rows, self)
