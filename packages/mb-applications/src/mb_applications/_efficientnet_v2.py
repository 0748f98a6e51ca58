"""EfficientNetV2 B0-B3, S, M, L: fused and plain MBConv blocks.

The models rescale their own input (``include_preprocessing``), so they take
pixels in ``[0, 255]``.
"""

import math

from mb_applications import _builder, _docs
from mb_applications._efficientnet import CONV_INIT, DENSE_INIT, conv, squeeze_excite
from mb_applications._weights import published
from mb_layers import initializers, layers

_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}
# (fused, repeats, stride, expansion, filters in, filters out, squeeze-excite) per stage;
# kernels are all 3x3.
_B = (
    (1, 1, 1, 1, 32, 16, 0),
    (1, 2, 2, 4, 16, 32, 0),
    (1, 2, 2, 4, 32, 48, 0),
    (0, 3, 2, 4, 48, 96, 0.25),
    (0, 5, 1, 6, 96, 112, 0.25),
    (0, 8, 2, 6, 112, 192, 0.25),
)
_STAGES = {
    "s": (
        (1, 2, 1, 1, 24, 24, 0),
        (1, 4, 2, 4, 24, 48, 0),
        (1, 4, 2, 4, 48, 64, 0),
        (0, 6, 2, 4, 64, 128, 0.25),
        (0, 9, 1, 6, 128, 160, 0.25),
        (0, 15, 2, 6, 160, 256, 0.25),
    ),
    "m": (
        (1, 3, 1, 1, 24, 24, 0),
        (1, 5, 2, 4, 24, 48, 0),
        (1, 5, 2, 4, 48, 80, 0),
        (0, 7, 2, 4, 80, 160, 0.25),
        (0, 14, 1, 6, 160, 176, 0.25),
        (0, 18, 2, 6, 176, 304, 0.25),
        (0, 5, 1, 6, 304, 512, 0.25),
    ),
    "l": (
        (1, 4, 1, 1, 32, 32, 0),
        (1, 7, 2, 4, 32, 64, 0),
        (1, 7, 2, 4, 64, 96, 0),
        (0, 10, 2, 4, 96, 192, 0.25),
        (0, 19, 1, 6, 192, 224, 0.25),
        (0, 25, 2, 6, 224, 384, 0.25),
        (0, 7, 1, 6, 384, 640, 0.25),
    ),
}
# (width, depth, default size) per variant.
_SCALING = {
    "b0": (1.0, 1.0, 224),
    "b1": (1.0, 1.1, 240),
    "b2": (1.1, 1.2, 260),
    "b3": (1.2, 1.4, 300),
    "s": (1.0, 1.0, 384),
    "m": (1.0, 1.0, 480),
    "l": (1.0, 1.0, 480),
}
_MOMENTUM = 0.9


def _bn(name):
    return layers.BatchNormalization(axis=_builder.channel_axis(3), momentum=_MOMENTUM, name=name)


