"""Host-side helpers of ``keras.utils`` that prepare arrays: one-hot labels, padded
sequences, normalized rows. They run on NumPy, so they need no engine (``normalize``
hands a backend tensor to ``ops.normalize``)."""

import numpy as np

from mb_ops import ops


def to_categorical(x, num_classes=None):
    """Integer class labels as one-hot rows (``keras.utils.to_categorical``).

    Args:
        x: array-like of non-negative integer labels, any shape.
        num_classes: number of classes; ``max(x) + 1`` when None.

    Returns:
        A float32 NumPy array of shape ``x.shape + (num_classes,)`` (a trailing
        axis of size 1 in `x` is replaced, as in Keras).

    Example:
        >>> to_categorical([0, 2, 1], 3)
        array([[1., 0., 0.],
               [0., 0., 1.],
               [0., 1., 0.]], dtype=float32)
    """
    labels = np.asarray(x)
    if labels.size and not np.issubdtype(labels.dtype, np.integer):
        rounded = labels.astype("int64")
        if not np.array_equal(rounded, labels):
            raise ValueError(
                f"to_categorical expects integer class labels. Received values of dtype "
                f"{labels.dtype} that are not whole numbers, e.g. {labels.ravel()[:3]}."
            )
        labels = rounded
    shape = labels.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    labels = labels.reshape(-1)
    if labels.size and labels.min() < 0:
        raise ValueError(f"to_categorical expects labels >= 0. Received {labels.min()}.")
    if num_classes is None:
        num_classes = int(labels.max()) + 1 if labels.size else 0
    elif labels.size and labels.max() >= num_classes:
        raise ValueError(
            f"to_categorical received label {labels.max()} but num_classes={num_classes}; "
            "labels must lie in [0, num_classes). Pass a larger num_classes."
        )
    out = np.zeros((labels.size, num_classes), dtype="float32")
    out[np.arange(labels.size), labels] = 1.0
    return out.reshape((*shape, num_classes))


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (``keras.utils.normalize``).

    A NumPy array comes back as a NumPy array (a zero norm divides by 1, so zero rows
    stay zero); a backend tensor goes through ``ops.normalize``.

    Args:
        x: a NumPy array or a backend tensor.
        axis: the axis to normalize along.
        order: the order of the norm, e.g. 2 for L2.

    Returns:
        A normalized copy of ``x``.

    Example:
        >>> normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
        array([[0.6, 0.8],
               [0. , 0. ]])
    """
    if not isinstance(x, np.ndarray):
        return ops.normalize(x, axis=axis, order=order)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis if axis is not None else -1)


def pad_sequences(
    sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0
):
    """Lists of sequences padded (or cut) to one length (``keras.utils.pad_sequences``).

    Example:
        >>> pad_sequences([[1, 2, 3], [4]], maxlen=2)
        array([[2, 3],
               [0, 4]], dtype=int32)
    """
    for name, option in (("padding", padding), ("truncating", truncating)):
        if option not in ("pre", "post"):
            raise ValueError(f"pad_sequences: `{name}` must be 'pre' or 'post'. Got {option!r}.")
    if isinstance(sequences, (str, bytes)) or not hasattr(sequences, "__iter__"):
        raise ValueError(
            f"pad_sequences: `sequences` must be a list of sequences. Received: {sequences!r}."
        )
    sequences = list(sequences)
    for i, s in enumerate(sequences):
        if isinstance(s, (str, bytes)) or not hasattr(s, "__len__"):
            raise ValueError(
                "pad_sequences: `sequences` must be a list of iterables (lists or arrays). "
                f"Found non-iterable at position {i}: {s!r}."
            )
    sequences = [np.asarray(s) for s in sequences]
    lengths = [len(s) for s in sequences]
    if maxlen is None:
        maxlen = max(lengths, default=0)
    sample_shape = next((s.shape[1:] for s in sequences if len(s)), ())
    is_text = np.issubdtype(np.dtype(dtype), np.str_) or np.dtype(dtype) == object
    if isinstance(value, str) and not is_text:
        raise ValueError(
            f"pad_sequences: `dtype` {dtype!r} cannot hold the string padding value {value!r}. "
            "Pass dtype=object or a string dtype."
        )
    out = np.full((len(sequences), maxlen, *sample_shape), value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq) or maxlen == 0:
            continue
        cut = seq[-maxlen:] if truncating == "pre" else seq[:maxlen]
        if cut.shape[1:] != sample_shape:
            raise ValueError(
                f"pad_sequences: sequence {i} has items of shape {cut.shape[1:]}, but earlier "
                f"sequences have items of shape {sample_shape}. All items must agree."
            )
        if padding == "post":
            out[i, : len(cut)] = cut
        else:
            out[i, -len(cut) :] = cut
    return out
