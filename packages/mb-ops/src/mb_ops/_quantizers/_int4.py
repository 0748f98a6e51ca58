"""Two int4 values per byte: packing (on the host) and unpacking (in the graph)."""

from __future__ import annotations

import numpy as np

from mb_ops import _dtypes, ops


def _check_dtype(dtype):
    if dtype not in ("int8", "uint8"):
        raise ValueError(f"Expected dtype to be 'int8' or 'uint8', but got '{dtype}'.")


def pack_int4(arr, axis=0, dtype="int8"):
    """Packs int4 values (int8 in ``[-8, 7]``, or uint8 in ``[0, 15]``) two per byte along `axis`.

    Of each pair of consecutive entries the first goes into the low nibble and the
    second into the high one; an odd length is padded with a zero.

    Args:
        arr: an `dtype` tensor of int4 values.
        axis: the axis packed.
        dtype: ``"int8"`` or ``"uint8"``.

    Returns:
        ``(packed, packed_shape, original_length)``.

    Example:

    >>> import numpy as np
    >>> packed, shape, n = pack_int4(np.array([[-3, 7], [2, -8], [1, 0]], "int8"))
    >>> ops.convert_to_numpy(packed).tolist(), shape, n
    ([[45, -121], [1, 0]], (2, 2), 3)
    """
    _check_dtype(dtype)
    if _dtypes.standardize_dtype(arr.dtype) != dtype:
        raise TypeError(
            f"Expected {dtype} tensor for packing, got {_dtypes.standardize_dtype(arr.dtype)}."
        )
    array = ops.convert_to_numpy(arr)
    np_dtype = np.dtype(dtype)
    rank = array.ndim
    axis = axis + rank if axis < 0 else axis
    array = np.moveaxis(array, axis, 0)
    length = array.shape[0]
    if length % 2:
        array = np.concatenate([array, np.zeros((1, *array.shape[1:]), array.dtype)], axis=0)
    mask = np.array(0x0F, dtype=np_dtype)
    low = np.bitwise_and(array[::2].astype(np_dtype), mask)
    high = np.bitwise_and(array[1::2].astype(np_dtype), mask)
    packed = np.bitwise_or(low, np.left_shift(high, np.array(4, dtype=np_dtype))).astype(np_dtype)
    packed = np.moveaxis(packed, 0, axis)
    return ops.convert_to_tensor(packed), tuple(packed.shape), length


def _signed(x):
    # Nibbles 0..15 -> -8..7 without a branch: (x ^ 8) - 8.
    eight = ops.cast(8, _dtypes.standardize_dtype(x.dtype))
    return ops.subtract(ops.bitwise_xor(x, eight), eight)


def unpack_int4(packed, orig_len, axis=0, dtype="int8"):
    """Reverses `pack_int4`: the int4 values of `packed` along `axis`, `orig_len` of them.

    Example:

    >>> import numpy as np
    >>> ops.convert_to_numpy(unpack_int4(np.array([[45, -121], [1, 0]], "int8"), 3)).tolist()
    [[-3, 7], [2, -8], [1, 0]]
    """
    _check_dtype(dtype)
    if _dtypes.standardize_dtype(packed.dtype) not in ("int8", "uint8"):
        raise TypeError(f"Expected int8 or uint8 tensor for unpacking, got {packed.dtype}")
    rank = len(packed.shape)
    axis = axis + rank if axis < 0 else axis
    moved = axis != 0 or rank != 2
    if moved:
        perm = [axis] + [i for i in range(rank) if i != axis]
        packed = ops.transpose(packed, perm)
    mask = ops.array(0x0F, dtype=packed.dtype)
    low = ops.bitwise_and(packed, mask)
    high = ops.bitwise_and(ops.right_shift(packed, 4), mask)
    if dtype == "int8":
        low, high = _signed(low), _signed(high)
    pairs = ops.stack([ops.cast(low, dtype), ops.cast(high, dtype)], axis=1)
    unpacked = ops.reshape(pairs, (-1, *tuple(ops.shape(packed)[1:])))[:orig_len, ...]
    if moved:
        inverse = [perm.index(i) for i in range(rank)]
        unpacked = ops.transpose(unpacked, inverse)
    return unpacked
