"""``serialize_keras_object`` / ``deserialize_keras_object`` for every built-in of every family.

Each built-in class of the allow-list (layers, initializers, regularizers,
constraints, dtype policies, optimizers, schedules, losses, metrics) is
created, serialized, sent through JSON and deserialized; the result must be
the same class with the same config. A class that cannot do this cannot be
saved in a ``.keras`` file.
"""

import inspect
import json

import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_layers import layers
from mb_saving import _builtins
from mb_train import losses, metrics, optimizers

_DENSE = {"units": 3}
_CONV = {"filters": 2, "kernel_size": 3}
_FACTOR = {"factor": 0.2}
ARGS = {
    "Activation": {"activation": "relu"},
    "FeatureSpace": {"features": {"x": "float", "c": "string_categorical"}},
    "Feature": {"dtype": "float32", "preprocessor": layers.Rescaling(2.0), "output_mode": "float"},
    "Cross": {"feature_names": ("a", "b"), "crossing_dim": 4},
    "TFDConcat": {"axis": -1},
    "AlphaDropout": {"rate": 0.5},
    "CategoryEncoding": {"num_tokens": 4},
    "CenterCrop": {"height": 2, "width": 2},
    "RandomCrop": {"height": 2, "width": 2},
    "Resizing": {"height": 2, "width": 2},
    "Dense": _DENSE,
    "GRU": _DENSE,
    "LSTM": _DENSE,
    "SimpleRNN": _DENSE,
    "GRUCell": _DENSE,
    "LSTMCell": _DENSE,
    "SimpleRNNCell": _DENSE,
    "DepthwiseConv1D": {"kernel_size": 3},
    "DepthwiseConv2D": {"kernel_size": 3},
    "Dot": {"axes": 1},
    "Dropout": {"rate": 0.5},
    "GaussianDropout": {"rate": 0.5},
    "SpatialDropout1D": {"rate": 0.5},
    "SpatialDropout2D": {"rate": 0.5},
    "SpatialDropout3D": {"rate": 0.5},
    "GaussianNoise": {"stddev": 0.1},
    "EinsumDense": {"equation": "ab,bc->ac", "output_shape": 4, "bias_axes": "c"},
    "Embedding": {"input_dim": 5, "output_dim": 2},
    "GroupedQueryAttention": {"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1},
    "MultiHeadAttention": {"num_heads": 2, "key_dim": 3},
    "Hashing": {"num_bins": 4},
    "HashedCrossing": {"num_bins": 4},
    "InputLayer": {"shape": (3,)},
    "Permute": {"dims": (2, 1)},
    "RepeatVector": {"n": 2},
    "Rescaling": {"scale": 0.5, "offset": 1.0},
    "Reshape": {"target_shape": (2, 3)},
    "RandomTranslation": {"height_factor": 0.1, "width_factor": 0.2},
    "RandomZoom": {"height_factor": 0.1},
    "IoU": {"num_classes": 3, "target_class_ids": [0, 2]},
    "OneHotIoU": {"num_classes": 3, "target_class_ids": [1]},
    "MeanIoU": {"num_classes": 3},
    "OneHotMeanIoU": {"num_classes": 3},
    "PrecisionAtRecall": {"recall": 0.5},
    "RecallAtPrecision": {"precision": 0.5},
    "SensitivityAtSpecificity": {"specificity": 0.5},
    "SpecificityAtSensitivity": {"sensitivity": 0.5},
    "CosineDecay": {"initial_learning_rate": 0.1, "decay_steps": 10},
    "CosineDecayRestarts": {"initial_learning_rate": 0.1, "first_decay_steps": 10},
    "ExponentialDecay": {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.9},
    "InverseTimeDecay": {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5},
    "PiecewiseConstantDecay": {"boundaries": [10, 20], "values": [0.1, 0.01, 0.001]},
    "PolynomialDecay": {"initial_learning_rate": 0.1, "decay_steps": 10},
}
for _name in ("Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose"):
    ARGS[_name] = _CONV
for _name in ("Conv3DTranspose", "SeparableConv1D", "SeparableConv2D"):
    ARGS[_name] = _CONV
for _name in ("ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"):
    ARGS[_name] = _CONV
for _name in ("RandomBrightness", "RandomContrast", "RandomRotation", "RandomSharpness"):
    ARGS[_name] = _FACTOR
for _name in ("RandomColorDegeneration", "RandomHue", "RandomSaturation"):
    ARGS[_name] = _FACTOR
ARGS["RandomPosterization"] = {"factor": (2, 6)}
# Quantized dtype policies: a mode of their kind (with its block size / bits where the
# kind has one) over a float source; GPTQ/AWQ settings with a toy dataset and tokenizer
# (not part of their config, as in Keras).
ARGS.update(
    {
        "QuantizedDTypePolicy": {"mode": "int8", "source_name": "float32"},
        "QuantizedFloat8DTypePolicy": {"mode": "float8", "source_name": "float32"},
        "Int4DTypePolicy": {"mode": "int4/128", "source_name": "float32"},
        "GPTQDTypePolicy": {"mode": "gptq/4/128", "source_name": "float32"},
        "AWQDTypePolicy": {"mode": "awq/4/128", "source_name": "float32"},
        "GPTQConfig": {"dataset": ["a b"], "tokenizer": str.split},
        "AWQConfig": {"dataset": ["a b"], "tokenizer": str.split},
    }
)
for _kind in ("Average", "Max"):
    for _rank in (1, 2, 3):
        ARGS[f"Adaptive{_kind}Pooling{_rank}D"] = {"output_size": 2}
# Average pooling takes no default pool_size, as Keras's.
for _rank in (1, 2, 3):
    ARGS[f"AveragePooling{_rank}D"] = {"pool_size": 2}

# Values for required constructor arguments, by name, for classes not listed above.
BY_PARAMETER = {
    "units": 3,
    "filters": 2,
    "kernel_size": 3,
    "rate": 0.5,
    "input_dim": 5,
    "output_dim": 2,
    "height": 2,
    "width": 2,
    "factor": 0.2,
    "num_bins": 4,
    "num_heads": 2,
    "key_dim": 2,
    "num_classes": 3,
    "output_size": 2,
}

# Abstract bases: they have no config of their own.
ABSTRACT = {"Layer", "Regularizer", "LearningRateSchedule", "Optimizer", "Constraint", "Quantizer"}
# Engine models as layers: they need an engine object, and mb-layers tests them.
ENGINE_WRAPPERS = {"TorchModuleWrapper", "JaxLayer", "FlaxLayer"}


def _make(name, cls):
    if name in ("Wrapper", "TimeDistributed", "SpectralNormalization"):
        return cls(layers.Dense(2))
    if name == "Bidirectional":
        return cls(layers.LSTM(2))
    if name == "RNN":
        return cls(layers.GRUCell(2))
    if name == "StackedRNNCells":
        return cls([layers.LSTMCell(2), layers.GRUCell(3)])
    if name == "Lambda":
        return cls(mb_layers.activations.relu)
    if name == "Pipeline":
        return cls([layers.Rescaling(0.5)])
    if name == "MaxNumBoundingBoxes":
        return cls(max_number=2)
    if name in ("Functional", "Sequential"):
        x = mb_layers.Input((3,))
        return cls(x, layers.Dense(2)(x)) if name == "Functional" else cls([x, layers.Dense(2)])
    if name == "LossScaleOptimizer":
        return cls(optimizers.SGD())
    if name == "OptimizerMap":
        return cls(optimizers.SGD(), {"dense/.*": optimizers.Adam()})
    if name == "MultiOptimizer":
        return cls(optimizers.OptimizerMap(optimizers.SGD(), {"dense/.*": optimizers.Adam()}))
    if name == "LossFunctionWrapper":
        return cls(losses.mean_squared_error)
    if name == "MeanMetricWrapper":
        return cls(metrics.mean_absolute_error)
    if name in ARGS:
        return cls(**ARGS[name])
    required = [
        p.name
        for p in inspect.signature(cls.__init__).parameters.values()
        if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD and p.name != "self"
    ]
    missing = [p for p in required if p not in BY_PARAMETER]
    assert not missing, f"add constructor arguments {missing} of {name} to ARGS in this test"
    return cls(**{p: BY_PARAMETER[p] for p in required})


def _builtin_classes():
    cases = []
    for family in _builtins.FAMILIES:
        if family is _builtins.OPERATIONS:
            continue
        for name, obj in sorted(family.table().items()):
            skip = ABSTRACT | ENGINE_WRAPPERS
            if isinstance(obj, type) and name == obj.__name__ and name not in skip:
                cases.append(pytest.param(name, obj, id=f"{family.kind}-{name}"))
    return cases


def _json(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("name", "cls"), _builtin_classes())
def test_every_builtin_round_trips_through_json_with_the_same_config(name, cls):
    obj = _make(name, cls)
    config = _json(mb_saving.serialize_keras_object(obj))
    # Keras exports some classes under another name (GroupQueryAttention).
    assert config["class_name"] == getattr(cls, "_keras_export_name", name)
    assert config["module"].startswith("keras")
    back = mb_saving.deserialize_keras_object(config)
    assert type(back) is cls
    assert _json(mb_saving.serialize_keras_object(back)) == config


@pytest.mark.parametrize(
    ("family", "minimum"),
    [
        (_builtins.LAYERS, 100),
        (_builtins.INITIALIZERS, 15),
        (_builtins.REGULARIZERS, 4),
        (_builtins.CONSTRAINTS, 4),
        (_builtins.OPTIMIZERS, 12),
        (_builtins.SCHEDULES, 6),
        (_builtins.LOSSES, 20),
        (_builtins.METRICS, 40),
    ],
)
def test_every_family_contributes_its_builtins(family, minimum):
    assert sum(isinstance(v, type) for v in family.table().values()) >= minimum


def test_functions_are_written_by_name_and_found_again():
    config = mb_saving.serialize_keras_object(mb_layers.activations.gelu)
    assert config == {  # as Keras 3 writes every function
        "module": "builtins",
        "class_name": "function",
        "config": "gelu",
        "registered_name": "function",
    }
    assert mb_saving.deserialize_keras_object(config) is mb_layers.activations.gelu


def test_values_use_keras_encodings():
    value = {"a": (1, 2), "b": np.arange(3, dtype="int32"), "c": b"hi", "d": slice(1, None, 2)}
    config = mb_saving.serialize_keras_object(value)
    assert config["b"] == {
        "class_name": "__numpy__",
        "config": {"value": [0, 1, 2], "dtype": "int32"},
    }
    back = mb_saving.deserialize_keras_object(_json(config))
    assert back["a"] == [1, 2] and back["c"] == b"hi" and back["d"] == slice(1, None, 2)
    np.testing.assert_array_equal(back["b"], np.arange(3))


def test_registered_custom_objects_round_trip_with_their_registered_name():
    @mb_saving.register_keras_serializable(package="serial_tests")
    class Scaled(losses.Loss):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, y_true, y_pred):
            return self.factor * (y_true - y_pred) ** 2

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    config = _json(mb_saving.serialize_keras_object(Scaled(3.0)))
    assert config["registered_name"] == "serial_tests>Scaled"
    back = mb_saving.deserialize_keras_object(config)
    assert isinstance(back, Scaled) and back.factor == 3.0


