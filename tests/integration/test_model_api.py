"""`Model`'s public attributes and methods behave as Keras 3's: `output_names`,
`input_shape`/`output_shape`, `Sequential.inputs`/`outputs`, `Layer.path`,
`Layer.metrics`, `Model.from_config`, `get_compile_config`/`compile_from_config`,
`get_state_tree`/`set_state_tree`, the replaceable `train_function`/`test_function`/
`predict_function`, and the Keras 2 names Keras 3 keeps (`compiled_loss`,
`compiled_metrics`).

`report` is written once and run on mb here and on Keras 3 in a subprocess (the leg's
backend where Keras trains on it, else jax); the two reports must agree.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import mb as keras
from mb_ops import config, testing

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)

# Both sides run the same float32 steps: they differ by rounding only.
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}


def report(k, trains):
    """What a user sees of the model API, for `k` = mb or keras (JSON-able)."""
    out = {}
    x = k.Input((3,), name="x")
    a = k.layers.Dense(2, name="first")(x)
    b = k.layers.Dense(1, name="second")(x)
    added = k.layers.Add(name="added")([a, a])
    out["names_list"] = k.Model(x, [a, b]).output_names
    out["names_dict"] = k.Model(x, {"z": a, "y": b}).output_names
    out["names_repeated"] = k.Model(x, [a, a]).output_names
    out["names_ops"] = k.Model(x, [added, k.ops.add(a, 1.0), k.ops.multiply(b, 2.0)]).output_names
    single = k.Model(x, a)
    out["shapes_single"] = [list(single.input_shape), list(single.output_shape)]
    out["shapes_list"] = [list(s) for s in k.Model(x, [a, b]).output_shape]
    out["shapes_dict"] = [list(s) for s in k.Model(x, {"z": a, "y": b}).output_shape]

    seq = k.Sequential([k.layers.Dense(2, name="d")], name="seq")
    try:
        out["seq_inputs_unbuilt"] = f"no error: {seq.inputs}"
    except AttributeError:
        out["seq_inputs_unbuilt"] = "AttributeError"
    seq.build((None, 4))
    out["seq_built"] = {
        "inputs": [list(t.shape) for t in seq.inputs],
        "outputs": [list(t.shape) for t in seq.outputs],
        "input_shape": list(seq.input_shape),
        "output_shape": list(seq.output_shape),
    }

    # Layer.path: where each layer and model was built, None before.
    class Block(k.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = k.layers.Dense(2, name="inner")

        def call(self, inputs):
            return self.inner(inputs)

    dense, block, unbuilt = k.layers.Dense(4, name="d"), Block(name="blk"), k.layers.Dense(2)
    func = k.Model(x, block(dense(x)), name="func")
    outer = k.Sequential([func], name="outer")
    outer.build((None, 3))
    out["paths"] = [func.path, dense.path, block.path, block.inner.path, outer.path]
    out["paths"] += [seq.path, seq.layers[0].path, unbuilt.path]

    # Layer.metrics: the metric objects a layer holds, then its sub-layers'.
    class Counting(k.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.seen = k.metrics.Mean(name="seen")
            self.more = [k.metrics.Sum(name="total"), k.metrics.MeanSquaredError(name="mse")]

    class Holder(k.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.tracker = k.metrics.Mean(name="tracker")
            self.counting = Counting(name="counting")

    holder = Holder()
    out["layer_metrics"] = {
        "holder": [m.name for m in holder.metrics],
        "counting": [m.name for m in holder.counting.metrics],
        "variables": [len(holder.metrics_variables), len(k.layers.Dense(2).metrics)],
    }
    out["call_signature_parameters"] = [
        k.layers.Dense(2).call_signature_parameters,
        k.layers.LSTM(2).call_signature_parameters,
        block.call_signature_parameters,
    ]

    # from_config: a functional config revives a functional model with the same outputs.
    probe = np.arange(6, dtype="float32").reshape(2, 3) / 6.0
    model = k.Model(x, [a, b], name="net")
    revived = k.Model.from_config(model.get_config())
    revived.set_weights(model.get_weights())
    pairs = zip(model.predict(probe, verbose=0), revived.predict(probe, verbose=0), strict=True)
    out["from_config"] = {
        "type": type(revived).__name__,
        "name": revived.name,
        "output_names": revived.output_names,
        "same_outputs": all(bool(np.allclose(p, q)) for p, q in pairs),
        "functional": type(type(model).from_config(model.get_config())).__name__,
    }
    seq_config = k.Sequential([k.Input((3,)), k.layers.Dense(2)], name="stack").get_config()
    seq_revived = k.Sequential.from_config(seq_config)
    out["sequential_from_config"] = [type(seq_revived).__name__, list(seq_revived.output_shape)]

    out["compile_config_before"] = model.get_compile_config()
    model.compile(
        optimizer=k.optimizers.SGD(0.1),
        loss=["mse", "mae"],
        loss_weights=[1.0, 0.5],
        metrics=[["mae"], []],
    )
    compile_config = model.get_compile_config()
    out["compile_config"] = {
        key: compile_config[key]
        for key in ("loss", "loss_weights", "metrics", "weighted_metrics", "run_eagerly")
    }
    out["compile_config_optimizer"] = [
        compile_config["optimizer"]["class_name"],
        compile_config["optimizer"]["config"]["learning_rate"],
    ]
    out["functions_after_compile"] = [
        model.train_function,
        model.test_function,
        model.predict_function,
    ]
    if not trains:
        return out

    rng = np.random.default_rng(0)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    xs = rng.normal(size=(8, 3)).astype("float32")
    ys = [rng.normal(size=(8, 2)).astype("float32"), rng.normal(size=(8, 1)).astype("float32")]
    initial = model.get_weights()

    # A fresh copy compiled from the config trains to the same weights.
    twin = k.Model.from_config(model.get_config())
    twin.set_weights(initial)
    twin.compile_from_config(compile_config)
    out["twin_optimizer_built"] = bool(twin.optimizer.built)
    history = model.fit(xs, ys, batch_size=4, epochs=2, shuffle=False, verbose=0)
    twin_history = twin.fit(xs, ys, batch_size=4, epochs=2, shuffle=False, verbose=0)
    out["loss"] = history.history["loss"]
    out["twin_loss"] = twin_history.history["loss"]
    out["twin_weights"] = [w.tolist() for w in twin.get_weights()]
    out["weights"] = [w.tolist() for w in model.get_weights()]

    # The state tree: Keras's nesting by variable path, in four groups.
    stack = k.Sequential(
        [k.Input((1,), name="my_input"), k.layers.Dense(1, name="my_dense")], name="my_sequential"
    )
    stack.compile(optimizer="adam", loss="mse", metrics=["mae"])
    stack.fit(np.array([[1.0]]), np.array([[1.0]]), verbose=0)
    tree = stack.get_state_tree(value_format="numpy_array")

    def shape(node):
        if isinstance(node, dict):
            return {key: shape(value) for key, value in node.items()}
        return list(np.shape(node))

    out["state_tree"] = shape(tree)
    kernel = tree["trainable_variables"]["my_sequential"]["my_dense"]["kernel"]
    stack.set_state_tree(
        {"trainable_variables": {"my_sequential": {"my_dense": {"kernel": kernel + 1.0}}}}
    )
    out["set_state_tree"] = [
        float(np.asarray(stack.layers[0].kernel.numpy()).ravel()[0] - kernel.ravel()[0])
    ]

    # The train function fit calls is the model's, and a replacement is used.
    model.make_train_function()
    first = model.train_function
    model.make_train_function()
    out["train_function_kept"] = first is not None and model.train_function is first
    default = model.train_function
    calls = []

    def counting(*args):  # (data), or (state, data) on Keras's jax backend
        calls.append(1)
        return default(*args)

    model.train_function = counting
    model.fit(xs, ys, batch_size=4, epochs=1, verbose=0)
    out["replaced_calls"] = len(calls)
    model.make_train_function(force=True)
    out["forced_new"] = model.train_function is not counting
    return out


_KERAS_MAIN = """
import json, sys
import numpy as np
import keras
print(json.dumps(report(keras, json.loads(sys.argv[1])), default=repr))
"""


def _keras_backend():
    backend = config.backend()
    return backend if backend in ("jax", "torch", "tensorflow") else "jax"


@pytest.fixture(scope="module")
def keras_report():
    source = inspect.getsource(report) + _KERAS_MAIN
    return testing.keras_json(source, json.dumps(_trains()), backend=_keras_backend())


def _trains():
    return config.backend() in ("jax", "torch", "tensorflow")


_MB_MAIN = _KERAS_MAIN.replace("import keras", "import mb as keras")


@pytest.fixture(scope="module")
def mb_report():
    # In a fresh process, as Keras's: automatic names (`add`, `add_1`) count from zero
    # there, whatever other tests of this process have built.
    source = inspect.getsource(report) + _MB_MAIN
    done = subprocess.run(
        [sys.executable, "-c", source, json.dumps(_trains())],
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


EXACT = [
    "names_list",
    "names_dict",
    "names_repeated",
    "names_ops",
    "shapes_single",
    "shapes_list",
    "shapes_dict",
    "seq_inputs_unbuilt",
    "seq_built",
    "paths",
    "layer_metrics",
    "call_signature_parameters",
    "from_config",
    "sequential_from_config",
    "compile_config_before",
    "compile_config",
    "compile_config_optimizer",
    "functions_after_compile",
]
TRAINING = [
    "twin_optimizer_built",
    "state_tree",
    "train_function_kept",
    "replaced_calls",
    "forced_new",
]


@pytest.mark.parametrize("key", EXACT)
def test_model_api_matches_keras(key, mb_report, keras_report):
    assert mb_report[key] == keras_report[key]


@pytest.mark.trains
@pytest.mark.parametrize("key", TRAINING)
def test_training_api_matches_keras(key, mb_report, keras_report):
    assert mb_report[key] == keras_report[key]


@pytest.mark.trains
def test_compile_from_config_trains_like_the_original(mb_report, keras_report):
    np.testing.assert_allclose(mb_report["twin_loss"], mb_report["loss"], **TOLERANCE)
    np.testing.assert_allclose(mb_report["loss"], keras_report["loss"], **TOLERANCE)
    for ours, twin, theirs in zip(
        mb_report["weights"], mb_report["twin_weights"], keras_report["weights"], strict=True
    ):
        np.testing.assert_allclose(twin, ours, **TOLERANCE)
        np.testing.assert_allclose(ours, theirs, **TOLERANCE)
    np.testing.assert_allclose(mb_report["set_state_tree"], [1.0], **TOLERANCE)


def test_sequential_without_input_names_what_to_do():
    seq = keras.Sequential([keras.layers.Dense(2)], name="late")
    # On torch, torch.nn.Module's __getattr__ replaces the message (in Keras too).
    with pytest.raises(AttributeError, match=r"late.*no defined inputs yet.*build|inputs"):
        _ = seq.inputs


@pytest.mark.trains
def test_compiled_loss_and_metrics_are_deprecated_forms_of_compute_loss():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    x = np.ones((4, 2), "float32")
    y = np.zeros((4, 1), "float32")
    model.evaluate(x, y, verbose=0)  # builds the compiled metrics
    y_pred = keras.ops.convert_to_numpy(model(x))
    with pytest.warns(UserWarning, match="compiled_loss"):
        loss = model.compiled_loss(y, y_pred)
    expected = float(np.mean(np.square(np.asarray(y_pred))))
    np.testing.assert_allclose(float(loss), expected, rtol=1e-6)
    model.reset_metrics()
    with pytest.warns(UserWarning, match="compiled_metrics"):
        model.compiled_metrics.update_state(y, y_pred)
    logs = model.get_metrics_result()
    np.testing.assert_allclose(float(logs["mae"]), np.mean(np.abs(y_pred)), rtol=1e-6)


def test_state_tree_refuses_an_unknown_format_and_group():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="value_format"):
        model.get_state_tree(value_format="lists")
    with pytest.raises(ValueError, match="Unknown variable group 'weights'"):
        model.set_state_tree({"weights": {}})


def test_compile_from_config_leaves_a_custom_compile_alone():
    class OwnCompile(keras.Model):
        def compile(self, *args, **kwargs):
            super().compile(*args, **kwargs)

    inp = keras.Input((2,))
    model = OwnCompile(inp, keras.layers.Dense(1)(inp))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.compile_from_config({"optimizer": "sgd", "loss": "mse"})
    assert not model.compiled
    assert any("compile_from_config" in str(w.message) for w in caught)


@pytest.mark.trains
def test_compute_loss_and_updates_runs_on_given_values_and_mutates_nothing():
    model = keras.Sequential(
        [
            keras.Input((2,)),
            keras.layers.BatchNormalization(momentum=0.5, epsilon=1e-3),
            keras.layers.Dense(1, kernel_initializer="ones"),
        ]
    )
    model.compile(optimizer="sgd", loss="mse")
    x = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 4.0]], "float32")
    y = np.array([[1.0], [0.0], [2.0]], "float32")
    model.evaluate(x, y, verbose=0)  # builds the loss tracker's state
    values = [
        [v.value for v in group]
        for group in (model.trainable_variables, model.non_trainable_variables)
    ]
    metrics = [v.value for v in model.metrics_variables]
    loss, (unscaled, y_pred, non_trainable, new_metrics) = model.compute_loss_and_updates(
        values[0], values[1], metrics, x, y, None, training=True
    )
    normalized = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-3)
    expected_pred = normalized.sum(1, keepdims=True)
    # y_pred may still carry the engine's autodiff record (a torch tensor requiring
    # grad), as Keras's does: convert_to_numpy is how a user reads it.
    to_numpy = keras.ops.convert_to_numpy
    np.testing.assert_allclose(to_numpy(y_pred), expected_pred, rtol=1e-5, atol=1e-6)
    expected_loss = np.mean(np.square(y - expected_pred))
    np.testing.assert_allclose(to_numpy(loss), expected_loss, rtol=1e-5)
    np.testing.assert_allclose(to_numpy(unscaled), expected_loss, rtol=1e-5)
    moving_mean = to_numpy(non_trainable[0])
    np.testing.assert_allclose(moving_mean, 0.5 * x.mean(0), rtol=1e-5)
    assert len(new_metrics) == len(metrics)
    # The model's own variables did not move.
    np.testing.assert_allclose(model.layers[0].moving_mean.numpy(), [0.0, 0.0])


def test_evaluate_refuses_unknown_arguments_and_layers_refuse_add_metric():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(loss="mse")
    with pytest.raises(ValueError, match=r"unexpected arguments.*use_multiprocessing"):
        model.evaluate(np.ones((2, 2)), np.ones((2, 1)), use_multiprocessing=True)
    assert (
        model.evaluate(np.ones((2, 2)), np.ones((2, 1)), verbose=0, _use_cached_eval_dataset=True)
        >= 0
    )
    with pytest.raises(NotImplementedError, match="compile\\(metrics="):
        model.layers[0].add_metric(1.0)
    assert model.supports_jit is True and model.layers[0].supports_jit is True
