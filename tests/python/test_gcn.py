"""python3 -m gnnpart.examples.gcn on Cora, k = 4 processes, a few epochs: rows sent per layer
equal layout.json's prediction, one float64 epoch equals a single-process GCN."""
import json
import subprocess
import sys

import pytest


@pytest.mark.parametrize("model", ["graph", "hypergraph"])
def test_distributed_gcn_sends_the_predicted_rows_and_verifies(cora_layouts, tmp_path, model):
    report = tmp_path / "run.json"
    done = subprocess.run([sys.executable, "-m", "gnnpart.examples.gcn", cora_layouts[model],
                           "--world-size", "4", "--epochs", "3", "--verify", "--json",
                           str(report)], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    result = json.loads(report.read_text())
    assert result["measured_rows_by_layer"] == [result["predicted_rows_per_layer"]] * 2
    assert result["measured_rows_per_layer"] == result["predicted_rows_per_layer"]
    assert result["verify_max_abs_diff"] <= 1e-5
    for key in ("test_accuracy", "val_accuracy", "train_accuracy", "epoch_time_s", "loss"):
        assert key in result
    assert "PASS" in done.stdout


def test_world_size_must_match_the_layout(cora_layouts):
    done = subprocess.run([sys.executable, "-m", "gnnpart.examples.gcn", cora_layouts["graph"],
                           "--world-size", "3"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "must equal the layout's k = 4" in done.stderr


def test_a_layout_without_labels_is_refused_before_any_process_starts(tmp_path, cora):
    import numpy as np
    import gnnpart
    edge_index, n = cora
    parts = np.arange(n) % 4
    gnnpart.write_layout(edge_index, parts, tmp_path / "plain", num_nodes=n)
    done = subprocess.run([sys.executable, "-m", "gnnpart.examples.gcn", str(tmp_path / "plain")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "has no labels" in done.stderr
