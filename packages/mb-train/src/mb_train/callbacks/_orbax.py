"""OrbaxCheckpoint: the training state as Orbax checkpoints, Keras 3.15's layout.

Each checkpoint is a step folder of ``directory`` holding the checkpointables
Keras writes: ``pytree`` (``model.get_state_tree()``: trainable, non-trainable,
optimizer and metric variables by path) and, unless ``save_weights_only``,
``model_config`` (``{"config": model.to_json()}``). `mb.saving.load_model` and
``model.load_weights`` read them back, as Keras's do, and each framework reads the
other's.
"""

import warnings

import numpy as np

from mb_train.callbacks._callback import Callback
from mb_train.callbacks._monitors import _mode_op

_NO_ORBAX = (
    "OrbaxCheckpoint needs the 'orbax-checkpoint' package (which needs JAX), and it is "
    "not installed: pip install orbax-checkpoint. Without it, ModelCheckpoint and "
    "BackupAndRestore save the same state."
)


def import_orbax():
    """``orbax.checkpoint`` (its v1 API is ``.v1``), or an ImportError saying what to
    install. Imported on first use: an optional integration."""
    try:
        import orbax.checkpoint
    except ImportError as error:
        raise ImportError(_NO_ORBAX) from error
    return orbax.checkpoint


def _state_arrays(model, weights_only):
    """The model's state tree as NumPy arrays (what Orbax writes on every backend)."""
    tree = model.get_state_tree(value_format="numpy_array")
    if weights_only:
        tree = {k: tree[k] for k in ("trainable_variables", "non_trainable_variables")}
    return tree


