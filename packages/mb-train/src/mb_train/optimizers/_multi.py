"""`MultiOptimizer` and `OptimizerMap`: a different optimizer for different variables.

Each trainable variable goes to one sub-optimizer, chosen once when the
MultiOptimizer is built: by an `OptimizerMap` (variable paths and regular
expressions) or by a function ``variable -> optimizer``. Every sub-optimizer
keeps its own state, step counter and learning rate; the MultiOptimizer's
``variables`` are its own (``iteration``, ``learning_rate``) followed by each
sub-optimizer's, in `optimizers` order, which is Keras 3's layout, so the trainer
carries the whole state through a compiled step and ``.keras`` files interchange.
"""

import contextlib
import re
from collections.abc import MutableMapping

from mb_layers import _serialization
from mb_ops import ops
from mb_train.optimizers import _checks, _registry
from mb_train.optimizers._base import Optimizer
from mb_train.optimizers._loss_scale import LossScaleOptimizer

_NESTED_FIX = (
    "A MultiOptimizer's sub-optimizers must be plain optimizers (Adam, SGD, ...). For loss "
    "scaling, wrap the whole MultiOptimizer instead: LossScaleOptimizer(MultiOptimizer(...))."
)


def _describe(obj):
    return f"{obj!r} (of type {type(obj).__name__})"


def _check_sub_optimizer(optimizer, where):
    """Refuses what cannot be a sub-optimizer: non-optimizers and the two wrappers."""
    if not isinstance(optimizer, Optimizer):
        raise ValueError(
            f"optimizer must be a Keras Optimizer instance. Received for {where}: "
            f"{_describe(optimizer)}. Pass an optimizer object, e.g. keras.optimizers.Adam()."
        )
    for wrapper in (LossScaleOptimizer, MultiOptimizer):
        if isinstance(optimizer, wrapper):
            raise ValueError(
                f"optimizer cannot be {wrapper.__name__}. Received for {where}: "
                f"{optimizer.name!r}. {_NESTED_FIX}"
            )


