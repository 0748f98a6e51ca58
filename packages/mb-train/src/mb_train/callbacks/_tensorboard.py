"""`TensorBoard`: scalar logs in event files that TensorBoard reads."""

import os
import time
import warnings

import numpy as np

from mb_ops import backends
from mb_train import _saving_hook
from mb_train._trainer._distributed import is_chief
from mb_train.callbacks._callback import Callback
from mb_train.callbacks._event_file import EventFileWriter
from mb_train.callbacks._monitors import _get_lr, _rate_owners

# Keras writes the model's JSON (TensorBoard's conceptual graph) for these classes only.
_GRAPH_MODEL_CLASSES = ("Functional", "Sequential")


def _as_number(value):
    """A Variable or tensor as a Python number (one host transfer)."""
    if hasattr(value, "numpy"):
        array = np.asarray(value.numpy())
    else:
        array = np.asarray(backends.backend_module("core").convert_to_numpy(value))
    return array.item()


class TensorBoard(Callback):
    """Writes the logs of `fit` and `evaluate` as TensorBoard scalars, with Keras's tags.

    Under ``log_dir/train``: ``epoch_<metric>`` and ``epoch_learning_rate`` (one
    ``epoch_learning_rate_<name>`` per sub-optimizer of a `MultiOptimizer`) at step
    `epoch`; with ``update_freq=N`` (or ``"batch"``, N = 1) ``batch_<metric>`` every
    N-th batch of the `fit` call, at step 1, 2, ... counted from the call's start;
    with ``write_steps_per_second``, ``epoch_steps_per_second`` (and
    ``batch_steps_per_second``); with ``write_graph``, the model's JSON under the
    tag ``keras`` when the model is `Functional` or `Sequential` and mb-saving is
    loaded (it writes the JSON; a model that cannot serialize gets a warning).
    Under ``log_dir/validation``: ``epoch_<metric>`` of the validation logs, and
    after every evaluation (validation in `fit` or `evaluate` given this callback)
    ``evaluation_<metric>_vs_iterations`` at step ``optimizer.iterations``. Each
    `fit`, `evaluate` or `predict` that receives the callback starts new event
    files, named as TensorFlow names them.

    Histograms, weight images, embeddings and profiling (Keras's other options)
    are accepted and write nothing.

    Example:

    >>> import tempfile
    >>> callback = TensorBoard(log_dir=tempfile.mkdtemp(), update_freq=10)
    >>> callback.update_freq
    10
    """

    def __init__(
        self,
        log_dir="logs",
        histogram_freq=0,
        write_graph=True,
        write_images=False,
        write_steps_per_second=False,
        update_freq="epoch",
        profile_batch=0,
        embeddings_freq=0,
        embeddings_metadata=None,
    ):
        super().__init__()
        del profile_batch
        if update_freq == "batch":
            update_freq = 1
        if update_freq != "epoch" and (
            isinstance(update_freq, bool) or not isinstance(update_freq, int) or update_freq < 1
        ):
            raise ValueError(
                "TensorBoard's update_freq must be 'epoch', 'batch' or a positive number of "
                f"batches. Received: update_freq={update_freq!r}."
            )
        self.log_dir = os.fspath(log_dir)
        self.update_freq = update_freq
        self.write_graph = write_graph
        self.write_steps_per_second = write_steps_per_second
        # Kept as given, as Keras keeps them; mb writes no weight histograms, weight
        # images or embeddings yet.
        self.histogram_freq = histogram_freq
        self.write_images = write_images
        self.embeddings_freq = embeddings_freq
        self.embeddings_metadata = embeddings_metadata
        self._writers = {}
        self._global_train_batch = 0
        self._batch_start_time = 0.0
        self._epoch_start_time = 0.0
        self._epoch_start_iterations = 0

    @property
    def summary(self):
        """TensorFlow's ``tf.summary`` module, imported on first use (as Keras's).

        mb writes this callback's event files itself, without TensorFlow, and does
        not make its writers TensorFlow's default: to log your own summaries, open
        a writer, e.g. ``with cb.summary.create_file_writer(log_dir).as_default():``.

        Raises:
            ImportError: TensorFlow is not installed.
        """
        try:
            import tensorflow.summary as summary  # optional: only for this property
        except ImportError as exc:
            raise ImportError(
                "TensorBoard.summary is TensorFlow's tf.summary module, and TensorFlow "
                "is not installed. Install it (pip install tensorflow-cpu), or log "
                "through the callback's own logs instead."
            ) from exc
        return summary

    @property
    def _needs_batch_logs(self):
        return self.update_freq != "epoch"

    def _writer(self, name):
        if name not in self._writers:
            if is_chief():
                self._writers[name] = EventFileWriter(os.path.join(self.log_dir, name))
            else:  # in a run of several processes, process 0 writes the logs
                self._writers[name] = _NoWriter()
        return self._writers[name]

    def _close_writers(self):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}

    def set_model(self, model):
        super().set_model(model)
        self._close_writers()  # as in Keras, every fit/evaluate/predict writes new files
        if self.write_graph:
            self._write_model_graph()

    def _write_model_graph(self):
        to_json = getattr(self.model, "to_json", None)
        if type(self.model).__name__ not in _GRAPH_MODEL_CLASSES or not callable(to_json):
            return
        if not _saving_hook.has_saving_implementation():
            return  # the JSON comes from mb-saving; without it there is no graph to draw
        try:
            text = to_json()
        except Exception as error:  # a model that cannot serialize still trains
            warnings.warn(
                f"TensorBoard: the model could not be serialized as JSON, so its graph is "
                f"not written. to_json() raised: {error}",
                stacklevel=2,
            )
            return
        writer = self._writer("train")
        writer.add_text_tensor(
            "keras", text, 0, plugin_name="graph_keras_model", plugin_content=b"1"
        )
        writer.flush()

    def _iterations(self):
        optimizer = getattr(self.model, "optimizer", None)
        iterations = getattr(optimizer, "iterations", None) if optimizer is not None else None
        return None if iterations is None else int(_as_number(iterations))

    # ----- training -------------------------------------------------------------------

    def on_train_begin(self, logs=None):
        self._global_train_batch = 0

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1
        if self.write_steps_per_second:
            self._batch_start_time = time.time()

    def on_train_batch_end(self, batch, logs=None):
        step = self._global_train_batch
        if self.update_freq == "epoch" or step % self.update_freq != 0:
            return
        scalars = {f"batch_{k}": v for k, v in (logs or {}).items()}
        if self.write_steps_per_second:
            elapsed = max(time.time() - self._batch_start_time, 1e-9)
            scalars = {"batch_steps_per_second": 1.0 / elapsed, **scalars}
        self._writer("train").add_scalars(scalars, step)

    def on_epoch_begin(self, epoch, logs=None):
        if self.write_steps_per_second:
            self._epoch_start_iterations = self._iterations() or 0
            self._epoch_start_time = time.time()

    def _learning_rates(self):
        if getattr(self.model, "optimizer", None) is None:
            return {}
        rates = {}
        for suffix, optimizer in _rate_owners(self.model):
            try:
                rates[f"learning_rate{suffix}"] = _get_lr(optimizer)
            except (AttributeError, TypeError):  # an optimizer without a rate
                continue
        return rates

    def on_epoch_end(self, epoch, logs=None):
        if not logs:
            return
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        train.update(self._learning_rates())
        if self.write_steps_per_second:
            done = (self._iterations() or 0) - self._epoch_start_iterations
            train["steps_per_second"] = done / max(time.time() - self._epoch_start_time, 1e-9)
        self._writer("train").add_scalars({f"epoch_{k}": v for k, v in train.items()}, epoch)
        val = {f"epoch_{k[4:]}": v for k, v in logs.items() if k.startswith("val_")}
        if val:
            self._writer("validation").add_scalars(val, epoch)
        for writer in self._writers.values():
            writer.flush()

    def on_train_end(self, logs=None):
        self._close_writers()

    # ----- evaluation -----------------------------------------------------------------

    def on_test_end(self, logs=None):
        step = self._iterations()
        if step is None or not logs:
            return
        writer = self._writer("validation")
        writer.add_scalars({f"evaluation_{k}_vs_iterations": v for k, v in logs.items()}, step)
        writer.flush()


class _NoWriter:
    """What the processes other than process 0 write to: nothing."""

    def add_scalars(self, *args, **kwargs):
        pass

    def add_text_tensor(self, *args, **kwargs):
        pass

    def flush(self):
        pass

    def close(self):
        pass
