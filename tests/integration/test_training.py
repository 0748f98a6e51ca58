"""Training on the active backend (MB_BACKEND): fit/evaluate/predict against NumPy.

Training tests skip on inference-only backends (numpy, openvino) saying so; there
`fit` must raise a clear error naming the backend, and evaluate/predict must work.
The image test uses the leg's image_data_format (channels_first on the torch leg).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import mb
import mb_layers
import mb_ops
from mb_layers import layers
from mb_ops import backends, config, ops, testing
from mb_train.callbacks import Callback
from mb_train.models import Model, Sequential

trainable_backend = pytest.mark.trains  # skipped where the backend cannot train (conftest)


class _MSE:
    """Stand-in mean squared error (until mb_train.losses is everywhere)."""

    name = "mse"
    reduction = "sum_over_batch_size"

    def call(self, y_true, y_pred):
        return ops.mean(ops.square(y_true - y_pred), axis=-1)

    def __call__(self, y_true, y_pred, sample_weight=None):
        return ops.mean(self.call(y_true, y_pred))


class _SGD:
    """Stand-in SGD optimizer."""

    def __init__(self, learning_rate):
        self.iterations = mb_ops.Variable(0, dtype="int32", trainable=False, name="iterations")
        self.learning_rate = mb_ops.Variable(learning_rate, trainable=False, name="lr")
        self.built = False

    @property
    def variables(self):
        return [self.iterations, self.learning_rate]

    def build(self, variables):
        self.built = True

    def apply(self, grads, variables):
        for g, v in zip(grads, variables, strict=True):
            v.assign(v.value - self.learning_rate.value * g)
        self.iterations.assign(self.iterations.value + 1)


def _data(n=64):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype("float32")


def _linear():
    inp = mb_layers.Input((3,))
    return Model(inp, layers.Dense(1, kernel_initializer="zeros")(inp))


def _numpy_sgd(x, y, lr, batch_size, epochs):
    w, b = np.zeros((3, 1)), np.zeros(1)
    for _ in range(epochs):
        for i in range(0, len(x), batch_size):
            xb, yb = x[i : i + batch_size], y[i : i + batch_size]
            err = xb @ w + b - yb
            w, b = w - lr * 2 * xb.T @ err / len(xb), b - lr * 2 * err.mean(axis=0)
    return w, b


def test_predict_and_evaluate_match_numpy_on_every_backend():
    x, y = _data(40)
    model = _linear()
    kernel = np.array([[0.5], [-1.0], [2.0]], "float32")
    try:
        model.set_weights([kernel, np.array([0.1], "float32")])
        model.compile(optimizer=_SGD(0.1), loss=_MSE())
        pred = model.predict(x, batch_size=16, verbose=0)
        loss = model.evaluate(x, y, batch_size=40, verbose=0)
    except NotImplementedError as error:
        if not testing.is_declared_unsupported(error):
            raise
        pytest.skip(f"declared unsupported on {config.backend()}: {error}")
    np.testing.assert_allclose(pred, x @ kernel + 0.1, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(loss, np.mean((x @ kernel + 0.1 - y) ** 2), rtol=1e-4)


@pytest.mark.inference_only
def test_fit_on_an_inference_only_backend_names_the_backend():
    x, y = _data(8)
    model = _linear()
    model.compile(optimizer=_SGD(0.1), loss=_MSE())
    with pytest.raises(NotImplementedError, match=f"{config.backend()} backend"):
        model.fit(x, y, verbose=0)


@trainable_backend
@pytest.mark.parametrize("steps_per_execution", [1, 4])
@pytest.mark.parametrize("run_eagerly", [False, True])
def test_fit_matches_numpy_sgd(steps_per_execution, run_eagerly):
    x, y = _data()
    model = _linear()
    model.compile(
        optimizer=_SGD(0.05),
        loss=_MSE(),
        steps_per_execution=steps_per_execution,
        run_eagerly=run_eagerly,
    )
    model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    w, b = _numpy_sgd(x, y, 0.05, 16, 3)
    np.testing.assert_allclose(model.get_weights()[0], w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(model.get_weights()[1], b, rtol=1e-4, atol=1e-5)
    assert int(model.optimizer.iterations.numpy()) == 12


@trainable_backend
def test_callbacks_see_and_change_live_weights():
    x, y = _data(32)
    model = _linear()
    model.compile(optimizer=_SGD(0.05), loss=_MSE())
    kernels = []

    class Probe(Callback):
        def on_train_batch_end(self, batch, logs=None):
            kernels.append(model.weights[0].numpy().copy())
            if batch == 1:
                model.weights[0].assign(np.full((3, 1), 7.0, "float32"))

    model.fit(x, y, batch_size=8, shuffle=False, verbose=0, callbacks=[Probe()])
    assert not np.allclose(kernels[0], kernels[1])
    # Batch 2 started from the assigned 7.0: one SGD step from there, not from kernels[1].
    assert np.all(np.abs(kernels[2] - 7.0) < 3.0)


@trainable_backend
def test_convolutional_sequential_learns_in_the_legs_layout():
    rng = np.random.default_rng(1)
    channels_first = config.image_data_format() == "channels_first"
    shape = (1, 8, 8) if channels_first else (8, 8, 1)
    x = rng.normal(size=(64, *shape)).astype("float32")
    y = x.reshape(64, -1).mean(axis=1, keepdims=True).astype("float32") * 4
    model = Sequential(
        [
            mb_layers.Input(shape),
            layers.Conv2D(4, 3, activation="relu"),
            layers.Flatten(),
            layers.Dense(1),
        ]
    )
    model.compile(optimizer=_SGD(0.01), loss=_MSE())
    history = model.fit(x, y, batch_size=16, epochs=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.predict(x, verbose=0).shape == (64, 1)


@trainable_backend
def test_subclassed_model_with_train_and_test_on_batch():
    class Net(Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            return self.dense(x)

    model = Net()
    model.compile(optimizer=_SGD(0.1), loss=_MSE())
    x, y = np.ones((4, 3), "float32"), np.zeros((4, 1), "float32")
    np.testing.assert_allclose(model.test_on_batch(x, y), 9.0, rtol=1e-5)
    model.train_on_batch(x, y)
    np.testing.assert_allclose(model.get_weights()[0], np.full((3, 1), 1 - 0.1 * 6), rtol=1e-5)


@trainable_backend
@pytest.mark.parametrize("steps_per_execution", [1, 3])
def test_default_compiled_training_gives_the_eager_numbers(steps_per_execution):
    # The backend's default (jax.jit, tf.function, torch's recorded replay) must
    # train to the same weights, logs and metrics as plain eager execution, with
    # batch norm statistics, a clipped AdamW, metrics, validation and a partial
    # last batch.
    from mb_train import optimizers

    rng = np.random.default_rng(3)
    x = rng.standard_normal((150, 6)).astype("float32")
    y = (x[:, :3].sum(axis=1) > 0).astype("int32")

    def train(run_eagerly):
        mb_ops.random.set_random_seed(7)
        model = Sequential(
            [
                mb_layers.Input((6,)),
                layers.Dense(16, activation="relu"),
                layers.BatchNormalization(),
                layers.Dense(2, activation="softmax"),
            ]
        )
        model.compile(
            optimizer=optimizers.AdamW(1e-2, clipnorm=1.0),
            loss="sparse_categorical_crossentropy",
            metrics=["accuracy"],
            run_eagerly=run_eagerly,
            steps_per_execution=steps_per_execution,
        )
        history = model.fit(x, y, batch_size=32, epochs=3, validation_split=0.2, verbose=0)
        return model, history.history

    eager, eager_logs = train(True)
    compiled, compiled_logs = train(False)
    for key, values in eager_logs.items():
        np.testing.assert_allclose(compiled_logs[key], values, rtol=1e-4, atol=1e-5)
    for got, want in zip(compiled.get_weights(), eager.get_weights(), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        compiled.predict(x, verbose=0), eager.predict(x, verbose=0), rtol=1e-4, atol=1e-5
    )


def test_get_weights_is_a_snapshot_that_later_updates_do_not_change():
    layer = layers.Dense(2)
    layer.build((None, 3))
    before = layer.get_weights()
    kernel = layer.kernel.numpy()
    layer.kernel.assign(layer.kernel + 1.0)
    np.testing.assert_array_equal(layer.kernel.numpy(), kernel + 1.0)
    np.testing.assert_array_equal(layer.get_weights()[0], before[0] + 1.0)
    np.testing.assert_array_equal(before[0], kernel)  # the earlier copies did not move


@pytest.mark.parametrize("layer_class", [layers.LSTM, layers.GRU])
def test_recurrent_layers_give_the_same_numbers_fused_or_looped(layer_class):
    # use_cudnn="auto" takes the backend's fused kernel where it has one (torch);
    # use_cudnn=False always runs the generic loop over the cell.
    x = np.random.default_rng(0).standard_normal((3, 7, 4)).astype("float32")
    fused = layer_class(5, return_sequences=True, return_state=True)
    looped = layer_class(5, return_sequences=True, return_state=True, use_cudnn=False)
    fused.build((None, 7, 4))
    looped.build((None, 7, 4))
    looped.set_weights(fused.get_weights())
    to_numpy = backends.backend_module("core").convert_to_numpy
    for got, want in zip(fused(x), looped(x), strict=True):
        np.testing.assert_allclose(to_numpy(got), to_numpy(want), rtol=1e-5, atol=1e-5)


@trainable_backend
def test_an_lstm_trains_compiled_with_a_partial_last_batch():
    # The last batch has another size: a compiled step then sees an unknown batch
    # dimension (tf.function relaxes it), which the initial states must handle.
    from mb_train import optimizers

    x = np.random.default_rng(1).standard_normal((21, 6, 3)).astype("float32")
    y = x[:, :, :1].sum(axis=1)
    model = Sequential([mb_layers.Input((6, 3)), layers.LSTM(8, dropout=0.2), layers.Dense(1)])
    model.compile(optimizer=optimizers.Adam(1e-2), loss="mse")
    history = model.fit(x, y, batch_size=8, epochs=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.predict(x[:5], batch_size=2, verbose=0).shape == (5, 1)


def test_scalar_variables_convert_to_numpy_on_every_backend():
    v = mb_ops.Variable(3.0, name="scalar")
    assert np.asarray(v).shape == () and float(np.asarray(v)) == 3.0
    assert v.numpy().shape == () and float(v) == 3.0


_GUARDS_AFTER_FIT = """
import numpy as np
import torch

