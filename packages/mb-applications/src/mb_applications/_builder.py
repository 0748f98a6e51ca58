"""What every architecture shares: argument checks, the input, the head, the weights.

A family module builds its layers between `image_input` and `finish`; both
follow Keras's rules for ``weights``, ``input_tensor``, ``input_shape``,
``include_top``, ``pooling`` and ``classifier_activation`` so that the same
call means the same model on mb and on Keras.
"""

import os
import warnings

import mb_saving  # noqa: F401  (connects Model.load_weights to the weight file formats)
from mb_applications import _weights
from mb_layers import Input, activations, get_source_inputs, layers
from mb_ops import config, is_keras_tensor
from mb_train.models import Functional

_POOLINGS = (None, "avg", "max")


def channels_last():
    """Whether the configured image data format is ``channels_last``."""
    return config.image_data_format() == "channels_last"


def channel_axis(last=-1):
    """The channel axis of an image batch: `last` (``-1`` or ``3``) or ``1``."""
    return last if channels_last() else 1


def check_arguments(weights, include_top, classes, pooling=None):
    """Keras's checks of ``weights``, ``classes`` and ``pooling``, as clear errors."""
    is_path = isinstance(weights, str | os.PathLike) and weights != "imagenet"
    if not (weights is None or weights == "imagenet" or (is_path and os.path.exists(weights))):
        raise ValueError(
            "The `weights` argument should be either `None` (random initialization), "
            "'imagenet' (pre-training on ImageNet), or the path to the weights file to be "
            f"loaded. Received: weights={weights!r}" + (" (no such file)." if is_path else ".")
        )
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError(
            "If using `weights='imagenet'` with `include_top=True`, `classes` should be "
            f"1000. Received: classes={classes}. To train a new classifier, pass "
            "include_top=False and add your own head, or weights=None."
        )
    if pooling not in _POOLINGS:
        raise ValueError(f"`pooling` must be None, 'avg' or 'max'. Received: pooling={pooling!r}.")


def resolve_shape(input_shape, default_size, min_size, include_top, weights):
    """The model's input shape (without the batch axis), as Keras's ``obtain_input_shape``.

    With ``include_top`` the shape must be static; with ImageNet weights and the
    top it must be the default size; else any size from `min_size` up.
    """
    first = not channels_last()
    if input_shape is not None:
        input_shape = tuple(input_shape)
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if first else input_shape[-1]
        if channels not in (1, 3):
            warnings.warn(
                "This model usually expects 1 or 3 input channels. However, it was passed "
                f"an input_shape with {channels} input channels.",
                stacklevel=4,
            )
        size = (default_size, default_size)
        default_shape = (channels, *size) if first else (*size, channels)
    else:
        default_shape = (3, default_size, default_size) if first else (default_size,) * 2 + (3,)
    if weights == "imagenet" and include_top:
        if input_shape is not None and input_shape != default_shape:
            raise ValueError(
                "When setting `include_top=True` and loading `imagenet` weights, "
                f"`input_shape` should be {default_shape}. Received: "
                f"input_shape={input_shape}. Pass include_top=False for other sizes."
            )
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError(
                "`input_shape` must be a tuple of three integers (height, width, channels "
                "in channels_last; channels first in channels_first). Received: "
                f"input_shape={input_shape}."
            )
        channels = input_shape[0] if first else input_shape[-1]
        if channels != 3 and weights == "imagenet":
            raise ValueError(
                f"The input must have 3 channels; Received `input_shape={input_shape}`."
            )
        spatial = input_shape[1:] if first else input_shape[:2]
        if any(s is not None and s < min_size for s in spatial):
            raise ValueError(
                f"Input size must be at least {min_size}x{min_size}; Received: "
                f"input_shape={input_shape}."
            )
    elif include_top:
        input_shape = default_shape
    else:
        input_shape = (3, None, None) if first else (None, None, 3)
    if include_top and None in input_shape:
        raise ValueError(
            "If `include_top` is True, you should specify a static `input_shape`. "
            f"Received: input_shape={input_shape}."
        )
    return input_shape


def image_input(input_tensor, input_shape):
    """The symbolic image the layers start from, and the model's inputs."""
    if input_tensor is None:
        x = Input(shape=input_shape)
        return x, x
    if not is_keras_tensor(input_tensor):
        raise ValueError(
            "`input_tensor` must be a symbolic tensor: the output of mb.layers.Input(...) "
            f"or of layers applied to one. Received: {type(input_tensor).__name__}. To run "
            "the model on data, build it without input_tensor and call it on the data."
        )
    return input_tensor, get_source_inputs(input_tensor)


def check_activation(classifier_activation, weights):
    """Pretrained heads were trained with softmax: only None or softmax fit them."""
    if weights is None:
        return
    fn = activations.get(classifier_activation)
    if fn not in (activations.get("softmax"), activations.get(None)):
        raise ValueError(
            "Only `None` and `softmax` activations are allowed for the "
            "`classifier_activation` argument when using pretrained weights, with "
            f"`include_top=True`; Received: classifier_activation={classifier_activation!r}"
        )


def dense_top(x, classes, classifier_activation, weights, pool_name="avg_pool", **dense):
    """Global average pooling and the ``predictions`` Dense layer."""
    x = layers.GlobalAveragePooling2D(name=pool_name)(x)
    check_activation(classifier_activation, weights)
    return layers.Dense(classes, activation=classifier_activation, name="predictions", **dense)(x)


def pool(x, pooling, names=("avg_pool", "max_pool")):
    """The ``pooling`` option of a model without its top (`names=None`: automatic names)."""
    avg, top = names or (None, None)
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=avg)(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name=top)(x)
    return x


def finish(inputs, outputs, name, weights, imagenet_file=None):
    """The functional model, with ``weights`` loaded (`imagenet_file`: a `WeightsFile`)."""
    model = Functional(inputs, outputs, name=name)
    if weights == "imagenet":
        if imagenet_file is None:
            raise ValueError(f"No ImageNet weights are published for '{name}'.")
        model.load_weights(_weights.fetch(imagenet_file))
    elif weights is not None:
        model.load_weights(weights)
    return model


def correct_pad(x, kernel_size):
    """Padding that makes a stride-2 ``valid`` convolution match TF's ``same`` one."""
    size = x.shape[1:3] if channels_last() else x.shape[2:4]
    k = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    return ((k[0] // 2 - adjust[0], k[0] // 2), (k[1] // 2 - adjust[1], k[1] // 2))


def make_divisible(value, divisor=8, min_value=None):
    """`value` rounded to a multiple of `divisor`, never more than 10% below it."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded
