"""Callbacks that watch a logged quantity: EarlyStopping, ReduceLROnPlateau,
LearningRateScheduler, TerminateOnNaN."""

import math
import warnings

import numpy as np

from mb_train.callbacks._callback import Callback


def _mode_op(mode, monitor):
    if mode not in ("auto", "min", "max"):
        raise ValueError(f"`mode` must be 'auto', 'min' or 'max'. Received: {mode!r}.")
    if mode == "auto":
        mode = "max" if ("acc" in monitor or monitor.endswith("auc")) else "min"
    return np.less if mode == "min" else np.greater


def _get_monitor(logs, monitor, who):
    value = (logs or {}).get(monitor)
    if value is None:
        warnings.warn(
            f"{who} is conditioned on `{monitor}`, which is not in the logs. Available: "
            f"{', '.join(sorted(logs or {}))}.",
            stacklevel=3,
        )
    return value


class EarlyStopping(Callback):
    """Stops training when `monitor` has stopped improving for `patience` epochs."""

    _needs_batch_logs = False

    def __init__(
        self,
        monitor="val_loss",
        min_delta=0,
        patience=0,
        verbose=0,
        mode="auto",
        baseline=None,
        restore_best_weights=False,
        start_from_epoch=0,
    ):
        super().__init__()
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.mode = mode
        self.monitor_op = _mode_op(mode, monitor)
        self.stopped_epoch = 0
        self.wait = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def get_monitor_value(self, logs):
        """The monitored value in `logs`, or None (with a warning naming the logs' keys)."""
        return _get_monitor(logs, self.monitor, "EarlyStopping")

    def _improved(self, value, reference):
        if reference is None:
            return True
        delta = -self.min_delta if self.monitor_op is np.less else self.min_delta
        return bool(self.monitor_op(value - delta, reference))

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        value = self.get_monitor_value(logs)
        if value is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self._improved(value, self.best):
            self.best = value
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._improved(value, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            self.model.set_weights(self.best_weights)


def _set_lr(optimizer, value):
    lr = optimizer.learning_rate
    if hasattr(lr, "assign"):
        lr.assign(float(value))
    else:
        optimizer.learning_rate = float(value)


def _get_lr(optimizer):
    lr = optimizer.learning_rate
    return float(lr.numpy()) if hasattr(lr, "numpy") else float(lr)


def _rate_owners(model):
    """``[(log suffix, optimizer)]``: the optimizers whose rate the callbacks read and set.

    A MultiOptimizer (also inside a LossScaleOptimizer) has no rate of its own: each
    sub-optimizer's is logged as ``learning_rate_<name>`` and scheduled on its own, as
    in Keras. Any other optimizer is one entry, logged as ``learning_rate``.
    """
    optimizer = model.optimizer
    inner = getattr(optimizer, "inner_optimizer", None)
    subs = getattr(inner if inner is not None else optimizer, "optimizers", None)
    if subs is None:
        return [("", optimizer)]
    return [(f"_{sub.name}", sub) for sub in subs]


def _log_rates(model, logs):
    for suffix, optimizer in _rate_owners(model):
        logs[f"learning_rate{suffix}"] = _get_lr(optimizer)


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` when `monitor` stops improving.

    With a `MultiOptimizer`, every sub-optimizer's rate is multiplied (each down to
    `min_lr`) and logged as ``learning_rate_<name>``.
    """

    _needs_batch_logs = False

    def __init__(
        self,
        monitor="val_loss",
        factor=0.1,
        patience=10,
        verbose=0,
        mode="auto",
        min_delta=1e-4,
        cooldown=0,
        min_lr=0.0,
        **kwargs,
    ):
        super().__init__()
        if kwargs:
            raise TypeError(
                f"ReduceLROnPlateau got unexpected arguments: {sorted(kwargs)}. It takes "
                "monitor, factor, patience, verbose, mode, min_delta, cooldown and min_lr."
            )
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau needs factor < 1. Received: factor={factor}.")
        self.monitor, self.factor, self.patience = monitor, factor, patience
        self.verbose, self.min_delta, self.cooldown, self.min_lr = (
            verbose,
            min_delta,
            cooldown,
            min_lr,
        )
        self.mode = mode
        self.monitor_op = _mode_op(mode, monitor)
        self.best, self.wait, self.cooldown_counter = None, 0, 0

    def in_cooldown(self):
        """Whether the rate was reduced less than `cooldown` epochs ago."""
        return self.cooldown_counter > 0

    def on_train_begin(self, logs=None):
        self.best, self.wait, self.cooldown_counter = None, 0, 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        _log_rates(self.model, logs)
        value = _get_monitor(logs, self.monitor, "ReduceLROnPlateau")
        if value is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        delta = -self.min_delta if self.monitor_op is np.less else self.min_delta
        if self.best is None or self.monitor_op(value - delta, self.best):
            self.best, self.wait = value, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                reduced = False
                for suffix, optimizer in _rate_owners(self.model):
                    old = _get_lr(optimizer)
                    if old > self.min_lr:
                        new = max(old * self.factor, self.min_lr)
                        _set_lr(optimizer, new)
                        reduced = True
                        if self.verbose > 0:
                            whose = f" {optimizer.name}" if suffix else ""
                            print(
                                f"Epoch {epoch + 1}: ReduceLROnPlateau reducing{whose} "
                                f"learning rate to {new}."
                            )
                if reduced:
                    self.cooldown_counter, self.wait = self.cooldown, 0


class LearningRateScheduler(Callback):
    """Sets the learning rate at each epoch start: ``schedule(epoch, lr) -> new lr``.

    With a `MultiOptimizer`, the schedule is applied to each sub-optimizer's own rate.
    """

    _needs_batch_logs = False

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        for suffix, optimizer in _rate_owners(self.model):
            lr = _get_lr(optimizer)
            try:
                new = self.schedule(epoch, lr)
            except TypeError:
                new = self.schedule(epoch)
            if not isinstance(new, int | float | np.floating):
                raise ValueError(
                    f"The schedule of LearningRateScheduler must return a float. Received: {new!r}."
                )
            _set_lr(optimizer, new)
            if self.verbose > 0:
                whose = f" {optimizer.name}" if suffix else ""
                print(
                    f"Epoch {epoch + 1}: LearningRateScheduler setting{whose} learning rate "
                    f"to {new}."
                )

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            _log_rates(self.model, logs)


class TerminateOnNaN(Callback):
    """Stops training when the loss becomes NaN or infinite.

    Args:
        raise_error: raise a `RuntimeError` naming the batch instead of stopping quietly.
    """

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_train_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is None or math.isfinite(float(loss)):
            return
        if self.raise_error:
            raise RuntimeError(
                f"The loss became {float(loss)} at batch {batch}: training stopped by "
                "TerminateOnNaN. Lower the learning rate, check the inputs for NaN/inf, or clip "
                "gradients (clipnorm=1.0)."
            )
        print(f"Batch {batch}: Invalid loss, terminating training")
        self.model.stop_training = True
