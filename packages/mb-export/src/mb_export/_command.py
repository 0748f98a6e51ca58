"""``mb export MODEL.keras --format F --out PATH``: convert a .keras file without Python.

The conversion runs in a subprocess on a backend that writes the format itself
(the active one when it can, else the first installed of ``_routes.CONVERTERS``),
so the command works whatever ``MB_BACKEND`` says. ``--check`` then runs the
artifact in its own runtime and compares it with the model's ``predict``.
"""

from __future__ import annotations

import os

import numpy as np

from mb_export import _convert, _routes, _runtimes
from mb_ops import backends

_HOW_TO_RUN = {
    "tf_saved_model": (
        "import tensorflow as tf\n"
        "model = tf.saved_model.load('{path}')\n"
        "outputs = model.serve(inputs)"
    ),
    "onnx": (
        "import onnxruntime\n"
        "session = onnxruntime.InferenceSession('{path}')\n"
        "outputs = session.run(None, {{{feeds}}})"
    ),
    "openvino": (
        "import openvino\n"
        "compiled = openvino.Core().compile_model('{path}', 'CPU')\n"
        "outputs = compiled([{args}])"
    ),
    "litert": (
        "from ai_edge_litert.interpreter import Interpreter\n"
        "runner = Interpreter(model_path='{path}').get_signature_runner()\n"
        "outputs = runner({kwargs})"
    ),
    "torch": (
        "import torch\nprogram = torch.export.load('{path}')\noutputs = program.module()({args})"
    ),
}


def choose_backend(format, requested=None):
    """The backend that writes `format` for ``mb export``, and why.

    Raises:
        ValueError: `requested` cannot write `format` itself.
        NotImplementedError: no installed backend can.
    """
    _routes.check_format(format)
    if requested is not None:
        if _routes.NATIVE.get(requested, {}).get(format) is None:
            raise ValueError(
                f"--backend {requested} cannot write {format} "
                f"({_routes.describe_native(requested)}). Pairs that work: "
                f"{_routes.pairs_that_work()}."
            )
        return requested
    try:
        active = backends.resolve_backend_name()
    except (ImportError, ValueError):
        active = None
    if active is not None and _routes.NATIVE.get(active, {}).get(format):
        return active
    chosen = _convert.pick_backend(format)
    if chosen is None:
        raise NotImplementedError(
            f"No installed backend writes {format}: it needs one of "
            f"{', '.join(_routes.CONVERTERS[format])}. Pairs that work: "
            f"{_routes.pairs_that_work()}."
        )
    return chosen


def how_to_run(format, path, input_names):
    """A Python snippet that runs the artifact (inputs named as in the export)."""
    names = list(input_names) or ["inputs"]
    return _HOW_TO_RUN[format].format(
        path=path,
        feeds=", ".join(f"'{n}': {n}" for n in names),
        args=", ".join(names),
        kwargs=", ".join(f"{n}={n}" for n in names),
    )


def convert_file(model_path, format, out, backend=None, verbose=True):
    """Converts a ``.keras`` file; returns ``(out, backend used)``."""
    if not os.path.exists(model_path):
        raise FileNotFoundError(f"No such file: '{model_path}'.")
    chosen = choose_backend(format, backend)
    _convert.run_conversion(model_path, out, format, chosen, verbose=verbose)
    return out, chosen


def sample_arguments(model, batch=2, seed=0):
    """Random arguments for `model`'s inputs (dynamic axes get `batch`)."""
    from mb_export import _signature

    rng = np.random.default_rng(seed)

    def sample(spec):
        shape = tuple(batch if s is None else s for s in spec.shape)
        if spec.dtype.startswith("int") or spec.dtype.startswith("uint"):
            return rng.integers(0, 2, size=shape).astype(spec.dtype)
        return rng.random(shape).astype(spec.dtype)

    from mb_graph import tree

    return [tree.map_structure(sample, a) for a in _signature.from_model(model)]


def check_artifact(model, path, format, rtol=1e-5, atol=1e-6):
    """Runs the artifact in its runtime on random inputs; returns the largest
    absolute difference from ``model.predict``. Raises AssertionError past tolerance."""
    arguments = sample_arguments(model)
    expected = model.predict(arguments[0] if len(arguments) == 1 else arguments, verbose=0)
    expected = expected if isinstance(expected, (list, tuple)) else [expected]
    got = _runtimes.RUNNERS[format](path, arguments)
    worst = 0.0
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, np.asarray(e), rtol=rtol, atol=atol)
        worst = max(worst, float(np.max(np.abs(np.asarray(g) - np.asarray(e)))))
    return worst
