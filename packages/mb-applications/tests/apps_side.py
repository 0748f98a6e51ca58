"""The child interpreters of the tests: Keras 3 (a test-only dependency) or mb, on numpy.

``python apps_side.py dump keras|mb REQUEST_JSON`` prints ``DUMP<json>``: for each
``[function, kwargs]`` of ``request["models"]`` the model's name, parameter count,
output shape, and per layer (in ``model.layers`` order) its name, class, variable
shapes (in the order weight files store them) and what feeds each of its calls
(layer names; ``op(...)`` for a tensor computed by an op such as ``+``). With
``weights="imagenet"`` the weight file is only recorded (name, URL, hash, cache
folder), never downloaded or loaded. Random initializers return (lazily
allocated) zeros, and mb's numpy variables keep them without their usual copy:
structure does not depend on values, and writing the billion numbers of all the
models would dominate the run. Keras also answers ``request["preprocess"]``
(``preprocess_input`` of ``[seed, shape, dtype, data_format, mode]`` inputs) and
``request["decode"]`` (``decode_predictions`` with a given class index).

``python apps_side.py write FOLDER CASES_JSON`` (Keras only): for each
``[name, function, kwargs, legacy]`` builds the model with Keras's initializers,
gives its normalization layers random statistics, and writes ``name.weights.h5``,
with `legacy` also ``name.h5`` (the Keras 2 layout of the published files), and
``name.npz`` (an input batch ``x`` in ``[0, 255]``, channels last, and Keras's
output ``y``); and ``custom.keras`` / ``custom.npz``, a small model with the
applications' own layers (``LayerScale``, ``CustomScaleLayer``).
"""

import json
import os
import sys

import numpy as np
from helpers import image_batch


def _zeros(shape, *args, dtype=None, **kwargs):
    return np.zeros(tuple(shape), dtype=dtype or "float32")


def _setup(side, fetched):
    def get_file(fname=None, origin=None, cache_subdir="datasets", file_hash=None, **kwargs):
        fetched.append([fname, origin, file_hash, cache_subdir])
        return os.path.join("/nonexistent", fname or "weights.h5")

    if side == "keras":
        import keras
        from keras.src.backend.numpy import random
        from keras.src.utils import file_utils

        file_utils.get_file = get_file
        keras.Model.load_weights = lambda self, *a, **k: None
        module, clear = keras.applications, keras.backend.clear_session
    else:
        import mb_applications
        import mb_backend_numpy.random as random
        import mb_data
        from mb_backend_numpy._variable import Variable
        from mb_ops import clear_session as clear
        from mb_train.models import Model

        mb_data.get_file = get_file
        Model.load_weights = lambda self, *a, **k: None
        Variable._initialize = lambda self, value: setattr(self, "_value", value)
        module = mb_applications
    for name in ("uniform", "normal", "truncated_normal"):
        setattr(random, name, _zeros)
    return module, clear


def _source(tensor):
    history = tensor._keras_history
    operation = history[0]
    if hasattr(operation, "trainable"):  # a layer
        return operation.name
    node = operation._inbound_nodes[history[1]]
    return "op(" + ",".join(_source(t) for t in node.input_tensors) + ")"


def describe(model):
    layers = []
    for layer in model.layers:
        variables = list(layer.trainable_weights) + list(layer.non_trainable_weights)
        calls = [[_source(t) for t in node.input_tensors] for node in layer._inbound_nodes]
        layers.append([layer.name, type(layer).__name__, [list(v.shape) for v in variables], calls])
    return {
        "name": model.name,
        "params": int(model.count_params()),
        "output_shape": list(model.outputs[0].shape),
        "layers": layers,
    }


def dump(side, request):
    fetched = []
    module, clear = _setup(side, fetched)
    out = {"models": []}
    for function, kwargs in request.get("models", []):
        clear()
        fetched.clear()
        if kwargs.get("input_shape") is not None:
            kwargs["input_shape"] = tuple(kwargs["input_shape"])
        model = getattr(module, function)(**kwargs)
        out["models"].append({**describe(model), "weights_file": fetched[0] if fetched else None})
    if side == "keras" and request.get("preprocess"):
        out["preprocess"] = [
            module.imagenet_utils.preprocess_input(
                image_batch(seed, shape, dtype), data_format=data_format, mode=mode
            ).tolist()
            for seed, shape, dtype, data_format, mode in request["preprocess"]
        ]
    if side == "keras" and request.get("decode"):
        decode = request["decode"]
        from keras.src.applications import imagenet_utils

        with open(decode["index"]) as f:
            imagenet_utils.CLASS_INDEX = json.load(f)
        preds = np.asarray(decode["preds"], dtype="float32")
        out["decode"] = [
            [[str(a), str(b), float(c)] for a, b, c in sample]
            for sample in imagenet_utils.decode_predictions(preds, top=decode["top"])
        ]
    return out


def write_custom_layers(folder):
    """A small Keras model with the applications' own layers, saved as ``custom.keras``."""
    import keras
    from keras.src.applications.convnext import LayerScale
    from keras.src.applications.inception_resnet_v2 import CustomScaleLayer

    x = keras.Input((4, 4, 2))
    y = CustomScaleLayer(0.5)([x, keras.layers.Conv2D(2, 1)(x)])
    model = keras.Model(x, LayerScale(0.25, 2)(y))
    data = image_batch(3, (2, 4, 4, 2), "float32")
    model.save(os.path.join(folder, "custom.keras"))
    out = keras.ops.convert_to_numpy(model(data))
    np.savez(os.path.join(folder, "custom.npz"), x=data, y=out)


def write(folder, cases):
    import h5py
    import keras
    from keras.src.legacy.saving import legacy_h5_format

    for name, function, kwargs, legacy in cases:
        keras.backend.clear_session()
        keras.utils.set_random_seed(0)
        if kwargs.get("input_shape") is not None:
            kwargs["input_shape"] = tuple(kwargs["input_shape"])
        model = getattr(keras.applications, function)(**kwargs)
        rng = np.random.default_rng(1)
        for variable in model.non_trainable_weights + model.trainable_weights:
            path = variable.path
            if "moving_mean" in path or path.endswith("beta"):
                variable.assign(rng.normal(0, 0.1, variable.shape).astype(variable.dtype))
            elif "moving_variance" in path or path.endswith("gamma"):
                variable.assign(rng.uniform(0.5, 1.5, variable.shape).astype(variable.dtype))
        x = image_batch(2, (2, *model.input_shape[1:]), "float32")
        y = keras.ops.convert_to_numpy(model(x, training=False))
        model.save_weights(os.path.join(folder, f"{name}.weights.h5"))
        if legacy:
            with h5py.File(os.path.join(folder, f"{name}.h5"), "w") as f:
                legacy_h5_format.save_weights_to_hdf5_group(f, model)
        np.savez(os.path.join(folder, f"{name}.npz"), x=x, y=y)


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        print("DUMP" + json.dumps(dump(sys.argv[2], json.loads(sys.argv[3]))))
    else:
        write(sys.argv[2], json.loads(sys.argv[3]))
        write_custom_layers(sys.argv[2])
