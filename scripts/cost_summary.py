#!/usr/bin/env python3
"""Summary of scripts/bench_cost.sh's CSV: per (network, graph, k) the Spearman rank correlation
of predicted and measured epoch times and whether the predicted fastest partition is the
measured fastest or within 3% of it; geometric-mean |error| over runs with at most one rank per
core and, apart, over oversubscribed runs; and, where both were run, the model's choice between
the km1 partition (`hypergraph`) and the `max-volume` one: pair_choice is the one predicted
faster, pair_ok 1 when it measured faster (issue 19's limited-bandwidth check). With --rounds
(bench_cost.sh's rounds.csv: every run's median epoch by round) rounds_ok gives, per case, in how
many ordered pairs of rounds (a, b) the partition fastest in round a measured within 3% of round
b's fastest: the ranking test with one round's measurements as the prediction, the ceiling that
the runs' own noise sets for any model. Optionally an SVG scatter plot (no dependencies).
  cost_summary.py ROWS.csv [--summary OUT.csv] [--rounds ROUNDS.csv] [--svg OUT.svg]
                  [--markdown OUT.md]"""
import argparse, csv, math, sys
from collections import defaultdict


PAIR = ("hypergraph", "max-volume")


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for t in range(i, j + 1):
            r[order[t]] = (i + j) / 2
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def rel_error(r):
    """|predicted - measured| / measured from the seconds (the CSV's error column is rounded to 4
    decimals, and an error below 5e-5 would read as 0 and sink a geometric mean)."""
    return abs(float(r["predicted_s"]) - float(r["measured_s"])) / float(r["measured_s"])


def geomean(values):
    values = [max(v, 1e-12) for v in values]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def rounds_ranking(path):
    """(network, graph, k) -> (pairs within 3%, ordered pairs of rounds) from ROUNDS.csv."""
    by = defaultdict(lambda: defaultdict(dict))
    for r in csv.DictReader(open(path)):
        by[(r["network"], r["graph"], r["k"])][r["partitioner"]][r["round"]] = float(r["epoch_s"])
    out = {}
    for case, parts in by.items():
        rounds = sorted(set.intersection(*(set(v) for v in parts.values())))
        hits = pairs = 0
        for a in rounds:
            for b in rounds:
                if a != b:
                    pick = min(parts, key=lambda p: parts[p][a])
                    best = min(v[b] for v in parts.values())
                    hits += parts[pick][b] / best - 1 <= 0.03
                    pairs += 1
        out[case] = (hits, pairs)
    return out


