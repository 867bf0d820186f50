#!/usr/bin/python3
"""Writes RESULTS/REPORT.md and the PNG plots from RESULTS/partition.csv and trainer.csv.

Usage: report.py RESULTS_DIR

Every figure in REPORT.md is computed here from the CSV files; tests/experiments/check_report.py
recomputes them independently.
"""
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

METHOD_ORDER = ["metis", "graph-cut", "graph-volume", "hypergraph", "stochastic", "fennel",
                "fennel-3pass", "buffered", "hdrf", "2ps"]
EDGE_METHODS = {"hdrf", "2ps"}
# (column label, function of a row giving the value or None)
RATIO_METRICS = [
    ("comm volume", lambda r: num(r["comm_volume"])),
    ("max send/recv", lambda r: max_or_none(r["max_send_volume"], r["max_recv_volume"])),
    ("edge cut", lambda r: num(r["edge_cut"])),
    ("mini-batch volume", lambda r: num(r["minibatch_volume"])),
    ("time", lambda r: num(r["tool_time_s"])),
]


def num(text):
    return float(text) if text not in ("", None) else None


def max_or_none(a, b):
    a, b = num(a), num(b)
    return None if a is None or b is None else max(a, b)


def color(method):
    i = METHOD_ORDER.index(method) if method in METHOD_ORDER else len(METHOD_ORDER)
    return plt.get_cmap("tab10")(i % 10)


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def ordered(methods):
    known = [m for m in METHOD_ORDER if m in methods]
    return known + sorted(set(methods) - set(known))


def geomean_ratio(rows, method, metric):
    """Geometric mean over (dataset, k) of metric(method) / metric(metis); pairs with a zero or
    missing value on either side are left out. Returns (value or None, pairs used)."""
    base = {(r["dataset"], r["k"]): metric(r) for r in rows if r["method"] == "metis"}
    logs = []
    for r in rows:
        if r["method"] != method:
            continue
        a, b = metric(r), base.get((r["dataset"], r["k"]))
        if a and b:
            logs.append(math.log(a / b))
    if not logs:
        return None, 0
    return math.exp(sum(logs) / len(logs)), len(logs)


def fmt(x):
    return "–" if x is None else f"{x:.3f}"


def ratio_table(rows):
    methods = ordered({r["method"] for r in rows} - EDGE_METHODS)
    lines = ["| method | runs | " + " | ".join(m for m, _ in RATIO_METRICS) + " |",
             "|---|---:|" + "---:|" * len(RATIO_METRICS)]
    for method in methods:
        values = [geomean_ratio(rows, method, f) for _, f in RATIO_METRICS]
        lines.append(f"| {method} | {values[0][1]} | " +
                     " | ".join(fmt(v) for v, _ in values) + " |")
    return lines


def edge_table(rows):
    lines = ["| method | runs | replication factor | replica rows / METIS comm volume | time |",
             "|---|---:|---:|---:|---:|"]
    for method in ordered({r["method"] for r in rows} & EDGE_METHODS):
        rf = [float(r["replication_factor"]) for r in rows if r["method"] == method]
        g = math.exp(sum(math.log(x) for x in rf) / len(rf))
        rr, _ = geomean_ratio(rows, method, lambda r: num(r["replica_rows"]) if r["method"] !=
                              "metis" else num(r["comm_volume"]))
        t, _ = geomean_ratio(rows, method, RATIO_METRICS[4][1])
        lines.append(f"| {method} | {len(rf)} | {g:.3f} | {fmt(rr)} | {fmt(t)} |")
    return lines


def imbalance_table(rows):
    lines = ["| method | runs | max imbalance | runs with an empty block |", "|---|---:|---:|---:|"]
    for method in ordered({r["method"] for r in rows}):
        mine = [r for r in rows if r["method"] == method]
        worst = max(max(float(x) for x in r["imbalance"].split(";")) for r in mine)
        empty = sum(1 for r in mine if r["empty_blocks"] not in ("", "0"))
        lines.append(f"| {method} | {len(mine)} | {worst:.4f} | {empty} |")
    return lines


def trainer_table(rows):
    lines = ["| dataset | k | method | predicted rows/layer | measured rows/layer | "
             "bytes/epoch | messages/epoch | epoch time (s) |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['dataset']} | {r['k']} | {r['method']} | "
                     f"{r['predicted_rows_per_layer']} | {r['measured_rows_per_layer']} | "
                     f"{r['bytes_per_epoch']} | {r['messages_per_epoch']} | "
                     f"{r['epoch_time_s']} |")
    return lines


def plot_volume_vs_k(rows, out):
    datasets = sorted({r["dataset"] for r in rows})
    cols = min(3, len(datasets))
    nrows = math.ceil(len(datasets) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 3.6 * nrows), squeeze=False)
    for ax, ds in zip(axes.flat, datasets):
        mine = [r for r in rows if r["dataset"] == ds and r["comm_volume"]]
        for method in ordered({r["method"] for r in mine}):
            pts = sorted((int(r["k"]), float(r["comm_volume"])) for r in mine
                         if r["method"] == method)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=method,
                    color=color(method))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(ds)
        ax.set_xlabel("k")
        ax.set_ylabel("comm volume (rows/layer)")
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    legend = {}
    for ax in axes.flat:
        for h, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, h)
    labels = ordered(legend)
    fig.legend([legend[x] for x in labels], labels, loc="lower center", ncol=min(5, len(labels)))
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.savefig(os.path.join(out, "volume_vs_k.png"), dpi=90)
    plt.close(fig)


