"""The Keras 3 half of the interchange tests, run in a subprocess (Keras is test-only).

Usage: ``python keras_side.py write FOLDER`` builds every zoo model in Keras,
randomizes its weights, saves ``<name>.keras`` and its inputs/outputs in
``<name>.npz``; it also trains a compiled model (``compiled.keras``) and saves
the weights reached after one more epoch, and the conv model's weights sharded
(``conv.weights.json``). ``python keras_side.py read FOLDER``
loads every ``<name>.keras`` that mb wrote there and stores Keras's predictions
in ``<name>.keras_out.npz`` (and, for compiled models, the weights after one
more epoch of training); it also loads each ``<name>.weights.json`` there into a
fresh zoo model and stores its predictions in ``<name>.weights_out.npz``.
"""

import glob
import os
import sys

os.environ.setdefault("KERAS_BACKEND", "jax")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import keras
import numpy as np
import zoo

K = type("K", (), {})()
K.Input, K.layers, K.Model, K.Sequential = keras.Input, keras.layers, keras.Model, keras.Sequential
K.register = keras.saving.register_keras_serializable
zoo.custom_classes(K)


def _pack(prefix, values):
    return {f"{prefix}{i}": np.asarray(v) for i, v in enumerate(zoo.flat_outputs(values))}


def _train_data():
    rng = np.random.default_rng(11)
    return rng.normal(size=(16, 4)).astype("float32"), rng.integers(0, 3, size=(16,))


def _flat_weights(model):
    return np.concatenate([np.ravel(np.asarray(w, dtype="float64")) for w in model.get_weights()])


def write(folder):
    for name, build in zoo.BUILDERS.items():
        model = build(K)
        x = zoo.inputs(name)
        model(x)
        zoo.randomize(model)
        model.save(os.path.join(folder, f"{name}.keras"))
        outputs = model.predict(x, verbose=0)
        np.savez(os.path.join(folder, f"{name}.npz"), **_pack("y", outputs))
        if name == "conv":
            model.save_weights(os.path.join(folder, "conv.weights.json"), max_shard_size=5e-7)
    keras.utils.set_random_seed(1)
    model = zoo.BUILDERS["mlp"](K)
    model.compile(
        keras.optimizers.Adam(1e-2), "sparse_categorical_crossentropy", metrics=["accuracy"]
    )
    x, y = _train_data()
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    model.save(os.path.join(folder, "compiled.keras"))
    optimizer = np.concatenate(
        [np.ravel(np.asarray(v, "float64")) for v in model.optimizer.variables]
    )
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    np.savez(os.path.join(folder, "compiled.npz"), after=_flat_weights(model), optimizer=optimizer)


def read(folder):
    for path in sorted(glob.glob(os.path.join(folder, "*.keras"))):
        name = os.path.basename(path)[: -len(".keras")]
        model = keras.saving.load_model(path)
        out = {}
        if name.startswith("compiled"):
            x, y = _train_data()
            out["optimizer"] = np.concatenate(
                [np.ravel(np.asarray(v, "float64")) for v in model.optimizer.variables]
            )
            model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
            out["after"] = _flat_weights(model)
        else:
            out.update(_pack("y", model.predict(zoo.inputs(name), verbose=0)))
        np.savez(os.path.join(folder, f"{name}.keras_out.npz"), **out)
    for path in sorted(glob.glob(os.path.join(folder, "*.weights.json"))):
        name = os.path.basename(path)[: -len(".weights.json")]
        model = zoo.BUILDERS[name](K)
        x = zoo.inputs(name)
        model(x)
        model.load_weights(path)
        out = _pack("y", model.predict(x, verbose=0))
        np.savez(os.path.join(folder, f"{name}.weights_out.npz"), **out)


if __name__ == "__main__":
    {"write": write, "read": read}[sys.argv[1]](sys.argv[2])