def svg(rows, path):
    size, pad = 460, 50
    pts = [(float(r["predicted_s"]), float(r["measured_s"]), r) for r in rows]
    lo = min(min(p, m) for p, m, _ in pts) * 0.8
    hi = max(max(p, m) for p, m, _ in pts) * 1.25
    def coord(v):
        return pad + (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo)) * (size - 2 * pad)
    colours = {"shm": "#1f77b4", "tcp": "#d62728"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{size}" height="{size}" fill="white"/>',
           f'<line x1="{pad}" y1="{size - pad}" x2="{size - pad}" y2="{pad}" stroke="#999" '
           f'stroke-dasharray="4"/>']
    tick = 10 ** math.floor(math.log10(lo))
    while tick <= hi:
        for m in (1, 2, 5):
            t = tick * m
            if lo <= t <= hi:
                c = coord(t)
                out.append(f'<text x="{c:.1f}" y="{size - pad + 14}" text-anchor="middle">{t:g}</text>')
                out.append(f'<text x="{pad - 4}" y="{size - c + 4:.1f}" text-anchor="end">{t:g}</text>')
                out.append(f'<line x1="{c:.1f}" y1="{size - pad}" x2="{c:.1f}" y2="{size - pad + 4}" stroke="black"/>')
                out.append(f'<line x1="{pad - 4}" y1="{size - c:.1f}" x2="{pad}" y2="{size - c:.1f}" stroke="black"/>')
        tick *= 10
    out.append(f'<rect x="{pad}" y="{pad}" width="{size - 2 * pad}" height="{size - 2 * pad}" '
               f'fill="none" stroke="black"/>')
    for p, m, r in pts:
        over = float(r["ranks_per_core"]) > 1
        colour = colours.get(r["network"], "black")
        out.append(f'<circle cx="{coord(p):.1f}" cy="{size - coord(m):.1f}" r="3" '
                   f'fill="{"none" if over else colour}" stroke="{colour}"/>')
    out.append(f'<text x="{size / 2}" y="{size - 12}" text-anchor="middle">predicted epoch (s)</text>')
    out.append(f'<text x="14" y="{size / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {size / 2})">measured epoch (s, median)</text>')
    out.append(f'<text x="{pad + 6}" y="{pad + 14}">filled: one rank per core; open: oversubscribed; '
               f'blue shm, red tcp</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("--summary")
    ap.add_argument("--svg")
    ap.add_argument("--markdown")
    ap.add_argument("--rounds")
    args = ap.parse_args()
    own = rounds_ranking(args.rounds) if args.rounds else {}
    rows = list(csv.DictReader(open(args.rows)))
    if not rows:
        sys.exit("cost_summary: no rows in " + args.rows)
    groups = defaultdict(list)
    for r in rows:
        groups[(r["network"], r["graph"], r["k"], r["ranks_per_core"])].append(r)
    lines = ["network,graph,k,ranks_per_core,partitions,spearman,predicted_fastest,"
             "measured_fastest,fastest_gap,fastest_ok,geomean_abs_error,pair_choice,pair_ok" +
             (",rounds_ok" if own else "")]
    ok = defaultdict(list)
    pairs = defaultdict(list)
    for (network, graph, k, rpc), rs in groups.items():
        pred = [float(r["predicted_s"]) for r in rs]
        meas = [float(r["measured_s"]) for r in rs]
        pick = min(range(len(rs)), key=lambda i: pred[i])
        best = min(range(len(rs)), key=lambda i: meas[i])
        gap = meas[pick] / meas[best] - 1
        fine = gap <= 0.03
        over = float(rpc) > 1
        ok[over].append(fine)
        err = geomean([rel_error(r) for r in rs])
        pair = {r["partitioner"]: r for r in rs if r["partitioner"] in PAIR}
        choice, pair_ok = "", ""
        if len(pair) == 2:
            a, b = (pair[p] for p in PAIR)
            pa, pb = float(a["predicted_s"]), float(b["predicted_s"])
            chosen, other = (a, b) if pa <= pb else (b, a)
            if abs(pa - pb) <= 1e-6 * max(pa, pb):
                choice = "tie"  # equal predictions (often the same partition): no choice made
            else:
                choice = chosen["partitioner"]
                pair_ok = int(float(chosen["measured_s"]) <= float(other["measured_s"]))
                pairs[network].append(pair_ok)
        lines.append(f"{network},{graph},{k},{rpc},{len(rs)},{spearman(pred, meas):.3f},"
                     f"{rs[pick]['partitioner']},{rs[best]['partitioner']},{gap:.4f},"
                     f"{int(fine)},{err:.4f},{choice},{pair_ok}" +
                     (f",{own[(network, graph, k)][0]}/{own[(network, graph, k)][1]}"
                      if (network, graph, k) in own else ("," if own else "")))
    for over in (False, True):
        sel = [rel_error(r) for r in rows if (float(r["ranks_per_core"]) > 1) == over]
        if sel:
            label = "oversubscribed" if over else "one rank per core"
            print(f"{label}: {len(sel)} runs, geometric-mean |error| {geomean(sel):.4f}, "
                  f"predicted fastest within 3% in {sum(ok[over])} of {len(ok[over])} cases",
                  file=sys.stderr)
    if own:
        hits, total = (sum(v[i] for v in own.values()) for i in (0, 1))
        print(f"the rounds' own ranking (one round's fastest within 3% of another's fastest): "
              f"{hits} of {total} ordered pairs of rounds", file=sys.stderr)
    for network, hits in pairs.items():
        print(f"{network}: the model's choice between {PAIR[0]} and {PAIR[1]} measured faster "
              f"in {sum(hits)} of {len(hits)} cases with different predictions", file=sys.stderr)
    text = "\n".join(lines) + "\n"
    if args.summary:
        open(args.summary, "w").write(text)
    else:
        sys.stdout.write(text)
    if args.svg:
        svg(rows, args.svg)
    if args.markdown:
        markdown(rows, lines, args.markdown)


def markdown(rows, summary_lines, path):
    """Per (network, graph, k): predicted / measured seconds of every partitioner, then the
    summary columns."""
    parts = []
    for r in rows:
        if r["partitioner"] not in parts:
            parts.append(r["partitioner"])
    out = ["| network | graph | k | ranks/core | " + " | ".join(parts) + " |",
           "|---|---|---|---|" + "---|" * len(parts)]
    cells = defaultdict(dict)
    for r in rows:
        cells[(r["network"], r["graph"], r["k"], r["ranks_per_core"])][r["partitioner"]] = r
    for key, by in cells.items():
        row = [f"{float(by[p]['predicted_s']):.3f} / {float(by[p]['measured_s']):.3f}"
               if p in by else "" for p in parts]
        out.append("| " + " | ".join(key) + " | " + " | ".join(row) + " |")
    out.append("")
    header = summary_lines[0].split(",")
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    for line in summary_lines[1:]:
        out.append("| " + " | ".join(line.split(",")) + " |")
    open(path, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
