"""MobileNet (depthwise-separable blocks) and MobileNetV2 (inverted residuals).

Both publish ImageNet weights for several widths (``alpha``) and square input
sizes; the model's name and the weight file follow the size of the input.
"""

import warnings

from mb_applications import _builder, _docs
from mb_applications._builder import make_divisible
from mb_applications._weights import published
from mb_layers import layers
from mb_ops import is_keras_tensor

_V1_SIZES = (128, 160, 192, 224)
_V2_SIZES = (96, 128, 160, 192, 224)
_V1_ALPHAS = {0.25: "2_5", 0.5: "5_0", 0.75: "7_5", 1.0: "1_0"}
_V2_ALPHAS = (0.35, 0.5, 0.75, 1.0, 1.3, 1.4)


def _spatial(shape):
    """``(rows, cols)`` of an image shape without the batch axis."""
    return tuple(shape[:2]) if _builder.channels_last() else tuple(shape[1:3])


def _default_size(input_shape, input_tensor, sizes):
    """The published size matching the input when square and published, else 224."""
    if input_shape is not None:
        rows, cols = _spatial(input_shape)
    elif input_tensor is not None and is_keras_tensor(input_tensor):
        rows, cols = _spatial(input_tensor.shape[1:])
    else:
        return 224
    return rows if rows == cols and rows in sizes else 224


def _check_tensor_shape(input_tensor, input_shape):
    if input_tensor is None or input_shape is None or not is_keras_tensor(input_tensor):
        return
    given, expected = _spatial(input_tensor.shape[1:]), _spatial(input_shape)
    if any(
        g is not None and e is not None and g != e for g, e in zip(given, expected, strict=True)
    ):
        raise ValueError(
            f"input_tensor's image size {given} does not match input_shape={tuple(input_shape)}"
            f" (input_tensor.shape={input_tensor.shape}). Pass one of them, or make them agree."
        )


def _imagenet_rows(rows, cols, sizes):
    if rows == cols and rows in sizes:
        return rows
    warnings.warn(
        f"`input_shape` is undefined or non-square, or `rows` is not in {list(sizes)}. "
        "Weights for input shape (224, 224) will be loaded as the default.",
        stacklevel=4,
    )
    return 224


def _v1_block(x, filters, alpha, depth_multiplier, strides, block_id):
    axis = _builder.channel_axis()
    if strides != (1, 1):
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D(
        (3, 3),
        padding="same" if strides == (1, 1) else "valid",
        depth_multiplier=depth_multiplier,
        strides=strides,
        use_bias=False,
        name=f"conv_dw_{block_id}",
    )(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(
        int(filters * alpha), (1, 1), padding="same", use_bias=False, name=f"conv_pw_{block_id}"
    )(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


# (filters, stride) of MobileNet's 13 depthwise-separable blocks.
_V1_BLOCKS = (
    ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2))
    + ((512, 1),) * 5
    + (
        (1024, 2),
        (1024, 1),
    )
)


def MobileNet(
    input_shape=None,
    alpha=1.0,
    depth_multiplier=1,
    dropout=1e-3,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name=None,
):
    _builder.check_arguments(weights, include_top, classes, pooling)
    default_size = _default_size(input_shape, None, _V1_SIZES)
    shape = _builder.resolve_shape(input_shape, default_size, 32, include_top, weights)
    rows, cols = _spatial(shape)
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError(
                "If imagenet weights are being loaded, depth multiplier must be 1. "
                f"Received depth_multiplier={depth_multiplier}"
            )
        if alpha not in _V1_ALPHAS:
            raise ValueError(
                "If imagenet weights are being loaded, alpha can be one of `0.25`, `0.50`, "
                f"`0.75` or `1.0` only. Received alpha={alpha}"
            )
        rows = _imagenet_rows(rows, cols, _V1_SIZES)
    x, inputs = _builder.image_input(input_tensor, shape)
    axis = _builder.channel_axis()
    x = layers.Conv2D(
        int(32 * alpha), (3, 3), padding="same", use_bias=False, strides=(2, 2), name="conv1"
    )(x)
    x = layers.BatchNormalization(axis=axis, name="conv1_bn")(x)
    x = layers.ReLU(6.0, name="conv1_relu")(x)
    for block_id, (filters, stride) in enumerate(_V1_BLOCKS, 1):
        x = _v1_block(x, filters, alpha, depth_multiplier, (stride, stride), block_id)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        _builder.check_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    else:
        x = _builder.pool(x, pooling, names=None)
    name = f"mobilenet_{alpha:0.2f}_{rows}" if name is None else name
    file = None
    if weights == "imagenet":
        suffix = "tf" if include_top else "tf_no_top"
        file = published("mobilenet/", f"mobilenet_{_V1_ALPHAS[alpha]}_{rows}_{suffix}.h5")
    return _builder.finish(inputs, x, name, weights, file)


