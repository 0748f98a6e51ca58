"""The rnn loop, compute_output_spec, and the modules of an inference-only backend."""

import numpy as np
import pytest
from _cases import floats
from _keras_ref import keras_backend_module

import mb_ops
from mb_backend_numpy import core, export, layer, rnn, training


def _cell(w, u):
    def step(x_t, states):
        h = np.tanh(x_t @ w + states[0] @ u)
        return h, [h]

    return step


def test_rnn_matches_an_explicit_loop():
    x, w, u = floats(2, 5, 3), floats(3, 4), floats(4, 4)
    h0 = np.zeros((2, 4), "float32")
    last, outputs, states = rnn.rnn(_cell(w, u), x, [h0])
    h, ref = h0, []
    for t in range(5):
        h = np.tanh(x[:, t] @ w + h @ u)
        ref.append(h)
    np.testing.assert_allclose(outputs, np.stack(ref, 1), rtol=1e-5)
    np.testing.assert_allclose(last, ref[-1], rtol=1e-5)
    np.testing.assert_allclose(states[0], ref[-1], rtol=1e-5)


@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("zero_output_for_mask", [False, True])
def test_rnn_with_mask_matches_keras(go_backwards, zero_output_for_mask):
    keras_rnn = keras_backend_module("rnn")
    x, w, u = floats(3, 6, 2), floats(2, 4), floats(4, 4)
    mask = np.array([[1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 1, 1], [1, 0, 1, 1, 0, 1]], bool)
    h0 = floats(3, 4)
    kwargs = {"mask": mask, "go_backwards": go_backwards}
    kwargs["zero_output_for_mask"] = zero_output_for_mask
    mine = rnn.rnn(_cell(w, u), x, [h0], **kwargs)
    ref = keras_rnn.rnn(_cell(w, u), x, [h0], **kwargs)
    np.testing.assert_allclose(mine[0], ref[0], rtol=1e-5)
    np.testing.assert_allclose(mine[1], ref[1], rtol=1e-5)
    np.testing.assert_allclose(mine[2][0], ref[2][0], rtol=1e-5)


def test_fused_kernels_are_absent_so_layers_fall_back():
    with pytest.raises(NotImplementedError, match="falls back"):
        rnn.lstm(*[None] * 9)
    with pytest.raises(NotImplementedError, match="falls back"):
        rnn.gru(*[None] * 8)
    assert rnn.cudnn_ok("tanh", "sigmoid", False) is False


def test_training_refuses_with_the_inference_only_message():
    message = "the numpy backend is inference-only; use jax, torch or tensorflow to train"
    for name in ("value_and_grad", "jit", "multi_step"):
        assert training.UNSUPPORTED[name] == message
    with pytest.raises(NotImplementedError, match="inference-only"):
        training.value_and_grad(lambda x: x)
    with pytest.raises(NotImplementedError, match="jit is not supported on the numpy backend"):
        training.jit(lambda x: x)
    with pytest.raises(NotImplementedError, match="inference-only"):
        training.multi_step(lambda x: x, 2)


def test_export_refuses_and_layer_is_an_empty_mixin():
    with pytest.raises(NotImplementedError, match="to_tf_function is not supported on the numpy"):
        export.to_tf_function()
    assert layer.Layer.__mro__ == (layer.Layer, object)
    assert not vars(layer.Layer).keys() - {"__module__", "__doc__", "__dict__", "__weakref__"}


def test_compute_output_spec_traces_shapes_and_unknown_dims():
    x = mb_ops.KerasTensor((None, 3, 4), dtype="float16")
    y = mb_ops.KerasTensor((4, 2), dtype="float32")

    def fn(a, b):
        return {"prod": np.matmul(a, b.astype(a.dtype)), "rows": a.shape[0] * np.ones(2)}

    spec = core.compute_output_spec(fn, x, b=y)
    assert spec["prod"].shape == (None, 3, 2) and spec["prod"].dtype == "float16"
    assert spec["rows"].shape == (2,) and spec["rows"].dtype == "float64"
    fixed = core.compute_output_spec(lambda a: a[:, :2], mb_ops.KerasTensor((5, 3)))
    assert fixed.shape == (5, 2)
