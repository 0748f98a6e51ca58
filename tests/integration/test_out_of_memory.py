"""Out of device memory in fit/evaluate/predict: a `MemoryError` naming the batch size.

The engine's own out-of-memory error (torch.OutOfMemoryError, XLA's RESOURCE_EXHAUSTED,
TensorFlow's ResourceExhaustedError) is raised from inside the step by a layer, as the
allocator would raise it; mb must translate it and keep it as the cause. On a GPU,
tests/integration/test_gpu.py exhausts real device memory.
"""

from __future__ import annotations

import numpy as np
import pytest

import mb
from mb_graph import is_keras_tensor
from mb_ops import backends, config


def _engine_oom():
    backend = config.backend()
    if backend == "torch":
        import torch

        return torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")
    if backend == "jax":
        import jax

        return jax.errors.JaxRuntimeError("RESOURCE_EXHAUSTED: Out of memory allocating 2 GiB")
    if backend == "tensorflow":
        import tensorflow as tf

        return tf.errors.ResourceExhaustedError(None, None, "OOM when allocating tensor")
    return None


class _Exhausts(mb.layers.Layer):
    """Raises `error` whenever it is called, as an allocator that ran out would."""

    def __init__(self, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error
        self.armed = False  # off while the model is built

    def call(self, x):
        if self.armed and not is_keras_tensor(x):  # real data only: memory runs out there
            raise self.error
        return x


@pytest.mark.parametrize("method", ["fit", "evaluate", "predict"])
def test_out_of_memory_names_the_batch_size_and_keeps_the_engine_error(method):
    error = _engine_oom()
    if error is None or backends.lookup("training", "is_out_of_memory") is None:
        pytest.skip(f"the {config.backend()} backend runs on no device with its own memory")
    exhausts = _Exhausts(error)
    model = mb.Sequential([mb.Input((4,)), exhausts, mb.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    exhausts.armed = True
    x, y = np.ones((96, 4), "float32"), np.ones((96, 1), "float32")
    call = {
        "fit": lambda: model.fit(x, y, batch_size=48, verbose=0),
        "evaluate": lambda: model.evaluate(x, y, batch_size=48, verbose=0),
        "predict": lambda: model.predict(x, batch_size=48, verbose=0),
    }[method]
    with pytest.raises(MemoryError, match=rf"{method}\(\) ran out of device memory") as info:
        call()
    message = str(info.value)
    assert "a batch of 48 samples" in message and "batch_size=24" in message
    assert info.value.__cause__ is error


def test_other_errors_pass_through_unchanged():
    exhausts = _Exhausts(ValueError("not memory"))
    model = mb.Sequential([mb.Input((4,)), exhausts, mb.layers.Dense(1)])
    exhausts.armed = True
    with pytest.raises(ValueError, match="not memory"):
        model.predict(np.ones((8, 4), "float32"), verbose=0)
