"""The metrics a model reports: the compiled ones, then those its layers hold."""

from mb_train._model import _resolve


class MetricsMixin:
    """`Model.metrics` in Keras's order, `metrics_names`, `reset_metrics` (mixed into
    `Model`; `metrics_variables` is `Layer`'s, over these metrics)."""

    def _layer_metrics(self):
        own = {id(m) for m in self._compile_metric_objects()}
        found = []
        for layer in self._flatten_layers(include_self=True):
            for value in vars(layer).values():
                if (
                    _resolve.is_metric_object(value)
                    and id(value) not in own
                    and not any(value is m for m in found)
                ):
                    found.append(value)
        return found

    def _compile_metric_objects(self):
        # Keras's order: the loss tracker, the compiled metrics (one CompileMetrics),
        # then the per-output loss trackers.
        found = []
        if getattr(self, "_loss_tracker", None) is not None:
            found.append(self._loss_tracker)
        if self._compile_metrics is not None:
            found.append(self._compile_metrics)
        if self._compile_loss is not None:
            found.extend(self._compile_loss.trackers)
        return found

    @property
    def metrics(self):
        """Keras's list: the ``loss`` tracker, the compiled metrics as one `Metric`
        (``compile_metrics``, whose ``result()`` is a dict by log name), the
        per-output loss trackers, then the metrics held by layers."""
        return self._compile_metric_objects() + self._layer_metrics()

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        """Resets every metric's state."""
        for metric in self.metrics:
            metric.reset_state()
