"""The namespace (Keras 3's 72 names), `get`/`serialize`/`deserialize`, config round
trips of every class, and configs exchanged with Keras 3 in both directions."""

import ast
import json

import numpy as np
import pytest

from mb_graph import naming
from mb_ops import testing
from mb_train import metrics


@pytest.fixture(scope="module")
def keras_names():
    """The public names of Keras 3's ``keras.metrics``, read from Keras itself."""
    code = "import keras; print(sorted(n for n in dir(keras.metrics) if not n.startswith('_')))"
    out = testing.run_keras(code, backend="numpy")
    return ast.literal_eval(out.stdout.strip().splitlines()[-1])


# (class name, constructor kwargs): every class Keras can make, with non-default arguments.
CASES = [
    ("AUC", {"num_thresholds": 50, "curve": "PR", "summation_method": "minoring", "name": "a"}),
    ("AUC", {"thresholds": [0.2, 0.7], "multi_label": True, "num_labels": 3, "name": "a2"}),
    ("Accuracy", {"name": "acc"}),
    ("BinaryAccuracy", {"threshold": 0.3}),
    ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}),
    ("BinaryIoU", {"target_class_ids": [1], "threshold": 0.4, "name": "b"}),
    ("CategoricalAccuracy", {}),
    ("CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.2, "axis": 1}),
    ("CategoricalHinge", {}),
    ("ConcordanceCorrelation", {"axis": 0}),
    ("CosineSimilarity", {}),
    ("F1Score", {"average": "macro", "threshold": 0.4}),
    ("FBetaScore", {"average": "weighted", "beta": 2.0}),
    ("FalseNegatives", {"thresholds": [0.1, 0.9], "name": "fn"}),
    ("FalsePositives", {"thresholds": 0.3, "name": "fp"}),
    ("Hinge", {}),
    ("IoU", {"num_classes": 4, "target_class_ids": [0, 2], "ignore_class": 3, "name": "i"}),
    ("KLDivergence", {}),
    ("LogCoshError", {}),
    ("Mean", {"name": "m"}),
    ("MeanAbsoluteError", {}),
    ("MeanAbsolutePercentageError", {}),
    ("MeanIoU", {"num_classes": 3, "sparse_y_pred": False, "name": "mi"}),
    ("MeanSquaredError", {}),
    ("MeanSquaredLogarithmicError", {}),
    ("OneHotIoU", {"num_classes": 3, "target_class_ids": [1], "name": "o"}),
    ("OneHotMeanIoU", {"num_classes": 3, "sparse_y_pred": True, "name": "om"}),
    ("PearsonCorrelation", {"axis": 0}),
    ("Poisson", {}),
    ("Precision", {"thresholds": [0.2, 0.6], "top_k": 2, "class_id": 1, "name": "p"}),
    ("PrecisionAtRecall", {"recall": 0.8, "num_thresholds": 20, "class_id": 1, "name": "pr"}),
    ("R2Score", {"class_aggregation": None, "num_regressors": 2}),
    ("Recall", {"thresholds": 0.7, "name": "r"}),
    ("RecallAtPrecision", {"precision": 0.6, "name": "rp"}),
    ("RootMeanSquaredError", {}),
    ("SensitivityAtSpecificity", {"specificity": 0.4, "num_thresholds": 7, "name": "ss"}),
    ("SparseCategoricalAccuracy", {}),
    ("SparseCategoricalCrossentropy", {"from_logits": True, "ignore_class": 0}),
    ("SparseTopKCategoricalAccuracy", {"k": 3, "from_sorted_ids": True}),
    ("SpecificityAtSensitivity", {"sensitivity": 0.9, "name": "sp"}),
    ("SquaredHinge", {}),
    ("Sum", {"name": "s"}),
    ("TopKCategoricalAccuracy", {"k": 2}),
    ("TrueNegatives", {"name": "tn"}),
    ("TruePositives", {"thresholds": [0.0, 0.5, 1.0], "name": "tp"}),
]


def test_namespace_is_keras_name_for_name(keras_names):
    assert sorted(metrics.__all__) == keras_names
    assert len(keras_names) == 72
    for name in keras_names:
        assert hasattr(metrics, name), name


def test_every_class_case_is_listed(keras_names):
    classes = {n for n in keras_names if n[0].isupper()} - {"Metric", "MeanMetricWrapper"}
    assert {name for name, _ in CASES} == classes


