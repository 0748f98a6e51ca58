"""Safe by design: a file runs no code of its own unless the caller passes safe_mode=False.

Each refusal is checked to name the entry and its JSON path, and (where the
file carries code) that the code really did not run, and does with
safe_mode=False, so the tests would notice a loader that runs it.
"""

import base64
import json
import marshal
import sys

import numpy as np
import pytest
from mb_saving_helpers import read_config, rewrite_archive, run_python

import mb_layers
import mb_saving
from mb_layers import layers
from mb_saving import _builtins
from mb_train.models import Sequential


def _saved(tmp_path, *stack, name="m.keras"):
    model = Sequential([mb_layers.Input((2,)), *stack], name="net")
    model.save(tmp_path / name)
    return tmp_path / name


def _marker_lambda(marker):
    """A Lambda's ``__lambda__`` entry whose code writes `marker` when it runs."""

    def body(x, path=str(marker)):
        with open(path, "w") as f:
            f.write("ran")
        return x

    code = base64.b64encode(marshal.dumps(body.__code__)).decode("ascii")
    return {
        "class_name": "__lambda__",
        "config": {"code": code, "defaults": [str(marker)], "closure": None},
    }


def test_lambda_is_refused_with_its_place_in_the_config_and_never_runs(tmp_path):
    path = _saved(tmp_path, layers.Lambda(lambda x: x * 2, name="double"))
    config = read_config(path)
    marker = tmp_path / "ran.txt"
    config["config"]["layers"][1]["config"]["function"] = _marker_lambda(marker)
    rewrite_archive(path, tmp_path / "evil.keras", config=config)
    with pytest.raises(mb_saving.UnsafeConfigError) as caught:
        mb_saving.load_model(tmp_path / "evil.keras")
    message = str(caught.value)
    assert message.startswith("config.config.layers[1].config.function (inside 'double', a Lambda)")
    assert "safe_mode=True" in message
    assert not marker.exists()
    model = mb_saving.load_model(tmp_path / "evil.keras", safe_mode=False)
    model(np.ones((1, 2), "float32"))
    assert marker.read_text() == "ran"


def test_an_mb_lambda_model_loads_only_with_safe_mode_off(tmp_path):
    path = _saved(tmp_path, layers.Lambda(lambda x: x * 2 + 1))
    with pytest.raises(mb_saving.UnsafeConfigError, match="lambda"):
        mb_saving.load_model(path)
    model = mb_saving.load_model(path, safe_mode=False)
    np.testing.assert_allclose(model(np.ones((1, 2), "float32")), [[3.0, 3.0]])


@mb_saving.register_keras_serializable(package="safe_tests")
def triple(x):
    return x * 3


def test_lambda_of_a_registered_function_loads_in_safe_mode(tmp_path):
    path = _saved(tmp_path, layers.Lambda(triple))
    model = mb_saving.load_model(path)
    np.testing.assert_allclose(model(np.ones((1, 2), "float32")), [[3.0, 3.0]])


def _with_entry(tmp_path, entry, where="layer"):
    path = _saved(tmp_path, layers.Dense(2, name="d"))
    config = read_config(path)
    if where == "layer":
        config["config"]["layers"].insert(1, entry)
    else:
        config["config"]["layers"][1]["config"]["activation"] = entry
    return rewrite_archive(path, tmp_path / "crafted.keras", config=config)


def test_a_module_path_is_never_imported_in_safe_mode(tmp_path, monkeypatch):
    module = tmp_path / "evil_module_for_saving_tests.py"
    marker = tmp_path / "imported.txt"
    module.write_text(
        f"with open({str(marker)!r}, 'w') as f:\n    f.write('imported')\n"
        "import mb_layers\n"
        "class Evil(mb_layers.layers.Layer):\n"
        "    def call(self, x):\n"
        "        return x\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    entry = {
        "module": "evil_module_for_saving_tests",
        "class_name": "Evil",
        "config": {"name": "evil"},
        "registered_name": "Evil",
    }
    path = _with_entry(tmp_path, entry)
    with pytest.raises(mb_saving.UnsafeConfigError) as caught:
        mb_saving.load_model(path)
    message = str(caught.value)
    assert "config.config.layers[1]" in message and "evil_module_for_saving_tests.Evil" in message
    assert "register_keras_serializable" in message
    assert not marker.exists() and "evil_module_for_saving_tests" not in sys.modules
    model = mb_saving.load_model(path, safe_mode=False)
    assert type(model.layers[0]).__name__ == "Evil" and marker.exists()


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("keras.models", "load_model"),
        ("keras.utils", "get_file"),
        ("keras.saving", "deserialize_keras_object"),
        ("keras.config", "enable_unsafe_deserialization"),
        ("mb_saving", "load_model"),
        ("os", "system"),
        ("builtins", "eval"),
    ],
)
def test_non_modeling_functions_are_refused_even_with_safe_mode_off(tmp_path, module, name):
    entry = {"module": module, "class_name": "function", "config": name, "registered_name": name}
    path = _with_entry(tmp_path, entry, where="activation")
    for safe_mode in (True, False):
        with pytest.raises(
            mb_saving.UnsafeConfigError, match=r"config\.layers\[1\]\.config\.activation"
        ):
            mb_saving.load_model(path, safe_mode=safe_mode)


