"""Start-up: with ``MB_BACKEND=X``, a process that uses mb imports engine X and no other.

Each backend runs in a fresh subprocess that records ``sys.modules`` after ``import mb``,
after a first op, after building a small model, after training it (where the backend
trains) and after ``predict``. Importing a framework that is not asked for costs seconds
of start-up and hundreds of MB of memory (TensorFlow, for one, imports jax and Keras
whenever they are installed), so none may appear at any stage. No timing is asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mb_ops import backends

# Frameworks mb must never import unless the active backend's engine is one of them.
_FRAMEWORKS = ("jax", "torch", "tensorflow", "openvino", "keras", "tf_keras", "flax", "optax")

_STAGES = r"""
import json, sys
import numpy as np

watched = sys.argv[1:] + ["mb_saving", "mb_export"]
seen = {}

def record(stage):
    seen[stage] = sorted(name for name in watched if name in sys.modules)

import mb
record("import mb")
mb.ops.convert_to_numpy(mb.ops.add(mb.ops.ones((2, 3)), 1.0))
record("first op")
model = mb.Sequential([mb.Input((3,)), mb.layers.Dense(4, activation="relu"), mb.layers.Dense(1)])
record("small model built")
x, y = np.ones((8, 3), "float32"), np.zeros((8, 1), "float32")
from mb_ops import backends
if backends.backend_descriptor().trainable:
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=1, batch_size=4, verbose=0)
    record("fit")
model.predict(x, verbose=0)
record("predict")
import os, tempfile
with tempfile.TemporaryDirectory() as folder:
    model.save(os.path.join(folder, "m.keras"))  # loads mb_saving on first use
    record("save")
print("STAGES" + json.dumps(seen))
"""


def _installed():
    found = backends.available_backends()
    return [
        pytest.param(
            name,
            marks=()
            if name in found and found[name].engine_installed()
            else pytest.mark.skip(reason=f"the {name} backend or its engine is not installed"),
        )
        for name in ("numpy", "jax", "torch", "tensorflow", "openvino")
    ]


@pytest.mark.parametrize("backend", _installed())
def test_using_mb_imports_only_the_engine_of_the_backend(backend):
    engine = backends.available_backends()[backend].engine
    env = {**os.environ, "MB_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    env.pop("KERAS_BACKEND", None)
    result = subprocess.run(
        [sys.executable, "-c", _STAGES, *_FRAMEWORKS],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(x for x in result.stdout.splitlines() if x.startswith("STAGES"))
    stages = json.loads(line.removeprefix("STAGES"))
    # Saving and exporting load their packages on first use: building, training and
    # predicting never import them (h5py and the exporters cost a second of start-up).
    saving = {stage: {"mb_saving", "mb_export"} & set(names) for stage, names in stages.items()}
    assert saving.pop("save") == {"mb_saving"}
    assert all(not found for found in saving.values()), saving
    stages = {
        stage: [n for n in names if n in _FRAMEWORKS]
        for stage, names in stages.items()
        if stage != "save"
    }
    allowed = {engine} if engine else set()
    # `import mb` alone may defer the engine to the first op; it never loads another one.
    assert set(stages["import mb"]) <= allowed, (
        f"MB_BACKEND={backend}: `import mb` imported {stages['import mb']}"
    )
    for stage, loaded in stages.items():
        if stage != "import mb":
            assert set(loaded) == allowed, (
                f"MB_BACKEND={backend}: after {stage}, the process had imported {loaded}; "
                f"expected only {sorted(allowed) or 'no engine'}"
            )
    assert ("fit" in stages) == backends.available_backends()[backend].trainable
