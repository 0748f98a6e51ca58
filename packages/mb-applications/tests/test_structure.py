"""Every architecture is Keras's: layer names, classes, variables, wiring, weight files.

Keras 3.15 and mb each build every model of ``keras.applications`` in a child
interpreter (``apps_side.py dump``) and describe it: its name, parameter count and
output shape, and per layer its name, class, variable shapes in the order weight
files store them, and the layers feeding each call. Equal descriptions mean a weight
file written for the Keras model (Keras 3 ``.weights.h5``, found by layer names, or
the Keras 2 ``.h5`` the published files use, read in layer order) fits the mb model.
The ImageNet weight file each model asks for (name, URL, hash, cache folder) is
compared too.
"""

import importlib.util

import apps_helpers as helpers
import pytest

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
    ),
    pytest.mark.slow,
]


def _differences(keras, mb):
    """Human-readable differences between two model descriptions (empty when equal)."""
    found = []
    for key in ("name", "params", "output_shape", "weights_file"):
        if keras[key] != mb[key]:
            found.append(f"{key}: Keras {keras[key]!r}, mb {mb[key]!r}")
    if len(keras["layers"]) != len(mb["layers"]):
        found.append(f"{len(keras['layers'])} layers in Keras, {len(mb['layers'])} in mb")
    for i, (k, m) in enumerate(zip(keras["layers"], mb["layers"], strict=False)):
        if k != m:
            found.append(f"layer #{i}: Keras {k}, mb {m}")
            break
    return found


def test_every_model_has_keras_layers_variables_wiring_and_weight_file(session_dir):
    dumps = helpers.dumps(session_dir)
    assert len(dumps["mb"]["models"]) == len(helpers.STRUCTURE)
    failures = []
    for (function, kwargs), keras, mb in zip(
        helpers.STRUCTURE, dumps["keras"]["models"], dumps["mb"]["models"], strict=True
    ):
        problems = _differences(keras, mb)
        if problems:
            failures.append(f"{function}({kwargs}):\n  " + "\n  ".join(problems))
    assert not failures, "\n".join(failures)
    # The comparison covers all 40 models, with and without their top.
    described = {function for function, _ in helpers.STRUCTURE}
    assert described == set(helpers.MODELS)
