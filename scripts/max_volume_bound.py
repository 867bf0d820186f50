#!/usr/bin/env python3
"""A lower bound on the largest per-block send + receive volume (issue #19's max-volume) of every
partition of a graph into k blocks of at most L = floor((1 + eps) * ceil(n / k)) vertices (unit
vertex weights, the column-net model of a 1D row split: row u goes once to every other block
holding a neighbour of u).

Hub bound: let v have d distinct neighbours (self loops dropped) and sit in block B. Every
neighbour u outside B owns net {u} + N(u), which contains v, so B receives row u: at least
d - (L - 1) rows. B also sends row v to every block holding one of them, each block holding at
most L: at least ceil((d - L + 1) / L) blocks. The bound holds for any total volume.

  scripts/max_volume_bound.py GRAPH.edges.gz [K ...]   (default K: 8 32; EPS=0.03)
Prints one CSV line per k: graph,k,n,max_degree,limit,bound
"""
import collections
import gzip
import math
import os
import re
import sys

HEADER = re.compile(r"#\s*(?:vertices|nodes)\s*:?\s*(\d+)")


def declared_vertices(path):
    """The largest vertex count a '# vertices: N' header line declares (0: none)."""
    n = 0
    with gzip.open(path, "rt") as f:
        for line in f:
            if line[0] not in "#%":
                break
            m = HEADER.match(line)
            if m:
                n = max(n, int(m.group(1)))
    return n


def edges(path):
    with gzip.open(path, "rt") as f:
        for line in f:
            if line[0] in "#%" or not line.strip():
                continue
            a, b = line.split()[:2]
            yield int(a), int(b)


def main():
    path, ks = sys.argv[1], [int(k) for k in sys.argv[2:]] or [8, 32]
    eps = float(os.environ.get("EPS", "0.03"))
    degree = collections.Counter()
    n = declared_vertices(path)  # as gnnpart reads it: the header's count or max id + 1
    for a, b in edges(path):
        n = max(n, a + 1, b + 1)
        if a != b:
            degree[a] += 1
            degree[b] += 1
    # Distinct neighbours of the vertices of largest raw degree (duplicate edges count once); the
    # bound holds for any vertex, so a subset of the vertices gives a valid one.
    top = {v for v, _ in degree.most_common(32)}
    neighbours = collections.defaultdict(set)
    for a, b in edges(path):
        if a != b:
            if a in top:
                neighbours[a].add(b)
            if b in top:
                neighbours[b].add(a)
    d = max((len(s) for s in neighbours.values()), default=0)
    name = os.path.basename(path).split(".")[0]
    print("graph,k,n,max_degree,limit,bound")
    for k in ks:
        limit = math.floor((1 + eps) * ((n + k - 1) // k) + 1e-9)
        outside = max(0, d - (limit - 1))
        bound = outside + math.ceil(outside / limit)
        print(f"{name},{k},{n},{d},{limit},{bound}")


if __name__ == "__main__":
    main()
