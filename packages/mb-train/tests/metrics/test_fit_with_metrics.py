"""`compile(metrics=[...])` with strings and metric objects, through `fit` and
`evaluate` on the test backend (jax by default): the logged values equal NumPy's."""

import numpy as np
import pytest

import mb_layers
import mb_ops
from mb_ops import backends, ops
from mb_train import metrics
from mb_train.models import Sequential

pytestmark = pytest.mark.skipif(
    backends.resolve_backend_name() in ("numpy", "openvino"),
    reason="fit needs a backend that can differentiate (jax, torch, tensorflow)",
)


class FrozenSGD:
    """SGD with a learning rate of 0: the weights stay put, so the metrics logged by
    fit can be checked against the fixed model's predictions."""

    def __init__(self):
        self.iterations = mb_ops.Variable(0, dtype="int32", trainable=False, name="iterations")
        self.built = False

    @property
    def variables(self):
        return [self.iterations]

    def build(self, variables):
        self.built = True

    def apply(self, grads, variables):
        for g, v in zip(grads, variables, strict=True):
            v.assign(v.value - 0.0 * g)
        self.iterations.assign(self.iterations.value + 1)


def _classifier(num_classes=3):
    return Sequential(
        [
            mb_layers.Input((4,)),
            mb_layers.layers.Dense(8, activation="relu"),
            mb_layers.layers.Dense(num_classes, activation="softmax"),
        ]
    )


@pytest.fixture
def data(rng):
    x = rng.normal(size=(60, 4)).astype("float32")
    y = rng.integers(0, 3, size=60)
    return x, y


def test_fit_logs_accuracy_and_mae_as_numpy_computes_them(support, data):
    x, y = data
    model = _classifier()
    model.compile(
        optimizer=FrozenSGD(), loss="sparse_categorical_crossentropy", metrics=["accuracy", "mae"]
    )
    # Labels of shape (n, 1): "mae" then broadcasts them against the (n, 3) predictions.
    y = y[:, None]
    history = model.fit(
        x, y, batch_size=16, epochs=2, shuffle=False, verbose=0, validation_data=(x[:20], y[:20])
    )
    probs = model.predict(x, verbose=0)
    labels = y[:, 0]
    accuracy = np.mean(probs.argmax(-1) == labels)
    # "mae" on sparse labels: |label - prob| averaged over classes, as Keras computes it.
    mae = np.mean(np.abs(y - probs))
    logs = history.history
    np.testing.assert_allclose(logs["accuracy"], [accuracy] * 2, atol=1e-6)
    np.testing.assert_allclose(
        logs["val_accuracy"], [np.mean(probs[:20].argmax(-1) == labels[:20])] * 2, atol=1e-6
    )
    np.testing.assert_allclose(logs["mae"], [mae] * 2, rtol=1e-5)
    nll = -np.log(probs[np.arange(60), labels])
    np.testing.assert_allclose(logs["loss"], [nll.mean()] * 2, rtol=1e-4)


def test_string_metrics_are_logged_under_the_string(data):
    x, y = data
    model = _classifier()
    model.compile(
        optimizer=FrozenSGD(),
        loss="sparse_categorical_crossentropy",
        metrics=["mae", "sparse_top_k_categorical_accuracy", "SparseCategoricalAccuracy"],
    )
    logs = model.evaluate(x, y[:, None], verbose=0, return_dict=True)
    # As in Keras 3: names and aliases log under the string; a class name keeps the
    # class's default name.
    expected = {"loss", "mae", "sparse_top_k_categorical_accuracy", "sparse_categorical_accuracy"}
    assert set(logs) == expected


def test_evaluate_with_weighted_metric_objects(support, data, rng):
    x, y = data
    w = rng.uniform(size=60).astype("float32")
    model = _classifier()
    model.compile(
        optimizer=FrozenSGD(),
        loss="sparse_categorical_crossentropy",
        metrics=[metrics.SparseTopKCategoricalAccuracy(k=2, name="top2")],
        weighted_metrics=[metrics.SparseCategoricalAccuracy(name="acc")],
    )
    logs = model.evaluate(x, y, sample_weight=w, batch_size=16, verbose=0, return_dict=True)
    probs = model.predict(x, verbose=0)
    hits = probs.argmax(-1) == y
    in_top2 = np.sum(probs > probs[np.arange(60), y][:, None], axis=-1) < 2
    assert logs["acc"] == pytest.approx(np.sum(hits * w) / np.sum(w), abs=1e-6)
    assert logs["top2"] == pytest.approx(np.mean(in_top2), abs=1e-6)


