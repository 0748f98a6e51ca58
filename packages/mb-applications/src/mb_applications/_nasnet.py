"""NASNet-A Mobile and Large: the normal and reduction cells found by architecture search."""

from mb_applications import _builder, _docs
from mb_applications._weights import published
from mb_layers import layers

# (file name in the cache, file name published, hash) for (top, no top).
_FILES = {
    "mobile": (
        ("nasnet_mobile.h5", "NASNet-mobile.h5", "020fb642bf7360b370c678b08e0adf61"),
        ("nasnet_mobile_no_top.h5", "NASNet-mobile-no-top.h5", "1ed92395b5b598bdda52abe5c0dbfd63"),
    ),
    "large": (
        ("nasnet_large.h5", "NASNet-large.h5", "11577c9a518f0070763c2b964a382f17"),
        ("nasnet_large_no_top.h5", "NASNet-large-no-top.h5", "d81d89dc07e6e56530c4e77faddd61b5"),
    ),
}


def _bn(name):
    axis = _builder.channel_axis()
    return layers.BatchNormalization(axis=axis, momentum=0.9997, epsilon=1e-3, name=name)


def _conv1x1(filters, name, strides=1):
    return layers.Conv2D(
        filters,
        (1, 1),
        strides=strides,
        padding="same",
        use_bias=False,
        kernel_initializer="he_normal",
        name=name,
    )


def _separable(x, filters, kernel, strides, block_id):
    """ReLU, separable conv (strided with explicit padding), BN; twice."""
    x = layers.Activation("relu")(x)
    padding = "same"
    if strides == 2:
        x = layers.ZeroPadding2D(
            _builder.correct_pad(x, kernel), name=f"separable_conv_1_pad_{block_id}"
        )(x)
        padding = "valid"
    x = layers.SeparableConv2D(
        filters,
        kernel,
        strides=strides,
        name=f"separable_conv_1_{block_id}",
        padding=padding,
        use_bias=False,
    )(x)
    x = layers.Activation("relu")(_bn(f"separable_conv_1_bn_{block_id}")(x))
    x = layers.SeparableConv2D(
        filters, kernel, name=f"separable_conv_2_{block_id}", padding="same", use_bias=False
    )(x)
    return _bn(f"separable_conv_2_bn_{block_id}")(x)


