"""Muon's public helpers (Keras 3's `lr_adjust`, `transpose_last_axis`,
`zeropower_via_newtonschulz5`) against NumPy, and the update step going through them."""

import numpy as np
import pytest

from mb_ops import Variable, ops
from mb_train import optimizers


def _newton_schulz(x, steps, a=3.4445, b=-4.7750, c=2.0315):
    """NumPy reference over the last two axes (float64)."""
    swap = lambda y: np.swapaxes(y, -1, -2)  # noqa: E731
    tall = x.shape[-2] > x.shape[-1]
    x = swap(x) if tall else x
    x = x / (np.linalg.norm(x, axis=(-2, -1), keepdims=True) + 1e-7)
    for _ in range(steps):
        gram = x @ swap(x)
        x = a * x + (b * gram + c * gram @ gram) @ x
    return swap(x) if tall else x


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (2, 4, 3)])
def test_zeropower_via_newtonschulz5_matches_numpy(shape):
    x = np.random.default_rng(0).normal(size=shape).astype("float32")
    got = ops.convert_to_numpy(optimizers.Muon().zeropower_via_newtonschulz5(x, 5))
    # float32 against float64 over five cubic steps: 1e-4 relative.
    np.testing.assert_allclose(got, _newton_schulz(x.astype("float64"), 5), rtol=1e-4, atol=1e-5)


def test_zeropower_via_newtonschulz5_rejects_a_vector():
    with pytest.raises(ValueError, match=r"at least 2 dimensions. Received: shape=\(4,\)"):
        optimizers.Muon().zeropower_via_newtonschulz5(np.ones(4, "float32"), 5)


def test_transpose_last_axis_swaps_the_last_two_axes():
    x = np.arange(24, dtype="float32").reshape(2, 3, 4)
    got = ops.convert_to_numpy(optimizers.Muon().transpose_last_axis(x))
    np.testing.assert_array_equal(got, np.swapaxes(x, -1, -2))


@pytest.mark.parametrize("rms_rate", [0.2, None])
def test_lr_adjust_scales_by_sqrt_of_the_larger_dimension(rms_rate):
    x = np.ones((3, 16), "float32")
    got = ops.convert_to_numpy(optimizers.Muon(rms_rate=rms_rate).lr_adjust(x))
    expected = x * 4.0 * rms_rate if rms_rate is not None else x
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_update_step_goes_through_the_overridable_methods():
    class NoScale(optimizers.Muon):
        def lr_adjust(self, x):
            return ops.zeros_like(x)  # no step at all

    variable = Variable(np.ones((3, 4), "float32"), name="w")
    grad = np.full((3, 4), 0.5, "float32")
    optimizer = NoScale(learning_rate=0.1, weight_decay=None)
    optimizer.apply_gradients([(grad, variable)])
    np.testing.assert_array_equal(ops.convert_to_numpy(variable.value), np.ones((3, 4)))
