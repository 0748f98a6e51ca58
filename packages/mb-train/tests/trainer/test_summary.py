"""`Model.summary()`: the rows, columns and totals a user reads, against Keras 3's.

Keras runs once for the module, in a subprocess (KERAS_BACKEND=jax), on the
same model-building code; the tables are compared cell by cell, box drawing
stripped.
"""

import importlib.util
import json
import logging
import types

import pytest

import mb_layers
import mb_ops
from mb_ops import ops, testing
from mb_train import utils
from mb_train._model import _summary
from mb_train.models import Model, Sequential

# Built the same way by mb (below) and by Keras (in the subprocess); every layer is
# named so that names do not depend on what else the process created.
_MODELS = r"""
import numpy as np

def build(k, case):
    L = k.layers
    if case == "sequential":
        return k.Sequential(
            [k.Input((4,)), L.Dense(8, activation="relu", name="d1"), L.Dense(3, name="d2")],
            name="seq",
        )
    if case == "linear":
        x = k.Input((4,), name="x")
        return k.Model(x, L.Dense(2, name="out")(L.Dense(8, name="hidden")(x)), name="linear")
    if case == "two_in_two_out":
        a, b = k.Input((4,), name="a"), k.Input((3,), name="b")
        c = L.Concatenate(name="cat")([a, b])
        h = L.Dense(5, name="h")(c)
        return k.Model([a, b], [L.Dense(1, name="o1")(h), L.Dense(2, name="o2")(c)], name="nl")
    if case == "subclassed":
        class Two(k.Model):
            def __init__(self):
                super().__init__(name="two")
                self.first = L.Dense(6, name="first")
                self.second = L.Dense(2, name="second")

            def call(self, x):
                return self.second(self.first(x))

        model = Two()
        model(np.zeros((2, 4), "float32"))
        return model
    if case == "batchnorm_after_fit":
        model = k.Sequential(
            [k.Input((4,)), L.Dense(8, name="d"), L.BatchNormalization(name="bn"),
             L.Dense(1, name="o")],
            name="bn_model",
        )
        model.compile(optimizer="adam", loss="mse")
        x, y = np.ones((8, 4), "float32"), np.zeros((8, 1), "float32")
        model.fit(x, y, epochs=1, batch_size=4, verbose=0)
        return model
    if case in ("nested", "layer_range", "positions"):
        inner = k.Sequential([k.Input((4,)), L.Dense(3, name="i1"), L.Dense(2, name="i2")],
                             name="inner")
        x = k.Input((4,), name="xin")
        model = k.Model(x, L.Dense(1, name="head")(inner(x)), name="outer")
        inner.layers[0].trainable = False
        return model
    if case == "ops_and_multi_output":
        a = k.Input((4,), name="a")
        return k.Model(a, k.ops.split(a + 1.0, 2, axis=-1), name="ops")
    if case == "shared_layer":
        shared = L.Dense(4, name="shared")
        s = k.Input((4,), name="s")
        return k.Model(s, shared(shared(s)), name="shared_model")
    if case == "unbuilt":
        return k.Sequential([L.Dense(3, name="u1"), L.Dense(2, name="u2")], name="unbuilt")
    raise ValueError(case)
"""

_CASES = {
    "sequential": {},
    "linear": {},
    "two_in_two_out": {},
    "subclassed": {},
    "batchnorm_after_fit": {},
    "nested": {"expand_nested": True, "show_trainable": True},
    "layer_range": {"layer_range": ["inner", "head"]},
    "positions": {"line_length": 60, "positions": [0.5, 0.8, 1.0]},
    "ops_and_multi_output": {},
    "shared_layer": {},
    "unbuilt": {},
}

_KERAS_SCRIPT = r"""
import json, sys
import keras
namespace = {}
exec(sys.argv[1], namespace)
texts = {}
for case, kwargs in json.loads(sys.argv[2]).items():
    keras.utils.clear_session()  # automatic names count from scratch in each case
    model = namespace["build"](keras, case)
    model.summary(print_fn=lambda text, case=case: texts.__setitem__(case, text), **kwargs)
print(json.dumps(texts))
"""

