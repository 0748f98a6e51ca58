"""Every built-in object of Keras 3's modeling families, made alike in Keras and in mb.

``objects(k, names)`` instantiates each exported class (with the arguments
below where it needs some) and takes each exported function of the families
``layers``, ``activations``, ``losses``, ``metrics``, ``optimizers``,
``optimizers.schedules``, ``initializers``, ``regularizers`` and
``constraints``, for ``k`` = ``keras`` or a namespace of mb's packages, plus a
compiled model using functions in its layers and compile config.
``python builtins_zoo.py OUT.json`` writes what Keras 3 serializes for them
(with the names each family exports). Importable as ``mb_saving_builtins_zoo``.
"""

import inspect
import json
import sys

# Exported classes that cannot be made from plain arguments here.
SKIP = {
    "layers.Wrapper": "abstract",
    "layers.FlaxLayer": "wraps a Flax module",
    "layers.JaxLayer": "wraps JAX functions",
    "layers.TorchModuleWrapper": "wraps a torch module",
    "layers.TFSMLayer": "loads a SavedModel from disk",
}
FAMILIES = ("layers", "activations", "losses", "metrics", "optimizers", "optimizers.schedules",
            "initializers", "regularizers", "constraints")  # fmt: skip
_NOT_OBJECTS = {"get", "serialize", "deserialize", "Input"}


def layer_args(k):
    """Constructor arguments of the layers that need some."""
    return {
        "Activation": dict(activation="relu"),
        "AdaptiveAveragePooling1D": dict(output_size=2),
        "AdaptiveAveragePooling2D": dict(output_size=2),
        "AdaptiveAveragePooling3D": dict(output_size=2),
        "AdaptiveMaxPooling1D": dict(output_size=2),
        "AdaptiveMaxPooling2D": dict(output_size=2),
        "AdaptiveMaxPooling3D": dict(output_size=2),
        "AlphaDropout": dict(rate=0.1),
        "Dropout": dict(rate=0.1),
        "GaussianDropout": dict(rate=0.1),
        "GaussianNoise": dict(stddev=0.1),
        "SpatialDropout1D": dict(rate=0.1),
        "SpatialDropout2D": dict(rate=0.1),
        "SpatialDropout3D": dict(rate=0.1),
        "AveragePooling1D": dict(pool_size=2),
        "AveragePooling2D": dict(pool_size=2),
        "AveragePooling3D": dict(pool_size=2),
        "AvgPool1D": dict(pool_size=2),
        "AvgPool2D": dict(pool_size=2),
        "AvgPool3D": dict(pool_size=2),
        "Bidirectional": dict(layer=k.layers.LSTM(2)),
        "CategoryEncoding": dict(num_tokens=3),
        "CenterCrop": dict(height=2, width=2),
        "Conv1D": dict(filters=2, kernel_size=2),
        "Conv1DTranspose": dict(filters=2, kernel_size=2),
        "Conv2D": dict(filters=2, kernel_size=2),
        "Conv2DTranspose": dict(filters=2, kernel_size=2),
        "Conv3D": dict(filters=2, kernel_size=2),
        "Conv3DTranspose": dict(filters=2, kernel_size=2),
        "Convolution1D": dict(filters=2, kernel_size=2),
        "Convolution1DTranspose": dict(filters=2, kernel_size=2),
        "Convolution2D": dict(filters=2, kernel_size=2),
        "Convolution2DTranspose": dict(filters=2, kernel_size=2),
        "Convolution3D": dict(filters=2, kernel_size=2),
        "Convolution3DTranspose": dict(filters=2, kernel_size=2),
        "ConvLSTM1D": dict(filters=2, kernel_size=2),
        "ConvLSTM2D": dict(filters=2, kernel_size=2),
        "ConvLSTM3D": dict(filters=2, kernel_size=2),
        "Dense": dict(
            units=2,
            kernel_initializer=k.initializers.Orthogonal(),
            kernel_regularizer=k.regularizers.L1L2(0.1, 0.1),
            kernel_constraint=k.constraints.MaxNorm(2.0),
        ),
        "DepthwiseConv1D": dict(kernel_size=2),
        "DepthwiseConv2D": dict(kernel_size=2),
        "Discretization": dict(bin_boundaries=[0.0, 1.0]),
        "Dot": dict(axes=1),
        "EinsumDense": dict(equation="ab,bc->ac", output_shape=2),
        "Embedding": dict(input_dim=3, output_dim=2),
        "GRU": dict(units=2),
        "GRUCell": dict(units=2),
        "LSTM": dict(units=2),
        "LSTMCell": dict(units=2),
        "SimpleRNN": dict(units=2),
        "SimpleRNNCell": dict(units=2),
        "RNN": dict(cell=k.layers.LSTMCell(2)),
        "StackedRNNCells": dict(cells=[k.layers.LSTMCell(2), k.layers.GRUCell(2)]),
        "GroupQueryAttention": dict(head_dim=2, num_query_heads=2, num_key_value_heads=1),
        "MultiHeadAttention": dict(num_heads=2, key_dim=2),
        "HashedCrossing": dict(num_bins=3),
        "Hashing": dict(num_bins=3),
        "InputLayer": dict(shape=(2,)),
        "Lambda": dict(function=k.activations.relu),
        "MaxNumBoundingBoxes": dict(max_number=2),
        "Permute": dict(dims=(1,)),
        "Pipeline": dict(layers=[k.layers.Rescaling(2.0)]),
        "RandomBrightness": dict(factor=0.1),
        "RandomColorDegeneration": dict(factor=0.1),
        "RandomContrast": dict(factor=0.1),
        "RandomCrop": dict(height=2, width=2),
        "RandomHue": dict(factor=0.1),
        "RandomPosterization": dict(factor=(1, 4)),
        "RandomRotation": dict(factor=0.1),
        "RandomSaturation": dict(factor=0.1),
        "RandomSharpness": dict(factor=0.1),
        "RandomTranslation": dict(height_factor=0.1, width_factor=0.1),
        "RandomZoom": dict(height_factor=0.1),
        "RepeatVector": dict(n=2),
        "Rescaling": dict(scale=2.0),
        "Reshape": dict(target_shape=(2,)),
        "Resizing": dict(height=2, width=2),
        "ReversibleEmbedding": dict(input_dim=3, output_dim=2),
        "SeparableConv1D": dict(filters=2, kernel_size=2),
        "SeparableConv2D": dict(filters=2, kernel_size=2),
        "SeparableConvolution1D": dict(filters=2, kernel_size=2),
        "SeparableConvolution2D": dict(filters=2, kernel_size=2),
        "SpectralNormalization": dict(layer=k.layers.Dense(2)),
        "TimeDistributed": dict(layer=k.layers.Dense(2)),
    }


