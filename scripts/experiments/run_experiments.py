#!/usr/bin/python3
"""Runs every partitioner of the comparison and appends one CSV row per run.

Called by scripts/experiments/run.sh; see that file for the environment variables. Every run is
single-threaded (-t 1) with a fixed seed, so rerunning gives identical CSV values except the
columns time_s, tool_time_s, rss_kb and epoch_time_s.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

PARTITION_FIELDS = [
    "commit", "cores", "dataset", "n", "m", "k", "method", "seed", "comm_volume",
    "max_send_volume", "max_recv_volume", "num_comm_pairs", "halo_ratio", "edge_cut",
    "imbalance", "empty_blocks", "replication_factor", "replica_rows", "minibatch_volume",
    "time_s", "tool_time_s", "rss_kb",
]
TRAINER_FIELDS = [
    "commit", "cores", "dataset", "k", "method", "seed", "predicted_rows_per_layer",
    "measured_rows_per_layer", "predicted_messages_per_layer", "bytes_per_epoch",
    "messages_per_epoch", "epochs", "epoch_time_s",
]

# method name -> (kind, arguments). kind: partition (gnnpart partition), vstream (vertex
# streaming), estream (edge streaming).
METHODS = {
    "metis": ("partition", ["--algo", "metis"]),
    "graph-cut": ("partition", ["--objective", "cut"]),
    "graph-volume": ("partition", ["--objective", "volume"]),
    "hypergraph": ("partition", ["--model", "hypergraph", "--vertex-weights", "unit"]),
    "stochastic": ("partition", ["--model", "stochastic", "--vertex-weights", "unit",
                                "--batch-size", "64"]),
    "fennel": ("vstream", ["--algo", "fennel"]),
    "fennel-3pass": ("vstream", ["--algo", "fennel", "--passes", "3"]),
    "buffered": ("vstream", ["--algo", "buffered"]),
    "hdrf": ("estream", ["--algo", "hdrf"]),
    "2ps": ("estream", ["--algo", "2ps"]),
}
TRAINER_METHODS = ["metis", "graph-volume", "hypergraph", "stochastic", "fennel"]


def log(msg):
    print(f"experiments: {msg}", file=sys.stderr, flush=True)


def parse_time_file(path):
    """Peak RSS in KiB from the output of /usr/bin/time -v."""
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("Maximum resident set size"):
                return line.rsplit(" ", 1)[1]
    return ""


def run_timed(cmd, tmp):
    """Runs cmd under /usr/bin/time -v; returns (stdout, wall seconds, peak RSS KiB).

    The wall time (process start, reading the graph, partitioning, writing) is measured here,
    since /usr/bin/time rounds to 10 ms."""
    time_file = os.path.join(tmp, "time.txt")
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", "-o", time_file] + cmd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    wall = time.perf_counter() - start
    return proc.stdout, f"{wall:.4f}", parse_time_file(time_file)


def fmt_imbalance(values):
    return ";".join(f"{v:.6f}" for v in values)


def train_file(datasets_dir, name):
    path = os.path.join(datasets_dir, f"{name}.train.gz")
    return path if os.path.exists(path) else None


def evaluate(cfg, graph, part, k, train, tmp):
    cmd = [cfg["gnnpart"], "evaluate", graph, part, "-k", str(k), "--json", "-t", "1"]
    if train:
        cmd += ["--minibatch", "--train", train, "--batch-size", "64", "--samples", "50",
                "--seed", "0"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"evaluate failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def run_method(cfg, ds, graph, k, method, tmp):
    kind, args = METHODS[method]
    seed = cfg["seed"]
    train = train_file(cfg["datasets"], ds) if not ds.startswith("rmat") else None
    part = os.path.join(tmp, f"{ds}.{method}.{k}")
    row = {"dataset": ds, "k": k, "method": method, "seed": seed}
    if kind == "partition":
        if method == "stochastic":
            args = args + ["--train", train]
        jfile = os.path.join(tmp, "p.json")
        cmd = [cfg["gnnpart"], "partition", graph, "-k", str(k), "--seed", str(seed), "-t", "1",
               "-q", "-o", part, "--json", jfile] + args
        _, wall, rss = run_timed(cmd, tmp)
        with open(jfile) as f:
            tool = json.load(f)
        row["tool_time_s"] = f"{tool['time_partition_s']:.4f}"
    else:
        cmd = [cfg["gnnpart"], "stream", graph, "-k", str(k), "-s", str(seed), "-o", part,
               "--json"] + args
        if kind == "vstream":
            cmd.append("--no-metrics")
        out, wall, rss = run_timed(cmd, tmp)
        tool = json.loads(out)
        row["tool_time_s"] = f"{tool['partition_seconds']:.4f}"
    row["time_s"], row["rss_kb"] = wall, rss
    row["n"], row["m"] = tool["n"], tool["m"]
    if kind == "estream":
        row["replication_factor"] = f"{tool['replication_factor']:.6f}"
        row["replica_rows"] = tool["vertex_copies"] - tool["covered_vertices"]
        row["imbalance"] = f"{tool['edge_imbalance']:.6f}"
        return row, None
    ev = evaluate(cfg, graph, part, k, train, tmp)
    for key in ["comm_volume", "max_send_volume", "max_recv_volume", "num_comm_pairs",
                "edge_cut", "empty_blocks"]:
        row[key] = ev[key]
    row["halo_ratio"] = f"{ev['halo_ratio']:.6f}"
    row["imbalance"] = fmt_imbalance(ev["imbalance"])
    if "minibatch_volume_mean" in ev:
        row["minibatch_volume"] = f"{ev['minibatch_volume_mean']:.4f}"
    return row, part


def run_trainer(cfg, ds, graph, k, method, part, tmp):
    d = cfg["datasets"]
    layout = os.path.join(tmp, f"layout.{ds}.{method}.{k}")
    cmd = [cfg["gnnpart"], "layout", graph, part, "-o", layout, "-k", str(k), "-q",
           "--name", ds]
    for flag, suffix in [("--features", "features"), ("--labels", "labels"),
                         ("--train", "train"), ("--val", "val"), ("--test", "test")]:
        path = os.path.join(d, f"{ds}.{suffix}.gz")
        if os.path.exists(path):
            cmd += [flag, path]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    jfile = os.path.join(tmp, "train.json")
    epochs = cfg["epochs"]
    cmd = ["mpirun", "-np", str(k), "--oversubscribe", "--allow-run-as-root", cfg["trainer"],
           layout, "--epochs", str(epochs), "--seed", "1", "--json", jfile]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"trainer failed: {proc.stderr.strip()[-500:]}")
    with open(jfile) as f:
        t = json.load(f)
    subprocess.run(["rm", "-rf", layout], check=True)
    return {
        "dataset": ds, "k": k, "method": method, "seed": cfg["seed"],
        "predicted_rows_per_layer": t["predicted_rows_per_layer"],
        "measured_rows_per_layer": t["measured_rows_per_layer"],
        "predicted_messages_per_layer": t["predicted_messages_per_layer"],
        "bytes_per_epoch": t["bytes_sent_total"] // epochs,
        "messages_per_epoch": t["messages_sent_total"] // epochs,
        "epochs": epochs,
        "epoch_time_s": f"{t['epoch_time_s']:.4f}",
    }


def methods_for(cfg, ds, m):
    """Methods run on a graph with m edges: all for the datasets, fewer for big generated ones."""
    names = list(METHODS)
    if ds.startswith("rmat") or not train_file(cfg["datasets"], ds):
        names.remove("stochastic")
    # m is known in advance only for the generated graphs. The hypergraph model took over four
    # minutes per k on R-MAT with 1M edges (2 cores, loaded), so it stops at 500k generated edges.
    if m > 20_000_000:
        names = ["fennel", "hdrf", "2ps"]
    elif m > 2_000_000:
        names = ["metis", "graph-cut", "fennel", "buffered", "hdrf", "2ps"]
    elif m > 500_000:
        names.remove("hypergraph")
    return names


def main():
    cfg = {
        "gnnpart": os.environ["GNNPART"],
        "trainer": os.environ.get("GNNPART_TRAIN", ""),
        "datasets": os.environ["EXP_DATASETS_DIR"],
        "out": os.environ["EXP_OUT"],
        "seed": int(os.environ.get("EXP_SEED", "1")),
        "epochs": int(os.environ.get("EXP_EPOCHS", "5")),
        "commit": os.environ.get("EXP_COMMIT", "unknown"),
        "cores": os.cpu_count(),
    }
    graphs = []  # (name, path, k list, edges if known in advance)
    ks = [int(x) for x in os.environ["EXP_KS"].split()]
    for name in os.environ["EXP_DATASETS"].split():
        graphs.append((name, os.path.join(cfg["datasets"], f"{name}.edges.gz"), ks, 0))
    gen_ks = [int(x) for x in os.environ.get("EXP_GEN_KS", "").split()]
    for spec in os.environ.get("EXP_GENERATED", "").split():  # N:M, written by run.sh
        n, m = spec.split(":")
        graphs.append((f"rmat-{n}-{m}", os.path.join(cfg["out"], "graphs", f"rmat-{n}-{m}.edges"),
                       gen_ks, int(m)))
    train_ks = {int(x) for x in os.environ.get("EXP_TRAIN_KS", "").split()}
    train_ds = set(os.environ.get("EXP_TRAIN_DATASETS", "").split())

    os.makedirs(cfg["out"], exist_ok=True)
    failures = []  # failed runs are listed in failures.txt; the others go on
    pcsv = os.path.join(cfg["out"], "partition.csv")
    tcsv = os.path.join(cfg["out"], "trainer.csv")
    with open(pcsv, "w", newline="") as pf, open(tcsv, "w", newline="") as tf, \
            tempfile.TemporaryDirectory(prefix="gnnpart-exp-") as tmp:
        pw = csv.DictWriter(pf, PARTITION_FIELDS, lineterminator="\n")
        tw = csv.DictWriter(tf, TRAINER_FIELDS, lineterminator="\n")
        pw.writeheader()
        tw.writeheader()
        for name, path, kl, m in graphs:
            for k in kl:
                for method in methods_for(cfg, name, m):
                    log(f"{name} k={k} {method}")
                    try:
                        row, part = run_method(cfg, name, path, k, method, tmp)
                    except (RuntimeError, OSError, ValueError, KeyError) as e:
                        failures.append(f"{name} k={k} {method}: {e}")
                        log(failures[-1])
                        continue
                    row.update(commit=cfg["commit"], cores=cfg["cores"])
                    pw.writerow(row)
                    pf.flush()
                    if (part and cfg["trainer"] and name in train_ds and k in train_ks and
                            method in TRAINER_METHODS):
                        log(f"{name} k={k} {method}: gnnpart-train")
                        try:
                            trow = run_trainer(cfg, name, path, k, method, part, tmp)
                            trow.update(commit=cfg["commit"], cores=cfg["cores"])
                            tw.writerow(trow)
                            tf.flush()
                        except (RuntimeError, OSError, ValueError, KeyError,
                                subprocess.CalledProcessError) as e:
                            failures.append(f"{name} k={k} {method} gnnpart-train: {e}")
                            log(failures[-1])
                    if part and os.path.exists(part):
                        os.remove(part)
    with open(os.path.join(cfg["out"], "failures.txt"), "w") as f:
        f.writelines(line + "\n" for line in failures)


if __name__ == "__main__":
    main()
