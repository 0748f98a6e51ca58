"""What fit/evaluate and the ``*_on_batch`` methods return and refuse, as Keras 3.15.

The expected names and orders were recorded from Keras 3.15.1 for the same models
(tests/integration/test_training_keras_parity.py compares against Keras live, on
every backend).
"""

import numpy as np
import pytest

import mb_layers
from mb_ops import ops
from mb_train import losses, metrics, optimizers
from mb_train.models import Model, value_and_gradients

layers = mb_layers.layers


def _data(n=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype("float32")
    classes = rng.integers(0, 3, size=(n,))
    target = rng.normal(size=(n, 1)).astype("float32")
    weights = rng.uniform(0.5, 2.0, size=(n,)).astype("float32")
    return x, classes, target, weights


def _two_outputs():
    inp = mb_layers.Input((3,), name="x")
    h = layers.Dense(4, activation="relu", name="hidden")(inp)
    cls = layers.Dense(3, activation="softmax", name="cls")(h)
    reg = layers.Dense(1, name="reg")(h)
    return Model(inp, [cls, reg])


def _linear(kernel=None):
    inp = mb_layers.Input((3,))
    model = Model(inp, layers.Dense(1, name="out")(inp))
    if kernel is not None:
        model.set_weights([np.asarray(kernel, "float32"), np.zeros(1, "float32")])
    return model


# ----- G1: a loss from add_loss, compute_loss or train_step --------------------------


def test_fit_minimizes_a_loss_that_comes_only_from_add_loss():
    x, *_ = _data(16)
    inp = mb_layers.Input((3,))
    hidden = layers.Dense(2, name="d")(inp)
    model = Model(inp, layers.ActivityRegularization(l2=0.1)(hidden))
    model.compile(optimizer=optimizers.SGD(0.1))
    kernel, bias = (w.copy() for w in model.get_weights())
    logs = model.train_on_batch(x, return_dict=True)
    # The layer adds l2 * sum(h^2), divided by the batch size (as Keras).
    expected = 0.1 * np.sum(np.square(x @ kernel + bias)) / len(x)
    np.testing.assert_allclose(logs["loss"], expected, rtol=1e-5)
    history = model.fit(x, epochs=5, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0] < expected


def test_subclassed_model_with_add_loss_in_call_trains_without_compiled_loss():
    class Net(Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)

        def call(self, x):
            out = self.dense(x)
            self.add_loss(ops.mean(ops.square(out)))
            return out

    x, _, y, _ = _data(16)
    model = Net()
    model.compile(optimizer=optimizers.SGD(0.1))
    history = model.fit(x, y, epochs=4, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_compute_loss_override_trains_without_compiled_loss():
    class Net(Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            return self.dense(x)

        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            return ops.mean(ops.abs(y - y_pred))

    x, _, y, _ = _data(16)
    model = Net()
    model.compile(optimizer=optimizers.SGD(0.05))
    logs = model.test_on_batch(x, y, return_dict=True)
    expected = np.mean(np.abs(y - x.sum(1, keepdims=True)))
    np.testing.assert_allclose(logs["loss"], expected, rtol=1e-5)
    history = model.fit(x, y, epochs=4, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_train_step_override_trains_without_compiled_loss():
    class Net(Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data

            def loss_fn():
                return ops.mean(ops.square(self(x) - y))

            loss, grads = value_and_gradients(loss_fn, self.trainable_variables)
            self.optimizer.apply(grads, self.trainable_variables)
            return {"my_loss": loss}

    x, _, y, _ = _data(16)
    model = Net()
    model.compile(optimizer=optimizers.SGD(0.05))
    history = model.fit(x, y, epochs=4, batch_size=16, verbose=0)
    assert list(history.history) == ["my_loss"]
    assert history.history["my_loss"][-1] < history.history["my_loss"][0]


@pytest.mark.parametrize("method", ["fit", "train_on_batch"])
def test_training_with_nothing_to_minimize_fails_before_the_first_step(method):
    x, _, y, _ = _data()
    model = _linear()
    model.compile(optimizer=optimizers.SGD(0.1))
    before = [w.copy() for w in model.get_weights()]
    with pytest.raises(ValueError, match=rf"{method}\(\) needs a loss.*compile.*loss="):
        getattr(model, method)(x, y, **({"verbose": 0} if method == "fit" else {}))
    assert int(model.optimizer.iterations.numpy()) == 0
    for w, b in zip(model.get_weights(), before, strict=True):
        np.testing.assert_array_equal(w, b)


def test_recompiling_without_a_loss_is_refused_again():
    x, _, y, _ = _data()
    model = _linear()
    optimizer = optimizers.SGD(0.1)
    model.compile(optimizer=optimizer, loss="mse")
    model.fit(x, y, verbose=0)
    model.compile(optimizer=optimizer)  # same (built) optimizer, no loss
    with pytest.raises(ValueError, match=r"fit\(\) needs a loss"):
        model.fit(x, y, verbose=0)


@pytest.mark.parametrize("method", ["evaluate", "test_on_batch"])
def test_evaluating_with_no_loss_and_no_metrics_is_a_clear_error(method):
    x, _, y, _ = _data()
    model = _linear()
    model.compile(optimizer=optimizers.SGD(0.1))
    with pytest.raises(ValueError, match=rf"{method}\(\) has nothing to compute.*metrics"):
        getattr(model, method)(x, y, **({"verbose": 0} if method == "evaluate" else {}))


def test_evaluating_metrics_only_reports_a_zero_loss_first():
    # As Keras: compiled without a loss, the loss log is 0 and the metrics follow.
    x, _, y, _ = _data()
    model = _linear(kernel=np.ones((3, 1)))
    model.compile(optimizer=optimizers.SGD(0.1), metrics=["mae"])
    loss, mae = model.evaluate(x, y, verbose=0)
    assert loss == 0.0
    np.testing.assert_allclose(mae, np.mean(np.abs(x.sum(1, keepdims=True) - y)), rtol=1e-5)


# ----- G5 / G8: names and their order ----------------------------------------------


def _compile_two_outputs(model, form):
    if form == "dicts":
        model.compile(
            optimizer=optimizers.SGD(0.0),
            loss={"cls": "sparse_categorical_crossentropy", "reg": "mse"},
            metrics={"cls": ["accuracy"]},
            weighted_metrics={"cls": ["accuracy"]},
        )
    else:
        model.compile(
            optimizer=optimizers.SGD(0.0),
            loss=["sparse_categorical_crossentropy", "mse"],
            metrics=[["accuracy"], ["mae"]],
            weighted_metrics=[["accuracy"], ["mae"]],
        )


# Keras 3.15.1's evaluate()/test_on_batch() order for these models.
KERAS_ORDER = {
    "dicts": ["loss", "cls_loss", "reg_loss", "cls_accuracy", "cls_weighted_accuracy"],
    "lists": [
        "loss",
        "cls_loss",
        "reg_loss",
        "cls_accuracy",
        "cls_weighted_accuracy",
        "reg_mae",
        "reg_weighted_mae",
    ],
}


@pytest.mark.parametrize("form", ["dicts", "lists"])
def test_two_output_names_and_list_order_are_keras(form):
    x, classes, target, weights = _data()
    model = _two_outputs()
    _compile_two_outputs(model, form)
    y, sw = [classes, target], [weights, weights]
    history = model.fit(x, y, sample_weight=sw, verbose=0)
    assert sorted(history.history) == sorted(KERAS_ORDER[form])
    logs = model.evaluate(x, y, sample_weight=sw, verbose=0, return_dict=True)
    values = model.evaluate(x, y, sample_weight=sw, verbose=0)
    assert values == [logs[name] for name in KERAS_ORDER[form]]
    # The weighted accuracy is the sample-weighted share of hits.
    hits = model.predict(x, verbose=0)[0].argmax(-1) == classes
    np.testing.assert_allclose(logs["cls_accuracy"], hits.mean(), rtol=1e-6)
    expected = np.sum(hits * weights) / np.sum(weights)
    np.testing.assert_allclose(logs["cls_weighted_accuracy"], expected, rtol=1e-5)
    on_batch = model.test_on_batch(x, y, sample_weight=sw)
    assert on_batch == [
        model.test_on_batch(x, y, sample_weight=sw, return_dict=True)[n] for n in KERAS_ORDER[form]
    ]


def test_single_output_weighted_metric_names_are_keras():
    x, _, target, weights = _data()
    model = _linear()
    model.compile(
        optimizer=optimizers.SGD(0.0),
        loss="mse",
        metrics=["mae", "mse", "mae"],
        weighted_metrics=["mae", "mae"],
    )
    history = model.fit(x, target, sample_weight=weights, verbose=0)
    # Keras 3.15.1: repeated names get "_1", weighted ones "weighted_" first.
    assert sorted(history.history) == [
        "loss",
        "mae",
        "mae_1",
        "mse",
        "weighted_mae",
        "weighted_mae_1",
    ]
    logs = model.evaluate(x, target, sample_weight=weights, verbose=0, return_dict=True)
    # Keras lists the names that are a metric's own first, then the others sorted.
    order = ["loss", "mae", "mse", "mae_1", "weighted_mae", "weighted_mae_1"]
    assert model.evaluate(x, target, sample_weight=weights, verbose=0) == [logs[n] for n in order]


def test_dict_outputs_pair_list_targets_in_sorted_key_order():
    # Keras flattens a dict of outputs by sorted key: a list of targets follows it.
    inp = mb_layers.Input((3,))
    b = layers.Dense(1, name="bd", kernel_initializer="ones")(inp)
    a = layers.Dense(2, name="ad", kernel_initializer="zeros")(inp)
    model = Model(inp, {"b": b, "a": a})
    model.compile(optimizer=optimizers.SGD(0.0), loss={"b": "mse", "a": "mae"})
    x = np.ones((4, 3), "float32")
    ya, yb = np.full((4, 2), 2.0, "float32"), np.zeros((4, 1), "float32")
    by_key = model.evaluate(x, {"a": ya, "b": yb}, verbose=0, return_dict=True)
    by_list = model.evaluate(x, [ya, yb], verbose=0, return_dict=True)
    assert by_key == by_list == {"a_loss": 2.0, "b_loss": 9.0, "loss": 11.0}
    assert model.evaluate(x, [ya, yb], verbose=0) == [11.0, 2.0, 9.0]


# ----- G6: one batch, its own metrics ------------------------------------------------


def test_on_batch_methods_report_only_the_batch_they_ran():
    x, _, y, _ = _data(16)
    model = _linear(kernel=np.ones((3, 1)))
    model.compile(optimizer=optimizers.SGD(0.0), loss="mse", metrics=["mae"])
    first, second = slice(0, 8), slice(8, 16)
    err = x.sum(1, keepdims=True) - y
    model.test_on_batch(x[first], y[first])
    loss, mae = model.test_on_batch(x[second], y[second])
    np.testing.assert_allclose(loss, np.mean(err[second] ** 2), rtol=1e-5)
    np.testing.assert_allclose(mae, np.mean(np.abs(err[second])), rtol=1e-5)
    model.train_on_batch(x[first], y[first])
    logs = model.train_on_batch(x[second], y[second], return_dict=True)
    np.testing.assert_allclose(logs["loss"], np.mean(err[second] ** 2), rtol=1e-5)
    np.testing.assert_allclose(logs["mae"], np.mean(np.abs(err[second])), rtol=1e-5)


# ----- G7: class_weight in train_on_batch --------------------------------------------


def test_train_on_batch_class_weight_weighs_each_sample_by_its_class():
    x, classes, _, _ = _data(16)
    class_weight = {0: 1.0, 1: 3.0, 2: 0.5}
    per_sample = np.array([class_weight[int(c)] for c in classes], "float32")
    kernel = np.random.default_rng(1).normal(size=(3, 1)).astype("float32")

    def trained(**kwargs):
        model = _linear(kernel=kernel)
        model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
        loss = model.train_on_batch(x, classes.astype("float32"), **kwargs)
        return loss, model.get_weights()

    loss, weights = trained(class_weight=class_weight)
    pred = x @ kernel
    expected = np.mean(per_sample * (pred[:, 0] - classes) ** 2)
    np.testing.assert_allclose(loss, expected, rtol=1e-5)
    same_loss, same_weights = trained(sample_weight=per_sample)
    np.testing.assert_allclose(loss, same_loss, rtol=1e-6)
    for a, b in zip(weights, same_weights, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_train_on_batch_one_hot_targets_take_their_class_from_the_argmax():
    x, classes, _, _ = _data(16)
    one_hot = np.eye(3, dtype="float32")[classes]
    inp = mb_layers.Input((3,))
    model = Model(inp, layers.Dense(3, activation="softmax")(inp))
    model.compile(optimizer=optimizers.SGD(0.0), loss=losses.CategoricalCrossentropy())
    plain = model.test_on_batch(x, one_hot)
    weighted = model.train_on_batch(x, one_hot, class_weight={0: 0.0, 1: 0.0, 2: 0.0})
    assert plain > 0.0 and weighted == 0.0


def test_train_on_batch_refuses_class_weight_with_sample_weight_or_several_targets():
    x, classes, target, weights = _data()
    model = _linear()
    model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
    with pytest.raises(ValueError, match="`class_weight` and `sample_weight`"):
        model.train_on_batch(x, classes, sample_weight=weights, class_weight={0: 2.0})
    two = _two_outputs()
    two.compile(optimizer=optimizers.SGD(0.1), loss=["sparse_categorical_crossentropy", "mse"])
    with pytest.raises(ValueError, match="single target array"):
        two.train_on_batch(x, [classes, target], class_weight={0: 2.0})


# ----- targets keyed by output name ---------------------------------------------------


def test_target_dict_with_an_unknown_key_is_a_clear_error():
    x, classes, target, _ = _data()
    model = _two_outputs()
    _compile_two_outputs(model, "dicts")
    y = {"cls": classes, "reg": target, "extra": target}
    unknown = r"\['extra'\] that are not output names"
    with pytest.raises(ValueError, match=unknown + r".*outputs are named \['cls', 'reg'\]"):
        model.fit(x, y, verbose=0)
    with pytest.raises(ValueError, match=r"\['extra'\] that are not output names"):
        model.evaluate(x, y, verbose=0)
    with pytest.raises(ValueError, match=r"\['extra'\] that are not output names"):
        model.train_on_batch(x, y)


def test_target_dict_missing_an_output_is_a_clear_error():
    # Keras refuses it too, even for an output without a loss.
    x, classes, _, _ = _data()
    model = _two_outputs()
    model.compile(optimizer=optimizers.SGD(0.1), loss={"cls": "sparse_categorical_crossentropy"})
    with pytest.raises(ValueError, match=r"no target for the output\(s\) \['reg'\]"):
        model.fit(x, {"cls": classes}, verbose=0)


def test_sample_weight_list_of_the_wrong_length_is_a_clear_error():
    x, classes, target, weights = _data()
    model = _two_outputs()
    _compile_two_outputs(model, "lists")
    with pytest.raises(ValueError, match="3 entries, but the model has 2 outputs"):
        model.test_on_batch(x, [classes, target], sample_weight=[weights] * 3)


def test_metric_objects_keep_their_names():
    x, classes, _, _ = _data()
    inp = mb_layers.Input((3,))
    model = Model(inp, layers.Dense(3, activation="softmax")(inp))
    model.compile(
        optimizer=optimizers.SGD(0.0),
        loss="sparse_categorical_crossentropy",
        metrics=[metrics.SparseCategoricalAccuracy(name="acc")],
        weighted_metrics=[metrics.SparseCategoricalAccuracy(name="acc")],
    )
    logs = model.test_on_batch(x, classes, return_dict=True)
    assert sorted(logs) == ["acc", "loss", "weighted_acc"]
    assert model.test_on_batch(x, classes) == [logs["loss"], logs["acc"], logs["weighted_acc"]]
