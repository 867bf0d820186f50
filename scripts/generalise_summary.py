#!/usr/bin/env python3
"""Summary of scripts/bench_generalise.sh rows: geometric means of gnnpart / gpmetis per family,
per k and overall, against issue #20's targets (graph engine cut <= 0.97x, hypergraph model
volume <= 0.85x METIS's), paired by dataset and k.
  generalise_summary.py ROWS.csv [HEADER] [EPS]    (ROWS may start with the header line)"""
import csv
import math
import sys
from collections import defaultdict

CUT_TARGET, VOLUME_TARGET = 0.97, 0.85
# R-MAT graphs have many isolated vertices (rmat 38%, webrmat 54%; webrmat's largest component
# holds under half of the vertices, so its k = 2 cut can be 0). gpmetis spreads them badly, and
# their tiny ratios would carry the overall mean; "all but R-MAT" is the fair overall figure.
RMAT_FAMILIES = {"rmat", "webrmat"}


def gm(xs):
    return math.exp(sum(math.log(max(x, 1e-9)) for x in xs) / len(xs)) if xs else float("nan")


def main():
    rows_file = sys.argv[1]
    header = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    eps = float(sys.argv[3]) if len(sys.argv) > 3 else 0.03
    with open(rows_file) as f:
        lines = list(csv.reader(f))
    if header is None or (lines and lines[0] == header):
        header, lines = lines[0], lines[1:]
    rows = [dict(zip(header, r)) for r in lines if r]
    metis = {(r["dataset"], r["k"]): r for r in rows if r["tool"] == "gpmetis"}
    # (model, group) -> metric -> ratios; groups: family, "k=K", "all"
    ratios = defaultdict(lambda: defaultdict(list))
    over = defaultdict(int)
    for r in rows:
        if r["tool"] != "gnnpart":
            continue
        if float(r["imbalance"]) > eps + 1e-9:
            over[r["model"]] += 1
        m = metis.get((r["dataset"], r["k"]))
        if not m:
            continue
        metric = "edge_cut" if r["model"] == "graph" else "comm_volume"
        q = max(float(r[metric]), 1) / max(float(m[metric]), 1)
        t = max(float(r["wall_s"]), 1e-6) / max(float(m["wall_s"]), 1e-6)
        groups = [r["family"], "k=" + r["k"], "all"]
        if r["family"] not in RMAT_FAMILIES:
            groups.append("all but R-MAT")
        for group in groups:
            ratios[(r["model"], group)]["q"].append(q)
            ratios[(r["model"], group)]["t"].append(t)
    for model, what, target in (("graph", "cut", CUT_TARGET),
                                ("hypergraph", "volume", VOLUME_TARGET)):
        groups = [g for (mo, g) in ratios if mo == model]
        if not groups:
            continue
        print(f"gnnpart {model} / gpmetis {what} (target <= {target}):")
        overall = [g for g in ("all", "all but R-MAT") if g in groups]
        fam = [g for g in groups if g not in overall and not g.startswith("k=")]
        ks = sorted((g for g in groups if g.startswith("k=")), key=lambda g: int(g[2:]))
        for g in fam + ks + overall:
            d = ratios[(model, g)]
            q = gm(d["q"])
            flag = "ok" if q <= target else f"MISSES by {q - target:+.4f}"
            print(f"  {g:13s} {what} {q:.4f} (worst {max(d['q']):.4f}), time {gm(d['t']):.2f}, "
                  f"{len(d['q'])} pairs  {flag}")
        if over[model]:
            print(f"  {over[model]} runs over epsilon = {eps}")


if __name__ == "__main__":
    main()
