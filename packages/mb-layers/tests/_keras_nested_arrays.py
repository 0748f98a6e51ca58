"""Nested dicts of arrays handed to a Keras subprocess and back, flattened to
``{"name/key/...": array}`` in one ``.npz`` (shared by the image tests against Keras)."""

import numpy as np

from mb_layers._ops import ops

SCRIPT_HEAD = r"""
import json, sys
import numpy as np
import keras
folder = sys.argv[1]
cases = json.load(open(f"{folder}/cases.json"))
arrays = dict(np.load(f"{folder}/arrays.npz"))
def unflatten(prefix):
    if prefix in arrays:
        return arrays[prefix]
    keys = sorted({k[len(prefix) + 1:].split("/")[0] for k in arrays if k.startswith(prefix + "/")})
    return {k: unflatten(f"{prefix}/{k}") for k in keys}
out = {}
def flatten(prefix, value):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(f"{prefix}/{k}", v)
    else:
        out[prefix] = keras.ops.convert_to_numpy(value)
"""
"""The start of a Keras script: reads ``cases.json`` and ``arrays.npz`` from the folder
in ``sys.argv[1]``; ``unflatten(name)`` rebuilds a case's data, ``flatten(name, value)``
files a result in ``out`` (which the script then saves)."""


def flatten(prefix, value, into):
    """Files the arrays of ``value`` (nested dicts) in ``into`` under ``prefix/key/...``."""
    if isinstance(value, dict):
        for key, item in value.items():
            flatten(f"{prefix}/{key}", item, into)
    else:
        into[prefix] = np.asarray(ops.convert_to_numpy(value))
    return into
