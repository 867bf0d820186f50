"""Examples runnable with python3 -m gnnpart.examples.NAME (gcn: distributed full-batch GCN)."""
