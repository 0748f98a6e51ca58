"""`Callback` and `CallbackList`."""

import numpy as np

from mb_ops import backends


def logs_to_floats(logs):
    """Tensors in `logs` as Python floats (one host transfer per value). A dict value
    (e.g. ``model.metrics[-1].result()`` returned by a custom step, the compiled
    metrics' results) is flattened into the logs, its keys sorted, as Keras does."""
    if not logs:
        return {}
    convert = backends.backend_module("core").convert_to_numpy
    out = {}
    for key, value in logs.items():
        if isinstance(value, dict):
            out.update(logs_to_floats(dict(sorted(value.items()))))
        elif isinstance(value, int | float):
            out[key] = value
        else:
            array = np.asarray(convert(value))
            out[key] = float(array) if array.ndim == 0 else array
    return out


class Callback:
    """Base class of callbacks: hooks called by `fit`, `evaluate` and `predict`.

    Attributes:
        model: the model being trained (set by `fit`).
        params: ``{"epochs", "steps", "verbose"}``.
    """

    def __init__(self):
        self.params = None
        self._model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self._model = model

    @property
    def model(self):
        return self._model

    # Whether the callback reads per-batch logs (they cost a host transfer per step).
    _needs_batch_logs = True

    def on_batch_begin(self, batch, logs=None):
        """Called at the beginning of a training batch (alias of on_train_batch_begin)."""

    def on_batch_end(self, batch, logs=None):
        """Called at the end of a training batch (alias of on_train_batch_end)."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of an epoch."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch with the epoch's (and validation) logs."""

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """Called at the start of an evaluation batch."""

    def on_test_batch_end(self, batch, logs=None):
        """Called at the end of an evaluation batch."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Called at the start of a prediction batch."""

    def on_predict_batch_end(self, batch, logs=None):
        """Called at the end of a prediction batch."""

    def on_train_begin(self, logs=None):
        """Called at the beginning of training."""

    def on_train_end(self, logs=None):
        """Called at the end of training."""

    def on_test_begin(self, logs=None):
        """Called at the beginning of evaluation."""

    def on_test_end(self, logs=None):
        """Called at the end of evaluation."""

    def on_predict_begin(self, logs=None):
        """Called at the beginning of prediction."""

    def on_predict_end(self, logs=None):
        """Called at the end of prediction."""
