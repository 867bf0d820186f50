#!/usr/bin/python3
"""Checks that every figure in RESULTS/REPORT.md's tables follows from RESULTS/*.csv.

Usage: check_report.py RESULTS_DIR

Recomputes the tables independently of scripts/experiments/report.py (statistics.geometric_mean
instead of its log sums) and exits 1 naming the first cell that does not match, or a method or
row that is missing or extra.
"""
import csv
import os
import statistics
import sys

EDGE = {"hdrf", "2ps"}


def fail(msg):
    print(f"check_report: {msg}", file=sys.stderr)
    sys.exit(1)


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def tables(md_path):
    """Heading -> list of rows (list of cells) of the first table below it."""
    out, heading, rows = {}, None, None
    with open(md_path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                heading, rows = line[3:], None
            elif line.startswith("|") and heading is not None:
                cells = [c.strip() for c in line.strip("|").split("|")]
                if rows is None:
                    rows = out.setdefault(heading, [])
                    continue  # header row
                if set(cells[1]) <= set("-:"):
                    continue  # separator row
                rows.append(cells)
    return out


def value(r, col):
    if col == "max":
        a, b = r["max_send_volume"], r["max_recv_volume"]
        return max(float(a), float(b)) if a and b else None
    return float(r[col]) if r[col] else None


def ratio(rows, method, col, base_col=None):
    base = {}
    for r in rows:
        if r["method"] == "metis":
            base[r["dataset"] + "/" + r["k"]] = value(r, base_col or col)
    ratios = []
    for r in rows:
        if r["method"] == method:
            a, b = value(r, col), base.get(r["dataset"] + "/" + r["k"])
            if a is not None and b is not None and a > 0 and b > 0:
                ratios.append(a / b)
    return (statistics.geometric_mean(ratios) if ratios else None), len(ratios)


def same(cell, expected, decimals, where):
    if expected is None:
        if cell != "–":
            fail(f"{where}: report says {cell}, CSV gives no value")
        return
    try:
        got = float(cell)
    except ValueError:
        fail(f"{where}: '{cell}' is not a number (expected {expected:.{decimals}f})")
    if abs(got - expected) > 1.5 * 10 ** -decimals:
        fail(f"{where}: report says {cell}, CSV gives {expected:.{decimals + 3}f}")


def check_methods(table, expected, name):
    got = [row[0] for row in table]
    if sorted(got) != sorted(expected) or len(got) != len(set(got)):
        fail(f"{name}: methods {got} but the CSV has {sorted(expected)}")


def main():
    out = sys.argv[1]
    rows = load(os.path.join(out, "partition.csv"))
    trows = load(os.path.join(out, "trainer.csv"))
    t = tables(os.path.join(out, "REPORT.md"))
    methods = {r["method"] for r in rows}
    checked = 0

    name = "Geometric means relative to METIS"
    table = t.get(name) or fail(f"no table '{name}'")
    check_methods(table, methods - EDGE, name)
    cols = ["comm_volume", "max", "edge_cut", "minibatch_volume", "tool_time_s"]
    for cells in table:
        _, n = ratio(rows, cells[0], "comm_volume")
        if int(cells[1]) != n:
            fail(f"{name}/{cells[0]}: runs {cells[1]}, CSV gives {n}")
        for i, col in enumerate(cols):
            same(cells[2 + i], ratio(rows, cells[0], col)[0], 3, f"{name}/{cells[0]}/{col}")
            checked += 1

    name = "Edge partitioners (vertex cut)"
    table = t.get(name) or fail(f"no table '{name}'")
    check_methods(table, methods & EDGE, name)
    for cells in table:
        mine = [r for r in rows if r["method"] == cells[0]]
        if int(cells[1]) != len(mine):
            fail(f"{name}/{cells[0]}: runs {cells[1]}, CSV gives {len(mine)}")
        rf = statistics.geometric_mean([float(r["replication_factor"]) for r in mine])
        same(cells[2], rf, 3, f"{name}/{cells[0]}/replication")
        same(cells[3], ratio(rows, cells[0], "replica_rows", "comm_volume")[0], 3,
             f"{name}/{cells[0]}/replica_rows")
        same(cells[4], ratio(rows, cells[0], "tool_time_s")[0], 3, f"{name}/{cells[0]}/time")
        checked += 3

    name = "Balance"
    table = t.get(name) or fail(f"no table '{name}'")
    check_methods(table, methods, name)
    for cells in table:
        mine = [r for r in rows if r["method"] == cells[0]]
        worst = max(float(x) for r in mine for x in r["imbalance"].split(";"))
        empty = len([r for r in mine if r["empty_blocks"] and int(r["empty_blocks"]) > 0])
        if int(cells[1]) != len(mine) or int(cells[3]) != empty:
            fail(f"{name}/{cells[0]}: runs/empty {cells[1]}/{cells[3]}, CSV {len(mine)}/{empty}")
        same(cells[2], worst, 4, f"{name}/{cells[0]}/imbalance")
        checked += 1

    name = "Trainer: predicted vs measured"
    table = t.get(name, [])
    if len(table) != len(trows):
        fail(f"{name}: {len(table)} rows, CSV has {len(trows)}")
    keys = ["dataset", "k", "method", "predicted_rows_per_layer", "measured_rows_per_layer",
            "bytes_per_epoch", "messages_per_epoch"]
    for cells, r in zip(table, trows):
        for i, key in enumerate(keys):
            if cells[i] != r[key]:
                fail(f"{name}/{r['dataset']}/{r['k']}/{r['method']}/{key}: report says "
                     f"{cells[i]}, CSV {r[key]}")
        same(cells[7], float(r["epoch_time_s"]), 4, f"{name}/{r['method']}/epoch_time")
        checked += 1
    print(f"check_report: {checked} figures of {out}/REPORT.md match the CSV")


if __name__ == "__main__":
    main()
