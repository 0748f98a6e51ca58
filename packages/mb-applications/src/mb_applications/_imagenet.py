"""``preprocess_input`` and ``decode_predictions``: Keras's ImageNet conventions.

Three input conventions exist: ``caffe`` (RGB to BGR, minus the ImageNet mean
pixel), ``tf`` (scaled to ``[-1, 1]``) and ``torch`` (scaled to ``[0, 1]``,
then standardised per channel). Like Keras, a floating-point NumPy array is
processed in place and returned; other arrays are converted to
``floatx()`` first; backend tensors and symbolic tensors go through ``mb.ops``.
"""

import json

import numpy as np

import mb_data
from mb_ops import config, is_keras_tensor, ops

CLASS_INDEX_URL = (
    "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"
)
CLASS_INDEX_HASH = "c2c37ea517e94d9795004a39431a14cb"
_MODES = ("caffe", "tf", "torch")
_CAFFE_MEAN = (103.939, 116.779, 123.68)
_TORCH_MEAN = (0.485, 0.456, 0.406)
_TORCH_STD = (0.229, 0.224, 0.225)
_class_index = None


def _numpy(x, data_format, mode):
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(config.floatx(), copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    first = data_format == "channels_first"
    if mode == "torch":
        x /= 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        if first:
            x = x[::-1, ...] if x.ndim == 3 else x[:, ::-1, ...]
        else:
            x = x[..., ::-1]
        mean, std = _CAFFE_MEAN, None
    for c in range(3):
        if not first:
            index = (Ellipsis, c)
        else:
            index = (c,) if x.ndim == 3 else (slice(None), c)
        x[index] -= mean[c]
        if std is not None:
            x[index] /= std[c]
    return x


def _tensor(x, data_format, mode):
    ndim = len(x.shape)
    if mode == "tf":
        return x / 127.5 - 1.0
    first = data_format == "channels_first"
    if mode == "torch":
        x = x / 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        axis = (0 if ndim == 3 else 1) if first else -1
        x = ops.flip(x, axis=axis)  # RGB -> BGR
        mean, std = _CAFFE_MEAN, None
    if first:
        shape = (3, 1, 1) if ndim == 3 else (1, 3) + (1,) * (ndim - 2)
    else:
        shape = (1,) * (ndim - 1) + (3,)
    x = x + ops.convert_to_tensor(-np.reshape(mean, shape), dtype=x.dtype)
    if std is not None:
        x = x / ops.convert_to_tensor(np.reshape(std, shape), dtype=x.dtype)
    return x


def preprocess_input(x, data_format=None, mode="caffe"):
    """Preprocesses a batch of images (values in ``[0, 255]``) for an ImageNet model.

    Args:
        x: a NumPy array, a backend tensor or a symbolic tensor, 3D or 4D, with 3
            colour channels (RGB). A floating-point NumPy array is modified in place.
        data_format: ``"channels_last"`` or ``"channels_first"``; default: the
            configured ``image_data_format()``.
        mode: ``"caffe"`` (RGB to BGR, then zero-centred by the ImageNet mean
            pixel, unscaled), ``"tf"`` (scaled to ``[-1, 1]``) or ``"torch"``
            (scaled to ``[0, 1]``, then standardised with ImageNet's channel
            statistics).

    Returns:
        The preprocessed images (``float32`` for integer NumPy input).

    Raises:
        ValueError: for an unknown `mode` or `data_format`.

    Example:

    >>> import numpy as np
    >>> preprocess_input(np.array([[0.0, 127.5, 255.0]]), mode="tf").tolist()
    [[-1.0, 0.0, 1.0]]
    """
    if mode not in _MODES:
        raise ValueError(
            f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode!r}"
        )
    if data_format is None:
        data_format = config.image_data_format()
    elif data_format not in ("channels_first", "channels_last"):
        raise ValueError(
            "Expected data_format to be one of `channels_first` or `channels_last`. "
            f"Received: data_format={data_format!r}"
        )
    if isinstance(x, np.ndarray):
        return _numpy(x, data_format, mode)
    if not (is_keras_tensor(x) or hasattr(x, "shape")):
        x = np.asarray(x)
        return _numpy(x, data_format, mode)
    return _tensor(x, data_format, mode)


