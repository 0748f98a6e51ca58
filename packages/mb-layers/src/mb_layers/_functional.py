"""`Functional`: a layer made of the graph between symbolic inputs and outputs."""

from mb_graph import Function, KerasTensor, deserialize_graph, serialize_graph, tree
from mb_layers import _registry, _tf_data
from mb_layers._call_spec import is_tensor_like
from mb_layers._layer import Layer
from mb_layers._masking import get_keras_mask, set_keras_mask
from mb_layers._ops import ops
from mb_ops import dtypes

_FUNCTION_ATTRIBUTES = frozenset(
    {
        "_inputs_struct",
        "_outputs_struct",
        "_inputs",
        "_outputs",
        "_inputs_treespec",
        "_outputs_treespec",
        "_nodes",
        "_nodes_by_depth",
        "_operations",
        "_operations_by_depth",
        "_execution_order",
    }
)


def _operation_fn(operation, training):
    def call(*args, **kwargs):
        if training is not None and getattr(operation, "_call_has_training_arg", False):
            kwargs["training"] = training
        return operation(*args, **kwargs)

    return call


class Functional(Function, Layer):
    """A layer whose computation is a graph of layers between `inputs` and `outputs`.

    The graph is recorded by calling layers on the KerasTensors of `Input`;
    inputs and outputs may be nested (lists, dicts); a layer called twice is
    shared; taking intermediate tensors as inputs or outputs extracts a
    sub-graph. mb-train's ``Model(inputs, outputs)`` extends this class.

    Args:
        inputs: the graph's inputs (KerasTensors, any nesting).
        outputs: the graph's outputs (KerasTensors, any nesting).
        name: the network's name.
        trainable: whether its variables are trained; False freezes every layer
            of the network, True leaves layers frozen before wrapping frozen.

    Example:

    >>> from mb_layers import Input
    >>> from mb_layers.layers import Dense
    >>> x = Input((4,))
    >>> net = Functional(x, Dense(2)(x))
    >>> net.output.shape
    (None, 2)
    """

    _untracked_attributes = _FUNCTION_ATTRIBUTES

    def __call__(self, *args, **kwargs):
        # `dataset.map(model)` on a backend other than tensorflow: the whole model runs
        # on the host, batch by batch, as its preprocessing layers would.
        if _tf_data.traced_by_tf(args):
            return _tf_data.call_in_tf_graph(self, super().__call__, args, kwargs)
        return super().__call__(*args, **kwargs)

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        if kwargs:
            raise TypeError(
                f"Functional got unexpected keyword arguments: {', '.join(sorted(kwargs))}."
            )
        Function.__init__(self, inputs, outputs, name=name)
        self._layers = [op for op in self._operations if isinstance(op, Layer)]
        # Only freezing reaches the sub-layers: a trainable network (the default, and
        # what a config saves) keeps the layers its user froze before wrapping them.
        if not trainable:
            self.trainable = False
        self.built = True

    @property
    def layers(self):
        """The network's layers in topological order (input layers included)."""
        return list(self._layers)

    @property
    def input(self):
        """The symbolic input(s), in the structure given to the constructor."""
        return self._inputs_struct

    @property
    def output(self):
        """The symbolic output(s), in the structure given to the constructor."""
        return self._outputs_struct

    @property
    def input_shape(self):
        """The shape of the input (a list of shapes for several inputs), batch axis included."""
        return _shapes(self._inputs)

    @property
    def output_shape(self):
        """The shape of the output (a list of shapes for several outputs), batch axis included."""
        return _shapes(self._outputs)

    def get_layer(self, name=None, index=None):
        """The layer called `name` (or at position `index` of `layers`)."""
        if index is not None:
            if index >= len(self.layers):
                raise ValueError(
                    f"Network '{self.name}' has {len(self.layers)} layers; index {index} is "
                    "out of range."
                )
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(
            f"No layer named '{name}' in network '{self.name}'. Layers: "
            f"{', '.join(layer.name for layer in self.layers)}."
        )

    # ----- running the graph ---------------------------------------------------------

    def _standardize_inputs(self, inputs):
        struct = self._inputs_struct
        if isinstance(inputs, dict) and not isinstance(struct, dict):
            flat_refs = self._inputs
            if all(ref.name in inputs for ref in flat_refs):
                inputs = self._inputs_treespec.unflatten([inputs[ref.name] for ref in flat_refs])
        elif isinstance(struct, (list, tuple)) and len(struct) == 1 and is_tensor_like(inputs):
            inputs = type(struct)([inputs])
        elif (
            isinstance(inputs, (list, tuple)) and len(inputs) == 1 and is_keras_tensor_like(struct)
        ):
            inputs = inputs[0]
        flat = self._flatten_inputs(inputs)
        adjusted = [self._adjust_input(x, ref) for x, ref in zip(flat, self._inputs, strict=True)]
        return self._inputs_treespec.unflatten(adjusted)

    @staticmethod
    def _adjust_input(x, ref):
        if x is None or not hasattr(x, "shape"):
            return x
        mask = get_keras_mask(x)
        ndim, ref_ndim = len(x.shape), len(ref.shape)
        y = x
        if ndim == ref_ndim + 1 and x.shape[-1] == 1:
            y = ops.squeeze(x, axis=-1)
        elif ndim == ref_ndim - 1 and ref.shape[-1] == 1:
            y = ops.expand_dims(x, axis=-1)
        if not isinstance(y, KerasTensor) and hasattr(y, "dtype"):
            dtype = dtypes.standardize_dtype(y.dtype)
            if (dtype == "string") != (ref.dtype == "string"):
                raise TypeError(
                    f"The model input '{ref.name}' takes {ref.dtype} values of shape "
                    f"{tuple(ref.shape)}; it received {dtype} values (dtype "
                    f"{dtype if str(y.dtype).startswith('<dtype') else y.dtype}). Give it "
                    f"arrays of {ref.dtype}"
                    + (
                        ", or take text with a string Input (Input(shape, dtype='string')) "
                        "followed by a StringLookup or TextVectorization layer."
                        if dtype == "string"
                        else "."
                    )
                )
            if dtype != ref.dtype and not (
                dtypes.is_float_dtype(dtype) and dtypes.is_float_dtype(ref.dtype)
            ):
                y = ops.cast(y, ref.dtype)
        if mask is not None and y is not x:
            set_keras_mask(y, mask)
        return y

    def _assert_input_compatibility(self, inputs):
        Function._assert_input_compatibility(self, self._standardize_inputs(inputs))

    def call(self, inputs, training=None, mask=None):
        """Runs the graph on `inputs` (masks given in `mask` are attached first)."""
        inputs = self._standardize_inputs(inputs)
        if mask is not None:
            for x, m in zip(tree.flatten(inputs), tree.flatten(mask), strict=False):
                if m is not None:
                    set_keras_mask(x, m)
        return self._run_through_graph(inputs, operation_fn=lambda op: _operation_fn(op, training))

    def compute_output_spec(self, inputs, training=None, mask=None):
        outputs = Function.compute_output_spec(self, self._standardize_inputs(inputs))
        for new, ref in zip(tree.flatten(outputs), self._outputs, strict=False):
            ref_mask = get_keras_mask(ref)
            if ref_mask is not None:
                set_keras_mask(
                    new, KerasTensor(ref_mask.shape, ref_mask.dtype, record_history=False)
                )
        return outputs

    def compute_output_shape(self, input_shape):
        return Function.compute_output_shape(self, input_shape)

    def compute_mask(self, inputs, previous_mask):
        # Outputs computed by the graph already carry the masks their layers set.
        return None

    def build(self, input_shape=None):
        self.built = True

    # ----- config --------------------------------------------------------------------

    def get_config(self):
        """Keras 3's functional config: ``name``, ``trainable``, ``layers``, ``input_layers``,
        ``output_layers``."""
        graph = serialize_graph(self, serialize_operation=_registry.serialize)
        return {"name": self.name, "trainable": self.trainable, **graph}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds the network: layers from their configs, then the calls between them."""
        inputs, outputs = deserialize_graph(
            config,
            deserialize_operation=lambda entry: _registry.deserialize(
                entry, custom_objects=custom_objects
            ),
        )
        return cls(
            inputs, outputs, name=config.get("name"), trainable=config.get("trainable", True)
        )


def is_keras_tensor_like(x):
    return isinstance(x, KerasTensor)


_registry.register_builtin(
    Functional, module="keras.src.models.functional", registered_name="Functional"
)


def _shapes(tensors):
    shapes = [tuple(t.shape) for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes
