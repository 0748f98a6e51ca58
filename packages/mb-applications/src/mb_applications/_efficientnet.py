"""EfficientNet B0-B7: MBConv blocks with squeeze-excite, scaled in width and depth.

The models normalise their own input (Rescaling and Normalization layers), so
they take pixels in ``[0, 255]``.
"""

import math

from mb_applications import _builder, _docs
from mb_applications._weights import EFFICIENTNET, published
from mb_layers import layers

_HASHES = {
    "b0": ("902e53a9f72be733fc0bcb005b3ebbac", "50bc09e76180e00e4465e1a485ddc09d"),
    "b1": ("1d254153d4ab51201f1646940f018540", "74c4e6b3e1f6a1eea24c589628592432"),
    "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad", "111f8e2ac8aa800a7a99e3239f7bfb39"),
    "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0", "af6d107764bb5b1abb91932881670226"),
    "b4": ("18c95ad55216b8f92d7e70b3a046e2fc", "ebc24e6d6c33eaebbd558eafbeedf1ba"),
    "b5": ("ace28f2a6363774853a83a0b21b9421a", "38879255a25d3c92d5e44e04ae6cec6f"),
    "b6": ("165f6e37dce68623721b423839de8be5", "9ecce42647a20130c1f39a5d4cb75743"),
    "b7": ("8c03f828fec3ef71311cd463b6759d99", "cbcfe4450ddf6f3ad90b1b398090fe4a"),
}
# (width, depth, default size, dropout) per variant.
_SCALING = {
    "b0": (1.0, 1.0, 224, 0.2),
    "b1": (1.0, 1.1, 240, 0.2),
    "b2": (1.1, 1.2, 260, 0.3),
    "b3": (1.2, 1.4, 300, 0.3),
    "b4": (1.4, 1.8, 380, 0.4),
    "b5": (1.6, 2.2, 456, 0.4),
    "b6": (1.8, 2.6, 528, 0.5),
    "b7": (2.0, 3.1, 600, 0.5),
}
# (kernel, repeats, filters in, filters out, expansion, stride) per stage; all with
# squeeze-excite (ratio 0.25) and identity skips.
_STAGES = (
    (3, 1, 32, 16, 1, 1),
    (3, 2, 16, 24, 6, 2),
    (5, 2, 24, 40, 6, 2),
    (3, 3, 40, 80, 6, 2),
    (5, 3, 80, 112, 6, 1),
    (5, 4, 112, 192, 6, 2),
    (3, 1, 192, 320, 6, 1),
)
CONV_INIT = {
    "class_name": "VarianceScaling",
    "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"},
}
DENSE_INIT = {
    "class_name": "VarianceScaling",
    "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"},
}
_IMAGENET_STDDEV = (0.229, 0.224, 0.225)


def conv(filters, kernel, name, **kwargs):
    """A Conv2D in the EfficientNet style: same padding, no bias, fan-out init."""
    kwargs.setdefault("use_bias", False)
    kwargs.setdefault("padding", "same")
    return layers.Conv2D(filters, kernel, kernel_initializer=CONV_INIT, name=name, **kwargs)


def squeeze_excite(x, filters, reduced, activation, name):
    """Global pooling, a bottleneck of `reduced` channels, and a sigmoid gate on `x`."""
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se_shape = (1, 1, filters) if _builder.channels_last() else (filters, 1, 1)
    se = layers.Reshape(se_shape, name=f"{name}se_reshape")(se)
    se = conv(reduced, 1, f"{name}se_reduce", activation=activation, use_bias=True)(se)
    se = conv(filters, 1, f"{name}se_expand", activation="sigmoid", use_bias=True)(se)
    return layers.multiply([x, se], name=f"{name}se_excite")


