"""`Layer`: an `Operation` with state, the base of every layer and model."""

import functools
import inspect

from mb_graph import EngineConversionError, KerasTensor, is_keras_tensor, tree
from mb_graph._node import Node
from mb_graph._operation import Operation, default, is_default
from mb_graph._remat import remat
from mb_layers import _backend, _call_context, _dtype_policy
from mb_layers import regularizers as regularizers_module
from mb_layers._call_spec import CallSpec, call_plan, is_tensor_like, shapes_dict, shapes_for
from mb_layers._input_spec import assert_input_compatibility
from mb_layers._layer_state import LayerStateMixin
from mb_layers._masking import get_keras_mask, set_keras_mask
from mb_layers._ops import ops
from mb_layers._quantization import QuantizationMixin, wrap_quantize
from mb_layers._tracking import Tracker, structure_changed
from mb_ops import (
    AutocastScope,
    SymbolicScope,
    current_path,
    dtypes,
    filter_traceback,
    get_autocast_scope,
    name_scope,
)

BackendLayer = _backend.backend_layer_class()

_INPUT_SHAPE_KWARGS = ("input_shape", "batch_input_shape", "batch_size", "input_dim")
# Attributes set before tracking starts, or bookkeeping never to be tracked.
_UNTRACKED = frozenset(
    {
        "_tracker",
        "_layers",
        "_trainable_variables",
        "_non_trainable_variables",
        "_seed_generators",
        "_losses",
        "_loss_ids",
        "_inbound_nodes",
        "_outbound_nodes",
        "_build_shapes_dict",
        "_call_signature",
        "_call_plan",
        "input_spec",
        "_input_spec",
        "_auto_config",
        "_auto_config_error",
        "_in_build",
        "_remat_mode",
    }
)


# Attributes whose assignment changes what the layer's variable lists hold (see
# `structure_changed`); their lists changed in place are counted where that happens.
_STRUCTURE = frozenset(
    {
        "built",
        "_layers",
        "_trainable",
        "_trainable_variables",
        "_non_trainable_variables",
        "_seed_generators",
    }
)


def _record_path(layer):
    """Sets ``layer.path`` from the name scopes open now (the layer's own innermost)."""
    object.__setattr__(layer, "_path", current_path())


def _wrap_build(build):
    """Makes ``build`` run in the layer's name scope, record its shapes and mark it built."""

    @functools.wraps(build)
    def build_wrapper(self, *args, **kwargs):
        if self.__dict__.get("_in_build"):
            return build(self, *args, **kwargs)
        object.__setattr__(self, "_in_build", True)
        try:
            with name_scope(self.name, caller=self):
                _record_path(self)
                build(self, *args, **kwargs)
        finally:
            object.__setattr__(self, "_in_build", False)
        bound = inspect.signature(build).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop(next(iter(arguments)))
        object.__setattr__(self, "_build_shapes_dict", arguments)
        self.built = True
        self._post_build_hook()

    build_wrapper._mb_build_wrapper = True
    return build_wrapper


def _fresh(x):
    """A new KerasTensor like `x` that records history (outputs of a symbolic run)."""
    if not is_keras_tensor(x):
        return x
    y = KerasTensor(x.shape, x.dtype, sparse=x.sparse, ragged=x.ragged)
    mask = get_keras_mask(x)
    if mask is not None:
        set_keras_mask(y, _detached(mask))
    return y


def _engine_refused(error):
    """Whether `error` is an engine refusing a KerasTensor (mb's error or the engine's own)."""
    if isinstance(error, EngineConversionError):
        return True
    refused = getattr(_backend.core(), "refused_symbolic", None)
    return refused is not None and refused(error)


def _detached(x):
    """A KerasTensor like `x` whose use records no graph node (throw-away inference)."""
    if not is_keras_tensor(x):
        return x
    y = KerasTensor(x.shape, x.dtype, sparse=x.sparse, ragged=x.ragged, record_history=False)
    mask = get_keras_mask(x)
    if mask is not None:
        set_keras_mask(y, _detached(mask))
    return y


