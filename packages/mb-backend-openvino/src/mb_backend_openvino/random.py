"""Random numbers computed by OpenVINO from a counter-based hash of the seed.

OpenVINO's own RandomUniform takes its seeds as attributes (a new seed would
mean a new compiled model per call), so the bits come from an integer hash
computed in the model instead: each element's index and the seed pair from
``mb_ops.random.draw_seed`` go through Wellons' "lowbias32" mixer, in int32
arithmetic (OpenVINO's CPU wraps int32 products; logical shifts are masked).
The seed is an input of the model: every call with a new seed reuses it.
"""

import math

import numpy as np
import openvino.opset17 as opset17

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import convert_to_tensor, to_tensor
from mb_backend_openvino._graph import canonical_axis, const, cv, i64, opset, reshape, run
from mb_ops import numpy_shaped
from mb_ops.random import draw_seed

# Every random function runs on OpenVINO.
UNSUPPORTED = {}

_M1 = 0x7FEB352D
_M2 = 0x846CA68B - (1 << 32)  # as a signed int32
_GOLDEN = 0x9E3779B9 - (1 << 32)


def _i32(v):
    """An int32 constant of ``v`` wrapped to 32 bits."""
    return opset.constant(np.int32(((int(v) + (1 << 31)) % (1 << 32)) - (1 << 31))).output(0)


def _shr(x, k):
    """Logical right shift of int32 bits."""
    shifted = opset.bitwise_right_shift(x, _i32(k))
    return opset.bitwise_and(shifted, _i32((1 << (32 - k)) - 1)).output(0)


def _mix(x):
    x = opset.bitwise_xor(x, _shr(x, 16))
    x = opset.multiply(x, _i32(_M1))
    x = opset.bitwise_xor(x, _shr(x.output(0), 15))
    x = opset.multiply(x, _i32(_M2))
    return opset.bitwise_xor(x, _shr(x.output(0), 16)).output(0)


def random_bits(seed, count, stream=0):
    """``count`` int32 words of random bits for a (2,) int32 ``seed`` node."""
    s0 = opset.gather(seed, i64(0), i64(0))
    s1 = opset.gather(seed, i64(1), i64(0))
    key = _mix(
        opset.add(
            _mix(opset.bitwise_xor(s1, _i32(stream * 0x3C6EF372 + 0x1B873593))),
            opset.multiply(s0, _i32(_GOLDEN)),
        ).output(0)
    )
    index = opset.range(_i32(0), _i32(count), _i32(1), "i32")
    x = _mix(opset.add(opset.multiply(index, _i32(_GOLDEN)), key).output(0))
    return _mix(opset.bitwise_xor(x, key).output(0))


def uniform01(seed, count, stream=0):
    """``count`` float32 samples in [0, 1) (24 random bits each)."""
    bits = _shr(random_bits(seed, count, stream), 8)
    return opset.multiply(cv(bits, "float32"), opset.constant(np.float32(2.0**-24))).output(0)


def _seed(seed):
    return convert_to_tensor(draw_seed(seed), dtype="int32")


_shape = numpy_shaped.as_shape


def _size(shape):
    return int(np.prod(shape)) if shape else 1


def _dtype(dtype):
    return _dtypes.standardize_dtype(dtype)


def _normal01(seed, n, stream=0):
    """Box-Muller standard normals from two uniform streams."""
    u1 = opset.subtract(opset.constant(np.float32(1.0)), uniform01(seed, n, 2 * stream))
    u2 = uniform01(seed, n, 2 * stream + 1)
    radius = opset.sqrt(opset.multiply(opset.constant(np.float32(-2.0)), opset.log(u1)))
    return opset.multiply(
        radius, opset.cos(opset.multiply(u2, opset.constant(np.float32(2 * math.pi))))
    ).output(0)


