"""Importing mb_train.metrics loads no engine under the numpy backend (metrics are
written over mb_ops only), and runs there eagerly."""

from mb_ops import testing

CODE = """
from mb_train import metrics
m = metrics.AUC(num_thresholds=3)
m.update_state([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9])
assert float(m.result()) == 0.75, float(m.result())
"""


def test_metrics_import_and_run_without_an_engine():
    assert testing.engines_loaded_by(CODE) == []
