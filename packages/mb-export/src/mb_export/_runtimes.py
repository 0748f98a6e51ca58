"""Running an exported artifact in its own runtime (``mb export --check`` and the tests).

Each runner takes the artifact's path and the model's positional arguments
(NumPy arrays, dicts of them) and returns the flat outputs as NumPy arrays.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile

import numpy as np


class _State:
    fresh = False  # True in the process `_run_in_subprocess` starts


def flat_inputs(arguments):
    """The flat inputs in the export's order (dict leaves sorted by key, as tree.flatten)."""
    out = []
    for argument in arguments:
        if isinstance(argument, dict):
            out.extend(argument[k] for k in sorted(argument))
        else:
            out.append(argument)
    return out


def run_saved_model(path, arguments):
    import tensorflow as tf

    reloaded = tf.saved_model.load(path)
    outputs = reloaded.serve(*[tf.nest.map_structure(tf.constant, a) for a in arguments])
    return [np.asarray(o) for o in tf.nest.flatten(outputs)]


def run_onnx(path, arguments):
    import onnxruntime

    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    feeds = {i.name: x for i, x in zip(session.get_inputs(), flat_inputs(arguments), strict=True)}
    return session.run(None, feeds)


def run_openvino(path, arguments):
    flat = [np.asarray(x) for x in flat_inputs(arguments)]
    if not _State.fresh and "jax" in sys.modules and "openvino" not in sys.modules:
        # Importing openvino sends its telemetry from a forked process, and a fork in a
        # process running JAX may deadlock (JAX warns so): run it in a fresh process.
        return _run_in_subprocess("openvino", path, flat)
    import openvino

    # f32: the CPU plugin otherwise runs in bf16 where the processor has it.
    compiled = openvino.Core().compile_model(path, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    result = compiled(flat)
    return [np.asarray(result[port]) for port in compiled.outputs]


def run_litert(path, arguments):
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_path=path)
    runner = interpreter.get_signature_runner()
    names = sorted(interpreter.get_signature_list()["serving_default"]["inputs"])
    flat = flat_inputs(arguments)
    # Signature inputs are keyed by the export's input names, which sort like the flat order.
    outputs = runner(**dict(zip(names, flat, strict=True)))
    return [np.asarray(outputs[k]) for k in sorted(outputs, key=_output_order)]


def _output_order(name):
    tail = name.rsplit("_", 1)[-1]
    return (0, int(tail)) if tail.isdigit() else (1, name)


def _triton_would_abort():
    """torch.export.load loads triton, which aborts the process when loaded after
    TensorFlow (both bundle LLVM)."""
    return (
        "tensorflow" in sys.modules
        and "triton" not in sys.modules
        and importlib.util.find_spec("triton") is not None
    )


def run_torch(path, arguments):
    flat = [np.asarray(x) for x in flat_inputs(arguments)]
    if not _State.fresh and _triton_would_abort():
        return _run_in_subprocess("torch", path, flat)
    import torch

    program = torch.export.load(path)
    outputs = program.module()(*[torch.from_numpy(x) for x in flat])
    if isinstance(outputs, torch.Tensor):
        outputs = [outputs]
    return [o.detach().numpy() for o in outputs]


def _run_in_subprocess(format, path, flat):
    with tempfile.TemporaryDirectory(prefix="mb-export-run-") as folder:
        inputs, outputs = os.path.join(folder, "in.npz"), os.path.join(folder, "out.npz")
        np.savez(inputs, *flat)
        command = [sys.executable, "-m", "mb_export._runtimes", format, os.fspath(path)]
        # numpy: the runner needs no backend, and importing mb loads the chosen one's engine.
        env = {**os.environ, "MB_BACKEND": "numpy"}
        result = subprocess.run(
            [*command, inputs, outputs], capture_output=True, text=True, check=False, env=env
        )
        if result.returncode != 0:
            raise RuntimeError(f"Running '{path}' ({format}) failed:\n{result.stderr[-3000:]}")
        with np.load(outputs) as data:
            return [data[f"arr_{i}"] for i in range(len(data.files))]


def main(argv=None):
    """``python -m mb_export._runtimes FORMAT PATH IN.npz OUT.npz``: runs an artifact on
    the flat inputs saved in IN.npz, in a fresh process."""
    format, path, inputs, outputs = (argv or sys.argv[1:])[:4]
    _State.fresh = True  # run here, whatever is loaded: no process starts another
    with np.load(inputs) as data:
        flat = [data[f"arr_{i}"] for i in range(len(data.files))]
    np.savez(outputs, *RUNNERS[format](path, flat))
    return 0


RUNNERS = {
    "tf_saved_model": run_saved_model,
    "onnx": run_onnx,
    "openvino": run_openvino,
    "litert": run_litert,
    "torch": run_torch,
}


if __name__ == "__main__":
    sys.exit(main())