def _scaled(name, shape, a, b, dtype, seed, sample):
    shape = _shape(shape)
    dtype = _dtype(dtype)
    n = _size(shape)
    lo, hi = to_tensor(a), to_tensor(b)

    def build(s, p, q):
        values = reshape(sample(s, n), list(shape))
        out = opset.add(opset.multiply(values, cv(q, "float32")), cv(p, "float32"))
        return cv(out.output(0), dtype)

    return run((name, shape, dtype), build, _seed(seed), lo, hi)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _scaled("normal", shape, mean, stddev, dtype, seed, _normal01)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    shape = _shape(shape)
    dtype = _dtype(dtype)
    n = _size(shape)

    def build(s, lo, hi):
        lo, hi = cv(lo, "float32"), cv(hi, "float32")
        u = reshape(uniform01(s, n), list(shape))
        out = opset.add(lo, opset.multiply(u, opset.subtract(hi, lo)))
        # Rounding to a narrower dtype must not reach maxval.
        out = cv(out.output(0), dtype)
        return out

    return run(("uniform", shape, dtype), build, _seed(seed), to_tensor(minval), to_tensor(maxval))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normals within two standard deviations, by inverting the CDF on (Φ(-2), Φ(2))."""
    lo = 0.5 * (1 + math.erf(-2 / math.sqrt(2)))

    def sample(s, n):
        u = opset.add(
            opset.constant(np.float32(lo)),
            opset.multiply(uniform01(s, n), opset.constant(np.float32(1 - 2 * lo))),
        )
        z = opset17.erfinv(
            opset.subtract(
                opset.multiply(u, opset.constant(np.float32(2.0))), opset.constant(np.float32(1.0))
            )
        )
        z = opset.multiply(z, opset.constant(np.float32(math.sqrt(2))))
        return opset.clamp(z, -2.0, 2.0).output(0)

    return _scaled("truncated_normal", shape, mean, stddev, dtype, seed, sample)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    shape = _shape(shape)
    dtype = _dtype(dtype)
    n = _size(shape)

    def build(s, lo, hi):
        lo, hi = cv(lo, "float64"), cv(hi, "float64")
        u = cv(reshape(uniform01(s, n), list(shape)), "float64")
        value = opset.floor(opset.add(lo, opset.multiply(u, opset.subtract(hi, lo))))
        value = opset.minimum(value, opset.subtract(hi, const(1, "float64")))
        return cv(value.output(0), dtype)

    return run(("randint", shape, dtype), build, _seed(seed), to_tensor(minval), to_tensor(maxval))


def categorical(logits, num_samples, dtype="int32", seed=None):
    logits = to_tensor(logits)
    if logits.ndim != 2:
        raise ValueError(
            f"categorical expects 2-D logits (batch, classes). Received: {logits.shape}."
        )
    batch, classes = logits.shape
    k = int(num_samples)
    dtype = _dtype(dtype)

    def build(s, lg):
        # Gumbel-max: argmax(logits + Gumbel noise) is a draw from softmax(logits).
        u = reshape(uniform01(s, batch * k * classes), [batch, k, classes])
        tiny = opset.constant(np.float32(1e-20))
        gumbel = opset.negative(
            opset.log(opset.add(opset.negative(opset.log(opset.add(u, tiny))), tiny))
        )
        scores = opset.add(opset.unsqueeze(cv(lg, "float32"), i64([1])), gumbel)
        best = opset.topk(scores, opset.constant(np.int64(1)), -1, "max", "none", "i32").output(1)
        return cv(opset.squeeze(best, i64([-1])).output(0), dtype)

    return run(("categorical", batch, classes, k, dtype), build, _seed(seed), logits)


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = to_tensor(inputs)
    rate = float(rate)
    if not 0 <= rate < 1:
        raise ValueError(f"dropout rate must be in [0, 1). Received: rate={rate}.")
    shape = tuple(inputs.shape)
    noise = (
        shape
        if noise_shape is None
        else tuple(d if d is not None else shape[i] for i, d in enumerate(noise_shape))
    )
    n = _size(noise)

    def build(s, x):
        keep = opset.greater_equal(
            reshape(uniform01(s, n), list(noise)), opset.constant(np.float32(rate))
        )
        scale = opset.divide(
            x,
            cv(
                opset.constant(np.float32(1 - rate)).output(0),
                _dtypes.name_of_ov(x.get_element_type()),
            ),
        )
        return opset.select(
            keep,
            scale,
            cv(opset.constant(np.float32(0)).output(0), _dtypes.name_of_ov(x.get_element_type())),
        )

    return run(("dropout", rate, noise), build, _seed(seed), inputs)


def shuffle(x, axis=0, seed=None):
    """A random permutation of the slices along ``axis`` (as JAX)."""
    x = to_tensor(x)
    ax = canonical_axis(axis, x.ndim, "shuffle")
    n = x.shape[ax]

    def build(s, a):
        keys = uniform01(s, n)
        order = opset.topk(
            keys, opset.constant(np.int64(n)), -1, "min", "value", "i32", True
        ).output(1)
        return opset.gather(a, order, i64(ax))

    return run(("shuffle", ax, n), build, _seed(seed), x)


_CANDIDATES = 16


def _gamma_node(s, alpha, n, stream):
    """Marsaglia and Tsang's method, first accepted of 16 candidates (rejection rate < 5%)."""
    one = opset.constant(np.float32(1.0))
    third = opset.constant(np.float32(1.0 / 3.0))
    small = opset.less(alpha, one)
    a = opset.select(small, opset.add(alpha, one), alpha)
    d = opset.subtract(a, third)
    c = opset.divide(third, opset.sqrt(d))
    result = None
    for i in range(_CANDIDATES - 1, -1, -1):
        x = _normal01(s, n, stream * 64 + 2 * i)
        u = uniform01(s, n, stream * 64 + 2 * i + 1 + 1000)
        v = opset.add(one, opset.multiply(c, x))
        v = opset.multiply(opset.multiply(v, v), v)
        positive = opset.greater(v, opset.constant(np.float32(0)))
        safe_v = opset.select(positive, v, one)
        bound = opset.add(
            opset.multiply(opset.constant(np.float32(0.5)), opset.multiply(x, x)),
            opset.add(
                opset.subtract(d, opset.multiply(d, safe_v)), opset.multiply(d, opset.log(safe_v))
            ),
        )
        accept = opset.logical_and(
            positive, opset.less(opset.log(opset.add(u, opset.constant(np.float32(1e-30)))), bound)
        )
        value = opset.multiply(d, safe_v)
        result = value if result is None else opset.select(accept, value, result)
    # Shape parameters below 1: Gamma(a) = Gamma(a + 1) * U^(1/a).
    u = uniform01(s, n, stream * 64 + 999)
    boost = opset.power(opset.add(u, opset.constant(np.float32(1e-30))), opset.divide(one, alpha))
    return opset.select(small, opset.multiply(result, boost), result).output(0)


