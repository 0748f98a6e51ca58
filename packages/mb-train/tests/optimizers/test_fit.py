"""Optimizers inside `Model.fit`: compile by name, loss goes down, the compiled step gives
the eager numbers, callbacks read and set the learning rate, EMA and loss scaling."""

import numpy as np
import pytest

import mb_layers
from mb_train import callbacks, optimizers
from mb_train.losses import MeanSquaredError
from mb_train.models import Sequential


@pytest.fixture(autouse=True)
def _trainable_backend(h):
    if not h.trainable:
        pytest.skip(f"the {h.backend} backend cannot train")


def _data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]]) + 0.3).astype("float32")
    return x, y


def _model(seed=0):
    rng = np.random.default_rng(seed)
    model = Sequential(
        [
            mb_layers.Input((4,)),
            mb_layers.layers.Dense(8, activation="tanh"),
            mb_layers.layers.Dense(1),
        ]
    )
    model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.5 for w in model.weights])
    return model


@pytest.mark.parametrize(
    "name", ["sgd", "rmsprop", "adam", "adamw", "adagrad", "nadam", "lion", "adamax", "lamb"]
)
def test_compile_by_name_and_fit_reduces_the_loss(name):
    x, y = _data()
    model = _model()
    model.compile(optimizer=name, loss=MeanSquaredError())
    assert type(model.optimizer).__name__.lower() == name
    if name in ("sgd", "lion", "lamb", "adagrad"):
        model.optimizer.learning_rate = 0.05
    else:
        model.optimizer.learning_rate = 0.01
    history = model.fit(x, y, batch_size=16, epochs=4, shuffle=False, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < 0.7 * losses[0], losses
    assert int(model.optimizer.iterations.numpy()) == 16


@pytest.mark.parametrize(
    "factory",
    [
        lambda: optimizers.SGD(0.05, momentum=0.9),
        lambda: optimizers.Adam(0.01, amsgrad=True),
        lambda: optimizers.AdamW(0.01, use_ema=True, gradient_accumulation_steps=2),
        lambda: optimizers.RMSprop(0.01, centered=True, clipnorm=1.0),
    ],
    ids=["sgd_momentum", "adam_amsgrad", "adamw_ema_accumulation", "rmsprop_clipnorm"],
)
def test_compiled_and_eager_steps_give_the_same_weights(factory):
    x, y = _data()
    results = []
    for run_eagerly in (False, True):
        model = _model()
        model.compile(optimizer=factory(), loss=MeanSquaredError(), run_eagerly=run_eagerly)
        model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
        results.append(model.get_weights() + [v.numpy() for v in model.optimizer.variables])
    for compiled, eager in zip(*results, strict=True):
        np.testing.assert_allclose(compiled, eager, rtol=1e-5, atol=1e-6)


def test_fit_with_the_generic_path_matches_the_default_path():
    x, y = _data()
    weights = []
    for generic in (False, True):
        model = _model()
        optimizer = optimizers.Adam(0.01)
        if generic:
            optimizer._allow_fused_update = optimizer._allow_kernels = False
        model.compile(optimizer=optimizer, loss=MeanSquaredError())
        model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
        weights.append(model.get_weights())
    for fast, slow in zip(*weights, strict=True):
        np.testing.assert_allclose(fast, slow, rtol=1e-5, atol=2e-6)


def test_reduce_lr_on_plateau_and_scheduler_set_the_rate():
    x, y = _data()
    model = _model()
    model.compile(optimizer=optimizers.SGD(0.05), loss=MeanSquaredError())
    scheduler = callbacks.LearningRateScheduler(lambda epoch, lr: 0.01 * (epoch + 1))
    history = model.fit(x, y, batch_size=16, epochs=3, verbose=0, callbacks=[scheduler])
    np.testing.assert_allclose(history.history["learning_rate"], [0.01, 0.02, 0.03], rtol=1e-6)
    np.testing.assert_allclose(float(model.optimizer.learning_rate), 0.03, rtol=1e-6)
    plateau = callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=1e9)
    model.fit(x, y, batch_size=16, epochs=2, verbose=0, callbacks=[plateau])
    # The first epoch sets the best value; the second does not improve on it.
    np.testing.assert_allclose(float(model.optimizer.learning_rate), 0.015, rtol=1e-6)


