"""How fit/evaluate/predict hand batches to the steps (issue 25, data path).

Where the backend's compiled functions place NumPy arguments in their own dispatch
(``training.JIT_PLACES_HOST_ARRAYS``: jax), the compiled steps take the batches as
NumPy arrays and no batch goes through ``convert_to_tensor`` in Python; steps run
eagerly, and step functions the user sets, still get tensors. The numbers are the
same either way, the last partial batch and sample weights included, and the compiled
step is traced once per batch shape."""

import numpy as np
import pytest

import mb_layers
from mb_ops import backends
from mb_train.models import Model

BATCH = 16


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 3)).astype("float32")  # batches of 16, 16 and 8
    y = rng.normal(size=(40, 1)).astype("float32")
    weights = rng.uniform(0.5, 2.0, size=40).astype("float32")
    return x, y, weights


def _model(builtins, run_eagerly=False):
    x = mb_layers.Input((3,))
    model = Model(x, mb_layers.layers.Dense(1, kernel_initializer="ones")(x))
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"](), run_eagerly=run_eagerly)
    return model


@pytest.fixture
def batch_conversions(monkeypatch):
    """The shapes of the arrays of batch size (16 or 8 rows) that `convert_to_tensor`
    receives: NumPy arrays, or other engines' tensors (the backend's own pass as is)."""
    core = backends.backend_module("core")
    original = core.convert_to_tensor
    seen = []

    def counting(x, *args, **kwargs):
        shape = tuple(getattr(x, "shape", ()))
        if shape and shape[0] in (BATCH, 8) and not core.is_tensor(x):
            seen.append(shape)
        return original(x, *args, **kwargs)

    monkeypatch.setattr(core, "convert_to_tensor", counting)
    return seen


def _run(model, x, y, weights):
    history = model.fit(
        x, y, sample_weight=weights, batch_size=BATCH, epochs=2, shuffle=False, verbose=0
    )
    loss = model.evaluate(x, y, sample_weight=weights, batch_size=BATCH, verbose=0)
    prediction = model.predict(x, batch_size=BATCH, verbose=0)
    return history.history["loss"], loss, prediction, model.get_weights()


def test_compiled_steps_take_numpy_batches_with_the_same_numbers(builtins, batch_conversions):
    x, y, weights = _data()
    eager = _run(_model(builtins, run_eagerly=True), x, y, weights)
    # Eager steps get tensors: every batch of the 3 arrays was converted.
    assert len(batch_conversions) >= 2 * 3 * 3
    del batch_conversions[:]
    compiled = _run(_model(builtins), x, y, weights)
    if backends.lookup("training", "JIT_PLACES_HOST_ARRAYS"):
        # Only the first batch, once, to build the model before the step compiles.
        assert batch_conversions == [(16, 3), (16, 1), (16,)]
    else:
        assert len(batch_conversions) >= 2 * 3 * 3
    np.testing.assert_allclose(compiled[0], eager[0], rtol=1e-5)  # per-epoch losses
    np.testing.assert_allclose(compiled[1], eager[1], rtol=1e-5)  # evaluate
    np.testing.assert_allclose(compiled[2], eager[2], rtol=1e-5, atol=1e-6)  # predict
    for a, b in zip(compiled[3], eager[3], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    # The partial batch and the weights count as in NumPy: weighted mean of the errors.
    kernel, bias = compiled[3]
    error = (x @ kernel + bias - y)[:, 0] ** 2
    np.testing.assert_allclose(compiled[1], np.mean(error * weights), rtol=1e-4)


def test_the_compiled_step_is_traced_once_per_batch_shape(builtins):
    x, y, weights = _data()
    traces = []

    class Counting(Model):
        def train_step(self, data):
            traces.append(tuple(data[0].shape))  # Python runs only while tracing
            return super().train_step(data)

    inputs = mb_layers.Input((3,))
    model = Counting(inputs, mb_layers.layers.Dense(1)(inputs))
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    model.fit(x, y, sample_weight=weights, batch_size=BATCH, epochs=3, verbose=0)
    steps = 3 * 3
    if len(traces) == steps:  # an engine that runs a user's train_step eagerly (torch)
        assert traces == [(16, 3), (16, 3), (8, 3)] * 3
        return
    # Full batches and the last partial one: two shapes (one more where the engine
    # relaxes the batch axis after a second shape), whatever the number of steps.
    assert 1 <= len(traces) <= 3, traces
    first = len(traces)
    model.fit(x, y, sample_weight=weights, batch_size=BATCH, epochs=2, verbose=0)
    model.train_on_batch(x[:BATCH], y[:BATCH], sample_weight=weights[:BATCH])
    assert len(traces) == first, f"traced again: {traces[first:]}"


def test_step_functions_the_user_sets_get_tensors(builtins):
    x, y, _ = _data()
    model = _model(builtins)
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
    is_tensor = backends.backend_module("core").is_tensor
    received = []

    def train_function(batches):
        received.extend(leaf for batch in batches for leaf in batch)
        return {"loss": 0.0}

    model.train_function = train_function
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
    assert len(received) == 2 * 3
    assert all(is_tensor(leaf) for leaf in received), [type(v) for v in received]


def test_a_torch_dataloader_feeds_the_compiled_step_the_same_numbers(builtins, batch_conversions):
    torch = pytest.importorskip("torch")
    x, y, _ = _data()
    data = torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
    loader = torch.utils.data.DataLoader(data, batch_size=BATCH)
    runs = []
    for run_eagerly in (True, False):
        del batch_conversions[:]
        model = _model(builtins, run_eagerly=run_eagerly)
        history = model.fit(loader, epochs=2, verbose=0)
        runs.append((history.history["loss"], model.get_weights(), list(batch_conversions)))
    (eager_loss, eager_weights, eager_seen), (loss, weights, seen) = runs
    foreign = not backends.backend_module("core").is_tensor(torch.zeros(1))
    if foreign:  # eager steps: every tensor was converted (the backend's own pass as is)
        assert len(eager_seen) >= 2 * 3 * 2
    if foreign and backends.lookup("training", "JIT_PLACES_HOST_ARRAYS"):
        # CPU tensors go to the step as NumPy views (DLPack), not through the backend's
        # DLPack import: only the first batch, once, for the model's build.
        assert seen == [(16, 3), (16, 1)]
    np.testing.assert_allclose(loss, eager_loss, rtol=1e-5)
    for a, b in zip(weights, eager_weights, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