@pytest.mark.parametrize("name, kwargs", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_config_round_trip(name, kwargs):
    m = getattr(metrics, name)(**kwargs)
    config = m.get_config()
    again = type(m).from_config(config)
    assert type(again) is type(m) and again.get_config() == config
    serialized = metrics.serialize(m)
    assert serialized["module"] == "keras.metrics" and serialized["class_name"] == name
    assert serialized["registered_name"] is None
    rebuilt = metrics.deserialize(serialized)
    assert type(rebuilt) is type(m) and rebuilt.get_config() == config
    assert metrics.get(serialized).get_config() == config


def test_configs_interchange_with_keras(support):
    # Keras writes AUC's label_weights as a tensor dict; those cases are in test_auc.
    keras_written = support.keras_configs(CASES)
    for (name, kwargs), theirs in zip(CASES, keras_written, strict=True):
        ours = metrics.serialize(getattr(metrics, name)(**kwargs))
        # Through JSON: tuples become lists on both sides.
        assert json.loads(json.dumps(ours)) == theirs, name
        assert metrics.deserialize(theirs).get_config() == ours["config"], name


def test_mean_metric_wrapper_config_holds_the_function():
    m = metrics.MeanMetricWrapper(metrics.binary_accuracy, name="x", threshold=0.3)
    serialized = metrics.serialize(m)
    assert serialized["config"] == {
        "name": "x",
        "dtype": "float32",
        "fn": {
            "module": "builtins",
            "class_name": "function",
            "config": "binary_accuracy",
            "registered_name": "function",
        },
        "threshold": 0.3,
    }
    again = metrics.deserialize(serialized)
    assert again._fn is metrics.binary_accuracy and again._fn_kwargs == {"threshold": 0.3}
    by_name = metrics.MeanMetricWrapper.from_config({"name": "y", "fn": "mean_squared_error"})
    assert by_name._fn is metrics.mean_squared_error


def test_user_functions_resolve_through_custom_objects(support):
    def doubled(y_true, y_pred):
        return 2.0 * y_pred

    serialized = metrics.serialize(metrics.MeanMetricWrapper(doubled, name="d"))
    assert serialized["config"]["fn"]["config"] == "doubled"
    with pytest.raises(ValueError, match="doubled"):
        metrics.deserialize(serialized)
    again = metrics.deserialize(serialized, custom_objects={"doubled": doubled})
    again.update_state([0.0], np.array([3.0], "float32"))
    assert support.to_numpy(again.result()) == 6.0


def test_get_by_name_alias_and_snake_case():
    assert type(metrics.get("mse")) is metrics.MeanSquaredError
    assert type(metrics.get("MAE")) is metrics.MeanAbsoluteError
    assert type(metrics.get("mape")) is metrics.MeanAbsolutePercentageError
    assert type(metrics.get("msle")) is metrics.MeanSquaredLogarithmicError
    assert type(metrics.get("bce")) is metrics.BinaryCrossentropy
    assert type(metrics.get("accuracy")) is metrics.Accuracy
    assert type(metrics.get("binary_accuracy")) is metrics.BinaryAccuracy
    assert type(metrics.get("categorical_crossentropy")) is metrics.CategoricalCrossentropy
    assert type(metrics.get("auc")) is metrics.AUC
    assert type(metrics.get("AUC")) is metrics.AUC
    assert type(metrics.get("f1_score")) is metrics.F1Score
    assert type(metrics.get("binary_io_u")) is metrics.BinaryIoU
    assert type(metrics.get(metrics.Recall)) is metrics.Recall
    precision = metrics.Precision()
    assert metrics.get(precision) is precision
    assert metrics.get(metrics.hinge) is metrics.hinge
    assert metrics.get(None) is None


def test_snake_case_names_are_kerass():
    # Keras's to_snake_case, e.g. "MeanIoU" -> "mean_io_u", "FBetaScore" -> "f_beta_score".
    assert naming.to_snake_case("MeanIoU") == "mean_io_u"
    assert type(metrics.get("f_beta_score")) is metrics.FBetaScore
    assert type(metrics.get("r2_score")) is metrics.R2Score


def test_function_names_without_a_class_give_the_function():
    # An mb addition: Keras 3's get() refuses these names.
    assert metrics.get("log_cosh") is metrics.log_cosh
    assert metrics.get("huber") is metrics.huber
    assert metrics.get("binary_focal_crossentropy") is metrics.binary_focal_crossentropy


def test_unknown_names_are_clear_errors():
    with pytest.raises(
        ValueError,
        match=r"Could not interpret metric identifier: 'acuracy'\. Did you mean 'accuracy'",
    ):
        metrics.get("acuracy")
    with pytest.raises(ValueError, match="Could not interpret metric identifier: 3"):
        metrics.get(3)
    with pytest.raises(ValueError, match="Could not interpret metric identifier: 'nope'"):
        metrics.deserialize("nope")
    with pytest.raises(ValueError, match="Unknown metric class 'NoSuchMetric'"):
        metrics.deserialize({"class_name": "NoSuchMetric", "config": {}})
    with pytest.raises(TypeError, match="Cannot serialize 3"):
        metrics.serialize(3)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'num_classes'"):
        metrics.get("MeanIoU")


def test_user_metric_classes_serialize_with_their_module():
    class Custom(metrics.Mean):
        pass

    serialized = metrics.serialize(Custom(name="c"))
    assert serialized["class_name"] == "Custom"
    assert serialized["registered_name"] == "Custom"
    again = metrics.deserialize(serialized, custom_objects={"Custom": Custom})
    assert type(again) is Custom and again.name == "c"


def test_metrics_say_which_way_is_better_as_keras_does():
    # Callbacks with mode="auto" read `_direction` from the model's metrics in Keras 3.
    up = [metrics.Accuracy(), metrics.AUC(), metrics.Recall(), metrics.MeanIoU(2)]
    up += [metrics.F1Score(), metrics.R2Score(), metrics.CosineSimilarity()]
    up += [metrics.SpecificityAtSensitivity(0.5), metrics.PearsonCorrelation()]
    down = [metrics.MeanSquaredError(), metrics.RootMeanSquaredError(), metrics.Hinge()]
    down += [metrics.MeanMetricWrapper(metrics.huber), metrics.SparseCategoricalCrossentropy()]
    assert [m._direction for m in up] == ["up"] * len(up)
    assert [m._direction for m in down] == ["down"] * len(down)
    assert not hasattr(metrics.MeanMetricWrapper(lambda t, p: p), "_direction")
    assert not hasattr(metrics.TruePositives(), "_direction")
