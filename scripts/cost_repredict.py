#!/usr/bin/env python3
"""Re-predicts the runs that scripts/bench_cost.sh kept (KEEP_DIR) with another gnnpart (or
another profile), offline: per case directory NETWORK.GRAPH.K (profile.json, the partitions,
run.PARTITIONER.ROUND.json) it runs `gnnpart evaluate GRAPH DIR/*.part --cost PROFILE ...`,
takes the measured epoch as bench_cost.sh does (the median over the pooled runs of byte-identical
partitions of each run's median epoch after the warm-up) and writes bench_cost.sh's row CSV to
stdout, and with --phases its per-phase CSV (predicted against the median run's phases); on
stderr per case how often one round's fastest partition is within 3% of another round's fastest
(the ranking test with measurements as the prediction: the runs' own noise floor).
  cost_repredict.py --gnnpart BIN [--profile-edit PY] [--phases OUT.csv] CASE_DIR...
--profile-edit names a Python expression evaluated with `p` bound to the profile's dict (e.g.
"p.pop('spmm_row_grid', None)") before it is written to a scratch file and used: a way to price
the same runs with a field removed or changed. Then: scripts/cost_summary.py OUT.csv."""
import argparse, glob, json, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATASETS = [os.path.join(HERE, "..", "datasets"), "/work/shared/datasets"]
HEADER = ("commit,network,graph,n,k,ranks_per_core,partitioner,layers,feature_dim,hidden,"
          "classes,predicted_s,measured_s,error,critical_rank,load1")


def dataset(name):
    for d in DATASETS:
        path = os.path.join(d, name)
        if os.path.exists(path):
            return path
    sys.exit(f"cost_repredict: no dataset {name}")


def classes_of(graph):
    """bench_cost.sh's class count: the labels file's largest label + 1, else 4."""
    for d in DATASETS:
        path = os.path.join(d, f"{graph}.labels.gz")
        if os.path.exists(path):
            import gzip
            top = 1
            for line in gzip.open(path, "rt"):
                if line.strip():
                    top = max(top, int(line.split()[0]))
            return top + 1
    return 4


def noise_floor(network, graph, k, directory, names, warmup):
    """stderr: how well the runs rank themselves. For every ordered pair of rounds (a, b), the
    partition fastest in round a measured in round b against round b's fastest: the within-3%
    test with one round of measurements as the prediction, which no model can beat by much."""
    by = {}
    for p in names:
        for path in glob.glob(os.path.join(directory, f"run.{p}.*.json")):
            r = int(path.rsplit(".", 2)[1])
            times = json.load(open(path))["epoch_times_s"][warmup:]
            by.setdefault(p, {})[r] = statistics.median(times)
    rounds = sorted(set.intersection(*(set(v) for v in by.values())))
    gaps = [by[min(by, key=lambda p: by[p][a])][b] / min(v[b] for v in by.values()) - 1
            for a in rounds for b in rounds if a != b]
    if gaps:
        print(f"cost_repredict: {network} {graph} k={k}: round-by-round fastest within 3% of the "
              f"other round's fastest in {sum(g <= 0.03 for g in gaps)} of {len(gaps)} pairs "
              f"(gaps {' '.join(f'{g:.4f}' for g in gaps)})", file=sys.stderr)


def case(args, directory, warmup, out_rows, out_phases):
    network, graph, k = os.path.basename(directory.rstrip("/")).split(".")
    runs = sorted(glob.glob(os.path.join(directory, "run.*.json")))
    first = json.load(open(runs[0]))
    parts = sorted(glob.glob(os.path.join(directory, f"{graph}.{k}.*.part")))
    names = [os.path.basename(p)[len(f"{graph}.{k}."):-len(".part")] for p in parts]
    profile = os.path.join(directory, "profile.json")
    scratch = None
    if args.profile_edit:
        p = json.load(open(profile))
        eval(args.profile_edit, {}, {"p": p})
        scratch = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(p, scratch)
        scratch.close()
        profile = scratch.name
    command = [args.gnnpart, "evaluate", dataset(f"{graph}.edges.gz"), *parts, "--cost", profile,
               "--layers", str(first["layers"]), "--feature-dim", str(first["feature_dim"]),
               "--hidden", str(first["hidden"]), "--classes", str(first["classes"]), "--json"]
    evaluated = json.loads(subprocess.run(command, check=True, capture_output=True,
                                          text=True).stdout)
    if scratch:
        os.unlink(scratch.name)
    predicted = {}
    for c in evaluated.get("ranking", [evaluated.get("cost")]):
        name = os.path.basename(c["partition"])[len(f"{graph}.{k}."):-len(".part")]
        predicted[name] = c
    content = {q: open(path, "rb").read() for q, path in zip(names, parts)}
    load = open(os.path.join(directory, "load.txt")).read().strip() \
        if os.path.exists(os.path.join(directory, "load.txt")) else ""
    noise_floor(network, graph, k, directory, names, warmup)
    for p in names:
        pooled = []
        for twin in (q for q in names if content[q] == content[p]):
            for path in sorted(glob.glob(os.path.join(directory, f"run.{twin}.*.json"))):
                run = json.load(open(path))
                pooled.append((statistics.median(run["epoch_times_s"][warmup:]), run))
        pooled.sort(key=lambda x: x[0])
        measured = statistics.median(t for t, _ in pooled)
        median_run = pooled[len(pooled) // 2][1]
        c = predicted[p]
        pred = c["predicted_epoch_s"]
        if out_phases:
            for rank, (m, q) in enumerate(zip(median_run.get("phases_s", []), c["ranks"])):
                for phase, seconds in q["phases_s"].items():
                    out_phases.write(f"{network},{graph},{k},{p},{rank},{phase},{seconds:.6g},"
                                     f"{m[phase]:.6g}\n")
        out_rows.write(f"repredict,{network},{graph},{evaluated.get('n', '')},{k},"
                       f"{args.ranks_per_core:g},{p},{first['layers']},{first['feature_dim']},"
                       f"{first['hidden']},{first['classes']},{pred:.6f},{measured:.6f},"
                       f"{(pred - measured) / measured:.4f},{c['critical_rank']},{load}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gnnpart", required=True)
    ap.add_argument("--profile-edit")
    ap.add_argument("--phases")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--ranks-per-core", type=float, default=1)
    ap.add_argument("cases", nargs="+")
    args = ap.parse_args()
    phases = open(args.phases, "w") if args.phases else None
    if phases:
        phases.write("network,graph,k,partitioner,rank,phase,predicted_s,measured_s\n")
    print(HEADER)
    for directory in args.cases:
        case(args, directory, args.warmup, sys.stdout, phases)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
