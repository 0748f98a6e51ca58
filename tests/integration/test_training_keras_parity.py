"""The names and order of what fit, evaluate and the ``*_on_batch`` methods report,
against Keras 3 itself, on the leg's backend.

Keras (a test-only dependency) runs the same `build` and `data` source in a
subprocess on its jax backend and reports, per model, the keys of its History and
the order of evaluate()'s list (its ``_flatten_metrics_in_order``; Keras 3.15 may
repeat a name there when a weighted metric shares a metric's name, and mb lists
each value once, so repeats are dropped before comparing). The lists mb returns
must hold the values of its own dict in that order.
"""

from __future__ import annotations

import importlib.util
import inspect
import json

import numpy as np
import pytest

import mb as keras
from mb_ops import testing

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
    ),
    pytest.mark.trains,  # skipped where the backend cannot train (conftest)
]

CASES = ["single", "single_repeated", "two_dicts", "two_lists", "dict_outputs"]


def build(k, case):
    """The model of `case`, written once for `k` = mb or keras."""
    inp = k.Input((3,), name="x")
    h = k.layers.Dense(4, activation="relu", name="hidden")(inp)
    cls = k.layers.Dense(3, activation="softmax", name="cls")(h)
    reg = k.layers.Dense(1, name="reg")(h)
    optimizer = k.optimizers.SGD(0.0)  # the weights stay: repeated calls agree
    if case == "single":
        model = k.Model(inp, cls)
        model.compile(
            optimizer,
            "sparse_categorical_crossentropy",
            metrics=["accuracy"],
            weighted_metrics=["accuracy"],
        )
    elif case == "single_repeated":
        model = k.Model(inp, reg)
        model.compile(
            optimizer, "mse", metrics=["mae", "mse", "mae"], weighted_metrics=["mae", "mae"]
        )
    elif case == "two_dicts":
        model = k.Model(inp, [cls, reg])
        model.compile(
            optimizer,
            loss={"cls": "sparse_categorical_crossentropy", "reg": "mse"},
            metrics={"cls": ["accuracy"]},
            weighted_metrics={"cls": ["accuracy"]},
        )
    elif case == "two_lists":
        model = k.Model(inp, [cls, reg])
        model.compile(
            optimizer,
            loss=["sparse_categorical_crossentropy", "mse"],
            metrics=[["accuracy"], ["mae"]],
            weighted_metrics=[["accuracy"], ["mae"]],
        )
    else:  # dict_outputs
        model = k.Model(inp, {"reg": reg, "cls": cls})
        model.compile(
            optimizer,
            loss={"cls": "sparse_categorical_crossentropy", "reg": "mse"},
            metrics={"reg": ["mae"], "cls": ["accuracy"]},
            weighted_metrics={"reg": ["mae"]},
        )
    return model


def data(case):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 3)).astype("float32")
    classes = rng.integers(0, 3, size=(8,))
    target = rng.normal(size=(8, 1)).astype("float32")
    weights = rng.uniform(0.5, 2.0, size=(8,)).astype("float32")
    if case.startswith("single"):
        return x, classes if case == "single" else target, weights
    if case == "dict_outputs":
        return x, {"cls": classes, "reg": target}, {"cls": weights, "reg": weights}
    # Keras 3.15 reads neither a dict of targets nor of weights with sample weights
    # for list outputs: both as lists.
    return x, [classes, target], [weights, weights]


_KERAS_MAIN = """
report = {}
for case in json.loads(sys.argv[1]):
    model = build(keras, case)
    x, y, sw = data(case)
    history = model.fit(x, y, sample_weight=sw, verbose=0)
    logs = model.evaluate(x, y, sample_weight=sw, verbose=0, return_dict=True)
    order = model._flatten_metrics_in_order({name: name for name in logs})
    report[case] = {"history": sorted(history.history), "order": order}
print(json.dumps(report))
"""
_KERAS_SIDE = "\n".join(
    ["import json", "import sys", "import keras", "import numpy as np"]
    + [inspect.getsource(fn) for fn in (build, data)]
    + [_KERAS_MAIN]
)


@pytest.fixture(scope="module")
def keras_report():
    result = testing.run_keras(_KERAS_SIDE, json.dumps(CASES), backend="jax")
    return json.loads(result.stdout.strip().splitlines()[-1])


def _in_order(values, logs, order):
    # Same numbers, in Keras's order (rtol: the same computation run twice).
    assert isinstance(values, list) and len(values) == len(order)
    np.testing.assert_allclose(values, [logs[name] for name in order], rtol=1e-6)


@pytest.mark.parametrize("case", CASES)
def test_names_and_list_order_match_keras(keras_report, case):
    expected = keras_report[case]
    order = list(dict.fromkeys(expected["order"]))
    model = build(keras, case)
    x, y, sw = data(case)
    history = model.fit(x, y, sample_weight=sw, verbose=0)
    assert sorted(history.history) == expected["history"]
    logs = model.evaluate(x, y, sample_weight=sw, verbose=0, return_dict=True)
    assert sorted(logs) == sorted(order)
    _in_order(model.evaluate(x, y, sample_weight=sw, verbose=0), logs, order)
    for method in (model.test_on_batch, model.train_on_batch):
        values = method(x, y, sample_weight=sw)
        _in_order(values, method(x, y, sample_weight=sw, return_dict=True), order)
