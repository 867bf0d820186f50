#!/usr/bin/env python3
"""Load a gnnpart layout directory (docs/layout.md) with numpy and check it.

    python3 scripts/layout_loader.py LAYOUT_DIR [--expect-rows N]

The loader is gnnpart.layout (python/gnnpart/layout.py; installed as `python3 -m gnnpart.layout`);
this script runs it from a source tree without building the package.
"""
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "gnnpart_layout", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python",
                                   "gnnpart", "layout.py"))
layout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layout)
load_layout, check_layout = layout.load_numpy, layout.check

if __name__ == "__main__":
    sys.exit(layout.main(sys.argv))