def test_binary_accuracy_auc_and_precision_through_fit(support, rng):
    x = rng.normal(size=(48, 4)).astype("float32")
    y = (x[:, :1] + 0.3 * rng.normal(size=(48, 1)) > 0).astype("float32")
    model = Sequential([mb_layers.Input((4,)), mb_layers.layers.Dense(1, activation="sigmoid")])
    auc, precision = metrics.AUC(num_thresholds=50), metrics.Precision()
    model.compile(
        optimizer=FrozenSGD(), loss="binary_crossentropy", metrics=["accuracy", auc, precision]
    )
    history = model.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)
    probs = model.predict(x, verbose=0)
    reference_auc = metrics.AUC(num_thresholds=50)
    reference_auc.update_state(y, ops.convert_to_tensor(probs))
    logs = history.history
    assert logs["accuracy"][0] == pytest.approx(np.mean((probs > 0.5) == y), abs=1e-6)
    assert logs[auc.name][0] == pytest.approx(
        float(support.to_numpy(reference_auc.result())), abs=1e-6
    )
    predicted = probs > 0.5
    expected_precision = np.sum(predicted & (y == 1)) / max(np.sum(predicted), 1)
    assert logs[precision.name][0] == pytest.approx(expected_precision, abs=1e-6)


def _multilabel_model_and_data(rng):
    x = rng.normal(size=(48, 4)).astype("float32")
    y = (rng.uniform(size=(48, 3)) > 0.5).astype("float32")
    model = Sequential([mb_layers.Input((4,)), mb_layers.layers.Dense(3, activation="sigmoid")])
    return model, x, y


def test_metrics_built_from_data_accumulate_once_built(support, rng):
    model, x, y = _multilabel_model_and_data(rng)
    f1 = metrics.F1Score(threshold=0.5, average="micro")
    r2 = metrics.R2Score()
    model.compile(optimizer=FrozenSGD(), loss="binary_crossentropy", metrics=[f1, r2])
    # F1Score and R2Score size their state from the data (as in Keras): one eager update
    # builds them; the trainer resets them before the first step.
    sample = model.predict(x[:2], verbose=0)
    for m in (f1, r2):
        m.update_state(y[:2], sample)
        m.reset_state()
    history = model.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)
    probs = model.predict(x, verbose=0)
    predicted = (probs > 0.5).astype(float)
    tp = np.sum(predicted * y)
    precision = tp / np.sum(predicted)
    recall = tp / np.sum(y)
    expected_f1 = 2 * precision * recall / (precision + recall)
    assert history.history["f1_score"][0] == pytest.approx(expected_f1, abs=1e-5)
    ss_res = np.sum((y - probs) ** 2, 0)
    ss_tot = np.sum((y - y.mean(0)) ** 2, 0)
    assert history.history["r2_score"][0] == pytest.approx(np.mean(1 - ss_res / ss_tot), abs=1e-4)


def test_an_unbuilt_data_sized_metric_in_a_stateless_scope_is_a_clear_error(rng):
    metric = metrics.F1Score()
    y = rng.integers(0, 2, size=(8, 3)).astype("float32")
    with (
        mb_ops.StatelessScope(),
        pytest.raises(RuntimeError, match="F1Score creates its state variables from the shapes"),
    ):
        metric.update_state(y, y)


def test_fit_builds_data_sized_metrics_on_the_first_batch(rng):
    model, x, y = _multilabel_model_and_data(rng)
    model.compile(
        optimizer=FrozenSGD(), loss="binary_crossentropy", metrics=[metrics.F1Score(threshold=0.5)]
    )
    history = model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    predicted = model.predict(x, verbose=0) > 0.5
    tp = (predicted & (y > 0.5)).sum(0)
    f1 = 2 * tp / (predicted.sum(0) + (y > 0.5).sum(0))
    np.testing.assert_allclose(history.history["f1_score"][0], f1, rtol=1e-5)


def test_compile_builds_data_sized_metrics_itself(rng):
    model, x, y = _multilabel_model_and_data(rng)
    model.compile(
        optimizer=FrozenSGD(), loss="binary_crossentropy", metrics=[metrics.AUC(multi_label=True)]
    )
    history = model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    assert "auc" in "".join(history.history)
