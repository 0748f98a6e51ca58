"""LambdaCallback, SwapEMAWeights and RemoteMonitor."""

import json
import urllib.parse
import urllib.request
import warnings

import numpy as np

from mb_train.callbacks._callback import Callback


class LambdaCallback(Callback):
    """A callback from functions: ``on_epoch_end=lambda epoch, logs: ...`` and so on.

    Any ``on_*`` hook may be given as a keyword argument.
    """

    def __init__(
        self,
        on_epoch_begin=None,
        on_epoch_end=None,
        on_train_begin=None,
        on_train_end=None,
        on_train_batch_begin=None,
        on_train_batch_end=None,
        **kwargs,
    ):
        super().__init__()
        hooks = {
            "on_epoch_begin": on_epoch_begin,
            "on_epoch_end": on_epoch_end,
            "on_train_begin": on_train_begin,
            "on_train_end": on_train_end,
            "on_train_batch_begin": on_train_batch_begin,
            "on_train_batch_end": on_train_batch_end,
            **kwargs,
        }
        for name, fn in hooks.items():
            if not name.startswith("on_") or not hasattr(Callback, name):
                raise TypeError(f"LambdaCallback got an unknown hook {name!r}.")
            if fn is not None:
                setattr(self, name, fn)


class SwapEMAWeights(Callback):
    """Evaluates (and optionally checkpoints) with the optimizer's EMA weights.

    Needs an optimizer built with ``use_ema=True`` (with a `MultiOptimizer`: at least
    one sub-optimizer, whose variables alone are swapped). The EMA values are put in
    the model for each evaluation and prediction, and the trained values put back
    after. With ``swap_on_epoch=True`` the EMA values are also in the model from each
    epoch's end to the next epoch's start, so that callbacks after this one (e.g.
    `ModelCheckpoint`) see them; after `fit` the model holds the EMA values, as in
    Keras.

    The trained values are kept on the host while the EMA values are in the model;
    the optimizer's moving averages are never changed by the callback, so the end
    of `fit` (which writes them into the model) leaves the EMA values there however
    training ended.

    Example:

    >>> callback = SwapEMAWeights(swap_on_epoch=True)
    >>> callback.swap_on_epoch
    True
    """

    _needs_batch_logs = False

    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._trained = None  # [(variable, its trained value)] while EMA values are in
        self._in_epoch_gap = False

    def _ema_pairs(self):
        """``[(model variable, its moving average)]`` over every optimizer keeping an EMA."""
        optimizer = self.model.optimizer
        inner = getattr(optimizer, "inner_optimizer", None)  # a LossScaleOptimizer's
        optimizer = inner if inner is not None else optimizer
        subs = getattr(optimizer, "optimizers", None)  # a MultiOptimizer's
        if subs is not None:
            with_ema = [sub for sub in subs if getattr(sub, "use_ema", False)]
            if not with_ema:
                raise ValueError(
                    "SwapEMAWeights must be used when at least one inner optimizer has "
                    "`use_ema=True` set. Received a MultiOptimizer with all inner optimizers "
                    f"having `use_ema=False`: {[sub.name for sub in subs]}."
                )
            return [pair for sub in with_ema for pair in self._pairs_of(sub)]
        if not getattr(optimizer, "use_ema", False):
            raise ValueError(
                "SwapEMAWeights needs an optimizer with use_ema=True. Received optimizer "
                f"{type(optimizer).__name__} without EMA."
            )
        return self._pairs_of(optimizer)

    def _pairs_of(self, optimizer):
        ema = getattr(optimizer, "_model_variables_moving_average", None)
        if not ema:
            raise ValueError(
                f"SwapEMAWeights: the optimizer {optimizer.name!r} has no EMA variables yet "
                "(it is built on the first training step)."
            )
        variables = getattr(optimizer, "_trainable_variables", None) or (
            self.model.trainable_variables
        )
        return [(v, e) for v, e in zip(variables, ema, strict=True) if e is not None]

    def _put_ema_in(self):
        if self._trained is not None:
            return
        pairs = self._ema_pairs()
        trained = [(v, np.array(v.numpy())) for v, _ in pairs]
        for v, e in pairs:
            v.assign(e.numpy())
        self._trained = trained

    def _put_trained_back(self):
        if self._trained is None:
            return
        for v, value in self._trained:
            v.assign(value)
        self._trained = None

    def _done_with_ema(self):
        # Between an epoch's end and the next epoch's start (swap_on_epoch) the EMA
        # values stay in, whatever runs there.
        if not self._in_epoch_gap:
            self._put_trained_back()

    def on_test_begin(self, logs=None):
        self._put_ema_in()

    def on_test_end(self, logs=None):
        self._done_with_ema()

    def on_predict_begin(self, logs=None):
        self._put_ema_in()

    def on_predict_end(self, logs=None):
        self._done_with_ema()

    def on_train_begin(self, logs=None):
        self._in_epoch_gap = False

    def on_epoch_begin(self, epoch, logs=None):
        self._in_epoch_gap = False
        self._put_trained_back()

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch:
            self._put_ema_in()
            self._in_epoch_gap = True

    def on_train_end(self, logs=None):
        # The end of fit has written the moving averages into the model (or, with an
        # optimizer that does not, the EMA values put in at the last epoch's end are
        # there): the trained values held since then are not put back.
        self._trained = None
        self._in_epoch_gap = False


class RemoteMonitor(Callback):
    """POSTs each epoch's logs as JSON to ``root + path``."""

    _needs_batch_logs = False

    def __init__(
        self,
        root="http://localhost:9000",
        path="/publish/epoch/end/",
        field="data",
        headers=None,
        send_as_json=False,
    ):
        super().__init__()
        self.root, self.path, self.field = root, path, field
        self.headers = headers or {}
        self.send_as_json = send_as_json

    def on_epoch_end(self, epoch, logs=None):
        payload = {"epoch": epoch, **{k: float(v) for k, v in (logs or {}).items()}}
        if self.send_as_json:
            body = json.dumps(payload).encode()
            headers = {"Content-Type": "application/json", **self.headers}
        else:
            body = urllib.parse.urlencode({self.field: json.dumps(payload)}).encode()
            headers = dict(self.headers)
        request = urllib.request.Request(self.root + self.path, data=body, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10):
                pass
        except OSError as error:
            warnings.warn(f"RemoteMonitor could not reach {self.root}: {error}", stacklevel=2)