def test_fit_ends_with_the_ema_weights_as_keras_does():
    x, y = _data()
    model = _model()
    model.compile(
        optimizer=optimizers.SGD(0.05, use_ema=True, ema_momentum=0.5), loss=MeanSquaredError()
    )
    model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    averages = [v.numpy() for v in model.optimizer._model_variables_moving_average]
    for got, want in zip(model.get_weights(), averages, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_swap_ema_weights_evaluates_with_the_average():
    x, y = _data()
    model = _model()
    model.compile(
        optimizer=optimizers.SGD(0.05, use_ema=True, ema_momentum=0.5), loss=MeanSquaredError()
    )
    for start in range(0, 64, 16):  # steps without the end-of-fit finalization
        model.train_on_batch(x[start : start + 16], y[start : start + 16])
    live = model.get_weights()
    averages = [v.numpy() for v in model.optimizer._model_variables_moving_average]
    assert not all(np.allclose(a, b) for a, b in zip(live, averages, strict=True))
    swap = callbacks.SwapEMAWeights()
    swapped_loss = model.evaluate(x, y, verbose=0, callbacks=[swap])
    model.set_weights(averages)
    np.testing.assert_allclose(swapped_loss, model.evaluate(x, y, verbose=0), rtol=1e-5)


def test_loss_scale_optimizer_trains_and_grows_its_scale():
    x, y = _data()
    model = _model()
    optimizer = optimizers.LossScaleOptimizer(
        optimizers.SGD(0.05), initial_scale=4.0, dynamic_growth_steps=2
    )
    model.compile(optimizer=optimizer, loss=MeanSquaredError())
    history = model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert float(optimizer.dynamic_scale.numpy()) == 4.0 * 2**4
    reference = _model()
    reference.compile(optimizer=optimizers.SGD(0.05), loss=MeanSquaredError())
    reference.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    for a, b in zip(model.get_weights(), reference.get_weights(), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_several_compiled_steps_per_execution_give_the_single_step_weights():
    # Steps unrolled into one compiled call (torch.compile on torch, XLA elsewhere):
    # the in-place kernels must not run on state a previous step already replaced.
    x, y = _data()
    weights = []
    for spe, jit in ((1, "auto"), (4, True)):
        model = _model()
        model.compile(
            optimizer=optimizers.SGD(0.05, momentum=0.9),
            loss=MeanSquaredError(),
            steps_per_execution=spe,
            jit_compile=jit,
        )
        model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
        weights.append(model.get_weights())
    for single, several in zip(*weights, strict=True):
        np.testing.assert_allclose(single, several, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("run_eagerly", [True, False])
def test_fit_updates_in_place_where_the_backend_has_kernels(foreach_calls, run_eagerly):
    # The trainer donates the step's state, so torch's multi-tensor kernels update it
    # in place inside fit (eager and recorded steps); the numbers equal the generic path.
    calls, available = foreach_calls
    x, y = _data()
    weights = []
    for allow in (True, False):
        model = _model()
        model.compile(
            optimizer=optimizers.Adam(0.05), loss=MeanSquaredError(), run_eagerly=run_eagerly
        )
        model.optimizer._allow_kernels = allow
        model.fit(x, y, batch_size=16, epochs=3, verbose=0, shuffle=False)
        weights.append(model.get_weights())
    assert bool(calls) == available
    for fast, generic in zip(*weights, strict=True):
        np.testing.assert_allclose(fast, generic, rtol=1e-5, atol=1e-6)
