"""``OpCase`` and ``run_case``: one op call checked against a NumPy reference.

Every case checks, on the active backend:

1. the values against the reference, with a tolerance chosen by the result's
   dtype (``TOLERANCES``) and scaled by the case;
2. the result dtype against mb's static rule (the op's ``compute_output_spec``
   on KerasTensors of the same shapes and dtypes), so every backend agrees on
   dtypes;
3. the result shape against the static shape (known dimensions only).

An op the backend declares in its ``UNSUPPORTED`` dict must instead raise a
``NotImplementedError`` naming the op and the backend.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np

from mb_graph import KerasTensor
from mb_ops import _backends, _contract, _dtypes
from mb_ops._ops._machinery import REGISTRY

# (rtol, atol) by result dtype.
TOLERANCES: dict[str, tuple[float, float]] = {
    "bfloat16": (3e-2, 3e-2),
    "float16": (5e-3, 5e-3),
    "float32": (2e-5, 2e-6),
    "float64": (1e-10, 1e-12),
    "complex64": (2e-5, 2e-6),
    "complex128": (1e-10, 1e-12),
}

_LOW_PRECISION = ("float16", "bfloat16")


@dataclass
class OpCase:
    """One call of an op with its NumPy reference.

    Attributes:
        op: ``"<module>.<name>"`` as in ``mb_ops`` (``"numpy.add"``, ``"nn.relu"``).
        args: positional arguments (NumPy arrays, Python values, lists of arrays).
        kwargs: keyword arguments.
        reference: ``reference(*args, **kwargs)`` computed with NumPy on the
            same inputs (low-precision floats are given to it as float32).
        tol: multiplies the dtype's tolerance (transcendental ops, sums).
        check_dtype: compare the result dtype with mb's static dtype rule.
        check_values: compare the values (False for unspecified ones: ``empty``).
        label: what the case covers, used in its id.
    """

    op: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    reference: Any = None
    tol: float = 1.0
    check_dtype: bool = True
    check_values: bool = True
    label: str = ""

    @property
    def id(self) -> str:
        return f"{self.op}[{self.label}]" if self.label else self.op

    @property
    def module(self) -> str:
        return self.op.split(".")[0]

    @property
    def name(self) -> str:
        return self.op.split(".")[1]


def _op_function(case: OpCase) -> Any:
    info = REGISTRY.get((case.module, case.name))
    if info is None:
        raise KeyError(f"No mb_ops op named {case.op!r}.")
    return info


def _upcast(x: Any) -> Any:
    if isinstance(x, np.ndarray) and x.dtype in (np.float16, ml_dtypes.bfloat16):
        return x.astype(np.float32)
    if isinstance(x, (list, tuple)):
        return type(x)(_upcast(v) for v in x)
    return x


def _symbolic(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return KerasTensor(x.shape, dtype=_dtypes.standardize_dtype(x.dtype))
    if isinstance(x, list):
        return [_symbolic(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_symbolic(v) for v in x)
    return x


def _flatten(x: Any) -> list[Any]:
    if isinstance(x, (list, tuple)):
        out: list[Any] = []
        for v in x:
            out.extend(_flatten(v))
        return out
    return [x]


def _declared_unsupported(info: Any) -> str | None:
    if info.backend_module is None:
        return None
    module = _backends.backend_module(info.backend_module)
    return _contract.declared_unsupported(module).get(info.backend_name)


def provided_by_backend(op: str) -> bool:
    """Whether the active backend provides ``op`` (its function, a declaration, or a composite)."""
    info = REGISTRY[tuple(op.split("."))]
    if info.backend_module is None:
        return True
    module = _backends.backend_module(info.backend_module)
    declared = _contract.declared_unsupported(module)
    return hasattr(module, info.backend_name) or info.backend_name in declared


def _to_numpy(x: Any) -> np.ndarray:
    core = _backends.backend_module("core")
    return np.asarray(core.convert_to_numpy(x))


def check_unsupported(case_or_op: Any) -> bool:
    """If the backend declares the op unsupported, check it raises properly; return True.

    The error must be a ``NotImplementedError`` whose message names the op and
    the backend.
    """
    op_name = case_or_op.op if isinstance(case_or_op, OpCase) else case_or_op
    info = REGISTRY[tuple(op_name.split("."))]
    if _declared_unsupported(info) is None:
        return False
    case = case_or_op if isinstance(case_or_op, OpCase) else None
    args = case.args if case else ()
    kwargs = case.kwargs if case else {}
    backend = _backends.backend()
    try:
        info.function(*args, **kwargs)
    except NotImplementedError as error:
        text = str(error)
        if info.name not in text or backend not in text:
            raise AssertionError(
                f"{op_name}: the NotImplementedError must name the op and the {backend!r} "
                f"backend; it says: {text!r}"
            ) from error
        return True
    raise AssertionError(
        f"{op_name} is declared unsupported by the {backend} backend but did not raise "
        "NotImplementedError."
    )


def run_case(case: OpCase) -> str:
    """Run one case on the active backend; raise AssertionError on a mismatch.

    Returns:
        ``"passed"``, or ``"unsupported"`` when the backend declares the op
        unsupported and raises the expected NotImplementedError.
    """
    info = _op_function(case)
    if check_unsupported(case):
        return "unsupported"
    result = info.function(*case.args, **case.kwargs)
    # The static rule, computed without any engine (also for ops without tensor inputs).
    spec = info.operation_class().compute_output_spec(
        *_symbolic(case.args), **_symbolic(case.kwargs)
    )
    actual = [_to_numpy(r) for r in _flatten(result)]
    specs = _flatten(spec)
    if len(actual) != len(specs):
        raise AssertionError(
            f"{case.id}: returned {len(actual)} tensors, the static spec says {len(specs)}."
        )
    for i, (a, s) in enumerate(zip(actual, specs, strict=True)):
        where = f"{case.id} output {i}"
        static_shape = tuple(s.shape)
        if len(static_shape) != a.ndim or any(
            d is not None and d != n for d, n in zip(static_shape, a.shape, strict=True)
        ):
            raise AssertionError(
                f"{where}: shape {a.shape} differs from the static shape {static_shape}."
            )
        if case.check_dtype and _dtypes.standardize_dtype(a.dtype) != s.dtype:
            raise AssertionError(
                f"{where}: dtype {_dtypes.standardize_dtype(a.dtype)} differs from mb's "
                f"dtype rule {s.dtype}."
            )
    if case.check_values and case.reference is not None:
        expected = _flatten(case.reference(*_upcast(case.args), **_upcast(case.kwargs)))
        if len(expected) != len(actual):
            raise AssertionError(
                f"{case.id}: returned {len(actual)} tensors, the reference {len(expected)}."
            )
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_close(a, np.asarray(e), case.tol, f"{case.id} output {i}")
    return "passed"


def assert_close(actual: np.ndarray, expected: np.ndarray, tol: float, where: str) -> None:
    """Compare with the tolerance of ``actual``'s dtype times ``tol`` (exact for ints/bools)."""
    if actual.shape != expected.shape:
        raise AssertionError(f"{where}: shape {actual.shape}, reference {expected.shape}.")
    dtype = _dtypes.standardize_dtype(actual.dtype)
    if dtype in TOLERANCES:
        rtol, atol = TOLERANCES[dtype]
        kind = np.complex128 if dtype.startswith("complex") else np.float64
        np.testing.assert_allclose(
            actual.astype(kind),
            expected.astype(kind),
            rtol=rtol * tol,
            atol=atol * tol,
            equal_nan=True,
            err_msg=where,
        )
    else:
        np.testing.assert_array_equal(actual, expected.astype(actual.dtype), err_msg=where)