before = {name: getattr(torch.Tensor, name) for name in ("numpy", "tolist", "__array__")}
import mb
from mb_backend_torch import _training_replay

recorded = []
real_record = _training_replay.GraphReplay._record


def spy(self, structure, flat):
    entry = real_record(self, structure, flat)
    recorded.append(not isinstance(entry, str))
    return entry


_training_replay.GraphReplay._record = spy
model = mb.Sequential([mb.Input((3,)), mb.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
x = np.ones((64, 3), "float32")
model.fit(x, np.ones((64, 1), "float32"), batch_size=8, epochs=1, verbose=0)
assert any(recorded), recorded  # the step was recorded, so the guards were installed once
after = {name: getattr(torch.Tensor, name) for name in before}
assert after == before, {n: (before[n], after[n]) for n in before if before[n] is not after[n]}
assert "numpy" not in vars(torch.Tensor) and "tolist" not in vars(torch.Tensor)
print("ok")
"""


@pytest.mark.skipif(
    config.backend() != "torch",
    reason=f"torch's recorded steps guard torch.Tensor; this process runs {config.backend()}",
)
def test_torch_tensor_methods_are_torchs_own_after_import_and_fit():
    # A fresh process: torch's methods are read before mb is imported.
    done = subprocess.run(
        [sys.executable, "-c", _GUARDS_AFTER_FIT],
        env=dict(os.environ, MB_BACKEND="torch"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("ok")


def _torch_cnn(seed):
    mb.utils.set_random_seed(seed)
    layers = mb.layers
    model = mb.Sequential(
        [
            mb.Input((8, 8, 3)),
            layers.Conv2D(4, 3, activation="relu"),
            layers.Flatten(),
            layers.Dense(2),
        ]
    )
    return model


@pytest.mark.skipif(
    config.backend() != "torch",
    reason=f"torch's recorded steps fuse bias additions; this process runs {config.backend()}",
)
def test_torch_cnn_with_fused_biases_trains_and_predicts_as_it_does_eagerly():
    """torch's fused replay (jit_compile: a bias add runs inside its convolution or
    matmul) against the same model run op by op."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 8, 8, 3)).astype("float32")
    y = rng.standard_normal((32, 2)).astype("float32")
    results = []
    for jit in (True, False):
        model = _torch_cnn(1)
        model.compile(optimizer="adam", loss="mse", jit_compile=jit)
        history = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False)
        results.append((history.history["loss"], model.predict(x, batch_size=8, verbose=0)))
    (fused_loss, fused_out), (eager_loss, eager_out) = results
    np.testing.assert_allclose(fused_loss, eager_loss, rtol=1e-5)
    np.testing.assert_allclose(fused_out, eager_out, rtol=1e-4, atol=1e-5)


