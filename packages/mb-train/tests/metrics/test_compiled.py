"""Every metric updates inside the backend's compiled function, as the trainer runs it:
a pure function of the metric's variable values (StatelessScope), traced by
jax.jit / tf.function, giving the same result as eager updates. Tracing fails on
any NumPy call on a tensor or Python branch on a tensor value."""

import numpy as np
import pytest

import mb_ops
from mb_ops import backends
from mb_train import metrics


def _jit():
    name = backends.resolve_backend_name()
    if name in ("numpy", "openvino"):
        pytest.skip(f"the {name} backend does not compile functions")
    module = backends.backend_module("training")
    options = {"autograph": False} if name == "tensorflow" else {}
    return lambda fn: module.jit(fn, jit_compile=name == "jax", **options)


def _data(rng, kind, n):
    if kind == "binary":
        t = rng.integers(0, 2, size=(n, 1)).astype("float32")
        return t, rng.uniform(size=(n, 1)).astype("float32")
    if kind == "multilabel":
        return (rng.uniform(size=(n, 3)) > 0.5).astype("float32"), rng.uniform(size=(n, 3)).astype(
            "float32"
        )
    if kind == "sparse":
        return rng.integers(0, 3, size=(n,)).astype("int32"), rng.dirichlet(
            np.ones(3), size=n
        ).astype("float32")
    if kind == "onehot":
        return np.eye(3, dtype="float32")[rng.integers(0, 3, size=n)], rng.dirichlet(
            np.ones(3), size=n
        ).astype("float32")
    if kind == "ids":
        return rng.integers(0, 3, size=(n,)).astype("int32"), rng.integers(0, 3, size=(n,)).astype(
            "int32"
        )
    t = rng.normal(size=(n, 3)).astype("float32")
    return t, (t + rng.normal(size=(n, 3))).astype("float32")


CASES = [
    (metrics.Accuracy, "ids"),
    (metrics.BinaryAccuracy, "binary"),
    (metrics.CategoricalAccuracy, "onehot"),
    (metrics.SparseCategoricalAccuracy, "sparse"),
    (lambda: metrics.TopKCategoricalAccuracy(k=2), "onehot"),
    (lambda: metrics.SparseTopKCategoricalAccuracy(k=2), "sparse"),
    (metrics.AUC, "binary"),
    (lambda: metrics.AUC(curve="PR", thresholds=[0.3, 0.6]), "binary"),
    (lambda: metrics.AUC(multi_label=True), "multilabel"),
    (lambda: metrics.AUC(curve="PRGAIN", summation_method="majoring"), "binary"),
    (lambda: metrics.Precision(thresholds=[0.2, 0.5]), "binary"),
    (lambda: metrics.Recall(top_k=1, class_id=1), "multilabel"),
    (metrics.TruePositives, "binary"),
    (metrics.FalsePositives, "binary"),
    (metrics.TrueNegatives, "binary"),
    (metrics.FalseNegatives, "binary"),
    (lambda: metrics.PrecisionAtRecall(0.5), "binary"),
    (lambda: metrics.RecallAtPrecision(0.5), "binary"),
    (lambda: metrics.SensitivityAtSpecificity(0.5), "binary"),
    (lambda: metrics.SpecificityAtSensitivity(0.5), "binary"),
    # The IoU family accumulates in int32 by default; these take fractional weights.
    (lambda: metrics.IoU(3, [0, 2], dtype="float32"), "ids"),
    (lambda: metrics.MeanIoU(3, ignore_class=1, dtype="float32"), "ids"),
    (lambda: metrics.BinaryIoU(dtype="float32"), "binary"),
    (lambda: metrics.OneHotIoU(3, [1], dtype="float32"), "onehot"),
    (lambda: metrics.OneHotMeanIoU(3, dtype="float32"), "onehot"),
    (lambda: metrics.F1Score(average="macro"), "multilabel"),
    (lambda: metrics.FBetaScore(beta=2.0, threshold=0.5), "multilabel"),
    (metrics.R2Score, "regression"),
    (lambda: metrics.R2Score(num_regressors=3), "regression"),
    (metrics.PearsonCorrelation, "regression"),
    (metrics.ConcordanceCorrelation, "regression"),
    (metrics.MeanSquaredError, "regression"),
    (metrics.RootMeanSquaredError, "regression"),
    (metrics.MeanAbsoluteError, "regression"),
    (metrics.MeanAbsolutePercentageError, "regression"),
    (metrics.MeanSquaredLogarithmicError, "regression"),
    (metrics.LogCoshError, "regression"),
    (metrics.CosineSimilarity, "regression"),
    (metrics.Hinge, "binary"),
    (metrics.SquaredHinge, "binary"),
    (metrics.CategoricalHinge, "onehot"),
    (metrics.KLDivergence, "onehot"),
    (metrics.Poisson, "multilabel"),
    (metrics.BinaryCrossentropy, "binary"),
    (metrics.CategoricalCrossentropy, "onehot"),
    (metrics.SparseCategoricalCrossentropy, "sparse"),
]


@pytest.mark.parametrize("factory, kind", CASES, ids=[str(i) for i in range(len(CASES))])
def test_compiled_updates_equal_eager_ones(support, rng, factory, kind):
    jit = _jit()
    batches = [(*_data(rng, kind, 12), rng.uniform(size=12).astype("float32")) for _ in range(2)]
    eager = factory()
    for t, p, w in batches:
        eager.update_state(t, p, sample_weight=w)
    expected = support.to_numpy(eager.result())

    metric = factory()
    # Metrics whose state shape comes from the data build on a first eager update.
    metric.update_state(*batches[0][:2])
    metric.reset_state()

    @jit
    def step(values, y_true, y_pred, weight):
        values = metric.stateless_update_state(values, y_true, y_pred, sample_weight=weight)
        return values, metric.stateless_result(values)

    values = [v.value for v in metric.variables]
    for t, p, w in batches:
        values, result = step(values, t, p, w)
    np.testing.assert_allclose(support.to_numpy(result), expected, rtol=1e-5, atol=1e-6)
    # The live variables were never touched: the compiled function is pure.
    assert all(np.all(support.to_numpy(v.value) == 0) for v in metric.variables)


def test_integer_confusion_matrix_updates_compiled(support, rng):
    jit = _jit()
    t, p = _data(rng, "ids", 20)
    w = rng.integers(0, 3, size=20).astype("int32")
    eager = metrics.MeanIoU(3)
    eager.update_state(t, p, sample_weight=w)
    metric = metrics.MeanIoU(3)
    step = jit(lambda values, t, p, w: metric.stateless_update_state(values, t, p, sample_weight=w))
    values = step([v.value for v in metric.variables], t, p, w)
    assert support.to_numpy(values[0]).dtype == np.int32
    np.testing.assert_array_equal(
        support.to_numpy(values[0]), support.to_numpy(eager.total_cm.value)
    )
    np.testing.assert_allclose(
        support.to_numpy(metric.stateless_result(values)),
        support.to_numpy(eager.result()),
        atol=1e-7,
    )


@pytest.mark.parametrize(
    "factory", [metrics.F1Score, metrics.R2Score, lambda: metrics.AUC(multi_label=True)]
)
def test_data_sized_metrics_refuse_to_build_inside_a_stateless_scope(factory):
    metric = factory()
    error = pytest.raises(RuntimeError, match="creates its state variables from the shapes")
    with error, mb_ops.StatelessScope():
        metric.update_state(np.zeros((2, 3), "float32"), np.zeros((2, 3), "float32"))
