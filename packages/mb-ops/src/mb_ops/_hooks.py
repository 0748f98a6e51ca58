"""Plug mb_ops into mb_graph and into Variable: operators, dtypes, default specs."""

from __future__ import annotations

from typing import Any

import mb_graph
from mb_ops import _backends, _dtypes, _remat, _variable
from mb_ops import numpy as _numpy_ops


def _default_output_spec(call_fn: Any, *args: Any, **kwargs: Any) -> Any:
    # Operations that do not write their own compute_output_spec (layers,
    # user ops) are traced by the backend, which knows how to run code on
    # symbolic placeholders.
    core = _backends.backend_module("core")
    fn = getattr(core, "compute_output_spec", None)
    if fn is None:
        raise NotImplementedError(
            f"The {_backends.backend()} backend cannot infer output shapes by tracing "
            "(its core module has no compute_output_spec). Implement compute_output_spec "
            "on the operation."
        )
    return fn(call_fn, *args, **kwargs)


def install() -> None:
    mb_graph.set_operator_hook(_numpy_ops)
    mb_graph.set_dtype_standardizer(_dtypes.standardize_dtype)
    mb_graph.set_output_spec_hook(_default_output_spec)
    mb_graph.set_remat_hook(_remat.remat)
    _variable.set_operator_namespace(_numpy_ops)