@pytest.mark.parametrize(
    ("class_name", "reason"),
    [("TorchModuleWrapper", "pickled torch module"), ("TFSMLayer", "SavedModel")],
)
def test_keras_layers_that_carry_programs_are_refused(tmp_path, class_name, reason):
    entry = {"module": "keras.layers", "class_name": class_name, "config": {"name": "x"}}
    path = _with_entry(tmp_path, entry)
    with pytest.raises(mb_saving.UnsafeConfigError, match=reason):
        mb_saving.load_model(path)
    # With safe_mode=False, a class mb has (TorchModuleWrapper) is made by its own
    # from_config (this entry holds no module, so that fails); one it lacks is refused.
    if class_name in _builtins.LAYERS.table():
        with pytest.raises(mb_saving.DeserializationError, match="module"):
            mb_saving.load_model(path, safe_mode=False)
    else:
        with pytest.raises(mb_saving.UnsafeConfigError, match=reason):
            mb_saving.load_model(path, safe_mode=False)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"class_name": "__typespec__", "config": []}, "not supported"),
        ({"class_name": "__numpy__", "config": {"value": [1], "dtype": "object"}}, "numeric dtype"),
        ({"module": "keras.layers", "class_name": "NoSuchLayer", "config": {}}, "built-in"),
        ({"module": "keras.src.ops.numpy", "class_name": "Dense", "config": {}}, "built-in"),
    ],
)
def test_unknown_encodings_and_classes_are_refused(tmp_path, entry, message):
    path = _with_entry(tmp_path, {"module": "keras.layers", "class_name": "Activation",
                                  "config": {"name": "a", "activation": entry}})  # fmt: skip
    with pytest.raises(mb_saving.UnsafeConfigError, match=message):
        mb_saving.load_model(path)


def test_unregistered_custom_layer_needs_registration_or_custom_objects(tmp_path):
    class Shift(layers.Layer):
        def call(self, x):
            return x + 1.0

    path = _saved(tmp_path, Shift(name="shift"))
    with pytest.raises(mb_saving.UnsafeConfigError, match="register_keras_serializable"):
        mb_saving.load_model(path)
    for loaded in (
        mb_saving.load_model(path, custom_objects={"Shift": Shift}),
        _in_scope(path, {"Shift": Shift}),
    ):
        np.testing.assert_allclose(loaded(np.zeros((1, 2), "float32")), [[1.0, 1.0]])


def _in_scope(path, objects):
    with mb_saving.custom_object_scope(objects):
        return mb_saving.load_model(path)


def test_a_lambda_nested_in_a_custom_layers_config_is_checked_too(tmp_path):
    @mb_saving.register_keras_serializable(package="safe_tests")
    class Holder(layers.Layer):
        def __init__(self, inner, **kwargs):
            super().__init__(**kwargs)
            self.inner = inner

        def call(self, x):
            return self.inner(x)

        def get_config(self):
            return {**super().get_config(), "inner": layers.serialize(self.inner)}

        @classmethod
        def from_config(cls, config):
            config = dict(config)
            config["inner"] = layers.deserialize(config["inner"])
            return cls(**config)

    path = _saved(tmp_path, Holder(layers.Lambda(lambda x: x - 1), name="holder"))
    with pytest.raises(
        mb_saving.UnsafeConfigError, match=r"layers\[1\]\.config\.inner\.config\.function"
    ):
        mb_saving.load_model(path)
    model = mb_saving.load_model(path, safe_mode=False)
    np.testing.assert_allclose(model(np.ones((1, 2), "float32")), [[0.0, 0.0]])


def test_an_active_scope_wins_over_a_nested_calls_argument():
    entry = {"module": "keras.layers", "class_name": "Lambda",
             "config": {"name": "l", "function": _marker_lambda("/nonexistent/never")}}  # fmt: skip
    with mb_saving.SafeModeScope(True), pytest.raises(mb_saving.UnsafeConfigError):
        mb_saving.deserialize_keras_object(entry, safe_mode=False)
    with mb_saving.SafeModeScope(False):
        assert type(mb_saving.deserialize_keras_object(entry)).__name__ == "Lambda"


def test_enable_unsafe_deserialization_turns_safe_mode_off_for_the_process(tmp_path):
    path = _saved(tmp_path, layers.Lambda(lambda x: x * 5))
    script = (
        "import sys, numpy as np, mb_saving\n"
        "try:\n    mb_saving.load_model(sys.argv[1])\nexcept mb_saving.UnsafeConfigError:\n"
        "    print('refused')\n"
        "mb_saving.enable_unsafe_deserialization()\n"
        "print(float(mb_saving.load_model(sys.argv[1])(np.ones((1, 2), 'float32'))[0, 0]))\n"
    )
    assert run_python(["-c", script, str(path)], timeout=300).split() == ["refused", "5.0"]


def test_model_from_json_is_safe_by_default(tmp_path):
    path = _saved(tmp_path, layers.Lambda(lambda x: x))
    text = json.dumps(read_config(path))
    with pytest.raises(mb_saving.UnsafeConfigError):
        mb_saving.model_from_json(text)
    with mb_saving.SafeModeScope(False):
        assert mb_saving.model_from_json(text).name == "net"


def test_inspect_lists_what_safe_mode_would_refuse_without_running_it(tmp_path):
    path = _saved(tmp_path, layers.Lambda(lambda x: x, name="lam"))
    info = mb_saving.inspect(path)
    assert len(info["refused_by_safe_mode"]) == 1
    assert "config.config.layers[1].config.function" in info["refused_by_safe_mode"][0]
