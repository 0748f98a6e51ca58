"""Color conversions: RGB to grayscale, RGB to HSV and back."""

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import abs_node, canonical_axis, const_like, cv, i64, opset, run
from mb_backend_openvino.image._common import channels_axis, check_rank


def rgb_to_grayscale(images, data_format=None):
    images = to_tensor(images)
    check_rank(images)
    axis = canonical_axis(channels_axis(data_format), images.ndim)
    if images.shape[axis] not in (1, 3):
        raise ValueError(
            "rgb_to_grayscale expects 3 (RGB) or 1 (grayscale) channels. "
            f"Received: images.shape={images.shape}."
        )
    if images.shape[axis] == 1:
        return images
    dtype = images.dtype
    compute = _dtypes.result_type(dtype, float)
    work = "float32" if compute in ("float16", "bfloat16") else compute

    def build(a):
        a = cv(a, work)
        r, g, b = (opset.gather(a, i64([i]), i64(axis)) for i in range(3))
        gray = opset.add(
            opset.add(
                opset.multiply(r, const_like(0.2989, a)), opset.multiply(g, const_like(0.5870, a))
            ),
            opset.multiply(b, const_like(0.1140, a)),
        )
        return cv(gray.output(0), dtype)

    return run(("rgb_to_grayscale", axis, dtype), build, images)


def _check_float(images, name):
    if not _dtypes.is_float_dtype(images.dtype):
        raise ValueError(f"{name} expects float images. Received: images.dtype={images.dtype}.")
    return images.dtype


def rgb_to_hsv(images, data_format=None):
    images = to_tensor(images)
    check_rank(images)
    dtype = _check_float(images, "rgb_to_hsv")
    axis = canonical_axis(channels_axis(data_format), images.ndim)
    eps = float(_dtypes.finfo(dtype).eps)
    work = "float64" if dtype == "float64" else "float32"

    def build(a):
        a = cv(a, work)
        zero, one = const_like(0, a), const_like(1, a)
        a = opset.select(opset.less(abs_node(a), const_like(eps, a)), zero, a)
        r, g, b = (opset.gather(a, i64(i), i64(axis)).output(0) for i in range(3))
        value = opset.maximum(opset.maximum(r, g), b)
        spread = opset.subtract(value, opset.minimum(opset.minimum(r, g), b))
        positive = opset.greater(value, zero)
        saturation = opset.select(
            positive, opset.divide(spread, opset.select(positive, value, one)), zero
        )
        has_spread = opset.greater(spread, zero)
        norm = opset.divide(
            one, opset.multiply(const_like(6, a), opset.select(has_spread, spread, one))
        )
        hue = opset.select(
            opset.equal(value, g),
            opset.add(opset.multiply(norm, opset.subtract(b, r)), const_like(2 / 6, a)),
            opset.add(opset.multiply(norm, opset.subtract(r, g)), const_like(4 / 6, a)),
        )
        hue = opset.select(opset.equal(value, r), opset.multiply(norm, opset.subtract(g, b)), hue)
        wrapped = cv(opset.less(hue, zero).output(0), work)
        hue = opset.add(opset.select(has_spread, hue, zero), wrapped)
        planes = [opset.unsqueeze(p, i64([axis])) for p in (hue, saturation, value)]
        return cv(opset.concat(planes, axis).output(0), dtype)

    return run(("rgb_to_hsv", axis, dtype), build, images)


def hsv_to_rgb(images, data_format=None):
    images = to_tensor(images)
    check_rank(images)
    dtype = _check_float(images, "hsv_to_rgb")
    axis = canonical_axis(channels_axis(data_format), images.ndim)
    work = "float64" if dtype == "float64" else "float32"

    def build(a):
        a = cv(a, work)
        hue, saturation, value = (opset.gather(a, i64(i), i64(axis)).output(0) for i in range(3))
        sector = opset.multiply(opset.floor_mod(hue, const_like(1, a)), const_like(6, a))

        def clip01(v):
            return opset.minimum(opset.maximum(v, const_like(0, a)), const_like(1, a))

        dr = clip01(
            opset.subtract(abs_node(opset.subtract(sector, const_like(3, a))), const_like(1, a))
        )
        dg = clip01(
            opset.subtract(const_like(2, a), abs_node(opset.subtract(sector, const_like(2, a))))
        )
        db = clip01(
            opset.subtract(const_like(2, a), abs_node(opset.subtract(sector, const_like(4, a))))
        )
        grey = opset.subtract(const_like(1, a), saturation)
        planes = [
            opset.unsqueeze(
                opset.multiply(value, opset.add(grey, opset.multiply(saturation, d))), i64([axis])
            )
            for d in (dr, dg, db)
        ]
        return cv(opset.concat(planes, axis).output(0), dtype)

    return run(("hsv_to_rgb", axis, dtype), build, images)