def _inverted_residual(x, expansion, stride, alpha, filters, block_id):
    axis = _builder.channel_axis()
    in_channels = x.shape[axis]
    out_channels = make_divisible(int(filters * alpha), 8)
    inputs = x
    prefix = f"block_{block_id}_" if block_id else "expanded_conv_"

    def bn(name):
        return layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name=name)

    if block_id:
        x = layers.Conv2D(
            expansion * in_channels, 1, padding="same", use_bias=False, name=f"{prefix}expand"
        )(x)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(bn(f"{prefix}expand_BN")(x))
    if stride == 2:
        x = layers.ZeroPadding2D(_builder.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(
        3,
        strides=stride,
        use_bias=False,
        padding="same" if stride == 1 else "valid",
        name=f"{prefix}depthwise",
    )(x)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(bn(f"{prefix}depthwise_BN")(x))
    x = layers.Conv2D(out_channels, 1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = bn(f"{prefix}project_BN")(x)
    if in_channels == out_channels and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


# (filters, stride, expansion, repeats) of MobileNetV2's bottleneck stages.
_V2_STAGES = (
    (16, 1, 1, 1),
    (24, 2, 6, 2),
    (32, 2, 6, 3),
    (64, 2, 6, 4),
    (96, 1, 6, 3),
    (160, 2, 6, 3),
    (320, 1, 6, 1),
)


def MobileNetV2(
    input_shape=None,
    alpha=1.0,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name=None,
):
    _builder.check_arguments(weights, include_top, classes, pooling)
    _check_tensor_shape(input_tensor, input_shape)
    default_size = _default_size(input_shape, input_tensor, _V2_SIZES)
    shape = _builder.resolve_shape(input_shape, default_size, 32, include_top, weights)
    rows, cols = _spatial(shape)
    if weights == "imagenet":
        if alpha not in _V2_ALPHAS:
            raise ValueError(
                "If imagenet weights are being loaded, alpha must be one of `0.35`, `0.50`, "
                f"`0.75`, `1.0`, `1.3` or `1.4` only; Received `alpha={alpha}`"
            )
        rows = _imagenet_rows(rows, cols, _V2_SIZES)
    x, inputs = _builder.image_input(input_tensor, shape)
    axis = _builder.channel_axis()
    x = layers.Conv2D(
        make_divisible(32 * alpha, 8),
        3,
        strides=(2, 2),
        padding="same",
        use_bias=False,
        name="Conv1",
    )(x)
    x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name="bn_Conv1")(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    block_id = 0
    for filters, stride, expansion, repeats in _V2_STAGES:
        for i in range(repeats):
            x = _inverted_residual(x, expansion, stride if i == 0 else 1, alpha, filters, block_id)
            block_id += 1
    last = make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name="Conv_1_bn")(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        _builder.check_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = _builder.pool(x, pooling, names=None)
    name = f"mobilenetv2_{alpha:0.2f}_{rows}" if name is None else name
    file = None
    if weights == "imagenet":
        suffix = "" if include_top else "_no_top"
        file = published(
            "mobilenet_v2/",
            f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}{suffix}.h5",
        )
    return _builder.finish(inputs, x, name, weights, file)


_ALPHA = """
        alpha: the width multiplier: the number of filters of every layer is scaled
            by it (ImageNet weights exist for {alphas}).{more}"""
_docs.document(
    (MobileNet,),
    paper="MobileNets: Efficient Convolutional Neural Networks for Mobile Vision "
    "Applications (Howard et al., 2017)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.mobilenet.preprocess_input",
    example="MobileNet",
    extra=_ALPHA.format(
        alphas="0.25, 0.5, 0.75 and 1.0",
        more="\n        depth_multiplier: the depthwise convolutions' depth multiplier."
        "\n        dropout: the dropout rate before the classifier.",
    ),
)
_docs.document(
    (MobileNetV2,),
    paper="MobileNetV2: Inverted Residuals and Linear Bottlenecks (Sandler et al., 2018)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.mobilenet_v2.preprocess_input",
    example="MobileNetV2",
    extra=_ALPHA.format(alphas="0.35, 0.5, 0.75, 1.0, 1.3 and 1.4", more=""),
)
