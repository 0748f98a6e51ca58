"""Configs and names: get_config/from_config, Keras 3's serialized form both ways,
`get` on every kind of identifier, and the errors for what cannot be a loss."""

import json

import numpy as np
import pytest
from _losses_helpers import data, to_numpy
from _losses_keras_ref import config_case, construct_case, run_keras

from mb_ops import ops
from mb_train import losses
from mb_train._model import _resolve

# keras.losses, name for name (reference/keras3-api.md section 1.3).
KERAS_NAMES = {
    "BinaryCrossentropy", "BinaryFocalCrossentropy", "CTC", "CategoricalCrossentropy",
    "CategoricalFocalCrossentropy", "CategoricalGeneralizedCrossEntropy", "CategoricalHinge",
    "Circle", "CosineSimilarity", "Dice", "Hinge", "Huber", "KLDivergence", "LogCosh", "Loss",
    "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredError",
    "MeanSquaredLogarithmicError", "Poisson", "SparseCategoricalCrossentropy", "SquaredHinge",
    "Tversky", "binary_crossentropy", "binary_focal_crossentropy", "categorical_crossentropy",
    "categorical_focal_crossentropy", "categorical_generalized_cross_entropy",
    "categorical_hinge", "circle", "cosine_similarity", "ctc", "deserialize", "dice", "get",
    "hinge", "huber", "kl_divergence", "log_cosh", "mean_absolute_error",
    "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error",
    "poisson", "serialize", "sparse_categorical_crossentropy", "squared_hinge", "tversky",
}  # fmt: skip

# Every class with arguments that differ from the defaults.
CONFIGURED = [
    losses.MeanSquaredError(reduction="sum", name="a"),
    losses.MeanAbsoluteError(reduction="none"),
    losses.MeanAbsolutePercentageError(reduction=None),
    losses.MeanSquaredLogarithmicError(reduction="mean"),
    losses.CosineSimilarity(axis=1, reduction="mean_with_sample_weight"),
    losses.Huber(delta=2.5),
    losses.LogCosh(name="lc"),
    losses.KLDivergence(reduction="sum"),
    losses.Poisson(name="p"),
    losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1, axis=0),
    losses.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.4, gamma=1.0),
    losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.2, axis=1),
    losses.CategoricalFocalCrossentropy(alpha=0.5, gamma=3.0, from_logits=True),
    losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=3, axis=1),
    losses.CategoricalGeneralizedCrossEntropy(q=0.25),
    losses.Hinge(reduction="sum"),
    losses.SquaredHinge(name="sh"),
    losses.CategoricalHinge(reduction="none"),
    losses.Dice(axis=(1, 2)),
    losses.Tversky(alpha=0.3, beta=0.7, axis=-1),
    losses.Circle(gamma=40.0, margin=0.2, remove_diagonal=False),
    losses.CTC(reduction="sum"),
]
# Keys mb writes that Keras 3 leaves out of these classes' configs (Keras reads
# them back, since its constructors take them, but writes them no more).
KERAS_DROPS = {"Huber": {"delta"}, "CosineSimilarity": {"axis"}}
KERAS_DROPS["SparseCategoricalCrossentropy"] = {"axis"}


def test_the_namespace_is_keras_name_for_name():
    assert set(losses.__all__) - {"LossFunctionWrapper"} == KERAS_NAMES
    for name in losses.__all__:
        assert hasattr(losses, name)


@pytest.mark.parametrize("loss", CONFIGURED, ids=lambda loss: type(loss).__name__)
def test_from_config_of_get_config_gives_the_same_loss(loss):
    config = loss.get_config()
    json.dumps(config)  # plain JSON
    again = type(loss).from_config(config)
    assert again.get_config() == config
    assert type(again) is type(loss)


@pytest.mark.parametrize("loss", CONFIGURED, ids=lambda loss: type(loss).__name__)
def test_serialize_then_deserialize(loss):
    config = losses.serialize(loss)
    assert config == {
        "module": "keras.losses",
        "class_name": type(loss).__name__,
        "config": loss.get_config(),
        "registered_name": None,
    }
    again = losses.deserialize(name=json.loads(json.dumps(config)))  # Keras's keyword
    assert type(again) is type(loss)
    assert again.get_config() == loss.get_config()


def test_a_reloaded_loss_computes_the_same_numbers():
    y_true, y_pred = data("regression", (4, 3), seed=1)
    loss = losses.Huber(delta=0.3, reduction="sum")
    again = losses.deserialize(json.loads(json.dumps(losses.serialize(loss))))
    np.testing.assert_allclose(to_numpy(again(y_true, y_pred)), to_numpy(loss(y_true, y_pred)))


