"""Static shapes of nn, math, linalg, image and core ops (no engine runs)."""

import pytest

from mb_ops import KerasTensor, ops


def test_conv_and_pool_shapes_with_unknown_dims():
    x = KerasTensor((None, 32, None, 3))
    assert ops.conv(x, KerasTensor((3, 3, 3, 8))).shape == (None, 30, None, 8)
    assert ops.conv(x, KerasTensor((3, 3, 3, 8)), strides=2, padding="same").shape == (
        None,
        16,
        None,
        8,
    )
    assert ops.depthwise_conv(x, KerasTensor((3, 3, 3, 2))).shape == (None, 30, None, 6)
    assert ops.conv_transpose(
        KerasTensor((2, 8, 8, 4)), KerasTensor((3, 3, 6, 4)), strides=2, padding="same"
    ).shape == (2, 16, 16, 6)
    assert ops.max_pool(x, 2).shape == (None, 16, None, 3)
    assert ops.average_pool(KerasTensor((1, 7, 3)), 2, strides=1).shape == (1, 6, 3)
    assert ops.conv(
        KerasTensor((1, 3, 10, 10)), KerasTensor((3, 3, 3, 5)), data_format="channels_first"
    ).shape == (1, 5, 8, 8)


def test_conv_rejects_wrong_kernel_rank():
    with pytest.raises(ValueError, match=r"conv: the kernel must have rank 4"):
        ops.conv(KerasTensor((1, 8, 8, 3)), KerasTensor((3, 3, 8)))


def test_nn_output_specs():
    x = KerasTensor((None, 10), dtype="float16")
    assert ops.softmax(x).dtype == "float16"
    assert ops.relu(KerasTensor((2,), "int32")).dtype == "float32"
    assert ops.one_hot(KerasTensor((None,), "int32"), 5).shape == (None, 5)
    assert ops.glu(x).shape == (None, 5)
    mean, var = ops.moments(KerasTensor((None, 4, 3)), axes=[0, 1])
    assert mean.shape == var.shape == (3,)
    assert ops.sparse_categorical_crossentropy(
        KerasTensor((None,), "int32"), KerasTensor((None, 7))
    ).shape == (None,)
    assert ops.dot_product_attention(
        KerasTensor((2, 5, 4, 8)), KerasTensor((2, 6, 4, 8)), KerasTensor((2, 6, 4, 16))
    ).shape == (2, 5, 4, 16)
    with pytest.raises(ValueError, match="glu"):
        ops.glu(KerasTensor((2, 5)))


def test_math_linalg_image_core_specs():
    values, indices = ops.top_k(KerasTensor((None, 10)), 3)
    assert values.shape == indices.shape == (None, 3) and indices.dtype == "int32"
    assert ops.segment_sum(KerasTensor((6, 2)), KerasTensor((6,), "int32"), 3).shape == (3, 2)
    assert ops.logsumexp(KerasTensor((4, 5)), axis=-1).shape == (4,)
    real, imag = ops.rfft(KerasTensor((2, 16)))
    assert real.shape == imag.shape == (2, 9)
    assert ops.linalg.inv(KerasTensor((None, 3, 3))).shape == (None, 3, 3)
    q, r = ops.linalg.qr(KerasTensor((5, 3)))
    assert (q.shape, r.shape) == ((5, 3), (3, 3))
    with pytest.raises(ValueError, match=r"inv: expected square matrices.*\(3, 4\)"):
        ops.linalg.inv(KerasTensor((3, 4)))
    assert ops.image.resize(KerasTensor((None, 32, 32, 3)), (16, 8)).shape == (None, 16, 8, 3)
    assert ops.image.rgb_to_grayscale(KerasTensor((2, 8, 8, 3))).shape == (2, 8, 8, 1)
    assert ops.image.pad_images(
        KerasTensor((1, 4, 4, 3)), 1, 1, target_height=8, target_width=8
    ).shape == (1, 8, 8, 3)
    assert ops.cast(KerasTensor((2,)), "int8").dtype == "int8"
    parts = ops.unstack(KerasTensor((3, 4)), axis=1)
    assert len(parts) == 4 and parts[0].shape == (3,)
    assert ops.rearrange(KerasTensor((None, 4, 6)), "b h w -> b (h w)").shape == (None, 24)
    assert ops.shape(KerasTensor((None, 2))) == (None, 2)


def test_control_flow_specs_trace_the_branches():
    x = KerasTensor((None, 3))
    out = ops.cond(KerasTensor((), "bool"), lambda: x * 2, lambda: x + 1)
    assert out.shape == (None, 3)
    with pytest.raises(ValueError, match="cond"):
        ops.cond(KerasTensor((), "bool"), lambda: x, lambda: ops.sum(x))
    carry, ys = ops.scan(lambda c, v: (c + v, c * v), KerasTensor((3,)), KerasTensor((5, 3)))
    assert carry.shape == (3,) and ys.shape == (5, 3)
    assert ops.map(lambda v: ops.sum(v), KerasTensor((7, 3))).shape == (7,)
