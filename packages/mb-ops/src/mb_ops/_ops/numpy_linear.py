"""Products and matrix-shaped numpy ops: matmul, dot, einsum, diagonals, triangles."""

from __future__ import annotations

import builtins
import re
from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    broadcast_shapes,
    canonical_axis,
    dtype_of,
    float_dtype,
    fmt,
    like,
    shape_of,
    std_dtype,
    tensor,
)


def _product_dtype(x1: Any, x2: Any) -> str:
    dtype = _dtypes.result_type(dtype_of(x1), dtype_of(x2))
    return "int32" if dtype == "bool" else dtype


def _dims_match(a: Any, b: Any) -> bool:
    return a is None or b is None or a == b


def _matmul_spec(op_name: str, x1: Any, x2: Any) -> Any:
    s1, s2 = shape_of(x1), shape_of(x2)
    if len(s1) == 0 or len(s2) == 0:
        raise ValueError(
            f"{op_name}: inputs must have rank >= 1, received shapes {fmt(s1)} and {fmt(s2)}. "
            "Use multiply for scalars."
        )
    a = (1, *s1) if len(s1) == 1 else s1
    b = (*s2, 1) if len(s2) == 1 else s2
    if not _dims_match(a[-1], b[-2]):
        raise ValueError(
            f"{op_name}: the last axis of x1 (shape {fmt(s1)}) must match the "
            f"{'only' if len(s2) == 1 else 'second-to-last'} axis of x2 (shape {fmt(s2)}); "
            f"received {a[-1]} and {b[-2]}."
        )
    batch = broadcast_shapes(op_name, a[:-2], b[:-2])
    out = [*batch, a[-2], b[-1]]
    if len(s1) == 1:
        out.pop(-2)
    if len(s2) == 1:
        out.pop(-1)
    return tensor(out, _product_dtype(x1, x2))


@op(_matmul_spec)
def matmul(x1, x2):
    """Matrix product of two tensors (batched over leading axes).

    Args:
        x1: a tensor of rank 1 or more.
        x2: a tensor of rank 1 or more whose second-to-last axis (its only axis
            at rank 1) has the size of `x1`'s last axis.

    Returns:
        ``x1 @ x2``, with the leading (batch) axes broadcast as in NumPy. Its
        dtype is the inputs' result type; int8 products are int32, as in Keras.

    Example:

    >>> from mb_ops import ops
    >>> a = ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ops.convert_to_numpy(ops.matmul(a, ops.ones((2, 1)))).tolist()
    [[3.0], [7.0]]
    >>> tuple(ops.matmul(ops.ones((5, 2, 3)), ops.ones((3, 4))).shape)
    (5, 2, 4)
    """


def _dot_spec(op_name: str, x1: Any, x2: Any) -> Any:
    s1, s2 = shape_of(x1), shape_of(x2)
    if len(s1) == 0 or len(s2) == 0:
        return tensor(broadcast_shapes(op_name, s1, s2), _product_dtype(x1, x2))
    contract_b = 0 if len(s2) == 1 else -2
    if not _dims_match(s1[-1], s2[contract_b]):
        raise ValueError(
            f"{op_name}: the last axis of x1 (shape {fmt(s1)}) must match axis "
            f"{contract_b} of x2 (shape {fmt(s2)})."
        )
    dropped = contract_b % len(s2)
    out = list(s1[:-1]) + [d for i, d in enumerate(s2) if i != dropped]
    return tensor(out, _product_dtype(x1, x2))


@op(_dot_spec)
def dot(x1, x2):
    """Dot product: matmul for matrices, sum product over the last axes otherwise.

    Args:
        x1: a tensor.
        x2: a tensor. For 1D tensors, the inner product; for 2D, the matrix product; for
            N-D ``x1`` and M-D ``x2``, the sum product over the last axis of ``x1`` and the
            second-to-last of ``x2`` (as ``numpy.dot``).

    Returns:
        A tensor with the dtype of ``x1`` and ``x2`` promoted.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> int(ops.dot(np.array([1, 2, 3]), np.array([4, 5, 6])))
    32
    >>> a, b = np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])
    >>> ops.convert_to_numpy(ops.dot(a, b)).tolist()
    [[19, 22], [43, 50]]
    """