def other_args(k):
    """Constructor arguments of the other classes that need some (by ``family.Name``)."""
    return {
        "metrics.IoU": dict(num_classes=2, target_class_ids=[0]),
        "metrics.MeanIoU": dict(num_classes=2),
        "metrics.OneHotIoU": dict(num_classes=2, target_class_ids=[0]),
        "metrics.OneHotMeanIoU": dict(num_classes=2),
        "metrics.MeanMetricWrapper": dict(fn=k.losses.mean_squared_error),
        "metrics.PrecisionAtRecall": dict(recall=0.5),
        "metrics.RecallAtPrecision": dict(precision=0.5),
        "metrics.SensitivityAtSpecificity": dict(specificity=0.5),
        "metrics.SpecificityAtSensitivity": dict(sensitivity=0.5),
        "optimizers.LossScaleOptimizer": dict(inner_optimizer=k.optimizers.SGD()),
        "optimizers.Optimizer": dict(learning_rate=0.1),
        "optimizers.OptimizerMap": dict(default_optimizer=k.optimizers.SGD()),
        "optimizers.MultiOptimizer": dict(
            optimizer_map=k.optimizers.OptimizerMap(k.optimizers.SGD())
        ),
        "optimizers.schedules.CosineDecay": dict(initial_learning_rate=0.1, decay_steps=10),
        "optimizers.schedules.CosineDecayRestarts": dict(
            initial_learning_rate=0.1, first_decay_steps=10
        ),
        "optimizers.schedules.ExponentialDecay": dict(
            initial_learning_rate=0.1, decay_steps=10, decay_rate=0.9
        ),
        "optimizers.schedules.InverseTimeDecay": dict(
            initial_learning_rate=0.1, decay_steps=10, decay_rate=0.9
        ),
        "optimizers.schedules.PiecewiseConstantDecay": dict(boundaries=[10], values=[0.1, 0.01]),
        "optimizers.schedules.PolynomialDecay": dict(initial_learning_rate=0.1, decay_steps=10),
    }


def _family(k, family):
    module = k
    for part in family.split("."):
        module = getattr(module, part)
    return module


def names(k):
    """{family: [exported names]} of `k`'s families."""
    return {
        family: sorted(
            n
            for n, v in vars(_family(k, family)).items()
            if not n.startswith("_") and not inspect.ismodule(v) and n not in _NOT_OBJECTS
        )
        for family in FAMILIES
    }


def model(k):
    """A compiled model with built-in functions in a Lambda, a layer and compile()."""
    net = k.Sequential(
        [
            k.Input((3,)),
            k.layers.Dense(4, activation=k.activations.gelu),
            k.layers.Lambda(k.activations.relu),
            k.layers.Dense(2, activation=k.activations.softmax),
        ]
    )
    net.compile(
        optimizer=k.optimizers.Adam(k.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9)),
        loss=k.losses.categorical_crossentropy,
        metrics=[k.metrics.categorical_accuracy, k.metrics.AUC(), "mae"],
    )
    return net


def objects(k, wanted):
    """``({"family.Name": object}, {"family.Name": why it could not be made})``."""
    made, failed = {"model": model(k)}, {}
    layer_kwargs, other_kwargs = layer_args(k), other_args(k)
    for family in FAMILIES:
        module = _family(k, family)
        for name in wanted[family]:
            key = f"{family}.{name}"
            if key in SKIP:
                continue
            obj = getattr(module, name, None)
            if obj is None:
                failed[key] = "missing"
            elif inspect.isclass(obj):
                kwargs = (
                    layer_kwargs.get(name, {}) if family == "layers" else other_kwargs.get(key, {})
                )
                try:
                    made[key] = obj(**kwargs)
                except Exception as error:
                    failed[key] = f"{type(error).__name__}: {error}"[:300]
            elif callable(obj):
                made[key] = obj
    return made, failed


def serialize_all(made, serialize):
    """``({key: config}, {key: error})`` of `serialize` over `made`."""
    configs, failed = {}, {}
    for key, obj in made.items():
        try:
            configs[key] = json.loads(json.dumps(serialize(obj)))
        except Exception as error:
            failed[key] = f"{type(error).__name__}: {error}"[:300]
    return configs, failed


if __name__ == "__main__":
    import keras

    listing = names(keras)
    made, failed = objects(keras, listing)
    configs, unserializable = serialize_all(made, keras.saving.serialize_keras_object)
    with open(sys.argv[1], "w") as f:
        json.dump({"names": listing, "configs": configs, "failed": failed,
                   "unserializable": unserializable}, f)  # fmt: skip