@pytest.fixture(scope="module")
def keras_configs():
    """Keras re-serializing mb's configs, and Keras's own configs of the same losses."""
    read_back = [config_case(losses.serialize(loss)) for loss in CONFIGURED]
    functions = [config_case(losses.serialize(losses.huber))]
    built = [
        construct_case(type(loss).__name__, **_keras_kwargs(loss))
        for loss in CONFIGURED
        if type(loss).__name__ != "CategoricalGeneralizedCrossEntropy"
    ]
    results = run_keras(read_back + functions + built)
    n = len(read_back)
    return results[:n], results[n], results[n + 1 :]


def _keras_kwargs(loss):
    drops = KERAS_DROPS.get(type(loss).__name__, set())
    return {k: v for k, v in loss.get_config().items() if k not in drops}


def test_keras_reads_mb_configs_and_writes_the_same_back(keras_configs):
    read_back, _, _ = keras_configs
    for loss, keras_config in zip(CONFIGURED, read_back, strict=True):
        ours = losses.serialize(loss)
        drops = KERAS_DROPS.get(type(loss).__name__, set())
        expected = {k: v for k, v in ours["config"].items() if k not in drops}
        if isinstance(expected.get("axis"), tuple):
            expected["axis"] = list(expected["axis"])  # JSON has no tuples
        assert keras_config["class_name"] == ours["class_name"]
        assert keras_config["module"] == "keras.losses"
        assert keras_config["config"] == expected


def test_function_configs_match_keras(keras_configs):
    _, keras_function, _ = keras_configs
    assert losses.serialize(losses.huber) == keras_function
    assert losses.deserialize(keras_function) is losses.huber


def test_mb_reads_keras_configs(keras_configs):
    _, _, built = keras_configs
    ours = [
        loss for loss in CONFIGURED if type(loss).__name__ != "CategoricalGeneralizedCrossEntropy"
    ]
    for loss, keras_config in zip(ours, built, strict=True):
        again = losses.deserialize(keras_config)
        assert type(again) is type(loss)
        expected = _keras_kwargs(loss)
        got = {k: v for k, v in again.get_config().items() if k in expected}
        if isinstance(expected.get("axis"), tuple):
            expected["axis"] = tuple(expected["axis"])
        assert got == expected


def test_wrapper_serializes_its_function_and_arguments():
    loss = losses.LossFunctionWrapper(losses.huber, name="h", reduction="sum", delta=0.5)
    config = losses.serialize(loss)
    assert config["module"] == "keras.src.losses.losses"
    assert config["class_name"] == config["registered_name"] == "LossFunctionWrapper"
    assert config["config"] == {
        "name": "h",
        "reduction": "sum",
        "fn": {
            "module": "builtins",
            "class_name": "function",
            "config": "huber",
            "registered_name": "function",
        },
        "delta": 0.5,
    }
    again = losses.deserialize(name=json.loads(json.dumps(config)))  # Keras's keyword
    assert isinstance(again, losses.LossFunctionWrapper)
    assert again.fn is losses.huber
    y_true, y_pred = data("regression", (3, 2))
    np.testing.assert_allclose(to_numpy(again(y_true, y_pred)), to_numpy(loss(y_true, y_pred)))


def my_loss(y_true, y_pred):
    return ops.mean(ops.abs(y_true - y_pred), axis=-1)


class MyLoss(losses.Loss):
    def __init__(self, power=2.0, **kwargs):
        super().__init__(**kwargs)
        self.power = power

    def call(self, y_true, y_pred):
        return ops.mean(ops.abs(y_true - y_pred) ** self.power, axis=-1)

    def get_config(self):
        return {**super().get_config(), "power": self.power}


def test_user_losses_serialize_and_load_with_custom_objects():
    config = losses.serialize(MyLoss(power=3.0, name="mine"))
    assert config["class_name"] == "MyLoss"
    assert config["registered_name"] == "MyLoss"
    assert config["module"] == __name__
    loaded = losses.deserialize(config, custom_objects={"MyLoss": MyLoss})
    assert isinstance(loaded, MyLoss) and loaded.power == 3.0 and loaded.name == "mine"
    with pytest.raises(ValueError, match="custom_objects"):
        losses.deserialize(config)
    fn_config = losses.serialize(my_loss)
    assert fn_config == {
        "module": "builtins",
        "class_name": "function",
        "config": "my_loss",
        "registered_name": "function",
    }
    assert losses.deserialize(fn_config, custom_objects={"my_loss": my_loss}) is my_loss


