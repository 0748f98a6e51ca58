"""State written back after every step: callbacks and in-layer metrics see live values
(on jax, where Keras 3 keeps the state in a private tuple during fit)."""

import numpy as np

import mb_layers
from mb_train.callbacks import Callback
from mb_train.models import Model


def _data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(32, 3)).astype("float32"), rng.normal(size=(32, 1)).astype("float32")


def test_callback_reads_the_weights_of_the_last_step(builtins):
    x, y = _data()
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(1)(inp))
    model.compile(optimizer=builtins["sgd"](0.1), loss=builtins["mse"]())
    seen = []

    class Reader(Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(model.layers[-1].kernel.numpy().copy())

    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0, callbacks=[Reader()])
    assert len(seen) == 4
    assert not np.allclose(seen[0], seen[1])
    np.testing.assert_array_equal(seen[-1], model.get_weights()[0])


def test_callback_assigning_weights_mid_epoch_takes_effect(builtins):
    x, y = _data()
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(1)(inp))
    opt = builtins["sgd"](0.0)  # no learning: only the callback changes the weights
    model.compile(optimizer=opt, loss=builtins["mse"]())

    class Zero(Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch == 1:
                for w in model.weights:
                    w.assign(np.zeros(w.shape, "float32"))
                opt.learning_rate.assign(0.0)

    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0, callbacks=[Zero()])
    for w in model.get_weights():
        np.testing.assert_array_equal(w, 0.0)
    # A callback that changes the learning rate changes the next steps.
    opt.learning_rate.assign(0.1)
    model.fit(x, y, batch_size=32, epochs=1, shuffle=False, verbose=0)
    assert np.abs(model.get_weights()[0]).sum() > 0


class _CountingLayer(mb_layers.Layer):
    """A layer holding a metric that it updates in `call`."""

    def __init__(self, metric, **kwargs):
        super().__init__(**kwargs)
        self.seen = metric

    def call(self, x):
        self.seen.update_state(np.zeros((1,), "int32"), np.ones((1, 2), "float32"))
        return x


def test_metric_updated_inside_a_layer_is_logged_and_live(builtins):
    x, y = _data()
    inp = mb_layers.Input((3,))
    metric = builtins["accuracy"](name="calls")
    h = _CountingLayer(metric)(inp)
    model = Model(inp, mb_layers.layers.Dense(1)(h))
    model.compile(optimizer=builtins["sgd"](0.1), loss=builtins["mse"]())
    counts = []

    class Reader(Callback):
        def on_train_batch_end(self, batch, logs=None):
            counts.append(float(metric.count.numpy()))

    history = model.fit(x, y, batch_size=8, epochs=1, verbose=0, callbacks=[Reader()])
    assert counts == [1.0, 2.0, 3.0, 4.0]
    assert "calls" in history.history