_COLUMNS = "120"  # the terminal width both sides see (Keras's default line_length reads it)
_NEEDS_KERAS = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is not installed"
)


_MB = types.SimpleNamespace(
    Sequential=Sequential, Model=Model, Input=mb_layers.Input, layers=mb_layers.layers, ops=ops
)


def _build(case):
    namespace = {}
    exec(_MODELS, namespace)
    mb_ops.clear_session()  # automatic names count from scratch, as on the Keras side
    return namespace["build"](_MB, case)


def _summary_text(model, **kwargs):
    """The summary as printed (``print_fn`` gets it in one call, as in Keras)."""
    texts = []
    model.summary(print_fn=texts.append, **kwargs)
    assert len(texts) == 1
    return texts[0]


def _read(text):
    """What a user reads: title, header cells, body rows (wrapped cells joined), totals."""
    lines = text.splitlines()
    header, rows, totals, current = [], [], [], None
    for line in lines[1:]:
        if line.startswith("┃"):
            header = [cell.strip() for cell in line.strip("┃").split("┃")]
        elif line.startswith("│"):
            cells = [cell.strip() for cell in line.strip("│").split("│")]
            if current is None:
                current = cells
                rows.append(current)
            else:
                for i, cell in enumerate(cells):
                    current[i] = f"{current[i]} {cell}".strip()
        elif line.startswith(("├", "└")):
            current = None
        elif line.strip() and not line.startswith(("┏", "┡")):
            totals.append(line.strip())
    return {"title": lines[0], "header": header, "rows": rows, "totals": totals}


@pytest.fixture(scope="module")
def keras_texts():
    return testing.keras_json(_KERAS_SCRIPT, _MODELS, json.dumps(_CASES), COLUMNS=_COLUMNS)


@pytest.fixture
def columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", _COLUMNS)


@_NEEDS_KERAS
@pytest.mark.parametrize("case", list(_CASES))
def test_summary_reads_like_keras(case, keras_texts, columns):
    mine = _summary_text(_build(case), **_CASES[case])
    assert _read(mine) == _read(keras_texts[case])


@_NEEDS_KERAS
def test_summary_lines_match_keras_exactly_for_a_sequential_model(keras_texts, columns):
    assert _summary_text(_build("sequential")) == keras_texts["sequential"]


def test_functional_model_lists_its_input_layers_first(columns):
    read = _read(_summary_text(_build("linear")))
    assert [row[0] for row in read["rows"]] == ["x (InputLayer)", "hidden (Dense)", "out (Dense)"]
    assert read["rows"][0][1:] == ["(None, 4)", "0"]
    assert read["header"] == ["Layer (type)", "Output Shape", "Param #"]


def test_branching_model_gets_a_connected_to_column(columns):
    read = _read(_summary_text(_build("two_in_two_out")))
    assert read["header"] == ["Layer (type)", "Output Shape", "Param #", "Connected to"]
    connected = {row[0]: row[3] for row in read["rows"]}
    assert connected == {
        "a (InputLayer)": "-",
        "b (InputLayer)": "-",
        "cat (Concatenate)": "a[0][0], b[0][0]",
        "h (Dense)": "cat[0][0]",
        "o1 (Dense)": "h[0][0]",
        "o2 (Dense)": "cat[0][0]",
    }


def test_totals_give_counts_and_bytes(columns):
    read = _read(_summary_text(_build("sequential")))
    assert read["title"] == 'Model: "seq"'
    assert read["totals"] == [
        "Total params: 67 (268.00 B)",
        "Trainable params: 67 (268.00 B)",
        "Non-trainable params: 0 (0.00 B)",
    ]


def test_optimizer_params_are_counted_after_fit(columns):
    read = _read(_summary_text(_build("batchnorm_after_fit")))
    assert read["totals"] == [
        "Total params: 213 (852.00 B)",
        "Trainable params: 65 (260.00 B)",
        "Non-trainable params: 16 (64.00 B)",
        "Optimizer params: 132 (528.00 B)",
    ]


def test_subclassed_model_built_by_a_call_shows_output_shapes(columns):
    rows = _read(_summary_text(_build("subclassed")))["rows"]
    assert rows == [["first (Dense)", "(2, 6)", "30"], ["second (Dense)", "(2, 2)", "14"]]


