"""Every built-in object is written with the ``module``/``class_name``/``registered_name``
Keras 3.15 writes for it, so files move both ways.

Keras serializes every exported class and function of its modeling families (and
a compiled model using functions) in a subprocess; mb serializes the same objects
made the same way; the two JSON trees are walked side by side and every object
entry compared (functions by their ``config`` name too).
"""

import json
import types

import mb_saving_builtins_zoo as zoo
import numpy as np
import pytest
from mb_saving_helpers import run_python

import mb_layers
import mb_saving
from mb_train import losses, metrics, models, optimizers
from mb_train.optimizers import schedules  # noqa: F401  (optimizers.schedules)

KEYS = ("module", "class_name", "registered_name")
MB = types.SimpleNamespace(
    layers=mb_layers.layers,
    activations=mb_layers.activations,
    initializers=mb_layers.initializers,
    regularizers=mb_layers.regularizers,
    constraints=mb_layers.constraints,
    losses=losses,
    metrics=metrics,
    optimizers=optimizers,  # with .schedules
    Sequential=models.Sequential,
    Input=mb_layers.Input,
)


@pytest.fixture(scope="module")
def keras_written(tmp_path_factory):
    out = tmp_path_factory.mktemp("builtins") / "keras.json"
    run_python([zoo.__file__, str(out)], KERAS_BACKEND="jax", MB_BACKEND=None)
    with open(out) as f:
        return json.load(f)


def _entries(keras_value, mb_value, path, out):
    if isinstance(keras_value, dict):
        if "class_name" in keras_value and "config" in keras_value:
            keys = KEYS + (("config",) if keras_value["class_name"] == "function" else ())
            mine = mb_value if isinstance(mb_value, dict) else {}
            out.append(
                (path, {k: keras_value.get(k) for k in keys}, {k: mine.get(k) for k in keys})
            )
        for key, item in keras_value.items():
            if isinstance(mb_value, dict) and key in mb_value and key != "shared_object_id":
                _entries(item, mb_value[key], f"{path}.{key}", out)
    elif isinstance(keras_value, list) and isinstance(mb_value, list):
        for i, (a, b) in enumerate(zip(keras_value, mb_value, strict=False)):
            _entries(a, b, f"{path}[{i}]", out)
    return out


@pytest.mark.slow  # one Keras process making ~390 objects
def test_every_builtin_object_is_written_as_keras_writes_it(keras_written):
    made, failed = zoo.objects(MB, keras_written["names"])
    assert failed == keras_written["failed"] == {}  # mb has every object Keras exports
    configs, unserializable = zoo.serialize_all(made, mb_saving.serialize_keras_object)
    # Only the abstract bases without get_config (Regularizer, LearningRateSchedule).
    assert unserializable.keys() == keras_written["unserializable"].keys()
    assert len(unserializable) == 2
    assert configs.keys() == keras_written["configs"].keys()
    compared = []
    for key, keras_config in keras_written["configs"].items():
        _entries(keras_config, configs[key], key, compared)
    assert len(compared) > 450  # every object, and the objects nested in their configs
    wrong = [f"{path}: Keras {k}, mb {m}" for path, k, m in compared if k != m]
    assert not wrong, "\n".join(wrong[:40])


def test_a_lambda_of_a_builtin_function_loads_in_both_safe_modes(tmp_path):
    model = models.Sequential([mb_layers.Input((3,)), mb_layers.layers.Lambda(MB.activations.relu)])
    config = mb_saving.serialize_keras_object(model)["config"]["layers"][1]["config"]["function"]
    assert config == {"module": "builtins", "class_name": "function", "config": "relu",
                      "registered_name": "function"}  # fmt: skip
    model.save(tmp_path / "m.keras")
    x = np.array([[-1.0, 0.0, 2.0]], "float32")
    for safe_mode in (True, False):
        loaded = mb_saving.load_model(tmp_path / "m.keras", safe_mode=safe_mode)
        np.testing.assert_array_equal(loaded.predict(x, verbose=0), [[0.0, 0.0, 2.0]])
