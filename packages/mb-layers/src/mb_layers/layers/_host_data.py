"""Inputs of the string and hashing layers on the host, and their categorical encodings.

String tensors exist in no engine but TensorFlow, so these layers take their
inputs to NumPy (lists, tuples, NumPy arrays, or any backend tensor) and hand
back the active backend's tensors.
"""

import numpy as np

from mb_layers._ops import ops

ENCODED_MODES = ("one_hot", "multi_hot", "count", "tf_idf")


def to_host(x, layer_name):
    """`x` as a NumPy array; a traced tensor (inside a compiled function) is refused."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (list, tuple, str, bytes, int, float, np.generic)):
        return np.asarray(x)
    try:
        return np.asarray(ops.convert_to_numpy(x))
    except Exception as error:
        raise TypeError(
            f"{layer_name} works on the host (NumPy) and needs concrete values, but received "
            f"{type(x).__name__}, which has none (a tensor traced inside a compiled function?). "
            "Apply the layer to the data before the model (e.g. in the input pipeline), or run "
            "the model eagerly (jit_compile=False)."
        ) from error


def adapt_from(data, steps, update_batch, update_array=None):
    """Feeds an ``adapt`` call's `data` to the layer: an array (a list, a tuple, anything
    with a ``shape``) to `update_array` (default: `update_batch`) at once, an iterable of
    batches to `update_batch` one by one, `steps` of them at the most."""
    if isinstance(data, (list, tuple, np.ndarray)) or hasattr(data, "shape"):
        (update_array or update_batch)(data)
        return
    for i, batch in enumerate(data):
        if steps is not None and i >= steps:
            break
        update_batch(batch)


def is_string_array(array):
    """Whether a host array holds text (str or bytes)."""
    if array.dtype.kind in "US":
        return True
    if array.dtype.kind == "O" and array.size:
        return isinstance(array.flat[0], (str, bytes))
    return False


def as_text(array, encoding="utf-8"):
    """A host array of strings (``str`` or ``bytes``) as a NumPy array of ``str``."""
    if array.dtype.kind == "U":
        return array
    flat = [v.decode(encoding) if isinstance(v, bytes) else str(v) for v in array.ravel()]
    if not flat:
        return np.zeros(array.shape, dtype="U1")
    return np.array(flat, dtype=str).reshape(array.shape)


def as_bytes_list(array, encoding="utf-8"):
    """The flattened values of a host array as ``bytes`` (numbers in decimal), for hashing."""
    if is_string_array(array):
        return [v if isinstance(v, bytes) else str(v).encode(encoding) for v in array.ravel()]
    if array.dtype.kind == "f":
        array = array.astype("int64")
    if array.dtype.kind not in "iub":
        raise TypeError(
            f"Expected strings or integers to hash. Received an array of dtype {array.dtype}."
        )
    return [str(int(v)).encode("ascii") for v in array.ravel()]


def encode_categorical(indices, output_mode, depth, dtype, idf_weights=None):
    """Integer `indices` encoded as Keras's categorical layers do.

    ``one_hot`` adds an axis of size `depth` (replacing a last axis of size 1);
    ``multi_hot``, ``count`` and ``tf_idf`` treat the last axis as one sample
    (a rank-1 input is a single sample) and replace it by `depth`. Indices
    outside ``[0, depth)`` (a mask) are dropped.

    Args:
        indices: an integer tensor (or array).
        output_mode: ``"one_hot"``, ``"multi_hot"``, ``"count"`` or ``"tf_idf"``.
        depth: the size of the encoded axis.
        dtype: the output dtype.
        idf_weights: the ``tf_idf`` weights, shape ``(depth,)``.
    """
    indices = ops.convert_to_tensor(indices)
    if len(indices.shape) == 0:
        indices = ops.expand_dims(indices, -1)
        encoded = encode_categorical(indices, output_mode, depth, dtype, idf_weights)
        return encoded[0] if output_mode == "one_hot" else encoded
    if output_mode == "one_hot" and len(indices.shape) > 1 and indices.shape[-1] == 1:
        indices = ops.squeeze(indices, axis=-1)
    indices = ops.cast(indices, "int32")
    valid = ops.logical_and(ops.greater_equal(indices, 0), ops.less(indices, depth))
    safe = ops.where(valid, indices, ops.zeros_like(indices))
    hot = ops.one_hot(safe, depth, dtype=dtype)
    hot = ops.multiply(hot, ops.cast(ops.expand_dims(valid, -1), dtype))
    if output_mode == "one_hot":
        return hot
    axis = -2 if len(indices.shape) > 1 else 0
    if output_mode == "multi_hot":
        return ops.max(hot, axis=axis)
    counts = ops.sum(hot, axis=axis)
    if output_mode == "tf_idf":
        return ops.multiply(counts, ops.convert_to_tensor(idf_weights, dtype=dtype))
    return counts


def encoded_shape(input_shape, output_mode, depth):
    """The output shape of `encode_categorical` for an input of `input_shape`."""
    shape = tuple(input_shape)
    if not shape:
        return (depth,)
    if output_mode == "one_hot":
        if len(shape) > 1 and shape[-1] == 1:
            return (*shape[:-1], depth)
        return (*shape, depth)
    return (*shape[:-1], depth)