def _tensordot_spec(op_name: str, x1: Any, x2: Any, axes: Any = 2) -> Any:
    s1, s2 = shape_of(x1), shape_of(x2)
    if isinstance(axes, int):
        a1 = list(range(len(s1) - axes, len(s1)))
        a2 = list(range(axes))
    else:
        a1, a2 = axes
        a1 = [a1] if isinstance(a1, int) else list(a1)
        a2 = [a2] if isinstance(a2, int) else list(a2)
    a1 = [canonical_axis(op_name, a, len(s1), s1, "axes") for a in a1]
    a2 = [canonical_axis(op_name, a, len(s2), s2, "axes") for a in a2]
    for i, j in zip(a1, a2, strict=True):
        if not _dims_match(s1[i], s2[j]):
            raise ValueError(
                f"{op_name}: contracted axes do not match: x1 shape {fmt(s1)} axis {i}, "
                f"x2 shape {fmt(s2)} axis {j}."
            )
    out = [d for i, d in enumerate(s1) if i not in a1] + [
        d for i, d in enumerate(s2) if i not in a2
    ]
    return tensor(out, _product_dtype(x1, x2))


@op(_tensordot_spec)
def tensordot(x1, x2, axes=2):
    """Tensor dot product along the given axes.

    Args:
        x1: a tensor.
        x2: a tensor.
        axes: an int ``n``: sum over the last ``n`` axes of ``x1`` and the first ``n`` of
            ``x2``; or a pair of lists of axes, summed pairwise.

    Returns:
        A tensor: the axes of ``x1`` not summed over, then those of ``x2``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> a, b = np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])
    >>> int(ops.tensordot(a, b, axes=2))
    70
    >>> ops.convert_to_numpy(ops.tensordot(a, b, axes=([0], [0]))).tolist()  # a.T @ b
    [[26, 30], [38, 44]]
    """


def _inner_spec(op_name: str, x1: Any, x2: Any) -> Any:
    s1, s2 = shape_of(x1), shape_of(x2)
    if not s1 or not s2:
        return tensor(broadcast_shapes(op_name, s1, s2), _product_dtype(x1, x2))
    if not _dims_match(s1[-1], s2[-1]):
        raise ValueError(f"{op_name}: last axes differ: {fmt(s1)} and {fmt(s2)}.")
    return tensor(s1[:-1] + s2[:-1], _product_dtype(x1, x2))


@op(_inner_spec)
def inner(x1, x2):
    """Inner product over the last axes.

    Args:
        x1: a tensor.
        x2: a tensor with the same size of its last axis.

    Returns:
        A tensor ``x1.shape[:-1] + x2.shape[:-1]``: the sum product over the last axes.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> int(ops.inner(np.array([1, 2, 3]), np.array([4, 5, 6])))
    32
    >>> a, b = np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])
    >>> ops.convert_to_numpy(ops.inner(a, b)).tolist()
    [[17, 23], [39, 53]]
    """


def _outer_spec(op_name: str, x1: Any, x2: Any) -> Any:
    n1 = _flat(shape_of(x1))
    n2 = _flat(shape_of(x2))
    return tensor((n1, n2), _product_dtype(x1, x2))


def _flat(shape: Any) -> Any:
    total = 1
    for d in shape:
        if d is None:
            return None
        total *= d
    return total


@op(_outer_spec)
def outer(x1, x2):
    """Outer product of two flattened tensors.

    Args:
        x1: a tensor (flattened).
        x2: a tensor (flattened).

    Returns:
        A 2D tensor ``(x1.size, x2.size)``: ``out[i, j] = x1[i] * x2[j]``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.outer(np.array([1, 2]), np.array([1, 10, 100]))).tolist()
    [[1, 10, 100], [2, 20, 200]]
    """