def test_unbuilt_layers_show_unknown_shape_and_unbuilt(columns):
    rows = _read(_summary_text(_build("unbuilt")))["rows"]
    assert rows == [["u1 (Dense)", "?", "0 (unbuilt)"], ["u2 (Dense)", "?", "0 (unbuilt)"]]


def test_no_line_ends_in_spaces(columns):
    for case in ("sequential", "two_in_two_out", "batchnorm_after_fit"):
        for line in _summary_text(_build(case)).splitlines():
            assert line == line.rstrip(), repr(line)


def test_line_length_and_positions_set_the_column_widths(columns):
    text = _summary_text(_build("linear"), line_length=50, positions=[0.5, 0.8, 1.0])
    table_lines = [line for line in text.splitlines() if line[:1] in "┏┃┡│├└"]
    assert {len(line) for line in table_lines} == {50}
    widths = [len(part) for part in table_lines[0].strip("┏┓").split("┳")]
    assert widths[0] > widths[1] > widths[2]
    absolute = _summary_text(_build("linear"), line_length=50, positions=[25, 40, 50])
    assert absolute == text


def test_show_trainable_and_expand_nested_add_a_column_and_rows(columns):
    model = _build("nested")  # inner's first layer is frozen
    read = _read(_summary_text(model, expand_nested=True, show_trainable=True, line_length=110))
    assert read["header"][-1].startswith("Train")  # Keras's narrow column cuts it too
    assert [(row[0], row[-1]) for row in read["rows"]] == [
        ("xin (InputLayer)", "-"),
        ("inner (Sequential)", "Y"),
        ("└ i1 (Dense)", "N"),
        ("└ i2 (Dense)", "Y"),
        ("head (Dense)", "Y"),
    ]


def test_layer_range_selects_rows_by_name_or_regex(columns):
    model = _build("two_in_two_out")
    rows = _read(_summary_text(model, layer_range=["cat", "o1"]))["rows"]
    assert [row[0] for row in rows] == ["cat (Concatenate)", "h (Dense)", "o1 (Dense)"]
    rows = _read(_summary_text(model, layer_range=["o.", "o."]))["rows"]
    assert [row[0] for row in rows] == ["o1 (Dense)", "o2 (Dense)"]
    with pytest.raises(ValueError, match="matches no layer"):
        _summary_text(model, layer_range=["nope", "o1"])
    with pytest.raises(ValueError, match="two layer names"):
        _summary_text(model, layer_range=["cat"])


def test_too_narrow_columns_are_refused(columns):
    with pytest.raises(ValueError, match="Insufficient console width"):
        _summary_text(_build("linear"), line_length=10)


def test_model_summary_prints_to_stdout_and_hands_print_fn_the_whole_text(capsys, columns):
    model = _build("sequential")
    model.summary()
    printed = capsys.readouterr().out
    assert _read(printed)["rows"] == [
        ["d1 (Dense)", "(None, 8)", "40"],
        ["d2 (Dense)", "(None, 3)", "27"],
    ]
    assert "\x1b[" not in printed  # no colour codes off a terminal
    calls = []
    model.summary(print_fn=calls.append)
    assert len(calls) == 1 and calls[0] == printed


def test_summary_goes_to_the_logger_when_interactive_logging_is_off(capsys, caplog, columns):
    utils.disable_interactive_logging()
    try:
        with caplog.at_level(logging.INFO, logger="mb"):
            _build("sequential").summary()
    finally:
        utils.enable_interactive_logging()
    assert capsys.readouterr().out == ""
    assert any("Total params: 67 (268.00 B)" in r.getMessage() for r in caplog.records)


def test_sizes_read_in_powers_of_1024():
    assert _summary.readable_size(220) == "220.00 B"
    assert _summary.readable_size(1536) == "1.50 KB"
    assert _summary.readable_size(3 * 1024**3) == "3.00 GB"


def test_sizes_follow_each_weights_dtype(columns):
    x = mb_layers.Input((4,))
    model = Model(x, mb_layers.layers.Dense(2, dtype="float16")(x))
    totals = _read(_summary_text(model))["totals"]
    assert totals[0] == "Total params: 10 (20.00 B)"