def _block(x, drop_rate, name, kernel, filters_in, filters_out, expansion, stride):
    axis = _builder.channel_axis(3)
    inputs = x
    filters = filters_in * expansion
    if expansion != 1:
        x = conv(filters, 1, f"{name}expand_conv")(x)
        x = layers.BatchNormalization(axis=axis, name=f"{name}expand_bn")(x)
        x = layers.Activation("swish", name=f"{name}expand_activation")(x)
    if stride == 2:
        x = layers.ZeroPadding2D(_builder.correct_pad(x, kernel), name=f"{name}dwconv_pad")(x)
    x = layers.DepthwiseConv2D(
        kernel,
        strides=stride,
        padding="valid" if stride == 2 else "same",
        use_bias=False,
        depthwise_initializer=CONV_INIT,
        name=f"{name}dwconv",
    )(x)
    x = layers.BatchNormalization(axis=axis, name=f"{name}bn")(x)
    x = layers.Activation("swish", name=f"{name}activation")(x)
    x = squeeze_excite(x, filters, max(1, int(filters_in * 0.25)), "swish", name)
    x = conv(filters_out, 1, f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=axis, name=f"{name}project_bn")(x)
    if stride == 1 and filters_in == filters_out:
        if drop_rate > 0:
            x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def _round_filters(filters, width, divisor=8):
    filters *= width
    rounded = max(divisor, int(filters + divisor / 2) // divisor * divisor)
    return int(rounded + divisor if rounded < 0.9 * filters else rounded)


def efficientnet(variant, args):
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    width, depth, default_size, dropout = _SCALING[variant]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape = _builder.resolve_shape(args["input_shape"], default_size, 32, include_top, weights)
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    axis = _builder.channel_axis(3)
    x = layers.Rescaling(1.0 / 255.0)(x)
    x = layers.Normalization(axis=axis)(x)
    if weights == "imagenet":
        # The original model divides by the variance, the Normalization layer (holding the
        # published variance) by its square root: this scale supplies the difference.
        x = layers.Rescaling([1.0 / math.sqrt(s) for s in _IMAGENET_STDDEV])(x)
    x = layers.ZeroPadding2D(_builder.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = conv(_round_filters(32, width), 3, "stem_conv", strides=2, padding="valid")(x)
    x = layers.BatchNormalization(axis=axis, name="stem_bn")(x)
    x = layers.Activation("swish", name="stem_activation")(x)
    repeats = [math.ceil(depth * stage[1]) for stage in _STAGES]
    b, total = 0, float(sum(repeats))
    for i, ((kernel, _, f_in, f_out, expansion, stride), count) in enumerate(
        zip(_STAGES, repeats, strict=True)
    ):
        f_in, f_out = _round_filters(f_in, width), _round_filters(f_out, width)
        for j in range(count):
            x = _block(
                x,
                0.2 * b / total,
                f"block{i + 1}{chr(j + 97)}_",
                kernel,
                f_in if j == 0 else f_out,
                f_out,
                expansion,
                stride if j == 0 else 1,
            )
            b += 1
    x = conv(_round_filters(1280, width), 1, "top_conv")(x)
    x = layers.BatchNormalization(axis=axis, name="top_bn")(x)
    x = layers.Activation("swish", name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout > 0:
            x = layers.Dropout(dropout, name="top_dropout")(x)
        _builder.check_activation(args["classifier_activation"], weights)
        x = layers.Dense(
            args["classes"],
            activation=args["classifier_activation"],
            kernel_initializer=DENSE_INIT,
            name="predictions",
        )(x)
    else:
        x = _builder.pool(x, pooling)
    name = args["name"]
    file = published(
        "",
        f"{name}{'' if include_top else '_notop'}.h5",
        _HASHES[variant][0 if include_top else 1],
        base=EFFICIENTNET,
    )
    return _builder.finish(inputs, x, name, weights, file)


def EfficientNetB0(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="efficientnetb0",
):
    return efficientnet("b0", locals())


def EfficientNetB1(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="efficientnetb1",
):
    return efficientnet("b1", locals())


def EfficientNetB2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="efficientnetb2",
):
    return efficientnet("b2", locals())


def EfficientNetB3(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="efficientnetb3",
):
    return efficientnet("b3", locals())


def EfficientNetB4(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="efficientnetb4",
):
    return efficientnet("b4", locals())


def EfficientNetB5(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="efficientnetb5",
):
    return efficientnet("b5", locals())


def EfficientNetB6(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="efficientnetb6",
):
    return efficientnet("b6", locals())


def EfficientNetB7(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="efficientnetb7",
):
    return efficientnet("b7", locals())


_docs.document(
    (
        EfficientNetB0,
        EfficientNetB1,
        EfficientNetB2,
        EfficientNetB3,
        EfficientNetB4,
        EfficientNetB5,
        EfficientNetB6,
        EfficientNetB7,
    ),
    paper="EfficientNet: Rethinking Model Scaling for Convolutional Neural Networks "
    "(Tan and Le, 2019)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.efficientnet.preprocess_input",
    example="EfficientNetB0",
    note=" (an identity: the model normalises pixels in [0, 255] itself)",
)