def _vdot_spec(op_name: str, x1: Any, x2: Any) -> Any:
    return tensor((), _product_dtype(x1, x2))


@op(_vdot_spec)
def vdot(x1, x2):
    """Dot product of two flattened tensors (conjugating the first).

    Args:
        x1: a tensor (flattened; complex values are conjugated).
        x2: a tensor with as many elements.

    Returns:
        A scalar tensor.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> int(ops.vdot(np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])))
    70
    """


def _kron_spec(op_name: str, x1: Any, x2: Any) -> Any:
    s1, s2 = shape_of(x1), shape_of(x2)
    n = builtins.max(len(s1), len(s2))
    s1 = (1,) * (n - len(s1)) + s1
    s2 = (1,) * (n - len(s2)) + s2
    out = [None if a is None or b is None else a * b for a, b in zip(s1, s2, strict=True)]
    return tensor(out, _product_dtype(x1, x2))


@op(_kron_spec)
def kron(x1, x2):
    """Kronecker product.

    Args:
        x1: a tensor.
        x2: a tensor.

    Returns:
        A tensor made of blocks ``x1[i, j] * x2``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.kron(np.array([[1, 2]]), np.array([[1], [10]]))).tolist()
    [[1, 2], [10, 20]]
    """


def _cross_spec(
    op_name: str, x1: Any, x2: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis=None
) -> Any:
    s1, s2 = list(shape_of(x1)), list(shape_of(x2))
    if axis is not None:
        axisa = axisb = axisc = axis
    a = canonical_axis(op_name, axisa, len(s1), s1, "axisa")
    b = canonical_axis(op_name, axisb, len(s2), s2, "axisb")
    for s, ax in ((s1, a), (s2, b)):
        if s[ax] not in (2, 3, None):
            raise ValueError(
                f"{op_name}: the vector axis must have size 2 or 3; received shapes "
                f"{fmt(s1)} and {fmt(s2)}."
            )
    va, vb = s1.pop(a), s2.pop(b)
    batch = list(broadcast_shapes(op_name, tuple(s1), tuple(s2)))
    if va == 2 and vb == 2:
        return tensor(batch, _product_dtype(x1, x2))
    batch.insert(canonical_axis(op_name, axisc, len(batch) + 1, None, "axisc"), 3)
    return tensor(batch, _product_dtype(x1, x2))


