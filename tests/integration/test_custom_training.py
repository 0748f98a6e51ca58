"""Custom training steps on the active backend (MB_BACKEND), against NumPy SGD.

Each backend's own pattern from Keras's guides runs unchanged under ``import mb as
keras``: ``loss.backward()`` and ``v.value.grad`` on torch, ``tf.GradientTape`` on
tensorflow, the stateless ``train_step(state, data)`` on jax (each test skips on the
other backends, saying so). ``mb.models.value_and_gradients``, ``super().train_step``,
a ``compute_loss`` override and a `Model` subclass built from (inputs, outputs) run on
every backend that can train.
"""

from __future__ import annotations

import numpy as np
import pytest

import mb as keras
from mb_ops import config

# float32 steps against a float64 NumPy reference.
TOL = {"rtol": 1e-4, "atol": 1e-5}
LR, BATCH, EPOCHS = 0.05, 16, 3


trainable_backend = pytest.mark.trains  # skipped where the backend cannot train (conftest)


def only_on(backend):
    return pytest.mark.skipif(
        config.backend() != backend,
        reason=f"{backend}'s own autodiff pattern; this process runs {config.backend()}",
    )


def _data(n=64):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype("float32")


def _numpy_sgd(x, y, batch_size=BATCH, epochs=EPOCHS):
    """Final (w, b) and the per-epoch means of the batch losses (mse) and of |error|."""
    w, b = np.zeros((3, 1)), np.zeros(1)
    losses, maes = [], []
    for _ in range(epochs):
        batch_losses, batch_maes = [], []
        for i in range(0, len(x), batch_size):
            xb, yb = x[i : i + batch_size], y[i : i + batch_size]
            err = xb @ w + b - yb
            batch_losses.append(np.mean(err**2))
            batch_maes.append(np.mean(np.abs(err)))
            w, b = w - LR * 2 * xb.T @ err / len(xb), b - LR * 2 * err.mean(axis=0)
        losses.append(np.mean(batch_losses))
        maes.append(np.mean(batch_maes))
    return w, b, losses, maes


def _linear(cls):
    inp = keras.Input((3,))
    return cls(inp, keras.layers.Dense(1, kernel_initializer="zeros")(inp))


def _fit_and_check(model, batch_size=BATCH, metrics=("mae",), **compile_kwargs):
    x, y = _data()
    model.compile(
        optimizer=keras.optimizers.SGD(LR), loss="mse", metrics=list(metrics), **compile_kwargs
    )
    history = model.fit(x, y, batch_size=batch_size, epochs=EPOCHS, shuffle=False, verbose=0)
    w, b, losses, maes = _numpy_sgd(x, y, batch_size=batch_size)
    np.testing.assert_allclose(model.get_weights()[0], w, **TOL)
    np.testing.assert_allclose(model.get_weights()[1], b, **TOL)
    np.testing.assert_allclose(history.history["loss"], losses, **TOL)
    if metrics:
        np.testing.assert_allclose(history.history["mae"], maes, **TOL)
    steps = EPOCHS * len(x) // batch_size
    assert int(model.optimizer.iterations.numpy()) == steps


class _LoggingSteps(keras.Model):
    """Keras's guide loop: update every metric from the step's loss or predictions."""

    def _logs(self, loss, y, y_pred):
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


# ----- each engine's own autodiff -------------------------------------------------------


@only_on("torch")
@pytest.mark.parametrize("run_eagerly", [False, True])
def test_torch_backward_train_step_matches_numpy_sgd(run_eagerly):
    torch = pytest.importorskip("torch")

    class Backward(_LoggingSteps):
        def train_step(self, data):
            x, y = data
            self.zero_grad()
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
            loss.backward()
            weights = self.trainable_weights
            gradients = [v.value.grad for v in weights]
            with torch.no_grad():
                self.optimizer.apply(gradients, weights)
            return self._logs(loss, y, y_pred)

    _fit_and_check(_linear(Backward), run_eagerly=run_eagerly)


@only_on("tensorflow")
@pytest.mark.parametrize(
    ("run_eagerly", "batch_size", "steps_per_execution"),
    [(False, BATCH, 1), (True, BATCH, 1), (False, BATCH, 4), (False, 2, 20)],
)
def test_tensorflow_gradient_tape_train_step_matches_numpy_sgd(
    run_eagerly, batch_size, steps_per_execution
):
    tf = pytest.importorskip("tensorflow")

    class Tape(_LoggingSteps):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply(gradients, self.trainable_variables)
            return self._logs(loss, y, y_pred)

    _fit_and_check(
        _linear(Tape),
        batch_size=batch_size,
        run_eagerly=run_eagerly,
        steps_per_execution=steps_per_execution,
    )


