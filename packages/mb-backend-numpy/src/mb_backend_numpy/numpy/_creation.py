"""Creating arrays: constants, ranges, grids and window functions."""

import numpy as np

from mb_backend_numpy._convert import convert_to_tensor, to_tensor
from mb_backend_numpy._dtypes import dtype_of, result_type, to_numpy_dtype
from mb_backend_numpy.numpy._common import cast, floatx
from mb_ops import numpy_shaped


def _dtype(dtype):
    return to_numpy_dtype(dtype or floatx())


def _like_dtype(dtype):
    return None if dtype is None else to_numpy_dtype(dtype)


_shape = numpy_shaped.as_shape


def array(x, dtype=None):
    return convert_to_tensor(x, dtype=dtype)


def _of_shape(np_fn):
    """``np_fn`` (``np.zeros`` and kin) of a shape, in ``dtype`` (None: floatx)."""

    def create(shape, dtype=None):
        return np_fn(_shape(shape), dtype=_dtype(dtype))

    create.__name__ = create.__qualname__ = np_fn.__name__
    return create


def _like(np_fn):
    """``np_fn`` (``np.zeros_like`` and kin) of ``x``, in ``dtype`` (None: ``x``'s)."""

    def create(x, dtype=None):
        return np_fn(to_tensor(x), dtype=_like_dtype(dtype))

    create.__name__ = create.__qualname__ = np_fn.__name__
    return create


zeros = _of_shape(np.zeros)
ones = _of_shape(np.ones)
empty = _of_shape(np.empty)


def full(shape, fill_value, dtype=None):
    return np.full(_shape(shape), to_tensor(fill_value), dtype=_dtype(dtype))


zeros_like = _like(np.zeros_like)
ones_like = _like(np.ones_like)
empty_like = _like(np.empty_like)


def full_like(x, fill_value, dtype=None):
    return np.full_like(to_tensor(x), to_tensor(fill_value), dtype=_like_dtype(dtype))


def eye(N, M=None, k=0, dtype=None):
    return np.eye(N, M=M, k=k, dtype=_dtype(dtype))


def identity(n, dtype=None):
    return np.identity(n, dtype=_dtype(dtype))


def tri(N, M=None, k=0, dtype=None):
    return np.tri(N, M=M, k=k, dtype=_dtype(dtype))


def _scalar(v):
    v = to_tensor(v) if not isinstance(v, int | float) else v
    return v


def arange(start, stop=None, step=None, dtype=None):
    if dtype is None:
        parts = [dtype_of(start)]
        if stop is not None:
            parts.append(dtype_of(stop))
        if step is not None:
            parts.append(dtype_of(step))
        dtype = result_type(*parts)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    return np.arange(_scalar(start), _scalar(stop), _scalar(step), dtype=to_numpy_dtype(dtype))


def _space_dtype(start, stop, dtype):
    if dtype is not None:
        return dtype
    return result_type(dtype_of(start), dtype_of(stop), float)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    dtype = to_numpy_dtype(_space_dtype(start, stop, dtype))
    return np.linspace(
        to_tensor(start),
        to_tensor(stop),
        num=num,
        endpoint=endpoint,
        retstep=retstep,
        dtype=dtype,
        axis=axis,
    )


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    dtype = to_numpy_dtype(_space_dtype(start, stop, dtype))
    return np.logspace(
        to_tensor(start),
        to_tensor(stop),
        num=num,
        endpoint=endpoint,
        base=base,
        dtype=dtype,
        axis=axis,
    )


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    out = np.geomspace(to_tensor(start), to_tensor(stop), num=num, endpoint=endpoint, axis=axis)
    return cast(out, dtype or floatx())


def meshgrid(*x, indexing="xy"):
    return np.meshgrid(*[to_tensor(v) for v in x], indexing=indexing)


def _window(np_fn, x, *args):
    return cast(np_fn(int(to_tensor(x)), *args), floatx())


def bartlett(x):
    return _window(np.bartlett, x)


def blackman(x):
    return _window(np.blackman, x)


def hamming(x):
    return _window(np.hamming, x)


def hanning(x):
    return _window(np.hanning, x)


def kaiser(x, beta):
    return _window(np.kaiser, x, float(to_tensor(beta)))