def test_serialize_rejects_lambdas_and_non_losses():
    with pytest.raises(ValueError, match="lambda"):
        losses.serialize(lambda y_true, y_pred: y_pred)
    with pytest.raises(TypeError, match="Cannot serialize"):
        losses.serialize(42)
    assert losses.serialize(None) is None


def test_deserialize_names():
    assert losses.deserialize("mse") is losses.mean_squared_error
    assert losses.deserialize("logcosh") is losses.log_cosh
    assert isinstance(losses.deserialize("Huber"), losses.Huber)
    with pytest.raises(ValueError, match=r"Could not deserialize a loss from 3"):
        losses.deserialize(3)
    with pytest.raises(ValueError, match="lambda"):
        losses.deserialize({"class_name": "__lambda__", "config": {"code": "..."}})


ALIASES = {
    "mse": losses.mean_squared_error,
    "MSE": losses.mean_squared_error,
    "mae": losses.mean_absolute_error,
    "MAE": losses.mean_absolute_error,
    "mape": losses.mean_absolute_percentage_error,
    "MAPE": losses.mean_absolute_percentage_error,
    "msle": losses.mean_squared_logarithmic_error,
    "MSLE": losses.mean_squared_logarithmic_error,
    "kld": losses.kl_divergence,
    "KLD": losses.kl_divergence,
    "bce": losses.binary_crossentropy,
    "BCE": losses.binary_crossentropy,
    "logcosh": losses.log_cosh,
}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_get_resolves_aliases_to_the_loss_function_and_compile_reduces_it(name):
    assert losses.get(name) is ALIASES[name]  # as in Keras 3: the bare function
    loss = _resolve.get_loss(name)  # what compile(loss=name) uses
    assert isinstance(loss, losses.LossFunctionWrapper)
    assert loss.fn is ALIASES[name]
    assert loss.name == ALIASES[name].__name__
    y_true, y_pred = data("soft", (4, 3), seed=2)
    expected = np.mean(to_numpy(ALIASES[name](y_true, y_pred)))
    np.testing.assert_allclose(to_numpy(loss(y_true, y_pred)), expected, rtol=1e-6)


def test_get_on_each_kind_of_identifier():
    assert losses.get(None) is None
    assert isinstance(
        losses.get("SparseCategoricalCrossentropy"), losses.SparseCategoricalCrossentropy
    )
    assert losses.get("sparse_categorical_crossentropy") is losses.sparse_categorical_crossentropy
    wrapped = _resolve.get_loss("sparse_categorical_crossentropy")
    assert wrapped.fn is losses.sparse_categorical_crossentropy
    assert wrapped.reduction == "sum_over_batch_size"
    from_dict = losses.get({"class_name": "BinaryCrossentropy", "config": {"from_logits": True}})
    assert isinstance(from_dict, losses.BinaryCrossentropy) and from_dict.from_logits
    assert isinstance(losses.get(losses.Poisson), losses.Poisson)
    instance = losses.Hinge()
    assert losses.get(instance) is instance
    assert losses.get(my_loss) is my_loss
    for name in KERAS_NAMES - {"Loss", "get", "serialize", "deserialize"}:
        assert callable(losses.get(name))


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("msee", "'mse'"),
        ("Hubber", "'Huber'"),
        ("sparse_categorical_crossentropyy", "'sparse_categorical_crossentropy'"),
        ("binary_cross_entropy", "'binary_crossentropy'"),
        ("meansquarederror", "'MeanSquaredError'"),
    ],
)
def test_unknown_names_list_close_matches(name, suggestion):
    for lookup in (losses.get, losses.deserialize):
        with pytest.raises(ValueError, match="Unknown loss") as info:
            lookup(name)
        assert repr(name) in str(info.value)
        assert f"Did you mean {suggestion}" in str(info.value)


def test_unknown_classes_in_configs_are_named():
    with pytest.raises(ValueError, match="Unknown loss class: 'NoSuchLoss'"):
        losses.deserialize({"class_name": "NoSuchLoss", "config": {}})
    with pytest.raises(ValueError, match="Unknown loss function: 'nope'"):
        losses.deserialize({"class_name": "function", "config": "nope"})


def test_get_rejects_what_is_not_a_loss():
    with pytest.raises(ValueError, match="Could not interpret loss identifier"):
        losses.get(3)
    with pytest.raises(ValueError, match=r"must subclass mb_train\.losses\.Loss"):
        losses.get(dict)
