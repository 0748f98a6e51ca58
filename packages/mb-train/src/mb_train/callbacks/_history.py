"""`History`: the per-epoch logs, returned by `fit`."""

from mb_train.callbacks._callback import Callback


class History(Callback):
    """Records each epoch's logs in ``history`` (``{"loss": [...], ...}``).

    `fit` adds one and returns it.
    """

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        if self.model is not None:
            self.model.history = self
