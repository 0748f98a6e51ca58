"""`CallbackList`: calls several callbacks, cheaply."""

from mb_train.callbacks._callback import Callback, logs_to_floats
from mb_train.callbacks._history import History
from mb_train.callbacks._progbar import ProgbarLogger

_BATCH_HOOKS = (
    "on_batch_begin",
    "on_batch_end",
    "on_train_batch_begin",
    "on_train_batch_end",
    "on_test_batch_begin",
    "on_test_batch_end",
    "on_predict_batch_begin",
    "on_predict_batch_end",
)


def _overrides_batch_hooks(callback):
    cls = type(callback)
    return any(
        name in vars(callback) or getattr(cls, name) is not getattr(Callback, name)
        for name in _BATCH_HOOKS
    )


class CallbackList(Callback):
    """Calls a list of callbacks; adds `History` and `ProgbarLogger` when asked.

    Batch hooks are skipped entirely when no callback overrides them, and
    batch logs are turned into floats only when a callback reads them, so an
    idle callback list costs nothing per step.
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        super().__init__()

        self.callbacks = list(callbacks or [])
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.insert(0, ProgbarLogger())
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)
        self._refresh()

    def _refresh(self):
        batch = [c for c in self.callbacks if _overrides_batch_hooks(c)]
        self._batch_callbacks = batch
        self._wants_batch_logs = any(c._needs_batch_logs for c in batch)

    def append(self, callback):
        self.callbacks.append(callback)
        if self._model is not None:
            callback.set_model(self._model)
        if self.params is not None:
            callback.set_params(self.params)
        self._refresh()

    def set_model(self, model):
        super().set_model(model)
        for c in self.callbacks:
            c.set_model(model)

    def set_params(self, params):
        super().set_params(params)
        for c in self.callbacks:
            c.set_params(params)

    @property
    def has_batch_hooks(self):
        return bool(self._batch_callbacks)

    def _batch(self, hook, batch, logs):
        if not self._batch_callbacks:
            return
        if self._wants_batch_logs and logs:
            logs = logs_to_floats(logs)
        for c in self._batch_callbacks:
            getattr(c, hook)(batch, logs)

    def _all(self, hook, *args):
        for c in self.callbacks:
            getattr(c, hook)(*args)

    def on_train_batch_begin(self, batch, logs=None):
        self._batch("on_train_batch_begin", batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        self._batch("on_train_batch_end", batch, logs)

    def on_test_batch_begin(self, batch, logs=None):
        self._batch("on_test_batch_begin", batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        self._batch("on_test_batch_end", batch, logs)

    def on_predict_batch_begin(self, batch, logs=None):
        self._batch("on_predict_batch_begin", batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._batch("on_predict_batch_end", batch, logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._all("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._all("on_epoch_end", epoch, logs)

    def on_train_begin(self, logs=None):
        self._all("on_train_begin", logs)

    def on_train_end(self, logs=None):
        self._all("on_train_end", logs)

    def on_test_begin(self, logs=None):
        self._all("on_test_begin", logs)

    def on_test_end(self, logs=None):
        self._all("on_test_end", logs)

    def on_predict_begin(self, logs=None):
        self._all("on_predict_begin", logs)

    def on_predict_end(self, logs=None):
        self._all("on_predict_end", logs)
