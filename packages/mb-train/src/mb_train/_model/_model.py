"""`Model`: a Layer with compile, the step methods, and fit/evaluate/predict."""

import functools
import inspect

from mb_data import unpack_x_y_sample_weight
from mb_graph import tree
from mb_layers import Layer
from mb_ops import StatelessScope, get_stateless_scope, ops
from mb_train import _saving_hook
from mb_train._model import _resolve, _summary
from mb_train._model._compile import CompileLoss, CompileMetrics
from mb_train._trainer._gradients import value_and_gradients
from mb_train._trainer._loop import TrainerMixin
from mb_train.metrics import Mean

TRAINER_ATTRIBUTES = frozenset(
    {
        "optimizer",
        "loss",
        "history",
        "stop_training",
        "_compile_loss",
        "_compile_metrics",
        "_loss_tracker",
        "_compile_config",
        "_runners",
        "_trainable_cache",
        "_run_eagerly",
        "_jit_compile",
        "_steps_per_execution",
        "compiled",
    }
)


def _pure_step(method):
    # mb's own step methods are pure functions of the state they are given, so a
    # backend may record them once and replay (torch's GraphReplay); a user's
    # override is not marked and runs as written on every step.
    method._mb_pure_step = True
    return method


def _is_functional_call(args, kwargs):
    return len(args) >= 2 or "inputs" in kwargs or "outputs" in kwargs


@functools.cache
def _accepts_training(function):
    # Keyed by the function (not the bound method): read once per class.
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return True
    return "training" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def _inject_functional(cls, functional):
    """Puts `functional` in place of `Model` among the bases of `cls` (and of its
    `Model` ancestors), as Keras does for ``MyModel(inputs, outputs)``: the subclass
    becomes a functional model that keeps its own methods (``train_step``, ...)."""
    if cls is Model:
        return functional
    if not issubclass(cls, Model) or issubclass(cls, functional):
        return cls
    cls.__bases__ = tuple(_inject_functional(base, functional) for base in cls.__bases__)
    return cls