@op(_cross_spec)
def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 2- or 3-element vectors.

    Args:
        x1: a tensor whose vectors lie along ``axisa``.
        x2: a tensor whose vectors lie along ``axisb``.
        axisa: the axis of ``x1`` holding the vectors.
        axisb: the axis of ``x2`` holding the vectors.
        axisc: the axis of the result holding the vectors.
        axis: if given, overrides ``axisa``, ``axisb`` and ``axisc``.

    Returns:
        A tensor of cross products (a scalar per pair for 2-element vectors).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.cross(np.array([1, 0, 0]), np.array([0, 1, 0]))).tolist()
    [0, 0, 1]
    """


_EINSUM_TERM = re.compile(r"^[a-zA-Z.]*$")


def _einsum_spec(op_name: str, subscripts: str, operands: Any, kwargs: Any = None) -> Any:
    spec = subscripts.replace(" ", "")
    if "->" in spec:
        inputs, output = spec.split("->")
    else:
        inputs, output = spec, None
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(
            f"{op_name}: subscripts {subscripts!r} name {len(terms)} operands, "
            f"received {len(operands)}."
        )
    sizes: dict[str, Any] = {}
    ellipsis_shapes = []
    counts: dict[str, int] = {}
    for term, x in zip(terms, operands, strict=True):
        shape = shape_of(x)
        if not _EINSUM_TERM.match(term):
            raise ValueError(f"{op_name}: invalid subscripts {subscripts!r}.")
        if "..." in term:
            left, right = term.split("...")
            n_ell = len(shape) - len(left) - len(right)
            ellipsis_shapes.append(shape[len(left) : len(left) + n_ell])
            letters = list(left) + list(right)
            dims = list(shape[: len(left)]) + list(shape[len(shape) - len(right) :])
        else:
            if len(term) != len(shape):
                raise ValueError(
                    f"{op_name}: operand term {term!r} has {len(term)} letters but the operand "
                    f"has shape {fmt(shape)}."
                )
            letters, dims = list(term), list(shape)
        for letter, d in zip(letters, dims, strict=True):
            counts[letter] = counts.get(letter, 0) + 1
            known = sizes.get(letter)
            if known is not None and d is not None and known != d and 1 not in (known, d):
                raise ValueError(
                    f"{op_name}: index {letter!r} has sizes {known} and {d} in {subscripts!r}."
                )
            if known is None or known == 1:
                sizes[letter] = d
    ell = broadcast_shapes(op_name, *ellipsis_shapes) if ellipsis_shapes else ()
    if output is None:
        output = "".join(sorted(k for k, v in counts.items() if v == 1))
        if ellipsis_shapes:
            output = "..." + output
    out: list[Any] = []
    parts = output.split("...")
    out.extend(sizes.get(c) for c in parts[0])
    if len(parts) == 2:
        out.extend(ell)
        out.extend(sizes.get(c) for c in parts[1])
    dtype = _dtypes.result_type(*(dtype_of(x) for x in operands))
    if dtype == "bool":
        dtype = "int32"
    return tensor(out, dtype)


@op(_einsum_spec)
def einsum(subscripts, *operands, **kwargs):
    """Einstein summation over the operands.

    Args:
        subscripts: the subscripts, e.g. ``"ij,jk->ik"``: repeated letters are summed
            over, the letters after ``->`` are the output's axes.
        *operands: the tensors, one per comma-separated group.
        **kwargs: accepted for compatibility (e.g. ``optimize``).

    Returns:
        A tensor.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> a, b = np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])
    >>> ops.convert_to_numpy(ops.einsum("ij,jk->ik", a, b)).tolist()
    [[19, 22], [43, 50]]
    >>> int(ops.einsum("ii", a)), ops.convert_to_numpy(ops.einsum("ij->j", a)).tolist()
    (5, [4, 6])
    """


def _trace_spec(op_name: str, x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    shape = shape_of(x)
    a = canonical_axis(op_name, axis1, len(shape), shape, "axis1")
    b = canonical_axis(op_name, axis2, len(shape), shape, "axis2")
    dtype = std_dtype(x)
    if dtype in ("bool", "int8", "int16"):
        dtype = "int32"
    return tensor([d for i, d in enumerate(shape) if i not in (a, b)], dtype)


@op(_trace_spec)
def trace(x, offset=0, axis1=0, axis2=1):
    """Sum along diagonals.

    Args:
        x: a tensor of rank >= 2.
        offset: the diagonal: 0 the main one, > 0 above it, < 0 below it.
        axis1: the first axis of the 2D planes.
        axis2: the second axis of the 2D planes.

    Returns:
        A tensor without ``axis1`` and ``axis2``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(9).reshape(3, 3)
    >>> int(ops.trace(x)), int(ops.trace(x, offset=1))
    (12, 6)
    """


def _diag_len(n: Any, m: Any, k: int) -> Any:
    if n is None or m is None:
        return None
    return builtins.max(0, builtins.min(n, m - k) if k >= 0 else builtins.min(n + k, m))


def _diagonal_spec(op_name: str, x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    shape = shape_of(x)
    if len(shape) < 2:
        raise ValueError(f"{op_name}: expected rank >= 2, received shape {fmt(shape)}.")
    a = canonical_axis(op_name, axis1, len(shape), shape, "axis1")
    b = canonical_axis(op_name, axis2, len(shape), shape, "axis2")
    rest = [d for i, d in enumerate(shape) if i not in (a, b)]
    return tensor([*rest, _diag_len(shape[a], shape[b], offset)], std_dtype(x))


@op(_diagonal_spec)
def diagonal(x, offset=0, axis1=0, axis2=1):
    """The given diagonals.

    Args:
        x: a tensor of rank >= 2.
        offset: the diagonal: 0 the main one, > 0 above it, < 0 below it.
        axis1: the first axis of the 2D planes.
        axis2: the second axis of the 2D planes.

    Returns:
        A tensor: the other axes, then the diagonal as the last axis.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(9).reshape(3, 3)
    >>> ops.convert_to_numpy(ops.diagonal(x)).tolist()
    [0, 4, 8]
    >>> ops.convert_to_numpy(ops.diagonal(x, offset=-1)).tolist()
    [3, 7]
    """


def _diag_spec(op_name: str, x: Any, k: int = 0) -> Any:
    shape = shape_of(x)
    if len(shape) == 1:
        n = None if shape[0] is None else shape[0] + builtins.abs(k)
        return tensor((n, n), std_dtype(x))
    if len(shape) == 2:
        return tensor((_diag_len(shape[0], shape[1], k),), std_dtype(x))
    raise ValueError(f"{op_name}: expected a 1D or 2D input, received shape {fmt(shape)}.")


@op(_diag_spec)
def diag(x, k=0):
    """Extract a diagonal (2D input) or build a diagonal matrix (1D input).

    Args:
        x: a 1D or 2D tensor.
        k: the diagonal: 0 the main one, > 0 above it, < 0 below it.

    Returns:
        For 2D ``x``, its ``k``-th diagonal; for 1D ``x``, a square matrix with ``x`` on the
        ``k``-th diagonal.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.diag(np.arange(9).reshape(3, 3))).tolist()
    [0, 4, 8]
    >>> ops.convert_to_numpy(ops.diag(np.array([1, 2]))).tolist()
    [[1, 0], [0, 2]]
    """


def _diagflat_spec(op_name: str, x: Any, k: int = 0) -> Any:
    n = _flat(shape_of(x))
    n = None if n is None else n + builtins.abs(k)
    return tensor((n, n), std_dtype(x))


@op(_diagflat_spec)
def diagflat(x, k=0):
    """A 2D tensor with the flattened input on the k-th diagonal.

    Args:
        x: a tensor (flattened).
        k: the diagonal: 0 the main one, > 0 above it, < 0 below it.

    Returns:
        A square 2D tensor of size ``x.size + abs(k)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.diagflat(np.array([[1, 2]]), k=1)).tolist()
    [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """


def _triangle_spec(op_name: str, x: Any, k: int = 0) -> Any:
    if len(shape_of(x)) < 2:
        raise ValueError(f"{op_name}: expected rank >= 2, received shape {fmt(shape_of(x))}.")
    return like(x)


@op(_triangle_spec)
def tril(x, k=0):
    """Lower triangle of a tensor (zeros above the k-th diagonal).

    Args:
        x: a tensor of rank >= 2 (the last two axes are the matrices).
        k: the diagonal above which values are zeroed: 0 the main one, > 0 above it.

    Returns:
        A tensor shaped as ``x``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.tril(np.arange(9).reshape(3, 3))).tolist()
    [[0, 0, 0], [3, 4, 0], [6, 7, 8]]
    """


@op(_triangle_spec)
def triu(x, k=0):
    """Upper triangle of a tensor (zeros below the k-th diagonal).

    Args:
        x: a tensor of rank >= 2 (the last two axes are the matrices).
        k: the diagonal below which values are zeroed: 0 the main one, > 0 above it.

    Returns:
        A tensor shaped as ``x``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.triu(np.arange(9).reshape(3, 3), k=1)).tolist()
    [[0, 1, 2], [0, 0, 5], [0, 0, 0]]
    """


def _correlate_spec(op_name: str, x1: Any, x2: Any, mode: str = "valid") -> Any:
    s1, s2 = shape_of(x1), shape_of(x2)
    if len(s1) != 1 or len(s2) != 1:
        raise ValueError(f"{op_name}: expected 1D inputs, received {fmt(s1)} and {fmt(s2)}.")
    n, m = s1[0], s2[0]
    if n is None or m is None:
        length = None
    elif mode == "valid":
        length = builtins.max(n, m) - builtins.min(n, m) + 1
    elif mode == "same":
        length = builtins.max(n, m)
    elif mode == "full":
        length = n + m - 1
    else:
        raise ValueError(f"{op_name}: mode must be 'valid', 'same' or 'full', received {mode!r}.")
    dtype = _dtypes.result_type(dtype_of(x1), dtype_of(x2))
    if dtype in ("bool", "int8", "int16", "uint8", "uint16", "int32", "uint32", "int64"):
        dtype = float_dtype(dtype)
    return tensor((length,), dtype)


@op(_correlate_spec)
def correlate(x1, x2, mode="valid"):
    """Cross-correlation of two 1D tensors (``numpy.correlate``).

    Args:
        x1: a 1D tensor.
        x2: a 1D tensor.
        mode: ``"valid"`` (only full overlaps), ``"same"`` (the size of the longer input)
            or ``"full"`` (every overlap).

    Returns:
        A 1D tensor: ``out[k] = sum_n x1[n + k] * conj(x2[n])``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> a, v = np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5])
    >>> ops.convert_to_numpy(ops.correlate(a, v)).tolist()
    [3.5]
    >>> ops.convert_to_numpy(ops.correlate(a, v, mode="same")).tolist()
    [2.0, 3.5, 3.0]
    """


def _corrcoef_spec(op_name: str, x: Any) -> Any:
    shape = shape_of(x)
    n = 1 if len(shape) < 2 else shape[0]
    return tensor((n, n) if len(shape) == 2 else (), float_dtype(std_dtype(x)))


@op(_corrcoef_spec)
def corrcoef(x):
    """Pearson correlation coefficients of the rows.

    Args:
        x: a 2D tensor: one variable per row, one observation per column.

    Returns:
        A square float tensor ``(rows, rows)`` of correlation coefficients.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    >>> ops.convert_to_numpy(ops.corrcoef(x)).tolist()
    [[1.0, -1.0], [-1.0, 1.0]]
    """


def _slogdet_spec(op_name: str, x: Any) -> Any:
    shape = shape_of(x)
    if len(shape) < 2 or not _dims_match(shape[-1], shape[-2]):
        raise ValueError(f"{op_name}: expected square matrices, received shape {fmt(shape)}.")
    dtype = float_dtype(std_dtype(x))
    return (tensor(shape[:-2], dtype), tensor(shape[:-2], dtype))


@op(_slogdet_spec)
def slogdet(x):
    """Sign and natural log of the determinant.

    Args:
        x: a tensor ``(..., n, n)`` of square matrices.

    Returns:
        A pair ``(sign, logabsdet)``: the determinant is ``sign * exp(logabsdet)``, which
        stays finite where the determinant itself would overflow.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> sign, logdet = ops.slogdet(np.array([[0.0, 2.0], [1.0, 0.0]]))  # det = -2
    >>> float(sign), ops.convert_to_numpy(logdet).astype("float64").round(4).tolist()
    (-1.0, 0.6931)
    """


def _vander_spec(op_name: str, x: Any, N: Any = None, increasing: bool = False) -> Any:
    shape = shape_of(x)
    if len(shape) != 1:
        raise ValueError(f"{op_name}: expected a 1D input, received shape {fmt(shape)}.")
    cols = shape[0] if N is None else N
    dtype = std_dtype(x)
    return tensor((shape[0], cols), "int32" if dtype == "bool" else dtype)


@op(_vander_spec)
def vander(x, N=None, increasing=False):
    """Vandermonde matrix.

    Args:
        x: a 1D tensor.
        N: the number of columns; None: ``len(x)``.
        increasing: whether the powers increase from left to right (by default they
            decrease, ending with ``x**0``).

    Returns:
        A 2D tensor ``(len(x), N)`` of the powers of ``x``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.vander(np.array([1, 2, 3]))).tolist()
    [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    >>> ops.convert_to_numpy(ops.vander(np.array([1, 2, 3]), N=2, increasing=True)).tolist()
    [[1, 1], [1, 2], [1, 3]]
    """
