"""Operation: something that can be called on concrete values or on KerasTensors."""

import math

from mb_graph import _hooks, _remat, tree
from mb_graph._auto_config import capture_init_arguments, init_accepts_name
from mb_graph._describe import describe_arguments
from mb_graph._keras_tensor import KerasTensor, any_symbolic_tensors, is_keras_tensor
from mb_graph._node import Node
from mb_graph.naming import auto_name


def _symbolic_like(x):
    """A KerasTensor with the shape and dtype of an array-like `x`; other values as is."""
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if shape is None or dtype is None or is_keras_tensor(x):
        return x
    return KerasTensor(tuple(shape), dtype=_hooks.standardize_dtype(dtype))


def default(method):
    """Marks `method` as a base implementation (see `is_default`)."""
    method._is_default = True
    return method


def is_default(method):
    """Returns whether `method` is still the implementation marked with `default`."""
    return getattr(method, "_is_default", False)


class Operation:
    """Base of every operation (ops, layers, functions).

    Calling an operation on arguments that contain a KerasTensor anywhere
    (nested in lists, tuples, dicts, args or kwargs) records a `Node` and
    returns KerasTensors shaped by `compute_output_spec`; calling it on
    concrete values runs `call`.

    Subclasses implement `call` and `compute_output_spec`. Constructor
    arguments that are plain Python values (str, int, float, bool, None, and
    lists/tuples/dicts of them) are captured automatically, so `get_config`
    works without being overridden.

    Args:
        name: unique name; by default the snake-case class name, made unique
            with ``_1``, ``_2``, ... (see `mb_graph.naming`).

    Example:

    >>> from mb_graph import KerasTensor
    >>> class Double(Operation):
    ...     def call(self, x):
    ...         return [2 * v for v in x]
    ...     def compute_output_spec(self, x):
    ...         return KerasTensor(x.shape, x.dtype)
    >>> double = Double(name="double")
    >>> double([1.0, 2.0])
    [2.0, 4.0]
    >>> y = double(KerasTensor((2,)))
    >>> y.shape, y._keras_history.operation is double
    ((2,), True)
    """

    def __new__(cls, *args, **kwargs):
        instance = super().__new__(cls)
        config, error = capture_init_arguments(cls, args, kwargs)
        # Set through `object` so that subclasses' attribute hooks (tracking,
        # torch modules) are not involved before their own __init__ ran.
        object.__setattr__(instance, "_auto_config", config)
        object.__setattr__(instance, "_auto_config_error", error)
        return instance

    def __init__(self, name=None):
        if name is None:
            name = auto_name(type(self).__name__)
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "An operation's `name` must be a string without '/'. "
                f"Received: name={name!r} (of type {type(name).__name__})."
            )
        self.name = name
        self._inbound_nodes = []
        self._outbound_nodes = []
        # The RematScope active at creation decides (as in Keras).
        self._remat_mode = _remat.get_current_remat_mode()

    def __call__(self, *args, **kwargs):
        if any_symbolic_tensors(args, kwargs):
            return self.symbolic_call(*args, **kwargs)
        call = self.call
        if getattr(self, "quantization_mode", None) is not None:
            call = self.quantized_call
        if self._remat_mode is not None:
            return self.rematerialized_call(call, *args, **kwargs)(*args, **kwargs)
        return call(*args, **kwargs)

    def rematerialized_call(self, fn, *args, **kwargs):
        """`fn` (the `call` method), rematerialized when this operation's `RematScope`
        asks for it: always in mode ``"full"``, in ``"larger_than"`` when the outputs
        for these arguments hold more elements than the threshold; else `fn` itself."""
        mode = self._remat_mode
        if not mode:
            return fn
        if mode.mode == "full":
            return _remat.remat(fn)
        if mode.mode == "larger_than":
            # Inferred on symbolic stand-ins: the check must not run `call` itself.
            spec = self.compute_output_spec(
                *tree.map_structure(_symbolic_like, args),
                **tree.map_structure(_symbolic_like, kwargs),
            )
            size = sum(
                math.prod(d or 1 for d in x.shape) if is_keras_tensor(x) else 0
                for x in tree.flatten(spec)
            )
            if size > mode.output_size_threshold:
                return _remat.remat(fn)
        return fn

    def symbolic_call(self, *args, **kwargs):
        """Infers the outputs with `compute_output_spec` and records a `Node`."""
        try:
            outputs = self.compute_output_spec(*args, **kwargs)
        except Exception as error:
            error.add_note(
                f"While computing the outputs of operation '{self.name}' "
                f"({type(self).__name__}) called on: {describe_arguments(args, kwargs)}"
            )
            raise
        Node(self, call_args=args, call_kwargs=kwargs, outputs=outputs)
        return outputs

    def call(self, *args, **kwargs):
        """Computes the outputs on concrete values. Subclasses implement it."""
        raise NotImplementedError(
            f"Operation '{self.name}' ({type(self).__name__}) does not implement `call`, "
            "so it cannot run on concrete values. Define `call(self, ...)` in the subclass."
        )

    def quantized_call(self, *args, **kwargs):
        """`call` of a quantized operation (one whose ``quantization_mode`` is set).

        Subclasses that can be quantized implement it (mb's layers do, per mode).
        """
        raise NotImplementedError(
            f"Operation '{self.name}' ({type(self).__name__}) has a quantization mode but "
            "does not implement `quantized_call`."
        )

    def compute_output_spec(self, *args, **kwargs):
        """Returns the KerasTensor(s) that `call` would return for these arguments.

        Subclasses override it. Without an override, the function registered
        with `mb_graph.set_output_spec_hook` runs `call` symbolically.
        """
        hook = _hooks.get_output_spec_hook()
        if hook is None:
            raise NotImplementedError(
                f"Operation '{self.name}' ({type(self).__name__}) cannot infer the shapes "
                "and dtypes of its outputs: implement `compute_output_spec(self, ...)` to "
                "return KerasTensors, or import an op library (mb_ops) that registers a "
                "default with mb_graph.set_output_spec_hook."
            )
        return hook(self.call, *args, **kwargs)

    @default
    def get_config(self):
        """Returns a dict from which `from_config` recreates the operation.

        Subclasses that override it start from ``super().get_config()`` (which
        then holds just ``name``) and add their constructor arguments.

        Raises:
            NotImplementedError: when the subclass does not override it and
                its constructor arguments could not be captured automatically.
        """
        config = {"name": self.name}
        if not is_default(self.get_config):
            return config
        auto_config = self._auto_config
        if auto_config is None:
            raise NotImplementedError(
                f"{type(self).__name__} cannot build its config automatically: it was "
                f"created with {self._auto_config_error}. Override `get_config()` to "
                "return the constructor arguments (starting from super().get_config()), "
                "and `from_config()` if they need decoding."
            )
        config.update(auto_config)
        if not init_accepts_name(type(self)):
            config.pop("name")
        return config

    @classmethod
    def from_config(cls, config):
        """Creates an operation from the output of `get_config`."""
        try:
            return cls(**config)
        except Exception as error:
            raise TypeError(
                f"Could not create {cls.__name__} from its config: {error}\n"
                f"Received config: {config!r}"
            ) from error

    def __repr__(self):
        return f"<Operation name={self.name}>"

    @property
    def input(self):
        """The input tensor(s) of the first call (one tensor when there is one)."""
        return self._first_node_attribute("input_tensors", "input")

    @property
    def output(self):
        """The output tensor(s) of the first call (one tensor when there is one)."""
        return self._first_node_attribute("output_tensors", "output")

    def _first_node_attribute(self, attribute, what):
        if not self._inbound_nodes:
            raise AttributeError(
                f"Operation '{self.name}' has never been called on symbolic inputs, so it "
                f"has no {what}."
            )
        values = getattr(self._inbound_nodes[0], attribute)
        return values[0] if len(values) == 1 else values
