"""Products and linear-algebra flavoured ops: matmul, dot, einsum, diagonals, triangles."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import dtype_of, name_of, result_type, standardize_dtype
from mb_backend_numpy.numpy._common import cast, floatx, promote, sum_dtype
from mb_ops import numpy_shaped


def matmul(x1, x2):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    numpy_shaped.check_matmul_ranks(x1.shape, x2.shape)
    if x1.dtype == x2.dtype and x1.dtype.kind in "fc":
        return np.matmul(x1, x2)  # the common case: nothing to promote
    if name_of(x1.dtype) == "int8" and name_of(x2.dtype) == "int8":
        dtype = "int32"  # as JAX: int8 products accumulate in int32
    else:
        dtype = result_type(x1.dtype, x2.dtype)
    return cast(np.matmul(cast(x1, dtype), cast(x2, dtype)), dtype)


def _product(np_fn):
    def op(x1, x2):
        (x1, x2), dtype = promote(to_tensor(x1), to_tensor(x2))
        return cast(np_fn(x1, x2), dtype)

    op.__name__ = np_fn.__name__
    op.__doc__ = f"``numpy.{np_fn.__name__}`` with mb's dtype promotion."
    return op


dot = _product(np.dot)
inner = _product(np.inner)
outer = _product(np.outer)
vdot = _product(np.vdot)
kron = _product(np.kron)


def tensordot(x1, x2, axes=2):
    if isinstance(axes, list):
        axes = tuple(tuple(a) if isinstance(a, list) else a for a in axes)
    (x1, x2), dtype = promote(to_tensor(x1), to_tensor(x2))
    return cast(np.tensordot(x1, x2, axes=axes), dtype)


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    (x1, x2), _ = promote(to_tensor(x1), to_tensor(x2))
    return np.cross(x1, x2, axisa=axisa, axisb=axisb, axisc=axisc, axis=axis)


def einsum(subscripts, *operands, **kwargs):
    operands = [to_tensor(x) for x in operands]
    kinds = {standardize_dtype(x.dtype) for x in operands}
    if kinds == {"int8"}:
        compute = result = "int32"
    else:
        result = result_type(*kinds)
        compute = "float32" if result in ("bfloat16", "float16") else result
    operands = [cast(x, compute) for x in operands]
    return cast(np.einsum(subscripts, *operands, **kwargs), result)


def trace(x, offset=0, axis1=0, axis2=1):
    x = to_tensor(x)
    dtype = sum_dtype(x.dtype)
    return cast(np.trace(x, offset=offset, axis1=axis1, axis2=axis2, dtype=dtype), dtype)


def slogdet(x):
    x = to_tensor(x)
    sign, logdet = np.linalg.slogdet(x)
    return sign, logdet


def _stat_dtype(dtype):
    if dtype in ("int64", "float64"):
        return "float64"
    if dtype in ("bfloat16", "float16"):
        return dtype
    return floatx()


def corrcoef(x):
    x = to_tensor(x)
    dtype = _stat_dtype(standardize_dtype(x.dtype))
    with np.errstate(all="ignore"):
        return cast(np.corrcoef(cast(x, "float64")), dtype)


def correlate(x1, x2, mode="valid"):
    dtype = result_type(dtype_of(x1), dtype_of(x2))
    if dtype == "int64":
        dtype = "float64"
    elif dtype not in ("bfloat16", "float16", "float64"):
        dtype = "float32"
    compute = "float32" if dtype in ("bfloat16", "float16") else dtype
    x1, x2 = cast(to_tensor(x1), compute), cast(to_tensor(x2), compute)
    return cast(np.correlate(x1, x2, mode), dtype)


def vander(x, N=None, increasing=False):
    x = to_tensor(x)
    dtype = result_type(x.dtype)
    compute = result_type(x.dtype, floatx())
    return cast(np.vander(cast(x, compute), N=N, increasing=increasing), dtype)


def diag(x, k=0):
    return np.diag(to_tensor(x), k=k)


def diagflat(x, k=0):
    return np.diagflat(to_tensor(x), k=k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return np.diagonal(to_tensor(x), offset=offset, axis1=axis1, axis2=axis2)


def tril(x, k=0):
    return np.tril(to_tensor(x), k=k)


def triu(x, k=0):
    return np.triu(to_tensor(x), k=k)
