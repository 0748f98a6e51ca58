"""`Model.save` / `save_weights` / `load_weights` call the implementation mb-saving registers."""

import os
import subprocess
import sys

import pytest

import mb_layers
from mb_train import _saving_hook
from mb_train.models import Model


def _model():
    x = mb_layers.Input((2,))
    return Model(x, mb_layers.layers.Dense(1)(x))


class Recorder:
    def __init__(self):
        self.calls = []

    def save_model(self, model, filepath, **kwargs):
        self.calls.append(("save_model", model, filepath, kwargs))

    def save_weights(self, model, filepath, **kwargs):
        self.calls.append(("save_weights", model, filepath, kwargs))

    def load_weights(self, model, filepath, **kwargs):
        self.calls.append(("load_weights", model, filepath, kwargs))


def test_model_methods_forward_to_the_registered_implementation():
    recorder = Recorder()
    previous = _saving_hook.set_saving_implementation(recorder)
    try:
        model = _model()
        model.save("m.keras", zipped=False)
        model.save_weights("m.weights.h5", max_shard_size=2)
        model.load_weights("m.weights.h5", skip_mismatch=True, objects_to_skip=[])
    finally:
        _saving_hook.set_saving_implementation(previous)
    assert [(c[0], c[2], c[3]) for c in recorder.calls] == [
        ("save_model", "m.keras", {"overwrite": True, "zipped": False}),
        ("save_weights", "m.weights.h5", {"overwrite": True, "max_shard_size": 2}),
        ("load_weights", "m.weights.h5", {"skip_mismatch": True, "objects_to_skip": []}),
    ]
    assert all(c[1] is model for c in recorder.calls)


def test_an_implementation_missing_a_function_is_refused():
    class Partial:
        def save_model(self, model, filepath, **kwargs):
            pass

    with pytest.raises(TypeError, match="save_weights"):
        _saving_hook.set_saving_implementation(Partial())


def test_without_mb_saving_the_methods_say_what_to_import():
    code = (
        "import sys, mb_layers\n"
        "from mb_train.models import Model\n"
        "x = mb_layers.Input((2,))\n"
        "m = Model(x, mb_layers.layers.Dense(1)(x))\n"
        "assert 'mb_saving' not in sys.modules\n"
        "for call in (lambda: m.save('m.keras'), lambda: m.load_weights('m.weights.h5')):\n"
        "    try:\n        call()\n    except RuntimeError as e:\n        print(e)\n"
    )
    env = {**os.environ, "MB_BACKEND": "numpy"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("Model.save() needs mb-saving") and "import mb_saving" in lines[0]
    assert lines[1].startswith("Model.load_weights() needs mb-saving")