def _adjust(p, ip, filters, block_id):
    """Brings the previous cell's output `p` to the size and width of `ip`."""
    channel = _builder.channel_axis()
    spatial = -2 if _builder.channels_last() else 2
    if p is None:
        return ip
    if p.shape[spatial] != ip.shape[spatial]:
        p = layers.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
        p1 = layers.AveragePooling2D(
            (1, 1), strides=(2, 2), padding="valid", name=f"adjust_avg_pool_1_{block_id}"
        )(p)
        p1 = _conv1x1(filters // 2, f"adjust_conv_1_{block_id}")(p1)
        p2 = layers.ZeroPadding2D(((0, 1), (0, 1)))(p)
        p2 = layers.Cropping2D(((1, 0), (1, 0)))(p2)
        p2 = layers.AveragePooling2D(
            (1, 1), strides=(2, 2), padding="valid", name=f"adjust_avg_pool_2_{block_id}"
        )(p2)
        p2 = _conv1x1(filters // 2, f"adjust_conv_2_{block_id}")(p2)
        p = layers.concatenate([p1, p2], axis=channel)
        return _bn(f"adjust_bn_{block_id}")(p)
    if p.shape[channel] != filters:
        p = layers.Activation("relu")(p)
        p = _conv1x1(filters, f"adjust_conv_projection_{block_id}")(p)
        return _bn(f"adjust_bn_{block_id}")(p)
    return p


def _avg(x, strides, padding, name):
    return layers.AveragePooling2D((3, 3), strides=strides, padding=padding, name=name)(x)


def _normal_cell(ip, p, filters, block_id):
    p = _adjust(p, ip, filters, block_id)
    h = layers.Activation("relu")(ip)
    h = _bn(f"normal_bn_1_{block_id}")(_conv1x1(filters, f"normal_conv_1_{block_id}")(h))

    def add(a, b, i):
        return layers.add([a, b], name=f"normal_add_{i}_{block_id}")

    x1 = add(
        _separable(h, filters, (5, 5), 1, f"normal_left1_{block_id}"),
        _separable(p, filters, (3, 3), 1, f"normal_right1_{block_id}"),
        1,
    )
    x2 = add(
        _separable(p, filters, (5, 5), 1, f"normal_left2_{block_id}"),
        _separable(p, filters, (3, 3), 1, f"normal_right2_{block_id}"),
        2,
    )
    x3 = add(_avg(h, 1, "same", f"normal_left3_{block_id}"), p, 3)
    x4 = add(
        _avg(p, 1, "same", f"normal_left4_{block_id}"),
        _avg(p, 1, "same", f"normal_right4_{block_id}"),
        4,
    )
    x5 = add(_separable(h, filters, (3, 3), 1, f"normal_left5_{block_id}"), h, 5)
    x = layers.concatenate(
        [p, x1, x2, x3, x4, x5], axis=_builder.channel_axis(), name=f"normal_concat_{block_id}"
    )
    return x, ip


def _reduction_cell(ip, p, filters, block_id):
    p = _adjust(p, ip, filters, block_id)
    h = layers.Activation("relu")(ip)
    h = _bn(f"reduction_bn_1_{block_id}")(_conv1x1(filters, f"reduction_conv_1_{block_id}")(h))
    h3 = layers.ZeroPadding2D(_builder.correct_pad(h, 3), name=f"reduction_pad_1_{block_id}")(h)

    def max_pool(name):
        return layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid", name=name)(h3)

    x1 = layers.add(
        [
            _separable(h, filters, (5, 5), 2, f"reduction_left1_{block_id}"),
            _separable(p, filters, (7, 7), 2, f"reduction_right1_{block_id}"),
        ],
        name=f"reduction_add_1_{block_id}",
    )
    x2 = layers.add(
        [
            max_pool(f"reduction_left2_{block_id}"),
            _separable(p, filters, (7, 7), 2, f"reduction_right2_{block_id}"),
        ],
        name=f"reduction_add_2_{block_id}",
    )
    x3 = layers.add(
        [
            _avg(h3, 2, "valid", f"reduction_left3_{block_id}"),
            _separable(p, filters, (5, 5), 2, f"reduction_right3_{block_id}"),
        ],
        name=f"reduction_add3_{block_id}",
    )
    x4 = layers.add([x2, _avg(x1, 1, "same", f"reduction_left4_{block_id}")])
    x5 = layers.add(
        [
            _separable(x1, filters, (3, 3), 1, f"reduction_left4_{block_id}"),
            max_pool(f"reduction_right5_{block_id}"),
        ],
        name=f"reduction_add4_{block_id}",
    )
    x = layers.concatenate(
        [x2, x3, x4, x5], axis=_builder.channel_axis(), name=f"reduction_concat_{block_id}"
    )
    return x, ip


# penultimate filters, cells per stage, stem filters, skip reduction, default size.
_CONFIGS = {"mobile": (1056, 4, 32, False, 224), "large": (4032, 6, 96, True, 331)}


def nasnet(variant, args):
    penultimate, cells, stem_filters, skip_reduction, default_size = _CONFIGS[variant]
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    input_shape = args["input_shape"]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    if input_shape is not None and None in tuple(input_shape) and weights == "imagenet":
        raise ValueError(
            "When specifying the input shape of a NASNet and loading `ImageNet` weights, the "
            f"input_shape argument must be static (no None entries). Got: "
            f"`input_shape={input_shape}`."
        )
    if variant == "mobile" and not include_top and input_shape is None:
        input_shape = (224, 224, 3) if _builder.channels_last() else (3, 224, 224)
    shape = _builder.resolve_shape(input_shape, default_size, 32, include_top, weights)
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    filters = penultimate // 24
    x = layers.Conv2D(
        stem_filters,
        (3, 3),
        strides=(2, 2),
        padding="valid",
        use_bias=False,
        name="stem_conv1",
        kernel_initializer="he_normal",
    )(x)
    x = _bn("stem_bn1")(x)
    x, p = _reduction_cell(x, None, filters // 4, "stem_1")
    x, p = _reduction_cell(x, p, filters // 2, "stem_2")
    for stage in range(3):
        width = filters * 2**stage
        if stage:
            x, reduced = _reduction_cell(x, p, width, f"reduce_{cells * stage}")
            p = p if skip_reduction else reduced
        for i in range(cells):
            x, p = _normal_cell(x, p, width, f"{cells * stage + i + (1 if stage else 0)}")
    x = layers.Activation("relu")(x)
    if include_top:
        x = _builder.dense_top(x, args["classes"], args["classifier_activation"], weights, None)
    else:
        x = _builder.pool(x, pooling, names=None)
    cached, remote, file_hash = _FILES[variant][0 if include_top else 1]
    file = published("nasnet/", remote, file_hash)._replace(file_name=cached)
    return _builder.finish(inputs, x, args["name"], weights, file)


def NASNetMobile(
    input_shape=None,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="nasnet_mobile",
):
    return nasnet("mobile", locals())


def NASNetLarge(
    input_shape=None,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="nasnet_large",
):
    return nasnet("large", locals())


_docs.document(
    (NASNetMobile,),
    paper="Learning Transferable Architectures for Scalable Image Recognition (Zoph et al., 2018)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.nasnet.preprocess_input",
    example="NASNetMobile",
    note=" (unlike Keras, mb builds NASNet under ``channels_first`` and on torch too)",
)
_docs.document(
    (NASNetLarge,),
    paper="Learning Transferable Architectures for Scalable Image Recognition (Zoph et al., 2018)",
    default_size=331,
    min_size=32,
    preprocessing="mb.applications.nasnet.preprocess_input",
    example=None,
    note=" (unlike Keras, mb builds NASNet under ``channels_first``)",
)