class Model(TrainerMixin, Layer):
    """A layer with training: ``compile``, ``fit``, ``evaluate``, ``predict``.

    Three ways to make one, as in Keras:

    - functional: ``Model(inputs, outputs)`` (returns a functional model);
    - `Sequential([...])`;
    - subclassing: define layers in ``__init__`` and the forward pass in ``call``.

    Example:

    >>> import mb_layers
    >>> x = mb_layers.Input((3,))
    >>> model = Model(x, mb_layers.layers.Dense(2)(x))
    >>> type(model).__name__, model.count_params()
    ('Functional', 8)
    """

    _untracked_attributes = TRAINER_ATTRIBUTES
    _functional_class = None

    def __new__(cls, *args, **kwargs):
        if cls is Model and _is_functional_call(args, kwargs):
            functional = Model._functional_class  # set by _functional.py, a subclass
            return functional.__new__(functional, *args, **kwargs)
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, *args, **kwargs):
        if _is_functional_call(args, kwargs):
            # A subclass called with (inputs, outputs): from now on the class is a
            # functional model (Keras changes the class the same way).
            functional = Model._functional_class
            _inject_functional(type(self), functional)
            functional.__init__(self, *args, **kwargs)
            return
        Layer.__init__(self, *args, **kwargs)
        TrainerMixin._init_trainer(self)

    # ----- compile ----------------------------------------------------------------------

    def compile(
        self,
        optimizer="rmsprop",
        loss=None,
        loss_weights=None,
        metrics=None,
        weighted_metrics=None,
        run_eagerly=False,
        steps_per_execution=1,
        jit_compile="auto",
        auto_scale_loss=True,
    ):
        """Configures the model for training.

        Args:
            optimizer: an optimizer object or its name.
            loss: a loss (name, function or object), a list (one per output) or a
                dict keyed by output name.
            loss_weights: scalars weighting each output's loss (list or dict).
            metrics: metrics for every output, a list of lists, or a dict by output.
            weighted_metrics: like `metrics`, weighted by `sample_weight`.
            run_eagerly: run the steps without compiling them (debugging).
            steps_per_execution: steps per compiled call, on every backend.
            jit_compile: "auto" (the backend's default: compiled on jax and
                tensorflow, eager on torch), True (XLA / torch.compile) or False.
            auto_scale_loss: accepted for Keras compatibility.
        """
        del auto_scale_loss
        if isinstance(steps_per_execution, bool) or not isinstance(steps_per_execution, int):
            raise ValueError(
                f"`steps_per_execution` must be a positive int. Received: {steps_per_execution!r}."
            )
        if steps_per_execution < 1:
            raise ValueError(
                f"`steps_per_execution` must be >= 1. Received: {steps_per_execution}."
            )
        if jit_compile not in ("auto", True, False):
            raise ValueError(f"`jit_compile` must be 'auto', True or False. Got {jit_compile!r}.")
        self.optimizer = _resolve.get_optimizer(optimizer) if optimizer is not None else None
        self.loss = loss
        self._compile_loss = CompileLoss(loss, loss_weights) if loss is not None else None
        has_metrics = metrics is not None or weighted_metrics is not None
        self._compile_metrics = CompileMetrics(metrics, weighted_metrics) if has_metrics else None
        # A metrics.Mean, as in Keras: custom steps call its stateless_* methods.
        self._loss_tracker = Mean(name="loss")
        self._run_eagerly = bool(run_eagerly)
        self._jit_compile = jit_compile
        self._steps_per_execution = steps_per_execution
        self._runners = {}
        self.compiled = True

    @property
    def run_eagerly(self):
        return self._run_eagerly

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = bool(value)
        self._runners = {}

    @property
    def jit_compile(self):
        return self._jit_compile

    @property
    def steps_per_execution(self):
        return self._steps_per_execution

    # ----- metrics ----------------------------------------------------------------------

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
        found = []
        if getattr(self, "_loss_tracker", None) is not None:
            found.append(self._loss_tracker)
        if self._compile_loss is not None:
            found.extend(self._compile_loss.trackers)
        if self._compile_metrics is not None and self._compile_metrics.built:
            found.extend(self._compile_metrics.metrics)
        return found

    @property
    def metrics(self):
        """The loss tracker(s), the compiled metrics and the metrics held by layers."""
        return self._compile_metric_objects() + self._layer_metrics()

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    @property
    def metrics_variables(self):
        seen, out = set(), []
        for metric in self.metrics:
            for v in metric.variables:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    def reset_metrics(self):
        """Resets every metric's state."""
        for metric in self.metrics:
            metric.reset_state()

    # ----- the overridable pieces of a step --------------------------------------------

    def _forward(self, x, training):
        # mb_layers' Layer.__call__ passes `training` on only to a `call` that takes it.
        if self._call_has_training_arg:
            return self(x, training=training)
        return self(x)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss plus the layers' losses (regularization, ``add_loss``).

        Override it to change the loss; ``train_step`` and ``test_step`` log the value
        it returns as ``loss`` (a running mean weighted by batch size), as in Keras.
        """
        del x, training
        total = None
        if self._compile_loss is not None:
            total = self._compile_loss(y, y_pred, sample_weight)
        for loss in self.losses:
            loss = ops.sum(ops.cast(loss, "float32"))
            total = loss if total is None else total + loss
        if total is None:
            total = ops.convert_to_tensor(0.0, "float32")
        return total

    def _compute_loss(self, x, y, y_pred, sample_weight, training):
        # Overrides written before Keras 3.3 take no `training` argument.
        method = self.compute_loss
        if _accepts_training(getattr(method, "__func__", method)):
            return self.compute_loss(
                x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=training
            )
        return self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)

    def _track_loss(self, loss, x):
        """Adds the step's loss to the ``loss`` log, weighted by the batch size."""
        if self._loss_tracker is None or loss is None:
            return
        flat_x = [t for t in tree.flatten(x) if t is not None]
        size = ops.shape(flat_x[0])[0] if flat_x and hasattr(flat_x[0], "shape") else 1
        self._loss_tracker.update_state(loss, ops.cast(size, "float32"))

    def stateless_compute_loss(
        self,
        trainable_variables,
        non_trainable_variables,
        metrics_variables,
        x=None,
        y=None,
        y_pred=None,
        sample_weight=None,
        training=True,
    ):
        """`compute_loss` on explicit variable values (Keras's stateless form).

        Returns:
            ``(loss, (trainable_variables, non_trainable_variables,
            metrics_variables))``, the last two as `compute_loss` left them.
        """
        groups = (self.trainable_variables, self.non_trainable_variables, self.metrics_variables)
        given = (trainable_variables, non_trainable_variables, metrics_variables)
        mapping = []
        for variables, values in zip(groups, given, strict=True):
            mapping.extend(zip(variables, values, strict=True))
        outer = get_stateless_scope()
        with StatelessScope(mapping) as scope:
            if outer is not None:  # the losses `add_loss` recorded in the step so far
                scope.losses.extend(outer.losses)
            loss = self._compute_loss(x, y, y_pred, sample_weight, training=training)
        non_trainable, metrics = (
            [scope.get_current_value(v) for v in variables] for variables in groups[1:]
        )
        return loss, (trainable_variables, non_trainable, metrics)

    def _explicit_state_groups(self, step_name):
        # The variables behind the state tuple of Keras's JAX-style steps, in its order:
        # train (trainable, non-trainable, optimizer, metrics), test (trainable,
        # non-trainable, metrics), predict (trainable, non-trainable).
        groups = [self.trainable_variables, self.non_trainable_variables]
        if step_name == "train_step":
            groups.append(list(self.optimizer.variables))
        if step_name != "predict_step":
            groups.append(self.metrics_variables)
        return groups

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Updates the compiled metrics; returns `get_metrics_result()`."""
        del x
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        """``{name: result}`` for ``loss``, per-output losses, compiled and layer metrics."""
        logs = {}
        if self._loss_tracker is not None:
            logs["loss"] = self._loss_tracker.result()
        if self._compile_loss is not None:
            for tracker in self._compile_loss.trackers:
                logs[tracker.name] = tracker.result()
        if self._compile_metrics is not None and self._compile_metrics.built:
            logs.update(self._compile_metrics.results())
        for metric in self._layer_metrics():
            result = metric.result()
            if isinstance(result, dict):
                logs.update(result)
            else:
                logs[metric.name] = result
        return logs

    @_pure_step
    def train_step(self, data):
        """One training step on a batch; returns the logs (override to customize).

        An override reads and assigns variables as usual and differentiates with
        ``mb.models.value_and_gradients`` (every backend), or with the backend's own
        autodiff as in Keras's guides: ``loss.backward()`` and ``v.value.grad`` on
        torch, ``tf.GradientTape`` on tensorflow, or, on jax, the stateless form
        ``train_step(self, state, data) -> (logs, state)``. The trainer runs it as one
        compiled step (eagerly on torch, and with ``run_eagerly=True``).
        """
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        variables = self._trainable_cache
        if variables is None:
            variables = self.trainable_variables

        def loss_fn():
            y_pred = self._forward(x, training=True)
            loss = self._compute_loss(x, y, y_pred, sample_weight, training=True)
            scale = getattr(self.optimizer, "scale_loss", None)
            return (scale(loss) if scale is not None else loss), (loss, y_pred)

        _, (loss, y_pred), grads = value_and_gradients(loss_fn, variables, has_aux=True)
        self._track_loss(loss, x)
        self.optimizer.apply(grads, variables)
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    @_pure_step
    def test_step(self, data):
        """One evaluation step on a batch; returns the metrics' results."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self._forward(x, training=False)
        loss = self._compute_loss(x, y, y_pred, sample_weight, training=False)
        self._track_loss(loss, x)
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    @_pure_step
    def predict_step(self, data):
        """One prediction step on a batch; returns the model's outputs."""
        x, _, _ = unpack_x_y_sample_weight(data)
        return self._forward(x, training=False)

    # ----- display ----------------------------------------------------------------------

    def summary(
        self,
        line_length=None,
        positions=None,
        print_fn=None,
        expand_nested=False,
        show_trainable=False,
        layer_range=None,
    ):
        """Prints a table of the layers with output shapes and parameter counts.

        Args:
            line_length: the table's width (default: Keras's, from the terminal).
            positions: column boundaries, as fractions of the width or absolute.
            print_fn: called with the whole text instead of printing it.
            expand_nested: also list the layers inside nested models.
            show_trainable: add a column saying whether each layer trains.
            layer_range: ``[first, last]`` layer names (or name prefixes) to show.
        """
        _summary.print_summary(
            self,
            line_length=line_length,
            positions=positions,
            print_fn=print_fn,
            expand_nested=expand_nested,
            show_trainable=show_trainable,
            layer_range=layer_range,
        )

    def to_json(self, **kwargs):
        """The model's config as JSON (``kwargs`` go to ``json.dumps``); rebuild it,
        with fresh weights, with ``mb.models.model_from_json``."""
        return _saving_hook.saving_implementation("to_json").to_json(self, **kwargs)

    # ----- files (implemented by mb-saving, see mb_train._saving_hook) ------------------

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Saves the model as a ``.keras`` file (config, weights, optimizer state).

        Args:
            filepath: a path ending in ``.keras``.
            overwrite: replace an existing file (else it is an error).
            zipped: write a zip (default) or, with False, a folder.
        """
        implementation = _saving_hook.saving_implementation("save")
        return implementation.save_model(
            self, filepath, overwrite=overwrite, zipped=zipped, **kwargs
        )

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """Saves the weights as ``.weights.h5`` (or sharded ``.weights.json``).

        Args:
            filepath: a path ending in ``.weights.h5`` (``.weights.json`` when sharded).
            overwrite: replace an existing file (else it is an error).
            max_shard_size: the largest shard, in GB; None writes one file.
        """
        implementation = _saving_hook.saving_implementation("save_weights")
        return implementation.save_weights(
            self, filepath, overwrite=overwrite, max_shard_size=max_shard_size
        )

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Loads weights from a ``.weights.h5``, ``.weights.json`` or ``.keras`` file.

        Args:
            filepath: the file.
            skip_mismatch: skip (with a warning) objects whose variables do not
                match, instead of raising.
        """
        implementation = _saving_hook.saving_implementation("load_weights")
        return implementation.load_weights(self, filepath, skip_mismatch=skip_mismatch, **kwargs)
