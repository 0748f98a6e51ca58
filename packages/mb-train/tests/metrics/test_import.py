"""Importing mb_train.metrics loads no engine under the numpy backend (metrics are
written over mb_ops only), and runs there eagerly."""

import os
import subprocess
import sys

ENGINES = ("jax", "torch", "tensorflow", "openvino")

CODE = f"""
import sys
from mb_train import metrics
m = metrics.AUC(num_thresholds=3)
m.update_state([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9])
print(float(m.result()), [e for e in {ENGINES!r} if e in sys.modules])
"""


def test_metrics_import_and_run_without_an_engine():
    env = {**os.environ, "MB_BACKEND": "numpy"}
    result = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, timeout=300, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0.75 []"