def _load_class_index():
    global _class_index
    if _class_index is None:
        path = mb_data.get_file(
            "imagenet_class_index.json",
            CLASS_INDEX_URL,
            cache_subdir="models",
            file_hash=CLASS_INDEX_HASH,
        )
        with open(path) as f:
            _class_index = json.load(f)
    return _class_index


def decode_predictions(preds, top=5):
    """Decodes the predictions of an ImageNet classifier into readable classes.

    The class index (``imagenet_class_index.json``) is read from
    ``~/.keras/models``, and downloaded there on first use.

    Args:
        preds: a batch of predictions, shape ``(samples, 1000)`` (an array or a tensor).
        top: how many of the most likely classes to return per sample.

    Returns:
        One list per sample of ``(class_name, class_description, score)`` tuples,
        most likely first.

    Raises:
        ValueError: when `preds` is not of shape ``(samples, 1000)``.
    """
    shape = tuple(preds.shape) if hasattr(preds, "shape") else np.shape(preds)
    if len(shape) != 2 or shape[1] != 1000:
        raise ValueError(
            "`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
            f"(samples, 1000)). Received array with shape: {shape}"
        )
    index = _load_class_index()
    results = []
    for pred in np.asarray(ops.convert_to_numpy(preds)):
        best = pred.argsort()[-top:][::-1]
        found = [(*index[str(i)], pred[i]) for i in best]
        found.sort(key=lambda item: item[2], reverse=True)
        results.append(found)
    return results


_LAYOUT = """``"channels_last"`` or ``"channels_first"``; default: the
            configured ``image_data_format()``."""


def _mode_doc(summary, example, data_format=_LAYOUT):
    """Gives a ``preprocess_<mode>`` function its docstring: `summary`, the arguments
    and return value they share, then `example` (its lines after importing NumPy)."""

    def decorate(fn):
        fn.__doc__ = f"""{summary}

    Args:
        x: a NumPy array (a floating-point one is modified in place), a backend
            tensor or a symbolic tensor, 3D or 4D, with 3 channels (RGB).
        data_format: {data_format}

    Returns:
        The preprocessed images.

    Example:

    >>> import numpy as np
{example}
    """
        return fn

    return decorate


@_mode_doc(
    """Preprocesses images in ``[0, 255]`` as the model was trained: RGB to BGR, then
    each channel zero-centred by the ImageNet mean pixel, without scaling.""",
    """    >>> preprocess_caffe(np.full((1, 1, 1, 3), 128.0), "channels_last").round(3).tolist()
    [[[[24.061, 11.221, 4.32]]]]""",
)
def preprocess_caffe(x, data_format=None):
    return preprocess_input(x, data_format=data_format, mode="caffe")


@_mode_doc(
    """Preprocesses images in ``[0, 255]`` as the model was trained: scaled to ``[-1, 1]``.""",
    """    >>> preprocess_tf(np.array([0.0, 255.0])).tolist()
    [-1.0, 1.0]""",
    data_format="""ignored (the scaling is the same for both layouts); checked
            as Keras does.""",
)
def preprocess_tf(x, data_format=None):
    return preprocess_input(x, data_format=data_format, mode="tf")


@_mode_doc(
    """Preprocesses images in ``[0, 255]`` as the model was trained: scaled to ``[0, 1]``,
    then each channel standardised with ImageNet's mean and standard deviation.""",
    """    >>> preprocess_torch(np.full((1, 1, 1, 3), 255.0), "channels_last").round(3).tolist()
    [[[[2.249, 2.429, 2.64]]]]""",
)
def preprocess_torch(x, data_format=None):
    return preprocess_input(x, data_format=data_format, mode="torch")


def preprocess_identity(x, data_format=None):
    """Returns `x` unchanged: this model preprocesses its input itself.

    Kept so that code calling ``preprocess_input`` for every model works; the
    model takes pixels in ``[0, 255]``.

    Args:
        x: the images.
        data_format: ignored.

    Returns:
        `x`, unchanged.

    Example:

    >>> preprocess_identity([1.0, 2.0])
    [1.0, 2.0]
    """
    return x