def _flat(node, shape):
    """``node`` as float32, broadcast to ``shape`` and flattened (one element for ``()``)."""
    node = cv(node, "float32")
    if shape:
        return reshape(opset.broadcast(node, i64(list(shape))).output(0), [-1])
    return reshape(node, [1])


def gamma(shape, alpha, dtype=None, seed=None):
    shape = _shape(shape)
    dtype = _dtype(dtype)
    n = _size(shape)

    def build(s, a):
        return cv(reshape(_gamma_node(s, _flat(a, shape), n, 0), list(shape)), dtype)

    return run(("gamma", shape, dtype), build, _seed(seed), to_tensor(alpha))


def beta(shape, alpha, beta, dtype=None, seed=None):
    shape = _shape(shape)
    dtype = _dtype(dtype)
    n = _size(shape)

    def build(s, a, b):
        x = _gamma_node(s, _flat(a, shape), n, 1)
        y = _gamma_node(s, _flat(b, shape), n, 2)
        out = opset.divide(x, opset.add(x, y))
        return cv(reshape(out.output(0), list(shape)), dtype)

    return run(("beta", shape, dtype), build, _seed(seed), to_tensor(alpha), to_tensor(beta))


_EXACT_COUNTS = 1024


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Exact (a sum of Bernoulli draws) up to 1024 trials; a rounded normal beyond."""
    shape = _shape(shape)
    dtype = _dtype(dtype)
    n = _size(shape)
    counts_t, probs_t = to_tensor(counts), to_tensor(probabilities)
    trials = int(np.max(counts_t.numpy())) if counts_t.size else 0

    def build(s, c, p):
        c, p = _flat(c, shape), _flat(p, shape)
        if trials <= _EXACT_COUNTS:
            u = reshape(uniform01(s, n * max(trials, 1)), [max(trials, 1), n])
            hit = opset.less(u, opset.unsqueeze(p, i64([0])))
            step = cv(
                opset.range(_i32(0), _i32(max(trials, 1)), _i32(1), "i32").output(0), "float32"
            )
            within = opset.less(opset.unsqueeze(step, i64([1])), opset.unsqueeze(c, i64([0])))
            total = opset.reduce_sum(
                cv(opset.logical_and(hit, within).output(0), "float32"), i64([0]), False
            )
        else:
            mean = opset.multiply(c, p)
            std = opset.sqrt(opset.multiply(mean, opset.subtract(opset.constant(np.float32(1)), p)))
            total = opset.round(
                opset.add(mean, opset.multiply(std, _normal01(s, n))), "half_to_even"
            )
            total = opset.minimum(opset.maximum(total, opset.constant(np.float32(0))), c)
        return cv(reshape(total.output(0), list(shape)), dtype)

    return run(
        (
            "binomial",
            shape,
            trials <= _EXACT_COUNTS,
            max(trials, 1) if trials <= _EXACT_COUNTS else 0,
            dtype,
        ),
        build,
        _seed(seed),
        counts_t,
        probs_t,
    )
