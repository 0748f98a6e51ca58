"""The ``export`` contract module of the torch backend: ``torch.export`` and ONNX.

``mb_export`` hands over the forward pass (``fn(None, *flat_inputs)``: on torch
the model reads its own parameters), the modules that own those parameters (mb
layers are ``torch.nn.Module``s) and a spec per input (``.name``, ``.shape``
with ``None`` for dynamic axes, ``.dtype``). ``to_exported_program`` runs
``torch.export.export`` with those axes dynamic; ``to_onnx`` hands the program
to the dynamo ONNX exporter (``torch.onnx.export(..., dynamo=True)``, which needs
onnx and onnxscript: ``pip install 'mb-export[onnx]'``).

Example:
    >>> import torch
    >>> from types import SimpleNamespace as Spec
    >>> from mb_backend_torch import export
    >>> layer = torch.nn.Linear(3, 2)
    >>> program = export.to_exported_program(
    ...     lambda values, x: layer(x), [layer], [Spec(name="x", shape=(None, 3), dtype="float32")]
    ... )
    >>> program.module()(torch.ones(5, 3)).shape
    torch.Size([5, 2])
"""

import warnings

import numpy as np
import torch

from mb_backend_torch import _llvm
from mb_ops import numpy_shaped

TF_GRAPH_IS_PORTABLE = False

_NO_TF = (
    "torch graphs do not convert to TensorFlow graphs; mb_export writes SavedModel and "
    "LiteRT files on the tensorflow or jax backend instead"
)
UNSUPPORTED = {"to_tf_variables": _NO_TF, "to_tf_function": _NO_TF}


_REFUSE = numpy_shaped.refusals_for("torch", UNSUPPORTED)
to_tf_variables = _REFUSE["to_tf_variables"]
to_tf_function = _REFUSE["to_tf_function"]


_SAMPLE_SIZE = 2  # torch.export specializes sizes 0 and 1, so dynamic axes are traced at 2


class _Forward(torch.nn.Module):
    """The module torch.export traces: owns the model's modules, runs ``fn``."""

    def __init__(self, fn, modules):
        super().__init__()
        self.owners = torch.nn.ModuleList([m for m in modules if isinstance(m, torch.nn.Module)])
        self._fn = fn

    def forward(self, *inputs):
        return self._fn(None, *inputs)


def _sample(spec):
    shape = tuple(_SAMPLE_SIZE if size is None else int(size) for size in spec.shape)
    dtype = getattr(torch, str(spec.dtype))
    if dtype.is_floating_point:
        return torch.rand(shape, dtype=dtype)
    return torch.zeros(shape, dtype=dtype)


def _dynamic_shapes(input_specs):
    batch = torch.export.Dim("batch")
    shapes = []
    for index, spec in enumerate(input_specs):
        dims = {}
        for axis, size in enumerate(spec.shape):
            if size is None:
                dims[axis] = batch if axis == 0 else torch.export.Dim(f"d{index}_{axis}")
        shapes.append(dims or None)
    return (tuple(shapes),)  # one entry: the forward's *inputs


def to_exported_program(fn, modules, input_specs, **kwargs):
    """``torch.export.export`` of ``fn`` with the ``None`` axes of `input_specs` dynamic.

    Args:
        fn: the forward pass, called as ``fn(None, *flat_inputs)``.
        modules: the objects that own the parameters ``fn`` reads (modules are
            registered so their parameters become the program's state).
        input_specs: one spec per flat input (``.name``, ``.shape``, ``.dtype``).
        **kwargs: passed to ``torch.export.export`` (``strict``,
            ``dynamic_shapes``, ``preserve_module_call_signature``, ...).

    Returns:
        A ``torch.export.ExportedProgram``.
    """
    _llvm.check_triton_loadable("torch.export")
    forward = _Forward(fn, modules).eval()
    samples = tuple(_sample(spec) for spec in input_specs)
    kwargs.setdefault("dynamic_shapes", _dynamic_shapes(input_specs))
    kwargs.setdefault("strict", False)
    try:
        with torch.no_grad():
            return torch.export.export(forward, samples, **kwargs)
    except Exception as error:
        if "Constraints violated" not in str(error):
            raise
        raise ValueError(
            "torch.export found that this model's forward pass fixes the size of an axis the "
            "export made dynamic (its batch or another None axis). Pass a fixed "
            "input_signature, e.g. [mb.InputSpec(shape=(4, 5, 3), dtype='float32')], and feed "
            f"inputs of that shape. torch.export said: {str(error).splitlines()[0]}"
        ) from None


def save_exported_program(program, filepath):
    """Writes `program` with ``torch.export.save`` (load it with ``torch.export.load``)."""
    torch.export.save(program, str(filepath))


def to_onnx(program, filepath, input_names, output_names, opset_version=None, verbose=False):
    """Writes an ExportedProgram as ONNX with the dynamo exporter.

    Args:
        program: from `to_exported_program` (its dynamic axes stay dynamic).
        filepath: the ``.onnx`` file to write.
        input_names: one name per flat input.
        output_names: one name per flat output.
        opset_version: the ONNX opset (None: the exporter's default).
        verbose: let the exporter report its steps.
    """
    options = {"input_names": list(input_names), "output_names": list(output_names)}
    if opset_version is not None:
        options["opset_version"] = int(opset_version)
    with warnings.catch_warnings():
        # The exporter narrates its steps as warnings and prints; neither is ours to act on.
        warnings.simplefilter("ignore")
        onnx_program = torch.onnx.export(program, dynamo=True, verbose=verbose, **options)
    onnx_program.save(str(filepath))


def to_numpy(x):
    """A torch tensor (or anything array-like) as a NumPy array."""
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy()
    return np.asarray(x)
