"""`TensorBoard`: scalar logs in event files that TensorBoard reads."""

import os

from mb_train.callbacks._callback import Callback
from mb_train.callbacks._event_file import EventFileWriter


class TensorBoard(Callback):
    """Writes the epoch logs (and, with ``update_freq=N``, every N-th batch's) as
    TensorBoard scalars under ``log_dir/train`` and ``log_dir/validation``.

    Histograms, images, graphs and profiling (Keras's other options) are accepted
    and ignored with no effect beyond the scalars.
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
        del histogram_freq, write_graph, write_images, profile_batch
        del embeddings_freq, embeddings_metadata
        self.log_dir = os.fspath(log_dir)
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.write_steps_per_second = write_steps_per_second
        self._writers = {}
        self._global_step = 0

    @property
    def _needs_batch_logs(self):
        return self.update_freq != "epoch"

    def _writer(self, name):
        if name not in self._writers:
            self._writers[name] = EventFileWriter(os.path.join(self.log_dir, name))
        return self._writers[name]

    def on_train_batch_end(self, batch, logs=None):
        self._global_step += 1
        if self.update_freq != "epoch" and self._global_step % self.update_freq == 0:
            scalars = {f"batch_{k}": v for k, v in (logs or {}).items()}
            self._writer("train").add_scalars(scalars, self._global_step)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        train = {f"epoch_{k}": v for k, v in logs.items() if not k.startswith("val_")}
        val = {f"epoch_{k[4:]}": v for k, v in logs.items() if k.startswith("val_")}
        self._writer("train").add_scalars(train, epoch)
        if val:
            self._writer("validation").add_scalars(val, epoch)
        for writer in self._writers.values():
            writer.flush()

    def on_train_end(self, logs=None):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}
