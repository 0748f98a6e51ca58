"""`mb.config` switches honoured by the layers they govern, on every backend: flash
attention (the kernel an attention layer asks for) and traceback filtering (a layer
call's errors)."""

from __future__ import annotations

import os
import traceback

import numpy as np
import pytest

import mb as keras


@pytest.fixture
def _restored():
    yield
    keras.config.enable_flash_attention()
    keras.config.enable_traceback_filtering()


def _attention_pair():
    x = np.random.default_rng(0).normal(size=(2, 6, 16)).astype("float32")
    default = keras.layers.MultiHeadAttention(num_heads=2, key_dim=8, seed=1)
    default(x, x)
    keras.config.disable_flash_attention()
    disabled = keras.layers.MultiHeadAttention(num_heads=2, key_dim=8, seed=1)
    disabled(x, x)
    disabled.set_weights(default.get_weights())
    return x, default, disabled


def test_disabled_flash_attention_gives_the_same_numbers(_restored):
    x, default, disabled = _attention_pair()
    assert keras.config.is_flash_attention_enabled() is False
    np.testing.assert_allclose(
        keras.ops.convert_to_numpy(disabled(x, x)),
        keras.ops.convert_to_numpy(default(x, x)),
        rtol=1e-5,
        atol=1e-6,
    )


def test_disabled_flash_attention_keeps_torch_off_its_flash_kernel(_restored):
    if keras.config.backend() != "torch":
        pytest.skip("the kernel choice is observable through torch's profiler only")
    profiler = pytest.importorskip("torch.profiler")
    x, default, disabled = _attention_pair()

    def kernels(layer):
        with profiler.profile() as prof:
            layer(x, x)
        return {e.name for e in prof.events() if "attention" in e.name}

    assert any("flash" in name for name in kernels(default))
    assert not any("flash" in name for name in kernels(disabled))


class _Broken(keras.layers.Layer):
    def call(self, x):
        return _user_helper(x)


def _user_helper(x):
    raise ValueError("bad input in user code")


def _mb_frames(error):
    frames = traceback.extract_tb(error.__traceback__)
    return [
        f for f in frames if f"{os.sep}mb_" in f.filename or f"{os.sep}mb{os.sep}" in f.filename
    ]


def test_layer_call_errors_show_user_frames_unless_filtering_is_off(_restored):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    x = np.ones((2, 3), "float32")
    layer = _Broken()
    with pytest.raises(ValueError, match="bad input in user code") as info:
        layer(model(x))
    assert _mb_frames(info.value) == []
    assert traceback.extract_tb(info.value.__traceback__)[-1].name == "_user_helper"
    keras.config.disable_traceback_filtering()
    with pytest.raises(ValueError, match="bad input in user code") as info:
        layer(model(x))
    assert _mb_frames(info.value) != []