class _CountsCalls(mb_layers.Layer):
    """The identity, counting how often its Python runs (eagerly or recorded)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0

    def call(self, x):
        self.calls += 1
        return x


@pytest.mark.skipif(
    config.backend() != "torch",
    reason=f"torch records and replays a step per batch shape; this process runs "
    f"{config.backend()}",
)
def test_torch_fit_runs_a_steps_python_once_for_the_batch_shape_then_replays():
    """The first batch's step is recorded as it runs (its Python runs once, not once
    eagerly and again to record); the last partial batch runs eagerly in the first
    epoch and is recorded when it comes back in the second. The numbers are eager's."""
    from mb_train import optimizers

    rng = np.random.default_rng(5)
    x = rng.standard_normal((36, 3)).astype("float32")  # 4 batches of 8, then one of 4
    y = x @ np.array([[1.0], [-2.0], [0.5]], "float32")
    results = []
    for run_eagerly in (False, True):
        mb_ops.random.set_random_seed(2)
        counter = _CountsCalls()
        model = Sequential([mb_layers.Input((3,)), counter, layers.Dense(1)])
        model.compile(optimizer=optimizers.Adam(1e-2), loss="mse", run_eagerly=run_eagerly)
        per_epoch = []

        class Count(Callback):
            def __init__(self, counter, per_epoch):
                super().__init__()
                self.counter, self.per_epoch = counter, per_epoch

            def on_epoch_begin(self, epoch, logs=None):
                self.start = self.counter.calls

            def on_epoch_end(self, epoch, logs=None):
                self.per_epoch.append(self.counter.calls - self.start)

        count = Count(counter, per_epoch)
        history = model.fit(
            x, y, batch_size=8, epochs=3, shuffle=False, verbose=0, callbacks=[count]
        )
        results.append((per_epoch, history.history["loss"], model.get_weights()))
    (replayed, replayed_loss, replayed_weights), (eager, eager_loss, eager_weights) = results
    assert eager == [5, 5, 5]  # the counter sees every step that runs the layers' Python
    # epoch 1: the 8-row step recorded, the 4-row one eager; epoch 2: the 4-row one
    # recorded; epoch 3: replays only.
    assert replayed == [2, 1, 0]
    np.testing.assert_allclose(replayed_loss, eager_loss, rtol=1e-5)
    for got, want in zip(replayed_weights, eager_weights, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
