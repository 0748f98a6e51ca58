"""`ProgbarLogger`: the progress display of `fit`, `evaluate` and `predict`."""

from mb_train._progress import ProgressDisplay
from mb_train.callbacks._callback import Callback, logs_to_floats


class ProgbarLogger(Callback):
    """Shows epoch/step progress, ETA and metrics (rich bars on a terminal).

    With ``verbose=1`` on a terminal a bar per epoch is updated as steps run:
    ``step/steps``, the bar, the ETA and the time per step, then the metrics,
    which wrap when the line is too long. Off a terminal (``verbose="auto"``
    writing to a file) and with ``verbose=2`` one line is printed per epoch.
    ``verbose=0`` prints nothing.
    """

    # The bar reads the logs itself, only when it redraws.
    _needs_batch_logs = False

    def __init__(self):
        super().__init__()
        # Where it draws: a terminal's bars or plain lines (None: decided from the
        # stream), on `file` (None: stdout). See `_writing_to`.
        self._interactive = None
        self._file = None
        self._display = None
        self._epochs = 1
        self._steps = None
        self._verbose = 1
        self._seen = 0

    @classmethod
    def _writing_to(cls, file=None, interactive=None):
        """A progress bar drawing on `file` (bars when `interactive`)."""
        logger = cls()
        logger._file, logger._interactive = file, interactive
        return logger

    # Keras's public state: steps seen in the epoch, the current bar, the steps per
    # epoch, the verbosity and the number of epochs (set by `set_params`).
    seen = property(lambda self: self._seen, lambda self, v: setattr(self, "_seen", v))
    progbar = property(lambda self: self._display, lambda self, v: setattr(self, "_display", v))
    target = property(lambda self: self._steps, lambda self, v: setattr(self, "_steps", v))
    verbose = property(lambda self: self._verbose, lambda self, v: setattr(self, "_verbose", v))
    epochs = property(lambda self: self._epochs, lambda self, v: setattr(self, "_epochs", v))

    def set_params(self, params):
        super().set_params(params)
        self._verbose = params.get("verbose", 1)
        self._epochs = params.get("epochs", 1)
        self._steps = params.get("steps")

    def _new_display(self):
        interactive = self._interactive
        if self._verbose == 2:
            interactive = False
        return ProgressDisplay(interactive=interactive, file=self._file)

    def _start(self, title, header=True):
        if not self._verbose:
            return
        self._display = self._new_display()
        self._display.start(title, self._steps, header=header)
        self._seen = 0

    def _step(self, batch, logs):
        self._seen = batch + 1
        if self._display is not None and self._display.due():
            self._display.update(self._seen, logs_to_floats(logs) if logs else None)

    def _finish(self, logs):
        if self._display is not None:
            self._display.finish(self._seen, logs_to_floats(logs) if logs else {})
            self._display = None

    def on_epoch_begin(self, epoch, logs=None):
        self._start(f"Epoch {epoch + 1}/{self._epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._step(batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._finish(logs)

    def on_test_begin(self, logs=None):
        if self.params and self.params.get("mode") == "evaluate":
            self._start("Evaluate", header=False)

    def on_test_batch_end(self, batch, logs=None):
        if self.params and self.params.get("mode") == "evaluate":
            self._step(batch, logs)

    def on_test_end(self, logs=None):
        if self.params and self.params.get("mode") == "evaluate":
            self._finish(logs)

    def on_predict_begin(self, logs=None):
        self._start("Predict", header=False)

    def on_predict_batch_end(self, batch, logs=None):
        self._step(batch, None)

    def on_predict_end(self, logs=None):
        self._finish({})
