#!/usr/bin/env python3
"""Metrics of a partition of a binary edge stream (.bin, GNPEDGE1), recomputed in bounded memory.

evalpart and `gnnpart evaluate` hold the whole graph; a 10^9-edge stream does not fit beside
the runs it checks. This reads the stream in chunks of edges (numpy memmap), so it needs the
partition (8 bytes a vertex) and one chunk, plus, for the volume, the (vertex, foreign block)
pairs of one vertex range per pass. It shares no code with gnnpart.

The stream must hold each undirected edge once (as `gnnpart generate` writes it): duplicates
would be counted twice in the cut.

Usage: stream_metrics.py GRAPH.bin PARTITION K [--volume-passes P]
Prints one JSON object with evalpart's key names: n, m, k, edge_cut, comm_volume (with
--volume-passes, P >= 1 passes over the stream), imbalance_vertices, empty_blocks, self_loops.
"""
import argparse
import json
import struct

import numpy as np

HEADER_BYTES = 40
CHUNK_EDGES = 1 << 25


def read_header(path):
    with open(path, 'rb') as f:
        header = f.read(HEADER_BYTES)
    if header[:8] != b'GNPEDGE1':
        raise SystemExit(f'{path}: not a GNPEDGE1 edge stream')
    id_bytes, _, n, m, _ = struct.unpack('<IIQQQ', header[8:HEADER_BYTES])
    return id_bytes, n, m


def read_partition(path, n):
    """One block id per line (gpmetis convention), read in pieces of whole lines."""
    part = np.empty(n, dtype=np.int64)
    filled = 0
    rest = b''
    with open(path, 'rb') as f:
        while True:
            piece = f.read(1 << 26)
            if not piece:
                break
            piece = rest + piece
            end = piece.rfind(b'\n') + 1
            rest = piece[end:]
            values = np.array(piece[:end].split(), dtype=np.int64)
            if filled + len(values) > n:
                raise SystemExit(f'{path}: more than {n} lines')
            part[filled:filled + len(values)] = values
            filled += len(values)
    if rest.strip():
        if filled == n:
            raise SystemExit(f'{path}: more than {n} lines')
        part[filled] = int(rest)
        filled += 1
    if filled != n:
        raise SystemExit(f'{path}: {filled} lines for {n} vertices')
    return part


def edge_chunks(path, id_bytes, m):
    ids = np.dtype('<u4') if id_bytes == 4 else np.dtype('<u8')
    stream = np.memmap(path, dtype=ids, mode='r', offset=HEADER_BYTES, shape=(m, 2))
    for start in range(0, m, CHUNK_EDGES):
        chunk = np.asarray(stream[start:start + CHUNK_EDGES])
        yield chunk[:, 0].astype(np.int64), chunk[:, 1].astype(np.int64)


def comm_volume(path, id_bytes, m, part, k, passes):
    """Sum over vertices of the blocks other than its own among its neighbours' blocks: per
    pass, the distinct (vertex, foreign block) pairs of one range of vertices."""
    n = len(part)
    bounds = np.linspace(0, n, passes + 1).astype(np.int64)
    volume = 0
    for low, high in zip(bounds[:-1], bounds[1:]):
        pairs = []
        for u, v in edge_chunks(path, id_bytes, m):
            for a, b in ((u, v), (v, u)):
                keep = (a >= low) & (a < high) & (part[a] != part[b])
                pairs.append(np.unique(a[keep] * k + part[b[keep]]))
        if pairs:
            volume += len(np.unique(np.concatenate(pairs)))
    return volume


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('graph')
    parser.add_argument('partition')
    parser.add_argument('k', type=int)
    parser.add_argument('--volume-passes', type=int, default=0)
    args = parser.parse_args()

    id_bytes, n, m = read_header(args.graph)
    part = read_partition(args.partition, n)
    if n and (part.min() < 0 or part.max() >= args.k):
        raise SystemExit(f'{args.partition}: a block id outside [0, {args.k})')
    cut = 0
    loops = 0
    for u, v in edge_chunks(args.graph, id_bytes, m):
        if n and (u.max(initial=0) >= n or v.max(initial=0) >= n):
            raise SystemExit(f'{args.graph}: a vertex id >= n = {n}')
        loops += int(np.count_nonzero(u == v))
        cut += int(np.count_nonzero(part[u] != part[v]))
    sizes = np.bincount(part, minlength=args.k)
    result = {'n': n, 'm': m, 'k': args.k, 'edge_cut': cut,
              'imbalance_vertices': round(float(sizes.max() / (n / args.k) - 1), 6) if n else 0.0,
              'empty_blocks': int(np.count_nonzero(sizes == 0)), 'self_loops': loops}
    if args.volume_passes > 0:
        result['comm_volume'] = comm_volume(args.graph, id_bytes, m, part, args.k,
                                            args.volume_passes)
    print(json.dumps(result))


if __name__ == '__main__':
    main()