def test_an_unregistered_subclass_does_not_inherit_its_parents_registered_name():
    @mb_saving.register_keras_serializable(package="serial_tests")
    class Parent(layers.Layer):
        pass

    class Child(Parent):
        pass

    assert mb_saving.serialize_keras_object(Parent())["registered_name"] == "serial_tests>Parent"
    assert mb_saving.serialize_keras_object(Child())["registered_name"] == "Child"


def test_registration_names_and_conflicts():
    def fn(x):
        return x

    mb_saving.register_keras_serializable(package="serial_tests", name="identity_fn")(fn)
    assert mb_saving.get_registered_name(fn) == "serial_tests>identity_fn"
    assert mb_saving.get_registered_object("serial_tests>identity_fn") is fn
    assert mb_saving.get_custom_objects()["serial_tests>identity_fn"] is fn

    def other(x):
        return x

    with pytest.raises(ValueError, match="already registered"):
        mb_saving.register_keras_serializable(package="serial_tests", name="identity_fn")(other)
    with pytest.raises(ValueError, match="get_config"):
        mb_saving.register_keras_serializable(package="serial_tests")(type("NoConfig", (), {}))


def test_custom_object_scopes_nest_and_end():
    def a(x):
        return x

    def b(x):
        return x

    with mb_saving.custom_object_scope({"f": a}):
        with mb_saving.CustomObjectScope({"f": b}):
            assert mb_saving.get_registered_object("f") is b
        assert mb_saving.get_registered_object("f") is a
    assert mb_saving.get_registered_object("f") is None


def test_custom_object_scope_takes_one_dict_as_keras_does():
    def my_act(x):
        return x

    layer_config = mb_saving.serialize_keras_object(layers.Dense(2, activation=my_act))
    with mb_saving.CustomObjectScope(custom_objects={"my_act": my_act}):
        layer = mb_saving.deserialize_keras_object(layer_config)
    assert layer.activation is my_act
    with mb_saving.CustomObjectScope(None):
        assert mb_saving.get_registered_object("my_act") is None
    with pytest.raises(TypeError, match="takes a dict"):
        mb_saving.CustomObjectScope([("my_act", my_act)])


def test_deserializing_an_unknown_class_names_the_path():
    config = {"module": "keras.layers", "class_name": "Dense",
              "config": {"units": 2, "kernel_initializer": {"module": "keras.initializers",
                         "class_name": "NoSuchInit", "config": {}}}}  # fmt: skip
    with pytest.raises(mb_saving.UnsafeConfigError, match=r"config\.config\.kernel_initializer"):
        mb_saving.deserialize_keras_object(config)
