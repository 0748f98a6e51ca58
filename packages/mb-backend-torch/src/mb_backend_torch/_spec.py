"""``compute_output_spec``: run a function on placeholder tensors to learn its outputs.

Placeholders live on torch's ``meta`` device (no memory, no compute); a
function that cannot run there is retried on real tensors. Unknown dimensions
are found by running twice with two different sizes and marking the
dimensions that changed.
"""

import torch

import mb_ops
from mb_backend_torch import _device
from mb_backend_torch._dtypes import DTYPE_NAMES, to_torch_dtype
from mb_ops import tree

_FILL_A = 83
_FILL_B = 89


def _is_keras_tensor(x):
    return isinstance(x, mb_ops.KerasTensor)


def _placeholders(structure, fill, device):
    def convert(x):
        if _is_keras_tensor(x):
            shape = [fill if d is None else d for d in x.shape]
            return torch.ones(shape, dtype=to_torch_dtype(x.dtype), device=device)
        return x

    return tree.map_structure(convert, structure)


def _run(fn, args, kwargs, fill):
    try:
        with _device.device_scope("meta"):
            meta_args, meta_kwargs = _placeholders((args, kwargs), fill, "meta")
            return fn(*meta_args, **meta_kwargs)
    except Exception:
        with _device.device_scope(_device.DEFAULT_DEVICE):
            real_args, real_kwargs = _placeholders((args, kwargs), fill, _device.DEFAULT_DEVICE)
            return fn(*real_args, **real_kwargs)


def compute_output_spec(fn, *args, **kwargs):
    """The KerasTensor(s) ``fn(*args, **kwargs)`` would return, for KerasTensor inputs."""
    with mb_ops.StatelessScope(), mb_ops.SymbolicScope(), torch.no_grad():
        out_a = _run(fn, args, kwargs, _FILL_A)
        dynamic = any(_is_keras_tensor(x) and None in x.shape for x in tree.flatten((args, kwargs)))
        flat_a = tree.flatten(out_a)
        if dynamic:
            flat_b = tree.flatten(_run(fn, args, kwargs, _FILL_B))
        else:
            flat_b = flat_a
        specs = []
        for a, b in zip(flat_a, flat_b, strict=True):
            if isinstance(a, torch.Tensor):
                shape = tuple(
                    da if da == db else None for da, db in zip(a.shape, b.shape, strict=True)
                )
                specs.append(mb_ops.KerasTensor(shape, dtype=DTYPE_NAMES[a.dtype]))
            else:
                specs.append(a)
    return tree.pack_sequence_as(out_a, specs)