@only_on("tensorflow")
def test_gradient_tape_differentiates_with_respect_to_mb_variables():
    tf = pytest.importorskip("tensorflow")
    w = keras.Variable(np.array([1.0, -2.0], "float32"))
    with tf.GradientTape() as tape:
        loss = keras.ops.sum(w * w * 3.0)
    (grad,) = tape.gradient(loss, [w])
    np.testing.assert_allclose(grad.numpy(), [6.0, -12.0])


@only_on("jax")
def test_jax_stateless_train_step_matches_numpy_sgd():
    jax = pytest.importorskip("jax")

    class Stateless(keras.Model):
        def compute_loss_and_updates(self, trainable, non_trainable, x, y, training=False):
            y_pred, non_trainable = self.stateless_call(
                trainable, non_trainable, x, training=training
            )
            loss = self.compute_loss(x, y, y_pred)
            return loss, (y_pred, non_trainable)

        def train_step(self, state, data):
            trainable, non_trainable, optimizer_variables, metrics_variables = state
            x, y = data
            grad_fn = jax.value_and_grad(self.compute_loss_and_updates, has_aux=True)
            (loss, (y_pred, non_trainable)), grads = grad_fn(
                trainable, non_trainable, x, y, training=True
            )
            trainable, optimizer_variables = self.optimizer.stateless_apply(
                optimizer_variables, grads, trainable
            )
            new_metrics_variables, logs = [], {}
            for metric in self.metrics:
                start = len(new_metrics_variables)
                values = metrics_variables[start : start + len(metric.variables)]
                if metric.name == "loss":
                    values = metric.stateless_update_state(values, loss)
                else:
                    values = metric.stateless_update_state(values, y, y_pred)
                logs[metric.name] = metric.stateless_result(values)
                new_metrics_variables += values
            state = (trainable, non_trainable, optimizer_variables, new_metrics_variables)
            return logs, state

    _fit_and_check(_linear(Stateless))


# ----- written once, every backend ------------------------------------------------------


@trainable_backend
def test_value_and_gradients_train_step_matches_numpy_sgd():
    class Portable(_LoggingSteps):
        def train_step(self, data):
            x, y = data

            def loss_fn():
                y_pred = self(x, training=True)
                return self.compute_loss(x=x, y=y, y_pred=y_pred), y_pred

            loss, y_pred, grads = keras.models.value_and_gradients(
                loss_fn, self.trainable_variables, has_aux=True
            )
            self.optimizer.apply(grads, self.trainable_variables)
            return self._logs(loss, y, y_pred)

    _fit_and_check(_linear(Portable))


@trainable_backend
def test_super_train_step_in_an_override_matches_numpy_sgd():
    class Wrapped(keras.Model):
        def train_step(self, data):
            return super().train_step(data)

    _fit_and_check(_linear(Wrapped), steps_per_execution=2)


@trainable_backend
def test_overridden_compute_loss_is_the_logged_loss():
    class MAE(keras.Model):
        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            return keras.ops.mean(keras.ops.abs(y - y_pred))

    x, y = _data()
    model = _linear(MAE)
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")  # weights stay at 0
    history = model.fit(x, y, batch_size=BATCH, epochs=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [np.mean(np.abs(y))] * 2, **TOL)
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), np.mean(np.abs(y)), **TOL)


@trainable_backend
def test_subclass_built_from_inputs_and_outputs_trains_saves_and_loads(tmp_path):
    @keras.saving.register_keras_serializable(package="test_custom_training")
    class Counting(keras.Model):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.calls = keras.metrics.Sum(name="calls")

        def train_step(self, data):
            self.calls.update_state(1.0)
            return super().train_step(data)

    inp = keras.Input((3,), name="x")
    model = Counting(inputs=inp, outputs=keras.layers.Dense(1, name="d")(inp), name="mine")
    model.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    x, y = _data()
    history = model.fit(x, y, batch_size=BATCH, epochs=2, shuffle=False, verbose=0)
    assert history.history["calls"] == [4.0, 4.0]  # reset every epoch, one per step
    assert history.history["loss"][1] < history.history["loss"][0]
    path = str(tmp_path / "mine.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert type(loaded) is Counting and loaded.name == "mine"
    assert [layer.name for layer in loaded.layers] == ["x", "d"]
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), **TOL)
    loaded.fit(x, y, batch_size=BATCH, epochs=1, shuffle=False, verbose=0)