class OptimizerMap(MutableMapping):
    """Maps variable paths to optimizers (``keras.optimizers.OptimizerMap``).

    A key is a variable path (``"dense/kernel"``) or a regular expression that
    must match the whole path (``re.fullmatch``): ``"encoder/.*"`` covers every
    variable under ``encoder``, while ``"encoder"`` only the path ``encoder``
    itself. An exact key wins over patterns; a path that two patterns match is
    an error; a path nothing matches gets `default_optimizer`.

    Args:
        default_optimizer: the optimizer for unmapped variables.
        optimizer_map: an optional dict ``{key: optimizer}`` to start with.

    Example:
        >>> from mb_train.optimizers import SGD, Adam, RMSprop
        >>> optimizer_map = OptimizerMap(default_optimizer=RMSprop(name="rmsprop"))
        >>> optimizer_map["encoder/layer_0/dense"] = Adam(name="adam")
        >>> optimizer_map["encoder/.*"] = SGD(name="sgd")
        >>> optimizer_map["encoder/layer_0/dense"].name
        'adam'
        >>> optimizer_map["encoder/layer_0/attention/query"].name
        'sgd'
        >>> optimizer_map["decoder/dense"].name
        'rmsprop'
    """

    def __init__(self, default_optimizer, optimizer_map=None):
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError(
                "default_optimizer must be a Keras Optimizer instance. Received: "
                f"{_describe(default_optimizer)}. Example: "
                "OptimizerMap(default_optimizer=keras.optimizers.SGD())."
            )
        _check_sub_optimizer(default_optimizer, "default_optimizer")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(
                "optimizer_map must be a dictionary {variable path or pattern: optimizer}. "
                f"Received: {_describe(optimizer_map)}."
            )
        self._default_optimizer = default_optimizer
        self._optimizer_map = {}
        self._patterns = {}
        for key, optimizer in (optimizer_map or {}).items():
            self[key] = optimizer

    @property
    def default_optimizer(self):
        """The optimizer of the variables no key matches."""
        return self._default_optimizer

    def __getitem__(self, key):
        """The optimizer for the variable path `key` (see the class docstring)."""
        if not isinstance(key, str):
            raise TypeError(
                f"OptimizerMap is looked up by variable path (a string). Received: "
                f"{_describe(key)}. To look up a variable, call the map: optimizer_map(variable)."
            )
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matching = [k for k, pattern in self._patterns.items() if pattern.fullmatch(key)]
        if len(matching) > 1:
            raise ValueError(
                f"Multiple optimizers assigned to variable {key}: the patterns "
                f"{matching} all match its path. Make the patterns exclusive, or add the "
                f"exact path as a key (an exact key wins over patterns)."
            )
        if matching:
            return self._optimizer_map[matching[0]]
        return self._default_optimizer

    def __setitem__(self, key, optimizer):
        """Sends the variables whose path is, or fully matches, `key` to `optimizer`."""
        if not isinstance(key, str):
            raise ValueError(
                f"key must be a string (a variable path or a regular expression). Received: "
                f"{_describe(key)}."
            )
        if key in self._optimizer_map:
            raise ValueError(
                f"'{key}' already exists in the OptimizerMap with value "
                f"{self._optimizer_map[key].name!r}. Please make sure to not use duplicated "
                f"keys (delete it first with `del optimizer_map[{key!r}]` to replace it)."
            )
        _check_sub_optimizer(optimizer, f"key {key!r}")
        try:
            pattern = re.compile(key)
        except re.error as error:
            raise ValueError(
                f"OptimizerMap key {key!r} is not a valid regular expression ({error}). Keys "
                "are variable paths or patterns matched with re.fullmatch; escape special "
                f"characters with re.escape, e.g. {re.escape(key)!r}."
            ) from error
        self._optimizer_map[key] = optimizer
        self._patterns[key] = pattern

    def __delitem__(self, key):
        del self._optimizer_map[key]
        del self._patterns[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        """The optimizer for `variable`, by its ``path``."""
        path = getattr(variable, "path", None)
        if not isinstance(path, str):
            raise TypeError(
                f"OptimizerMap maps variables by their `path`. Received: {_describe(variable)}, "
                "which has no string `path`. Pass a Variable, or look up a path with "
                "optimizer_map['dense/kernel']."
            )
        return self[path]

    def __repr__(self):
        entries = ", ".join(f"{k!r}: {v.name!r}" for k, v in self._optimizer_map.items())
        return f"<OptimizerMap default={self._default_optimizer.name!r}, {{{entries}}}>"

    def get_config(self):
        """The default optimizer and the map, as Keras 3 writes them.

        An optimizer used under several keys (or also as the default) is written
        each time with the same ``shared_object_id``, so it stays one object.
        """
        optimizers = [self._default_optimizer, *self._optimizer_map.values()]
        counts = {}
        for optimizer in optimizers:
            counts[id(optimizer)] = counts.get(id(optimizer), 0) + 1

        def serialize(optimizer):
            config = _registry.serialize(optimizer)
            if counts[id(optimizer)] > 1:
                config["shared_object_id"] = id(optimizer)
            return config

        return {
            "default_optimizer": serialize(self._default_optimizer),
            "optimizer_map": {k: serialize(v) for k, v in self._optimizer_map.items()},
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Creates the map from `get_config`'s dict (Keras 3's too)."""
        shared = {}

        def deserialize(entry):
            if isinstance(entry, Optimizer):
                return entry
            key = entry.get("shared_object_id") if isinstance(entry, dict) else None
            if key is not None and key in shared:
                return shared[key]
            if isinstance(entry, dict):
                entry = {k: v for k, v in entry.items() if k != "shared_object_id"}
            optimizer = _registry.deserialize(entry, custom_objects=custom_objects)
            if key is not None:
                shared[key] = optimizer
            return optimizer

        entries = config.get("optimizer_map") or {}
        if not isinstance(entries, dict):
            raise ValueError(
                "OptimizerMap config: 'optimizer_map' must be a dict {key: optimizer config}. "
                f"Received: {_describe(entries)}."
            )
        default = deserialize(config["default_optimizer"])
        return cls(default, {k: deserialize(v) for k, v in entries.items()})


class MultiOptimizer(Optimizer):
    """Updates different variables with different optimizers (``keras.optimizers.MultiOptimizer``).

    When built (on the first step), each trainable variable is given to the
    optimizer that `optimizer_map` chooses for it; each step sends each
    sub-optimizer the gradients of its own variables. Each sub-optimizer keeps
    its own state, `iterations` (it counts only the steps it took part in) and
    learning rate, so a MultiOptimizer has no ``learning_rate`` of its own: read
    or set it on the sub-optimizers, listed in `optimizers` (the map's optimizers
    in order, then its default, then any the map returns that were not listed).
    `LearningRateScheduler` and `ReduceLROnPlateau` act on each sub-optimizer.

    Args:
        optimizer_map: an `OptimizerMap`, or a function ``variable -> optimizer``
            (it may return the same optimizer for many variables).
        loss_scale_factor: multiply the loss by it and divide the gradients;
            it replaces the sub-optimizers' own `loss_scale_factor`.
        name: the optimizer's name.

    Example:
        >>> import mb_ops
        >>> from mb_train.optimizers import SGD
        >>> with mb_ops.name_scope("encoder"):
        ...     w = mb_ops.Variable([1.0], name="kernel")
        >>> b = mb_ops.Variable([1.0], name="bias")
        >>> optimizer = MultiOptimizer(
        ...     OptimizerMap(default_optimizer=SGD(0.5), optimizer_map={"encoder/.*": SGD(0.1)})
        ... )
        >>> optimizer.apply([ops.ones((1,)), ops.ones((1,))], [w, b])
        >>> round(float(w.numpy()[0]), 6), round(float(b.numpy()[0]), 6)
        (0.9, 0.5)
        >>> [int(o.iterations.numpy()) for o in optimizer.optimizers]
        [1, 1]
    """

    def __init__(self, optimizer_map, loss_scale_factor=None, name=None):
        if isinstance(optimizer_map, Optimizer) or not callable(optimizer_map):
            raise TypeError(
                "MultiOptimizer expects `optimizer_map` to be an OptimizerMap or a function "
                f"variable -> optimizer. Received: {_describe(optimizer_map)}. Example: "
                "MultiOptimizer(OptimizerMap(default_optimizer=SGD(), "
                "optimizer_map={'encoder/.*': Adam()})). To train every variable with one "
                "optimizer, compile with that optimizer itself."
            )
        # The sub-optimizers, a public list: the .keras file stores each one's state
        # under "optimizer/optimizers/<class>", as Keras's walk of its attributes does.
        object.__setattr__(self, "optimizers", [])
        super().__init__(learning_rate=0.0, loss_scale_factor=loss_scale_factor, name=name)
        self._optimizer_map = optimizer_map
        self._var_to_optimizer_idx = {}
        if isinstance(optimizer_map, OptimizerMap):
            for key, optimizer in optimizer_map.items():
                _check_sub_optimizer(optimizer, f"key {key!r}")
                self._adopt(optimizer)
            self._adopt(optimizer_map.default_optimizer)

    def _adopt(self, optimizer):
        """Adds `optimizer` to `optimizers` (once); returns its index there."""
        for index, known in enumerate(self.optimizers):
            if known is optimizer:
                return index
        optimizer.loss_scale_factor = self.loss_scale_factor
        self.optimizers.append(optimizer)
        return len(self.optimizers) - 1

    @property
    def optimizer_map(self):
        """The `OptimizerMap` (or function) that chooses each variable's optimizer."""
        return self._optimizer_map

    # ----- building -----------------------------------------------------------------

    def build(self, var_list):
        """Chooses each variable's sub-optimizer and builds each on its variables."""
        if self.built:
            return
        var_list = list(var_list)
        routing, groups = {}, {}
        for variable in var_list:
            optimizer = self._optimizer_map(variable)
            if not isinstance(optimizer, Optimizer):
                raise ValueError(
                    f"Optimizer for variable {variable.path!r} is not an Optimizer instance: "
                    f"the optimizer_map returned {_describe(optimizer)}. It must return an "
                    "optimizer object, e.g. keras.optimizers.Adam()."
                )
            for wrapper in (LossScaleOptimizer, MultiOptimizer):
                if isinstance(optimizer, wrapper):
                    raise ValueError(
                        f"{wrapper.__name__} cannot be used inside a MultiOptimizer: the "
                        f"optimizer_map returned {optimizer.name!r} for variable "
                        f"{variable.path!r}. {_NESTED_FIX}"
                    )
            index = self._adopt(optimizer)
            routing[id(variable)] = index
            groups.setdefault(index, []).append(variable)
        for index, optimizer in enumerate(self.optimizers):
            if index in groups:
                _build_sub_optimizer(optimizer, groups[index])
        self._var_to_optimizer_idx = routing
        super().build(var_list)

    @property
    def variables(self):
        """Its own variables (iteration, learning_rate), then each sub-optimizer's."""
        found = list(self._variables)
        for optimizer in self.optimizers:
            found.extend(optimizer.variables)
        return found

    # ----- the update ---------------------------------------------------------------

    def _apply(self, grads, variables):
        grads, variables = self._filter_empty_gradients(grads, variables)
        groups = [([], []) for _ in self.optimizers]
        for grad, variable in zip(grads, variables, strict=True):
            sub_grads, sub_variables = groups[self._var_to_optimizer_idx[id(variable)]]
            sub_grads.append(grad)
            sub_variables.append(variable)
        with contextlib.ExitStack() as stack:
            if self._in_place_blocked:
                # A wrapper (LossScaleOptimizer) selects the result afterwards: the
                # sub-optimizers must not update the state in place either.
                for optimizer in self.optimizers:
                    stack.enter_context(optimizer._no_in_place())
            for optimizer, (sub_grads, sub_variables) in zip(self.optimizers, groups, strict=True):
                if sub_grads:
                    optimizer.apply(sub_grads, sub_variables)
        self._iterations.assign(ops.add(self._iterations.value, 1))

    def finalize_variable_values(self, var_list):
        """Each sub-optimizer finalizes its own variables (EMA weights, where used)."""
        groups = {}
        for variable in var_list:
            index = self._var_to_optimizer_idx.get(id(variable))
            if index is not None:
                groups.setdefault(index, []).append(variable)
        for index, variables in groups.items():
            self.optimizers[index].finalize_variable_values(variables)

    # ----- what a MultiOptimizer does not have --------------------------------------

    @property
    def learning_rate(self):
        raise AttributeError(
            "Learning rate cannot be accessed on a MultiOptimizer: each sub-optimizer has "
            "its own. Access the learning rate on the individual sub-optimizers instead: "
            "[o.learning_rate for o in optimizer.optimizers]."
        )

    @learning_rate.setter
    def learning_rate(self, value):
        raise AttributeError(
            "Learning rate cannot be set on a MultiOptimizer: each sub-optimizer has its "
            "own. Set the learning rate on the individual sub-optimizers instead: "
            "for o in optimizer.optimizers: o.learning_rate = ..."
        )

    @property
    def loss_scale_factor(self):
        """The loss scale; setting it sets every sub-optimizer's too."""
        return self.__dict__.get("_loss_scale_factor")

    @loss_scale_factor.setter
    def loss_scale_factor(self, value):
        _checks.check_loss_scale_factor(value, "MultiOptimizer")
        object.__setattr__(self, "_loss_scale_factor", value)
        for optimizer in self.__dict__.get("optimizers", ()):
            optimizer.loss_scale_factor = value

    # ----- configuration ------------------------------------------------------------

    def get_config(self):
        """``optimizer_map`` (serialized), ``loss_scale_factor`` and ``name``, as Keras 3."""
        return {
            "optimizer_map": _serialize_map(self._optimizer_map),
            "loss_scale_factor": self.loss_scale_factor,
            "name": self.name,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Creates the MultiOptimizer from `get_config`'s dict (Keras 3's too)."""
        config = dict(config)
        if "optimizer_map" not in config:
            raise ValueError(
                f"MultiOptimizer config lacks 'optimizer_map'. Received keys: {sorted(config)}."
            )
        config["optimizer_map"] = _deserialize_map(config["optimizer_map"], custom_objects)
        return cls(**config)

    def __repr__(self):
        names = [o.name for o in self.optimizers]
        return f"<MultiOptimizer name={self.name}, optimizers={names}, built={self.built}>"


def _build_sub_optimizer(optimizer, variables):
    if not optimizer.built:
        optimizer.build(variables)
        return
    known = set(optimizer._trainable_variables_indices)
    if known != {id(v) for v in variables}:
        raise ValueError(
            f"Sub-optimizer {optimizer.name!r} was already built on other variables "
            f"({len(known)} of them), so it cannot take the {len(variables)} variable(s) the "
            "MultiOptimizer gives it. Give the MultiOptimizer optimizers that have not been "
            "used yet (one optimizer instance per MultiOptimizer)."
        )


def _serialize_map(optimizer_map):
    if hasattr(optimizer_map, "get_config"):
        return _serialization.serialize_object(
            optimizer_map, _registry.BUILTINS, "keras.optimizers"
        )
    return _serialization.serialize_function(optimizer_map, {}, "keras.optimizers")


def _deserialize_map(value, custom_objects):
    if not isinstance(value, dict):
        return value
    if value.get("class_name") == "function":
        try:
            return _serialization.deserialize_object(
                value, {}, "optimizer_map", custom_objects=custom_objects
            )
        except ValueError as error:
            raise ValueError(
                f"MultiOptimizer: its optimizer_map is the function {value.get('config')!r} "
                f"(module {value.get('module')!r}), which cannot be found. A function given "
                "as optimizer_map is saved by name: define it at module level, decorate it "
                "with @keras.saving.register_keras_serializable() and import it before "
                "loading, or pass it in custom_objects. An OptimizerMap needs neither."
            ) from error
    return _serialization.deserialize_object(
        value,
        _registry.BUILTINS,
        "optimizer_map",
        custom_objects=custom_objects,
        pass_custom_objects=True,
    )