class Layer(BackendLayer, LayerStateMixin, QuantizationMixin, Operation):
    """The base class of layers: state (variables, sub-layers) plus a computation.

    Subclasses create their weights in ``build(input_shape)`` (called with the
    shape of the first input, on the first call) or in ``__init__``, and
    compute in ``call(inputs, ...)``. Calling a layer on KerasTensors records
    a node of a graph (for functional models); calling it on arrays computes.

    Args:
        activity_regularizer: applied to the outputs; the penalty is added to
            `losses`.
        trainable: whether the layer's variables are trained.
        dtype: a dtype policy: None (the global policy), a dtype name,
            ``"mixed_float16"``, ``"mixed_bfloat16"`` or a `DTypePolicy`.
        autocast: whether float inputs and variables are cast to the compute
            dtype during the call.
        name: the layer's name (unique by default).

    Example:

    >>> import numpy as np
    >>> class Scale(Layer):
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
    ...     def call(self, x):
    ...         return x * self.w
    >>> layer = Scale(name="scale")
    >>> y = layer(np.ones((2, 3), "float32"))
    >>> tuple(y.shape), layer.w.path
    ((2, 3), 'scale/w')
    """

    # Attributes of subclasses that hold graph bookkeeping, never tracked.
    _untracked_attributes = frozenset()
    # get_config writes the dtype policy itself (from_config passes a policy object).
    _auto_config_skip = ("dtype",)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        wrap = cls.__dict__.get("_wrap_build", True)
        if build is not None and wrap and not getattr(build, "_mb_build_wrapper", False):
            cls.build = _wrap_build(build)
        quantize = cls.__dict__.get("quantize")
        if quantize is not None and not getattr(quantize, "_mb_quantize_wrapper", False):
            cls.quantize = wrap_quantize(quantize)

    def __init__(
        self,
        *,
        activity_regularizer=None,
        trainable=True,
        dtype=None,
        autocast=True,
        name=None,
        **kwargs,
    ):
        BackendLayer.__init__(self)
        unknown = [k for k in kwargs if k not in (*_INPUT_SHAPE_KWARGS, "input_dtype")]
        if unknown:
            raise TypeError(
                f"{type(self).__name__} got unexpected keyword arguments: "
                f"{', '.join(sorted(unknown))}."
            )
        object.__setattr__(self, "_tracker", None)
        Operation.__init__(self, name=name)
        self._layers = []
        self._trainable_variables = []
        self._non_trainable_variables = []
        self._seed_generators = []
        self._losses = []
        self._loss_ids = set()
        self._build_shapes_dict = None
        object.__setattr__(self, "_path", None)  # set by build, from the name scopes
        self._call_signature = inspect.signature(self.call)
        self._call_plan = call_plan(self._call_signature)  # binds each call without inspect
        self.input_spec = None
        # Whether the layer can run inside a compiled (XLA) function (Keras's flag).
        self.supports_jit = True
        object.__setattr__(self, "_in_build", False)
        self.built = False
        self._trainable = bool(trainable)
        self._dtype_policy = _dtype_policy.get(dtype)
        self.autocast = autocast
        self._supports_masking = None
        self._convert_input_args = True
        self._allow_non_tensor_positional_args = False
        self._input_shape_arg = self._read_input_shape_kwargs(kwargs)
        params = self._call_signature.parameters
        self._call_has_training_arg = "training" in params
        self._call_has_var_kwargs = any(p.kind is p.VAR_KEYWORD for p in params.values())
        self._call_has_mask_arg = "mask" in params
        object.__setattr__(self, "_tracker", Tracker(self))
        self.activity_regularizer = regularizers_module.get(activity_regularizer)

    @staticmethod
    def _read_input_shape_kwargs(kwargs):
        if kwargs.get("batch_input_shape") is not None:
            return tuple(kwargs["batch_input_shape"])[1:]
        if kwargs.get("input_shape") is not None:
            return tuple(kwargs["input_shape"])
        if kwargs.get("input_dim") is not None:
            return (kwargs["input_dim"],)
        return None

    # ----- attributes and tracking ---------------------------------------------------

    def __setattr__(self, name, value):
        tracker = self.__dict__.get("_tracker")
        if (
            tracker is not None
            and name not in _UNTRACKED
            and name not in self._untracked_attributes
        ):
            hook = getattr(type(self), "_setattr_hook", None)
            if hook is not None:
                name, value = hook(self, name, value)
            value = tracker.track(value)
        if name in _STRUCTURE:
            structure_changed()
        if name == "built" and value and "_path" in self.__dict__ and self._path is None:
            # However it was built (its build, a symbolic call, a model's constructor).
            with name_scope(self.name, caller=self):
                _record_path(self)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        tracker = self.__dict__.get("_tracker")
        if tracker is not None and name not in _UNTRACKED:
            try:
                value = getattr(self, name)
            except AttributeError:
                value = None
            if value is not None:
                tracker.untrack(value)
        super().__delattr__(name)

    def _check_super_called(self):
        if self.__dict__.get("_tracker") is None:
            raise RuntimeError(
                f"{type(self).__name__} is not initialized: its __init__ must call "
                "super().__init__(**kwargs) before anything else."
            )

    def _post_build_hook(self):
        post = getattr(type(self), "_post_build", None)
        if post is not None:
            post(self)

    @property
    def path(self):
        """Where the layer was built: the enclosing layers' names and its own, joined by
        ``/`` (``"block/first"`` for a sub-layer built in ``block``'s call); None before
        it is built, as in Keras."""
        return self.__dict__.get("_path")

    @property
    def trainable(self):
        """Whether the layer's variables are trained (setting it applies to sub-layers)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        value = bool(value)
        self._trainable = value  # (counted as a structure change by __setattr__)
        for v in self._trainable_variables:
            v.trainable = value
        for layer in self._layers:
            layer.trainable = value

    @property
    def supports_masking(self):
        """Whether the layer propagates masks (default: it overrides `compute_mask`)."""
        if self._supports_masking is None:
            return not is_default(self.compute_mask)
        return self._supports_masking

    @supports_masking.setter
    def supports_masking(self, value):
        self._supports_masking = bool(value)

    # ----- dtype policy --------------------------------------------------------------

    @property
    def dtype_policy(self):
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value):
        policy = _dtype_policy.get(value)
        path = self._policy_path()
        if isinstance(self._dtype_policy, _dtype_policy.DTypePolicyMap) and path:
            if path in self._dtype_policy:
                del self._dtype_policy[path]
            self._dtype_policy[path] = policy
        else:
            self._dtype_policy = policy
        mode = policy.quantization_mode
        if mode is not None and self.built and not getattr(self, "_is_quantized", False):
            if mode in ("gptq", "awq"):
                raise ValueError(
                    f"Implicitly enabling {mode.upper()} quantization by setting "
                    f"`dtype_policy` to '{policy.name}' is not supported: it needs a "
                    "calibration dataset. Use `.quantize(mode, config=...)` on the layer or "
                    "model instead."
                )
            self.quantize(mode)

    @property
    def dtype(self):
        """The dtype of the layer's variables."""
        return self._own_dtype_policy().variable_dtype

    @property
    def input_spec(self):
        """What the layer accepts (an `InputSpec`, a list of them, or None), checked on
        every call."""
        return self.__dict__.get("_input_spec")

    @input_spec.setter
    def input_spec(self, value):
        object.__setattr__(self, "_input_spec", value)

    @property
    def variable_dtype(self):
        return self._own_dtype_policy().variable_dtype

    @property
    def compute_dtype(self):
        """The dtype of the layer's computations."""
        return self._own_dtype_policy().compute_dtype

    @property
    def input_dtype(self):
        """The dtype float inputs are cast to."""
        return self._own_dtype_policy().compute_dtype

    # ----- build ---------------------------------------------------------------------

    @property
    def call_signature_parameters(self):
        """The names of `call`'s parameters, in order (Keras's property)."""
        return [p.name for p in self._call_signature.parameters.values()]

    def add_metric(self, *args, **kwargs):
        """Removed in Keras 3 (raises, as Keras's does): create metric objects in
        ``__init__``/``build`` and call their ``update_state``, or pass them to
        ``Model.compile(metrics=[...])``."""
        raise NotImplementedError(
            "Layer `add_metric()` method is deprecated. Add your metric in "
            "`Model.compile(metrics=[...])`, or create metric trackers in init() or "
            "build() when subclassing the layer or model, then call "
            "`metric.update_state()` whenever necessary."
        )

    @default
    def build(self, input_shape):
        """Creates the layer's variables for inputs of `input_shape`. Subclasses override it.

        The default (a layer or model whose sub-layers make its variables) builds the
        sub-layers by running `call` once on placeholders of `input_shape`, as Keras's
        `Model.build` does, so that `build_from_config` rebuilds a reloaded model.
        """
        self._check_super_called()
        unbuilt = any(not layer.built for layer in self._flatten_layers(include_self=False))
        if input_shape is not None and unbuilt and _is_shape(input_shape):
            with SymbolicScope():
                self.call(_detached(KerasTensor(tuple(input_shape))))
        self.built = True

    def get_build_config(self):
        """``{"input_shape": ...}`` (or ``{"shapes_dict": ...}``) recorded by the first build."""
        shapes = self._build_shapes_dict
        if shapes is None:
            return None
        if len(shapes) == 1:
            return {"input_shape": next(iter(shapes.values()))}
        return {"shapes_dict": dict(shapes)}

    def build_from_config(self, config):
        """Builds the layer from the output of `get_build_config`."""
        if not config:
            return
        if "input_shape" in config:
            self.build(_as_shape(config["input_shape"]))
        elif "shapes_dict" in config:
            self.build(**{k: _as_shape(v) for k, v in config["shapes_dict"].items()})
        self.built = True

    def _maybe_build(self, call_spec):
        if self.built:
            return
        shapes = shapes_dict(call_spec)
        if not is_default(self.build):
            self.build(**shapes_for(self.build, shapes, self.name, "build"))
            self._assert_input_compatibility(call_spec.first_arg)
            return
        first_shape = next(iter(shapes.values()), None)
        # Recorded as Keras does, so that get_build_config saves them (a subclassed
        # model without a build method reloads from them).
        object.__setattr__(self, "_build_shapes_dict", shapes)
        if any(not layer.built for layer in self._flatten_layers(include_self=False)):
            # Sub-layers are built by a throw-away symbolic run of `call`.
            try:
                args = tree.map_structure(
                    lambda x: _detached(KerasTensor(x.shape, x.dtype)) if is_tensor_like(x) else x,
                    call_spec.arguments_dict,
                )
                with SymbolicScope():
                    self.call(**args)
            except Exception:
                if not call_spec.eager:
                    raise
        self.build(first_shape)

    def _assert_input_compatibility(self, first_arg):
        if self.input_spec:
            assert_input_compatibility(self.input_spec, first_arg, layer_name=self.name)

    # ----- call ----------------------------------------------------------------------

    def call(self, *args, **kwargs):
        raise NotImplementedError(
            f"Layer {type(self).__name__} does not implement `call`. Define "
            "`call(self, inputs, ...)` in the subclass."
        )

    def _convert_arg(self, x):
        if x is None:
            return x
        mask = get_keras_mask(x)
        y = self._dtype_policy.convert_input(x, self.autocast, self.input_dtype)
        if mask is not None and y is not x:
            set_keras_mask(y, mask)
        return y

    def _convert_inputs(self, args, kwargs):
        if not self._convert_input_args:
            return args, kwargs
        if (
            not kwargs
            and len(args) == 1
            and is_tensor_like(args[0])
            and dtypes.standardize_dtype(args[0].dtype) == self.input_dtype
        ):
            return args, kwargs
        args = tuple(tree.map_structure(self._convert_arg, a) for a in args)
        kwargs = {k: tree.map_structure(self._convert_arg, v) for k, v in kwargs.items()}
        return args, kwargs

    @filter_traceback
    def __call__(self, *args, **kwargs):
        self._check_super_called()
        original_args, original_kwargs = args, kwargs
        args, kwargs = self._convert_inputs(args, kwargs)
        if not self._allow_non_tensor_positional_args:
            for arg in tree.flatten(args):
                if arg is not None and not is_tensor_like(arg):
                    raise ValueError(
                        f"Layer '{self.name}': only tensors may be passed positionally. "
                        f"Received {arg!r} (of type {type(arg).__name__}). Pass it as a "
                        "keyword argument, or convert it to an array first."
                    )
        kwargs, context_args = self._split_context_args(kwargs)
        call_spec = CallSpec(self._call_signature, args, kwargs, self._call_plan)
        call_spec.user_arguments_dict.update(context_args)
        self._assert_input_compatibility(call_spec.first_arg)
        with _call_context.CallScope(self) as context:
            if context.is_entry:
                self._clear_losses()
            if not self.built:  # (a scope entered for nothing on every later call)
                with name_scope(self.name, caller=self):
                    self._maybe_build(call_spec)
            kwargs = dict(kwargs)
            self._resolve_training(call_spec, context, kwargs)
            previous_mask = self._populate_masks(call_spec, kwargs)
            with name_scope(self.name, caller=self), self._autocast_scope():
                if call_spec.eager:
                    call = self.call
                    if self.quantization_mode is not None:
                        call = self.quantized_call
                    if self._remat_mode is not None:
                        call = self.rematerialized_call(call, *args, **kwargs)
                    outputs = call(*args, **kwargs)
                else:
                    outputs = self._symbolic_outputs(args, kwargs)
                # (Set only when it changes something: an attribute set costs more.)
                if not self.built or self.__dict__.get("_path", "") is None:
                    self.built = True
                if self.activity_regularizer is not None and call_spec.eager:
                    self._add_activity_loss(outputs)
            if self.supports_masking and (
                previous_mask is not None or not is_default(self.compute_mask)
            ):  # (else the default compute_mask gives no mask to set)
                self._set_mask_metadata(call_spec.first_arg, outputs, previous_mask)
        if not call_spec.eager:
            Node(self, call_args=original_args, call_kwargs=original_kwargs, outputs=outputs)
        return outputs

    def rematerialized_call(self, layer_call, *args, **kwargs):
        """`layer_call` (the layer's `call`), rematerialized as the `RematScope` active
        when the layer was created asks: in mode ``"activations"`` only the layer's
        ``activation`` is, in ``"list_of_layers"`` the whole call when the layer's name
        is listed, and as `Operation.rematerialized_call` for ``"full"`` and
        ``"larger_than"``."""
        mode = self._remat_mode
        if not mode:
            return layer_call
        if mode.mode == "activations":
            if getattr(self, "activation", None) is None:
                return layer_call

            @functools.wraps(layer_call)
            def with_rematerialized_activation(*call_args, **call_kwargs):
                original = self.activation
                object.__setattr__(self, "activation", remat(original))
                try:
                    return layer_call(*call_args, **call_kwargs)
                finally:
                    object.__setattr__(self, "activation", original)

            return with_rematerialized_activation
        if mode.mode == "list_of_layers":
            return remat(layer_call) if self.name in mode.layer_names else layer_call
        return super().rematerialized_call(layer_call, *args, **kwargs)

    def _split_context_args(self, kwargs):
        """`kwargs` less `training` when `call` does not take it (Keras accepts it on any
        layer and passes it on to the layers called inside), and the taken-out part."""
        if "training" not in kwargs or self._call_has_training_arg or self._call_has_var_kwargs:
            return kwargs, {}
        kwargs = dict(kwargs)
        return kwargs, {"training": kwargs.pop("training")}

    def _symbolic_outputs(self, args, kwargs):
        try:
            return self.compute_output_spec(*args, **kwargs)
        except Exception as error:
            error.add_note(
                f"While computing the output of layer '{self.name}' ({type(self).__name__}) "
                "on symbolic inputs."
            )
            raise

    def _resolve_training(self, call_spec, context, kwargs):
        if "training" in call_spec.user_arguments_dict:
            value = call_spec.user_arguments_dict["training"]
        elif _call_context.get_value("training") is not None:
            value = _call_context.get_value("training")
        else:
            value = call_spec.arguments_dict.get("training")
        if value is not None:
            context.set_value("training", value)
        if self._call_has_training_arg and value is not None:
            kwargs["training"] = value

    def _populate_masks(self, call_spec, kwargs):
        tensor_args = call_spec.tensor_arguments_dict
        names = call_spec.argument_names
        if len(tensor_args) == 1:
            if "mask" in names and call_spec.arguments_dict.get("mask") is None:
                only = next(iter(tensor_args.values()))
                mask = tree.map_structure(get_keras_mask, only)
                if any(m is not None for m in tree.flatten(mask)):
                    kwargs["mask"] = mask
        elif len(tensor_args) > 1:
            for key, value in tensor_args.items():
                mask_name = f"{key}_mask"
                if mask_name in names and call_spec.arguments_dict.get(mask_name) is None:
                    mask = tree.map_structure(get_keras_mask, value)
                    if any(m is not None for m in tree.flatten(mask)):
                        kwargs[mask_name] = mask
        if kwargs.get("mask") is not None:
            return kwargs["mask"]
        first = call_spec.first_arg
        if is_tensor_like(first):  # a leaf: no structure to map over
            return get_keras_mask(first)
        return tree.map_structure(get_keras_mask, first)

    def _autocast_scope(self):
        current = get_autocast_scope()
        if current is not None:
            if not self.autocast or not dtypes.is_float_dtype(self.compute_dtype):
                return AutocastScope(None)
            if current.dtype != self.compute_dtype:
                return AutocastScope(self.compute_dtype)
            return _NullScope()
        if self.compute_dtype != self.variable_dtype and self.autocast:
            return AutocastScope(self.compute_dtype)
        return _NullScope()

    def _add_activity_loss(self, outputs):
        for output in tree.flatten(outputs):
            if not _backend.is_tensor(output):
                continue
            loss = self.activity_regularizer(output)
            if len(output.shape) > 0:
                # The dynamic size: inside a traced function the batch may be unknown.
                batch_size = ops.cast(ops.shape(output)[0], dtype=loss.dtype)
                loss = ops.divide_no_nan(loss, batch_size)
            self.add_loss(loss)

    def _set_mask_metadata(self, inputs, outputs, previous_mask):
        flat_outputs = tree.flatten(outputs)
        if all(get_keras_mask(x) is not None for x in flat_outputs):
            return
        masks = self.compute_mask(inputs, previous_mask)
        if masks is None:
            return
        flat_masks = tree.flatten(masks)
        for tensor, mask in zip(flat_outputs, flat_masks, strict=False):
            if mask is not None and get_keras_mask(tensor) is None:
                set_keras_mask(tensor, mask)

    @default
    def compute_mask(self, inputs, previous_mask):
        """The mask of the outputs (default: the input's mask, unchanged)."""
        return previous_mask

    # ----- shape inference -----------------------------------------------------------

    def compute_output_spec(self, *args, **kwargs):
        """KerasTensors for the outputs: from `compute_output_shape` when overridden,
        else by running `call` on symbolic inputs (no engine involved)."""
        if is_default(self.compute_output_shape):
            detached_args = tree.map_structure(_detached, args)
            detached_kwargs = {k: tree.map_structure(_detached, v) for k, v in kwargs.items()}
            try:
                with SymbolicScope():
                    outputs = self.call(*detached_args, **detached_kwargs)
            except (EngineConversionError, ValueError, TypeError) as error:
                # `call` hands its inputs to the engine itself (raw `tf.*`, `jnp.*`), as
                # Keras allows: trace it on the backend's own placeholders instead.
                if not _engine_refused(error):
                    raise
                outputs = _backend.core().compute_output_spec(
                    self.call, *detached_args, **detached_kwargs
                )
            return tree.map_structure(_fresh, outputs)
        call_spec = CallSpec(self._call_signature, args, kwargs, self._call_plan)
        shapes = shapes_for(
            self.compute_output_shape, shapes_dict(call_spec), self.name, "compute_output_shape"
        )
        output_shape = self.compute_output_shape(**shapes)
        if _is_shape(output_shape):
            return KerasTensor(tuple(output_shape), dtype=self.compute_dtype)
        return tree.map_shape_structure(
            lambda s: KerasTensor(s, dtype=self.compute_dtype), output_shape
        )

    @default
    def compute_output_shape(self, *args, **kwargs):
        """The output shape(s) for input shape(s), by symbolic inference of `call`."""
        inputs = tree.map_shape_structure(lambda s: KerasTensor(s), args[0] if args else None)
        if not self.built:
            with name_scope(self.name, caller=self):
                self._maybe_build(
                    CallSpec(self._call_signature, (inputs,), kwargs, self._call_plan)
                )
        outputs = self.compute_output_spec(inputs, **kwargs)
        return tree.map_structure(lambda x: x.shape, outputs)

    # ----- config --------------------------------------------------------------------

    @default
    def get_config(self):
        """``name``, ``trainable``, ``dtype`` (and the constructor arguments when captured)."""
        self._check_super_called()
        config = {
            "name": self.name,
            "trainable": self.trainable,
            "dtype": _dtype_policy.serialize(self.dtype_policy),
        }
        if self.activity_regularizer is not None:
            config["activity_regularizer"] = regularizers_module.serialize(
                self.activity_regularizer
            )
        if not is_default(self.get_config):
            return config
        auto = self._auto_config
        if auto is None:
            raise NotImplementedError(
                f"Layer {type(self).__name__} does not implement get_config() and its "
                f"constructor got {self._auto_config_error}. Override get_config() to "
                "return the constructor arguments (starting from super().get_config())."
            )
        return {**config, **{k: v for k, v in auto.items() if k not in config}}

    @classmethod
    def from_config(cls, config):
        """Creates a layer from its config (dtype policy dicts are decoded)."""
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = _dtype_policy.deserialize(config["dtype"])
        try:
            return cls(**config)
        except Exception as error:
            raise TypeError(
                f"Error when deserializing class '{cls.__name__}' using config={config}.\n\n"
                f"Exception encountered: {error}"
            ) from error

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    def __str__(self):
        return self.__repr__()


class _NullScope:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _is_shape(value):
    return isinstance(value, (tuple, list)) and all(d is None or isinstance(d, int) for d in value)


def _as_shape(value):
    if _is_shape(value):
        return tuple(value)
    return tree.map_shape_structure(tuple, value) if value is not None else None