def plot_time_vs_edges(rows, out):
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for method in ordered({r["method"] for r in rows}):
        mine = [r for r in rows if r["method"] == method and num(r["time_s"])]
        ax.scatter([float(r["m"]) for r in mine], [float(r["time_s"]) for r in mine],
                   label=method, s=14, color=color(method))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("edges m")
    ax.set_ylabel("partitioning time incl. I/O (s)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "time_vs_edges.png"), dpi=90)
    plt.close(fig)


def plot_quality_vs_time(rows, out):
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for method in ordered({r["method"] for r in rows} - EDGE_METHODS):
        v, _ = geomean_ratio(rows, method, RATIO_METRICS[0][1])
        t, _ = geomean_ratio(rows, method, RATIO_METRICS[4][1])
        if v is not None and t is not None:
            ax.scatter([t], [v], s=40)
            ax.annotate(method, (t, v), fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("time relative to METIS (geometric mean)")
    ax.set_ylabel("comm volume relative to METIS (geometric mean)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "quality_vs_time.png"), dpi=90)
    plt.close(fig)


def plot_predicted_vs_measured(rows, out):
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    if rows:
        x = [float(r["predicted_rows_per_layer"]) for r in rows]
        y = [float(r["measured_rows_per_layer"]) for r in rows]
        ax.scatter(x, y, s=20)
        lo, hi = max(min(x + y), 1) * 0.8, max(x + y) * 1.25
        ax.plot([lo, hi], [lo, hi], linestyle="--", color="grey", label="y = x")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.legend()
    ax.set_xlabel("predicted rows per layer (partitioner)")
    ax.set_ylabel("measured rows per layer (gnnpart-train)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "predicted_vs_measured.png"), dpi=90)
    plt.close(fig)


def main():
    out = sys.argv[1]
    rows = read_csv(os.path.join(out, "partition.csv"))
    trows = read_csv(os.path.join(out, "trainer.csv"))
    if not rows:
        sys.exit(f"report.py: no rows in {out}/partition.csv")
    plot_volume_vs_k(rows, out)
    plot_time_vs_edges(rows, out)
    plot_quality_vs_time(rows, out)
    plot_predicted_vs_measured(trows, out)
    datasets = sorted({r["dataset"] for r in rows})
    ks = sorted({int(r["k"]) for r in rows})
    md = [
        "# gnnpart experiments",
        "",
        f"Commit `{rows[0]['commit']}`, {rows[0]['cores']} cores, seed {rows[0]['seed']}, "
        f"one thread per run. {len(rows)} partitioner runs on {len(datasets)} graphs "
        f"({', '.join(datasets)}), k in {{{', '.join(map(str, ks))}}}. "
        "Generated from `partition.csv` and `trainer.csv` by `scripts/experiments/report.py`.",
        "",
        "## Geometric means relative to METIS",
        "",
        "Each figure is the geometric mean over (graph, k) of the method's value divided by "
        "METIS's (< 1: better than METIS); pairs where either value is 0 or missing are left "
        "out. `runs` counts the pairs of the comm volume column. comm volume = Σ(λ−1) rows per "
        "GCN layer; max send/recv = the busiest block's larger direction; mini-batch volume = "
        "expected rows sent per mini-batch of 64 training vertices (graphs with a train set); "
        "time = the partitioner's own time (`time_partition_s` of `partition --json`, "
        "`partition_seconds` of `stream --json`; reading the graph and sorting not included; "
        "`time_s` in the CSV is the whole command's wall time).",
        "",
        *ratio_table(rows),
        "",
        "## Edge partitioners (vertex cut)",
        "",
        "Replication factor = vertex copies / vertices (geometric mean over runs). Replica rows "
        "= copies − vertices, the rows synchronised per layer; divided by METIS's comm volume "
        "on the same (graph, k).",
        "",
        *edge_table(rows),
        "",
        "## Balance",
        "",
        "Largest imbalance (max block weight / ceil(W/k) − 1, every constraint; edges for the "
        "edge partitioners) over all runs of a method.",
        "",
        *imbalance_table(rows),
        "",
        "## Trainer: predicted vs measured",
        "",
        "`gnnpart-train` under mpirun, one rank per block, full-batch GCN (2 layers, hidden 16). "
        "Predicted rows per layer come from the layout (= comm volume); measured rows are the "
        "rows the ranks actually sent per layer; bytes and messages are per epoch.",
        "",
        *trainer_table(trows),
        "",
        "## Plots",
        "",
        "![comm volume vs k](volume_vs_k.png)",
        "",
        "![time vs edges](time_vs_edges.png)",
        "",
        "![quality vs time](quality_vs_time.png)",
        "",
        "![predicted vs measured](predicted_vs_measured.png)",
        "",
    ]
    with open(os.path.join(out, "REPORT.md"), "w") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    main()