def _block(x, fused, stride, expansion, f_in, f_out, se_ratio, survival, name):
    inputs = x
    filters = f_in * expansion
    if expansion != 1:
        # Fused blocks expand with the 3x3 (strided) convolution, plain ones with a 1x1.
        kernel, strides = (3, stride) if fused else (1, 1)
        x = conv(filters, kernel, f"{name}expand_conv", strides=strides)(x)
        x = layers.Activation("swish", name=f"{name}expand_activation")(_bn(f"{name}expand_bn")(x))
    if not fused:
        x = layers.DepthwiseConv2D(
            3,
            strides=stride,
            depthwise_initializer=CONV_INIT,
            padding="same",
            use_bias=False,
            name=f"{name}dwconv2",
        )(x)
        x = layers.Activation("swish", name=f"{name}activation")(_bn(f"{name}bn")(x))
    if 0 < se_ratio <= 1:
        x = squeeze_excite(x, filters, max(1, int(f_in * se_ratio)), "swish", name)
    single = fused and expansion == 1  # the projection is the block's only convolution
    x = conv(f_out, 3 if single else 1, f"{name}project_conv", strides=stride if single else 1)(x)
    x = _bn(f"{name}project_bn")(x)
    if single:
        x = layers.Activation("swish", name=f"{name}project_activation")(x)
    if stride == 1 and f_in == f_out:
        if survival:
            # Keras passes the survival probability as the drop rate; kept for parity.
            x = layers.Dropout(survival, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def _round_filters(filters, width, divisor=8):
    return int(max(divisor, int(filters * width + divisor / 2) // divisor * divisor))


def efficientnet_v2(variant, args):
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    width, depth, default_size = _SCALING[variant]
    stages = _STAGES.get(variant, _B)
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape = _builder.resolve_shape(args["input_shape"], default_size, 32, include_top, weights)
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    axis = _builder.channel_axis(3)
    if args["include_preprocessing"]:
        channels = shape[-1] if _builder.channels_last() else shape[0]
        if variant.startswith("b") and channels == 3:
            x = layers.Rescaling(scale=1.0 / 255)(x)
            x = layers.Normalization(
                mean=[0.485, 0.456, 0.406],
                variance=[0.229**2, 0.224**2, 0.225**2],
                axis=axis,
            )(x)
        else:
            x = layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)
    x = conv(_round_filters(stages[0][4], width), 3, "stem_conv", strides=2)(x)
    x = layers.Activation("swish", name="stem_activation")(_bn("stem_bn")(x))
    repeats = [math.ceil(stage[1] * depth) for stage in stages]
    b, total = 0, float(sum(stage[1] for stage in stages))
    for i, ((fused, _, stride, expansion, f_in, f_out, se), count) in enumerate(
        zip(stages, repeats, strict=True)
    ):
        f_in, f_out = _round_filters(f_in, width), _round_filters(f_out, width)
        for j in range(count):
            x = _block(
                x,
                fused,
                stride if j == 0 else 1,
                expansion,
                f_in if j == 0 else f_out,
                f_out,
                se,
                0.2 * b / total,
                f"block{i + 1}{chr(j + 97)}_",
            )
            b += 1
    x = conv(_round_filters(1280, width), 1, "top_conv")(x)
    x = layers.Activation("swish", name="top_activation")(_bn("top_bn")(x))
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        x = layers.Dropout(0.2, name="top_dropout")(x)
        _builder.check_activation(args["classifier_activation"], weights)
        x = layers.Dense(
            args["classes"],
            activation=args["classifier_activation"],
            kernel_initializer=DENSE_INIT,
            bias_initializer=initializers.Constant(0.0),
            name="predictions",
        )(x)
    else:
        x = _builder.pool(x, pooling)
    name = args["name"]
    file = published(
        "efficientnet_v2/",
        f"{name}{'' if include_top else '_notop'}.h5",
        _HASHES[variant][0 if include_top else 1],
    )
    return _builder.finish(inputs, x, name, weights, file)


def EfficientNetV2B0(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="efficientnetv2-b0",
):
    return efficientnet_v2("b0", locals())


def EfficientNetV2B1(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="efficientnetv2-b1",
):
    return efficientnet_v2("b1", locals())


def EfficientNetV2B2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="efficientnetv2-b2",
):
    return efficientnet_v2("b2", locals())


def EfficientNetV2B3(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="efficientnetv2-b3",
):
    return efficientnet_v2("b3", locals())


def EfficientNetV2S(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="efficientnetv2-s",
):
    return efficientnet_v2("s", locals())


def EfficientNetV2M(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="efficientnetv2-m",
):
    return efficientnet_v2("m", locals())


def EfficientNetV2L(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="efficientnetv2-l",
):
    return efficientnet_v2("l", locals())


_docs.document(
    (
        EfficientNetV2B0,
        EfficientNetV2B1,
        EfficientNetV2B2,
        EfficientNetV2B3,
        EfficientNetV2S,
        EfficientNetV2M,
        EfficientNetV2L,
    ),
    paper="EfficientNetV2: Smaller Models and Faster Training (Tan and Le, 2021)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.efficientnet_v2.preprocess_input",
    example="EfficientNetV2B0",
    note=" (an identity: the model rescales pixels in [0, 255] itself unless "
    "``include_preprocessing=False``)",
    extra="""
        include_preprocessing: rescale (and, for B0-B3, normalise) the input in the model.""",
)