class OrbaxCheckpoint(Callback):
    """Saves the model's state as Orbax checkpoints, every epoch or every `save_freq` batches.

    Keras 3.15's ``keras.callbacks.OrbaxCheckpoint``: the folders it writes are
    Keras's (read by `load_model`/`load_weights` of either framework). Saves run
    in the background by default; `wait_until_finished` blocks until they are on
    disk (``fit`` waits at its end). Needs ``orbax-checkpoint``.

    Args:
        directory: the folder of the checkpoints (one sub-folder per step).
        monitor: the logged quantity `save_best_only` compares.
        verbose: 1 prints a line per save.
        save_best_only: save only when `monitor` improved on the best so far.
        mode: ``"auto"``, ``"min"`` or ``"max"``: which way `monitor` improves.
        save_freq: ``"epoch"`` (the step is the epoch's index) or a number of
            batches (the step is the number of batches trained so far).
        initial_value_threshold: the "best" value to beat at first.
        max_to_keep: keep this many newest checkpoints (None: all).
        save_on_background: save asynchronously.
        save_weights_only: save only the model's variables (no optimizer, metric
            variables or config).

    Example:

    >>> import os, tempfile
    >>> import numpy as np
    >>> from mb_layers import Input
    >>> from mb_layers.layers import Dense
    >>> from mb_train.models import Sequential
    >>> model = Sequential([Input((3,)), Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> folder = tempfile.mkdtemp()
    >>> saver = OrbaxCheckpoint(folder, save_freq=2, max_to_keep=1)
    >>> _ = model.fit(np.ones((8, 3)), np.ones((8, 1)), batch_size=2, verbose=0,
    ...               callbacks=[saver])
    >>> sorted(os.listdir(folder))
    ['4']
    """

    _needs_batch_logs = True

    def __init__(
        self,
        directory,
        monitor="val_loss",
        verbose=0,
        save_best_only=False,
        mode="auto",
        save_freq="epoch",
        initial_value_threshold=None,
        max_to_keep=1,
        save_on_background=True,
        save_weights_only=False,
    ):
        super().__init__()
        orbax = import_orbax()
        ocp = orbax.v1
        if save_freq != "epoch" and not (
            isinstance(save_freq, int) and not isinstance(save_freq, bool) and save_freq > 0
        ):
            raise ValueError(
                "OrbaxCheckpoint's `save_freq` must be 'epoch' or a positive int. "
                f"Received: save_freq={save_freq!r}."
            )
        if max_to_keep is not None and not (isinstance(max_to_keep, int) and max_to_keep > 0):
            raise ValueError(
                "OrbaxCheckpoint's `max_to_keep` must be a positive int or None (keep all). "
                f"Received: max_to_keep={max_to_keep!r}."
            )
        self.directory = directory
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.mode = mode
        self.monitor_op = _mode_op(mode, monitor)
        self.min_delta = 0
        self.best = initial_value_threshold
        self.save_freq = save_freq
        self.max_to_keep = max_to_keep
        self.save_on_background = save_on_background
        self.save_weights_only = save_weights_only
        self._ocp = ocp
        self._multihost_api = orbax.multihost
        self._batches_since_save = 0
        self._last_batch_seen = None
        self._total_batches_seen = 0
        self._async_futures = []
        self._multihost = bool(orbax.multihost.is_jax_distributed_client_initialized())
        policies = ocp.training.preservation_policies
        self.checkpointer = ocp.training.Checkpointer(
            directory=directory,
            preservation_policy=None if max_to_keep is None else policies.LatestN(max_to_keep),
            # Every save this callback decides on is taken (Orbax's own default skips some).
            save_decision_policy=ocp.training.save_decision_policies.FixedIntervalPolicy(1),
        )

    def set_model(self, model):
        super().set_model(model)
        optimizer = getattr(model, "optimizer", None)
        if optimizer is not None:
            # A restored model goes on numbering its steps where it stopped.
            self._total_batches_seen = int(np.asarray(optimizer.iterations.numpy()))

    def is_multihost_enabled(self):
        """Whether this is a run of several JAX processes (``jax.distributed`` initialized),
        whose saves are coordinated across hosts."""
        return self._multihost

    def is_primary_host(self):
        """Whether this process is the primary host (process 0); True on a single host."""
        if not self._multihost:
            return True
        return bool(self._multihost_api.is_primary_host(primary_host=0))

    def _sync(self, key):
        if self._multihost:
            self._multihost_api.sync_global_processes(key)

    def _improved(self, logs, where):
        if not self.save_best_only:
            return True
        value = (logs or {}).get(self.monitor)
        if value is None:
            warnings.warn(
                f"Can save best model only with {self.monitor} available, skipping save at "
                f"{where}. Logged: {', '.join(sorted(logs or {}))}.",
                stacklevel=3,
            )
            return False
        if self.best is not None and not self.monitor_op(value, self.best):
            return False
        self.best = value
        return True

    def _save(self, step):
        payload = {"pytree": _state_arrays(self.model, self.save_weights_only)}
        if not self.save_weights_only:
            payload["model_config"] = {"config": self.model.to_json()}
        with self._ocp.Context():
            if self.save_on_background:
                future = self.checkpointer.save_checkpointables_async(step, payload)
                self._async_futures.append(future)
            else:
                self.checkpointer.save_checkpointables(step, payload)
        if self.verbose > 0:
            print(f"OrbaxCheckpoint: saving step {step} to {self.directory}")

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        # Counted from the batch index, so a call every `steps_per_execution` batches
        # counts them all (a new epoch starts again from 0).
        last = self._last_batch_seen
        added = batch + 1 if last is None or batch <= last else batch - last
        self._last_batch_seen = batch
        self._batches_since_save += added
        self._total_batches_seen += added
        if self._batches_since_save < self.save_freq:
            return
        self._batches_since_save = 0
        if self._improved(logs, f"batch {batch}"):
            self._save(self._total_batches_seen)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch" and self._improved(logs, f"epoch {epoch}"):
            self._save(epoch)

    def on_train_end(self, logs=None):
        self.wait_until_finished()
        self._sync("checkpoint_cleanup")

    def wait_until_finished(self):
        """Blocks until every checkpoint started so far is written (on every host)."""
        futures, self._async_futures = self._async_futures, []
        for future in futures:
            future.result()
        self.checkpointer.wait()
        self._sync("checkpoint_wait_complete")
