"""Describe the public surface of Keras 3 or of mb, for ``test_keras_parity.py``.

Run as a script in a Keras subprocess (``python keras_surface.py keras OUT.json``) it
discovers Keras's public namespaces itself and writes what it finds; loaded in the test
process it describes mb over the same namespaces and the same instances. Both sides run
this one file, so they are described the same way:

- every public name of each namespace, its kind (module, class, function, other) and,
  for callables, its signature as ``[name, kind, repr(default)]`` rows;
- for every public class, its public members (methods with their signatures,
  properties, class attributes); on the Keras side only members Keras itself defines
  count (not those a Keras class inherits from ``torch.nn.Module`` or ``object``);
- for every recipe below, an instance built as Keras's documentation builds it (a layer
  is also called on a symbolic input where Keras accepts one), and the public names it
  carries (``dir``), so that attributes set in ``__init__`` or ``build`` count too.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
import sys
import types
import warnings

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

# Constructor arguments for the public classes that cannot be built without any, written
# as Keras's documentation writes them; `keras` is the framework under test.
ARGS = {
    "Function": "[keras.Input((3,))], [keras.layers.Dense(2)(keras.Input((3,)))]",
    "KerasTensor": "(None, 3)",
    "Optimizer": "learning_rate=0.01",
    "Variable": "initializer=[[1.0, 2.0]]",
    "name_scope": "'block'",
    "callbacks.BackupAndRestore": "backup_dir='backup'",
    "callbacks.CSVLogger": "'log.csv'",
    "callbacks.LearningRateScheduler": "lambda epoch: 0.1",
    "callbacks.ModelCheckpoint": "'model.keras'",
    "callbacks.OrbaxCheckpoint": "'checkpoints'",
    "distribution.TensorLayout": "('batch', None)",
    "dtype_policies.AWQDTypePolicy": "'awq/4/128'",
    "dtype_policies.GPTQDTypePolicy": "'gptq/4/128'",
    "dtype_policies.Int4DTypePolicy": "'int4'",
    "dtype_policies.QuantizedDTypePolicy": "'int8'",
    "dtype_policies.QuantizedFloat8DTypePolicy": "'float8'",
    "layers.Activation": "'relu'",
    "layers.AdaptiveAveragePooling1D": "2",
    "layers.AdaptiveAveragePooling2D": "2",
    "layers.AdaptiveAveragePooling3D": "2",
    "layers.AdaptiveMaxPooling1D": "2",
    "layers.AdaptiveMaxPooling2D": "2",
    "layers.AdaptiveMaxPooling3D": "2",
    "layers.AlphaDropout": "0.5",
    "layers.AveragePooling1D": "2",
    "layers.AveragePooling2D": "2",
    "layers.AveragePooling3D": "2",
    "layers.Bidirectional": "keras.layers.LSTM(2, return_sequences=True)",
    "layers.CategoryEncoding": "num_tokens=4",
    "layers.CenterCrop": "2, 2",
    "layers.Conv1D": "2, 3",
    "layers.Conv1DTranspose": "2, 3",
    "layers.Conv2D": "2, 3",
    "layers.Conv2DTranspose": "2, 3",
    "layers.Conv3D": "2, 3",
    "layers.Conv3DTranspose": "2, 3",
    "layers.ConvLSTM1D": "2, 3",
    "layers.ConvLSTM2D": "2, 3",
    "layers.ConvLSTM3D": "2, 3",
    "layers.Dense": "4",
    "layers.DepthwiseConv1D": "3",
    "layers.DepthwiseConv2D": "3",
    "layers.Discretization": "bin_boundaries=[0.0, 1.0]",
    "layers.Dot": "axes=1",
    "layers.Dropout": "0.5",
    "layers.EinsumDense": "'ab,bc->ac', output_shape=4, bias_axes='c'",
    "layers.Embedding": "10, 4",
    "layers.GRU": "4",
    "layers.GRUCell": "4",
    "layers.GaussianDropout": "0.5",
    "layers.GaussianNoise": "0.1",
    "layers.GroupQueryAttention": "head_dim=2, num_query_heads=2, num_key_value_heads=1",
    "layers.HashedCrossing": "num_bins=8",
    "layers.Hashing": "num_bins=8",
    "layers.InputLayer": "shape=(3,)",
    "layers.LSTM": "4",
    "layers.LSTMCell": "4",
    "layers.Lambda": "lambda x: x * 2",
    "layers.MaxNumBoundingBoxes": "max_number=4",
    "layers.MultiHeadAttention": "num_heads=2, key_dim=2",
    "layers.Permute": "(2, 1)",
    "layers.Pipeline": "[keras.layers.Rescaling(0.5)]",
    "layers.RNN": "keras.layers.SimpleRNNCell(4)",
    "layers.RandomBrightness": "0.2",
    "layers.RandomColorDegeneration": "0.2",
    "layers.RandomContrast": "0.2",
    "layers.RandomCrop": "2, 2",
    "layers.RandomHue": "0.2",
    "layers.RandomPosterization": "4",
    "layers.RandomRotation": "0.2",
    "layers.RandomSaturation": "0.2",
    "layers.RandomSharpness": "0.2",
    "layers.RandomTranslation": "0.2, 0.2",
    "layers.RandomZoom": "0.2",
    "layers.RepeatVector": "3",
    "layers.Rescaling": "1.0 / 255",
    "layers.Reshape": "(-1,)",
    "layers.Resizing": "4, 4",
    "layers.ReversibleEmbedding": "10, 4",
    "layers.SeparableConv1D": "2, 3",
    "layers.SeparableConv2D": "2, 3",
    "layers.SimpleRNN": "4",
    "layers.SimpleRNNCell": "4",
    "layers.SpatialDropout1D": "0.5",
    "layers.SpatialDropout2D": "0.5",
    "layers.SpatialDropout3D": "0.5",
    "layers.SpectralNormalization": "keras.layers.Dense(4)",
    "layers.StackedRNNCells": "[keras.layers.SimpleRNNCell(4), keras.layers.SimpleRNNCell(2)]",
    "layers.TimeDistributed": "keras.layers.Dense(4)",
    "layers.Wrapper": "keras.layers.Dense(4)",
    "metrics.IoU": "num_classes=2, target_class_ids=[0]",
    "metrics.MeanIoU": "num_classes=2",
    "metrics.MeanMetricWrapper": "keras.losses.mean_squared_error",
    "metrics.OneHotIoU": "num_classes=2, target_class_ids=[0]",
    "metrics.OneHotMeanIoU": "num_classes=2",
    "metrics.PrecisionAtRecall": "0.5",
    "metrics.RecallAtPrecision": "0.5",
    "metrics.SensitivityAtSpecificity": "0.5",
    "metrics.SpecificityAtSensitivity": "0.5",
    "mixed_precision.LossScaleOptimizer": "keras.optimizers.SGD()",
    "optimizers.MultiOptimizer": "keras.optimizers.OptimizerMap(keras.optimizers.SGD())",
    "optimizers.OptimizerMap": "keras.optimizers.SGD()",
    "optimizers.schedules.CosineDecay": "0.1, 100",
    "optimizers.schedules.CosineDecayRestarts": "0.1, 100",
    "optimizers.schedules.ExponentialDecay": "0.1, 100, 0.9",
    "optimizers.schedules.InverseTimeDecay": "0.1, 100, 0.5",
    "optimizers.schedules.PiecewiseConstantDecay": "[10], [0.1, 0.01]",
    "optimizers.schedules.PolynomialDecay": "0.1, 100",
    "saving.CustomObjectScope": "{}",
    "utils.Progbar": "10",
    "wrappers.SKLearnClassifier": "lambda X, y: None",
    "wrappers.SKLearnRegressor": "lambda X, y: None",
    "wrappers.SKLearnTransformer": "lambda X, y: None",
}

# Layers whose `build` sets public attributes of its own (found by comparing a Keras
# instance's attributes before and after the call), called on these symbolic input shapes
# (batch axis left out). Every other class is only constructed: building costs an XLA
# compilation per variable on jax.
BUILD = {
    "layers.AdditiveAttention": [(4,), (4,)],
    "layers.Attention": [(4,), (4,)],
    "layers.Conv1D": [(6, 4)],
    "layers.Conv1DTranspose": [(6, 4)],
    "layers.Conv2D": [(8, 8, 3)],
    "layers.Conv2DTranspose": [(8, 8, 3)],
    "layers.Conv3D": [(4, 8, 8, 3)],
    "layers.Conv3DTranspose": [(4, 8, 8, 3)],
    "layers.Dense": [(4,)],
    "layers.DepthwiseConv1D": [(6, 4)],
    "layers.DepthwiseConv2D": [(8, 8, 3)],
    "layers.EinsumDense": [(4,)],
    "layers.LayerNormalization": [(4,)],
    "layers.Normalization": [(4,)],
    "layers.PReLU": [(4,)],
    "layers.RMSNormalization": [(4,)],
    "layers.SeparableConv1D": [(6, 4)],
    "layers.SeparableConv2D": [(8, 8, 3)],
    "layers.SpectralNormalization": [(4,)],
}
# Classes whose instances are not built here: they wait for another issue, need a
# framework that may be absent (flax, torch modules, a SavedModel), or stand for an
# application model (built by `applications` tests).
NO_INSTANCE = ("applications.", "distillation.Distiller", "distribution.", "layers.FlaxLayer")
NO_INSTANCE += ("layers.JaxLayer", "layers.TFSMLayer", "layers.TorchModuleWrapper")
NO_INSTANCE += ("quantizers.AWQConfig", "quantizers.GPTQConfig", "saving.KerasFileEditor")
NO_INSTANCE += ("utils.FeatureSpace", "optimizers.legacy.")


def _functional(keras):
    inputs = keras.Input((3,), name="x")
    hidden = keras.layers.Dense(4, activation="relu")(inputs)
    return keras.Model(inputs, keras.layers.Dense(2)(hidden))


def _sequential(keras):
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])


def _subclass(keras):
    class Small(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    model = Small()
    model(keras.ops.ones((1, 3)))
    return model


# Instances of the model kinds, beyond the default-built classes.
MODELS = {
    "Model[functional]": _functional,
    "Sequential[built]": _sequential,
    "Model[subclass]": _subclass,
}


def discover(root: str) -> list[str]:
    """The public namespaces of the package `root`, relative ('' for the package)."""
    found = [""]

    def walk(module):
        for info in pkgutil.iter_modules(module.__path__, module.__name__ + "."):
            last = info.name.rsplit(".", 1)[1]
            if last.startswith("_") or last == "src":
                continue
            found.append(info.name[len(root) + 1 :])
            sub = importlib.import_module(info.name)
            if info.ispkg:
                walk(sub)

    walk(importlib.import_module(root))
    return found


def _default(value):
    if value is inspect.Parameter.empty:
        return None
    # Objects without a repr of their own print their address: compare the type only.
    return _ADDRESS.sub("", repr(value))


def signature(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, _default(p.default)] for p in sig.parameters.values()]


def _kind(value):
    if isinstance(value, types.ModuleType):
        return "module"
    if isinstance(value, type):
        return "class"
    if callable(value):
        return "function"
    return "other"


def _defined_by(cls, name):
    for klass in cls.__mro__:
        if name in vars(klass):
            return klass.__module__ or ""
    return ""


def _members(cls, prefix):
    """Public members of `cls` defined by a module whose name starts with `prefix`."""
    out = {}
    for name in dir(cls):
        if name.startswith("_") or not _defined_by(cls, name).startswith(prefix):
            continue
        try:
            value = inspect.getattr_static(cls, name)
        except AttributeError:
            continue
        if isinstance(value, property):
            out[name] = "property"
        elif isinstance(value, (staticmethod, classmethod)):
            out[name] = signature(getattr(cls, name))
        elif callable(value):
            out[name] = signature(value)
        else:
            out[name] = "attribute"
    return out


def _class_id(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


def _object_id(value, name):
    return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', name)}"


def _add_class(out, cls, prefix):
    key = _class_id(cls)
    if key not in out["classes"]:
        out["classes"][key] = _members(cls, prefix)
        out["mro"][key] = [_class_id(klass) for klass in cls.__mro__]
    return key


def _instance(keras, label, cls):
    """`label` built as the recipes say."""
    obj = eval(f"cls({ARGS.get(label, '')})", {"keras": keras, "cls": cls})
    if label in BUILD:
        tensors = [keras.Input(shape) for shape in BUILD[label]]
        obj(tensors if len(tensors) > 1 else tensors[0])
    return obj


def _public_names(obj, prefix):
    """The public names of an instance: on the Keras side only those Keras defines (its
    classes' members and what its code sets on the instance); on mb's, all of `dir`."""
    if not prefix:
        return sorted(name for name in dir(obj) if not name.startswith("_"))
    own = set(_members(type(obj), prefix))
    own |= {name for name in vars(obj) if not name.startswith("_")}
    return sorted(own)


def canonical_labels(surface):
    """Each public class's or function's shortest public name (aliases share an id)."""
    labels = {}
    for ns, entries in surface["namespaces"].items():
        for name, entry in entries.items():
            if "id" in entry:
                labels.setdefault(entry["id"], []).append(f"{ns}.{name}" if ns else name)
    return {key: min(names, key=lambda n: (len(n), n)) for key, names in labels.items()}


def _instance_record(out, obj, prefix):
    return {"type": _add_class(out, type(obj), prefix), "names": _public_names(obj, prefix)}


def describe(root, namespaces, labels=None):
    """The surface of `root` (``keras`` or ``mb``) over `namespaces`.

    Instances are built for `labels` (the mb side passes the labels Keras could build);
    None builds each public class once, under its shortest public name.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _describe(root, namespaces, labels)


def _describe(root, namespaces, labels):
    keras = importlib.import_module(root)
    prefix = "keras" if root == "keras" else ""
    out = {"namespaces": {}, "classes": {}, "mro": {}, "instances": {}}
    for ns in namespaces:
        try:
            module = importlib.import_module(f"{root}.{ns}" if ns else root)
        except ImportError:
            continue
        entries = {}
        for name in dir(module):
            if name.startswith("_") or (not ns and name == "src"):
                continue
            value = getattr(module, name)
            entry = {"kind": _kind(value)}
            if entry["kind"] in ("class", "function"):
                entry["sig"] = signature(value)
                entry["id"] = _object_id(value, name)
            if entry["kind"] == "class":
                _add_class(out, value, prefix)
            entries[name] = entry
        out["namespaces"][ns] = entries
    canonical = canonical_labels(out)
    makers = dict(MODELS)
    for ns, entries in out["namespaces"].items():
        for name, entry in entries.items():
            label = f"{ns}.{name}" if ns else name
            if entry["kind"] == "class" and canonical[entry["id"]] == label:
                makers[label] = (ns, name)
    for label, make in makers.items():
        if label.startswith(NO_INSTANCE) or (labels is not None and label not in labels):
            continue
        try:
            if callable(make):
                obj = make(keras)
            else:
                module = importlib.import_module(f"{root}.{make[0]}" if make[0] else root)
                obj = _instance(keras, label, getattr(module, make[1]))
        except Exception as error:  # reported, compared with Keras
            out["instances"][label] = f"{type(error).__name__}: {error}"
            continue
        out["instances"][label] = _instance_record(out, obj, prefix)
    return out


if __name__ == "__main__":
    surface = describe(sys.argv[1], discover(sys.argv[1]))
    with open(sys.argv[2], "w") as file:
        json.dump(surface, file)
