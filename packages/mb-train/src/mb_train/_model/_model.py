"""`Model`: a Layer with compile, the step methods, and fit/evaluate/predict."""

import functools
import inspect
import warnings

from mb_data import unpack_x_y_sample_weight
from mb_graph import deserialize_graph, tree
from mb_layers import Layer, _registry
from mb_ops import StatelessScope, get_stateless_scope, ops
from mb_train import _export_hook, _saving_hook
from mb_train._model import _resolve, _summary
from mb_train._model._compile import CompileLoss, CompileMetrics
from mb_train._model._quantize import QuantizeMixin
from mb_train._model._tracked_metrics import MetricsMixin
from mb_train._trainer._gradients import value_and_gradients
from mb_train._trainer._loop import TrainerMixin
from mb_train.metrics import Mean
from mb_train.optimizers import LossScaleOptimizer

TRAINER_ATTRIBUTES = frozenset(
    {
        "optimizer",
        "_compiled_optimizer",
        "loss",
        "history",
        "stop_training",
        "_compile_loss",
        "_compile_metrics",
        "_loss_tracker",
        "_compile_config",
        "_runners",
        "train_function",
        "test_function",
        "predict_function",
        "output_names",
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


class Model(QuantizeMixin, MetricsMixin, TrainerMixin, Layer):
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
            auto_scale_loss: with the model's dtype policy ``"mixed_float16"``,
                wrap the optimizer in a `LossScaleOptimizer` (dynamic loss
                scaling, so that small float16 gradients do not underflow), as
                Keras does. False leaves the optimizer as given.

        Example:

        >>> import numpy as np
        >>> from mb_layers import Input
        >>> from mb_layers.layers import Dense
        >>> from mb_train.models import Sequential
        >>> model = Sequential([Input((2,)), Dense(1, kernel_initializer="ones")])
        >>> model.compile(optimizer="adam", loss="mse", metrics=["mae"])
        >>> type(model.optimizer).__name__
        'Adam'
        >>> model.evaluate(np.ones((2, 2)), np.zeros((2, 1)), verbose=0, return_dict=True)
        {'loss': 4.0, 'mae': 2.0}
        """
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
        # The optimizer as given (what the compile config records, as in Keras).
        self._compiled_optimizer = self.optimizer
        if (
            auto_scale_loss
            and self.optimizer is not None
            and self.dtype_policy.name == "mixed_float16"
            and not isinstance(self.optimizer, LossScaleOptimizer)
        ):
            self.optimizer = LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        self.loss = loss
        self._compile_loss = CompileLoss(loss, loss_weights) if loss is not None else None
        has_metrics = metrics is not None or weighted_metrics is not None
        self._compile_metrics = CompileMetrics(metrics, weighted_metrics) if has_metrics else None
        # A metrics.Mean, as in Keras: custom steps call its stateless_* methods.
        self._loss_tracker = Mean(name="loss")
        self._run_eagerly = bool(run_eagerly)
        self._jit_compile = jit_compile
        self._steps_per_execution = steps_per_execution
        # The train and test steps use the optimizer, losses and metrics compiled here:
        # they are built again. The predict step uses none of them: its compiled
        # program stays while its key (variables, compile mode) still matches.
        self._runners = {k: r for k, r in self._runners.items() if k == "predict"}
        self.train_function = None
        self.test_function = None
        self.predict_function = None
        self.compiled = True

    @property
    def run_eagerly(self):
        return self._run_eagerly

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = bool(value)
        self._runners = {}
        self.train_function = self.test_function = self.predict_function = None

    @property
    def jit_compile(self):
        return self._jit_compile

    @property
    def steps_per_execution(self):
        return self._steps_per_execution

    def get_compile_config(self):
        """The arguments `compile` received, serialized (``{}`` before `compile`):
        ``optimizer``, ``loss``, ``loss_weights``, ``metrics``, ``weighted_metrics``,
        ``run_eagerly``, ``steps_per_execution``, ``jit_compile``. A ``.keras`` file
        stores it; `compile_from_config` applies it back."""
        if not self.compiled:
            return {}
        return _saving_hook.saving_implementation("get_compile_config").get_compile_config(self)

    def compile_from_config(self, config):
        """Compiles the model from `get_compile_config`'s dict and builds the optimizer
        (when the model is built), as loading a ``.keras`` file does.

        A model whose class overrides `compile` is left uncompiled with a warning, as in
        Keras: such a class overrides `get_compile_config`/`compile_from_config` too.
        """
        if type(self).compile is not Model.compile:
            warnings.warn(
                "`compile()` was not called as part of model loading because the model's "
                "`compile()` method is custom. All subclassed Models that have `compile()` "
                "overridden should also override `get_compile_config()` and "
                "`compile_from_config(config)`. Alternatively, you can call `compile()` "
                "manually after loading.",
                stacklevel=2,
            )
            return
        implementation = _saving_hook.saving_implementation("compile_from_config")
        implementation.compile_from_config(self, config)

    # ----- Keras 2 names that Keras 3 keeps (deprecated) ---------------------------------

    @property
    def compiled_metrics(self):
        """Deprecated (Keras 2): ``compiled_metrics.update_state(y, y_pred,
        sample_weight)`` updates every metric of `metrics`, with a warning. Iterate over
        ``self.metrics`` instead."""
        model = self

        class DeprecatedCompiledMetric:
            def update_state(self, y, y_pred, sample_weight=None):
                warnings.warn(
                    "`model.compiled_metrics()` is deprecated. Instead, use e.g.:\n"
                    "```\nfor metric in self.metrics:\n    metric.update_state(y, y_pred)\n"
                    "```\n",
                    stacklevel=2,
                )
                trackers = [model._loss_tracker]
                if model._compile_loss is not None:
                    trackers += model._compile_loss.trackers
                for metric in model.metrics:
                    if any(metric is tracker for tracker in trackers):
                        metric.update_state(y_pred, sample_weight=sample_weight)
                    else:
                        metric.update_state(y, y_pred, sample_weight=sample_weight)

        return DeprecatedCompiledMetric()

    def compiled_loss(self, y, y_pred, sample_weight=None, regularization_losses=None):
        """Deprecated (Keras 2): `compute_loss` on `y` and `y_pred`, with a warning."""
        del regularization_losses
        warnings.warn(
            "`model.compiled_loss()` is deprecated. Instead, use "
            "`model.compute_loss(x, y, y_pred, sample_weight, training)`.",
            stacklevel=2,
        )
        return self.compute_loss(x=None, y=y, y_pred=y_pred, sample_weight=sample_weight)

    # ----- state --------------------------------------------------------------------------

    def get_state_tree(self, value_format="backend_tensor"):
        """The model's variables as nested dicts by variable path, in four groups:
        ``trainable_variables``, ``non_trainable_variables``, ``optimizer_variables``
        and ``metrics_variables`` (Keras's layout, e.g.
        ``tree["trainable_variables"]["my_model"]["dense"]["kernel"]``).

        Args:
            value_format: ``"backend_tensor"`` (the backend's tensors) or
                ``"numpy_array"``.
        """
        optimizer = self.optimizer
        return {
            "trainable_variables": _nested_by_path(self.trainable_variables, value_format),
            "non_trainable_variables": _nested_by_path(self.non_trainable_variables, value_format),
            "optimizer_variables": _nested_by_path(
                optimizer.variables if optimizer is not None else [], value_format
            ),
            "metrics_variables": _nested_by_path(self.metrics_variables, value_format),
        }

    def set_state_tree(self, state_tree):
        """Assigns the values of a `get_state_tree` dict (any of its four groups, any
        subset of the paths) to the model's variables."""
        groups = {
            "trainable_variables": lambda: self.trainable_variables,
            "non_trainable_variables": lambda: self.non_trainable_variables,
            "optimizer_variables": lambda: (
                self.optimizer.variables if self.optimizer is not None else []
            ),
            "metrics_variables": lambda: self.metrics_variables,
        }
        for key, values in state_tree.items():
            if key not in groups:
                raise ValueError(
                    f"Unknown variable group {key!r} in the state tree. Expected some of "
                    f"{list(groups)}."
                )
            by_path = {v.path: v for v in groups[key]()}
            for path, value in _flatten_by_path(values).items():
                variable = by_path.get(path)
                if variable is not None:
                    variable.assign(value)

    def jax_state_sync(self):
        """Writes the state of the last step back into the variables (Keras's jax
        trainer keeps it apart during `fit`). mb writes it back after every step, on
        every backend, so there is nothing left to do: a no-op kept for Keras code."""

    def get_layer(self, name=None, index=None):
        """The layer called `name`, or at position `index` of `layers` (`index` wins)."""
        if index is not None and name is not None:
            raise ValueError(
                f"Provide only a layer name or a layer index. Received: index={index}, name={name}."
            )
        layers = self.layers
        if index is not None:
            if len(layers) <= index:
                raise ValueError(
                    f"Was asked to retrieve layer at index {index} but model only has "
                    f"{len(layers)} layers."
                )
            return layers[index]
        if name is not None:
            for layer in layers:
                if layer.name == name:
                    return layer
            raise ValueError(
                f"No such layer: {name}. Existing layers are: {[layer.name for layer in layers]}."
            )
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    # ----- config ---------------------------------------------------------------------

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Creates a model from its config: a functional config (``name``, ``layers``,
        ``input_layers``, ``output_layers``) rebuilds the graph, as `cls` when its
        constructor takes ``(inputs, outputs, ...)``; any other config goes to
        ``cls(**config)``."""
        keys = ("name", "layers", "input_layers", "output_layers")
        functional = isinstance(config, dict) and all(k in config for k in keys)
        if functional and (cls is Model or _functional_constructor(cls)):
            return _functional_from_config(cls, config, custom_objects)
        return Layer.from_config.__func__(cls, config)

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

    def compute_loss_and_updates(
        self,
        trainable_variables,
        non_trainable_variables,
        metrics_variables,
        x,
        y,
        sample_weight,
        training=False,
        optimizer_variables=None,
    ):
        """The forward pass and the loss on explicit variable values, mutating nothing
        (Keras's jax trainer's building block, for ``jax.grad`` and the like; here on
        every backend).

        Returns:
            ``(loss, (unscaled_loss, y_pred, non_trainable_variables,
            metrics_variables))``: ``loss`` is scaled by the optimizer (a
            `LossScaleOptimizer`, whose state `optimizer_variables` gives) when
            `training`; the variable lists hold the values after the pass.
        """
        groups = [self.trainable_variables, self.non_trainable_variables, self.metrics_variables]
        given = [trainable_variables, non_trainable_variables, metrics_variables]
        if optimizer_variables is not None and self.optimizer is not None:
            groups.append(list(self.optimizer.variables))
            given.append(optimizer_variables)
        mapping = []
        for variables, values in zip(groups, given, strict=True):
            if len(variables) != len(values):
                raise ValueError(
                    f"compute_loss_and_updates() received {len(values)} values for "
                    f"{len(variables)} variables. Pass the model's trainable, "
                    "non-trainable and metrics variables' values, in the order of "
                    "`trainable_variables`, `non_trainable_variables`, `metrics_variables`."
                )
            mapping.extend(zip(variables, values, strict=True))
        with StatelessScope(mapping, collect_losses=True) as scope:
            y_pred = self._forward(x, training=training)
            loss = self._compute_loss(x, y, y_pred, sample_weight, training=training)
            unscaled_loss = loss
            scale = getattr(self.optimizer, "scale_loss", None) if training else None
            if scale is not None:
                loss = scale(loss)
        updated = []
        for variables, values in zip(groups[1:3], given[1:3], strict=True):
            news = [scope.get_current_value(v) for v in variables]
            updated.append([o if n is None else n for n, o in zip(news, values, strict=True)])
        return loss, (unscaled_loss, y_pred, updated[0], updated[1])

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

        Saving is mb-saving's: ``import mb`` (or ``import mb_saving``) installs it.
        The file loads with `load_model` here or with Keras 3's.

        Example:

        >>> import os, tempfile
        >>> import numpy as np
        >>> import mb_saving
        >>> from mb_layers import Input
        >>> from mb_layers.layers import Dense
        >>> from mb_train.models import Sequential
        >>> model = Sequential([Input((2,)), Dense(3)])
        >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
        >>> model.save(path)
        >>> restored = mb_saving.load_model(path)
        >>> x = np.ones((1, 2), "float32")
        >>> bool(np.allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0)))
        True
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

    def export(
        self, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs
    ):
        """Exports the model's forward pass as an inference artifact (mb-export).

        Args:
            filepath: a folder (``tf_saved_model``) or a file: ``.onnx``, ``.xml``
                (``openvino``), ``.tflite`` (``litert``), ``.pt2`` (``torch``).
            format: ``"tf_saved_model"``, ``"onnx"``, ``"openvino"``, ``"litert"``
                or ``"torch"``. A backend that cannot write the format itself
                converts on one that can, through a ``.keras`` file.
            verbose: print where the artifact went (default True).
            input_signature: the inputs' specs (``[mb.InputSpec((None, 3))]``);
                default: the model's inputs with a dynamic batch axis.
            **kwargs: format options (``opset_version``, ``jax2tf_kwargs``,
                ``torch.export`` and LiteRT converter options).
        """
        return _export_hook.export_implementation()(
            self,
            filepath,
            format=format,
            verbose=verbose,
            input_signature=input_signature,
            **kwargs,
        )


_FUNCTIONAL_ARGS = ("inputs", "outputs", "name", "trainable")


def _functional_constructor(cls):
    functional = Model._functional_class
    if cls is functional or (functional is not None and cls.__init__ is functional.__init__):
        return True
    spec = inspect.getfullargspec(cls.__init__)
    args = spec.args[1:]
    if args and list(_FUNCTIONAL_ARGS[: len(args)]) == args and len(args) >= 2:
        return True
    return spec.varargs is not None and spec.varkw is not None


def _functional_from_config(cls, config, custom_objects):
    inputs, outputs = deserialize_graph(
        config,
        deserialize_operation=lambda entry: _registry.deserialize(
            entry, custom_objects=custom_objects
        ),
    )
    kwargs = {"name": config.get("name")}
    trainable = config.get("trainable", True)
    spec = inspect.getfullargspec(cls.__init__)
    takes_trainable = "trainable" in spec.args or spec.varkw is not None
    if takes_trainable or cls is Model:
        kwargs["trainable"] = trainable
    model = cls(inputs, outputs, **kwargs)
    if not takes_trainable and not trainable and cls is not Model:
        model.trainable = False
    return model


def _nested_by_path(variables, value_format):
    if value_format not in ("backend_tensor", "numpy_array"):
        raise ValueError(
            "Invalid `value_format` argument. Expected one of {'numpy_array', "
            f"'backend_tensor'}}. Received: value_format={value_format!r}"
        )
    nested = {}
    seen = set()
    for variable in variables:
        path = variable.path
        if path in seen:
            raise ValueError(
                "The following variable path is found twice in the model: "
                f"'{path}'. `get_state_tree()` can only be called when all variable "
                "paths are unique. Make sure to give unique names to your layers (and "
                "other objects)."
            )
        seen.add(path)
        value = variable.value if value_format == "backend_tensor" else variable.numpy()
        *parents, leaf = path.split("/")
        node = nested
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return nested


def _flatten_by_path(nested, prefix=""):
    flat = {}
    for key, value in nested.items():
        if isinstance(value, dict):
            flat.update(_flatten_by_path(value, f"{prefix}{key}/"))
        else:
            flat[f"{prefix}{key}"] = value
    return flat
