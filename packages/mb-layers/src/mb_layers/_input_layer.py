"""`InputLayer` and `Input`: the entry points of functional graphs."""

from mb_graph import KerasTensor, Node, is_keras_tensor
from mb_layers._layer import Layer
from mb_layers._registry import register_builtin
from mb_ops import config, dtypes


class InputLayer(Layer):
    """The layer that produces a model's symbolic input (`Input` returns its output).

    Args:
        shape: the shape without the batch axis, e.g. ``(32,)``.
        batch_size: optional fixed batch size.
        dtype: the input's dtype (default floatx).
        sparse: whether the input stands for a sparse tensor.
        ragged: whether the input stands for a ragged tensor.
        batch_shape: the full shape, batch axis included (instead of `shape`).
        input_tensor: an existing KerasTensor to use as the input.
        optional: whether the input may be None.
        name: the layer's (and the tensor's) name.
        **kwargs: ``input_shape`` and ``batch_input_shape``, old Keras names that are
            accepted and ignored; anything else raises ``TypeError``.

    Example:

    >>> layer = InputLayer(shape=(3,), name="features")
    >>> layer.output.shape, layer.output.dtype, layer.name
    ((None, 3), 'float32', 'features')
    >>> InputLayer(batch_shape=(8, 3), dtype="int32").output.shape
    (8, 3)
    """

    def __init__(
        self,
        shape=None,
        batch_size=None,
        dtype=None,
        sparse=None,
        ragged=None,
        batch_shape=None,
        input_tensor=None,
        optional=False,
        name=None,
        **kwargs,
    ):
        kwargs.pop("input_shape", None)
        kwargs.pop("batch_input_shape", None)
        if kwargs:
            raise TypeError(
                f"InputLayer got unexpected keyword arguments: {', '.join(sorted(kwargs))}."
            )
        super().__init__(name=name)
        if shape is not None and batch_shape is not None:
            raise ValueError(
                "Give InputLayer either `shape` or `batch_shape`, not both. "
                f"Received: shape={shape}, batch_shape={batch_shape}."
            )
        if input_tensor is not None:
            if not is_keras_tensor(input_tensor):
                raise ValueError(
                    "InputLayer's `input_tensor` must be a KerasTensor. Received: "
                    f"{input_tensor!r} (of type {type(input_tensor).__name__})."
                )
            batch_shape = input_tensor.shape
            dtype = input_tensor.dtype if dtype is None else dtype
        elif batch_shape is None:
            if shape is None:
                raise ValueError(
                    "InputLayer needs a `shape` (without the batch axis) or a `batch_shape`, "
                    "e.g. Input(shape=(32,))."
                )
            if isinstance(shape, int):
                shape = (shape,)
            batch_shape = (batch_size, *tuple(shape))
        self._batch_shape = tuple(None if d is None else int(d) for d in batch_shape)
        self._input_dtype = dtypes.standardize_dtype(dtype or config.floatx())
        self.sparse = bool(sparse)
        self.ragged = bool(ragged)
        self.optional = bool(optional)
        if input_tensor is None:
            input_tensor = KerasTensor(
                self._batch_shape,
                dtype=self._input_dtype,
                sparse=self.sparse,
                ragged=self.ragged,
                name=self.name,
            )
        self._input_tensor = input_tensor
        Node(self, call_args=(), call_kwargs={}, outputs=input_tensor)
        self.built = True

    def call(self):
        return None

    @property
    def batch_shape(self):
        """The input's shape, batch axis included."""
        return self._batch_shape

    @property
    def dtype(self):
        """The input's dtype."""
        return self._input_dtype

    def get_config(self):
        return {
            "batch_shape": self.batch_shape,
            "dtype": self.dtype,
            "sparse": self.sparse,
            "ragged": self.ragged,
            "name": self.name,
            "optional": self.optional,
        }


register_builtin(InputLayer)


def Input(
    shape=None,
    batch_size=None,
    dtype=None,
    sparse=None,
    ragged=None,
    batch_shape=None,
    name=None,
    tensor=None,
    optional=False,
):
    """A symbolic input for functional models (``keras.Input``).

    Args:
        shape: the shape without the batch axis, e.g. ``(32,)``.
        batch_size: optional fixed batch size.
        dtype: the dtype (default floatx).
        sparse, ragged: whether it stands for a sparse / ragged tensor.
        batch_shape: the full shape (instead of `shape`).
        name: the input's name (unique by default).
        tensor: an existing KerasTensor to wrap.
        optional: whether the input may be None.

    Returns:
        A KerasTensor.

    Example:

    >>> x = Input(shape=(4,), name="features")
    >>> x.shape, x.dtype, x.name
    ((None, 4), 'float32', 'features')
    """
    layer = InputLayer(
        shape=shape,
        batch_size=batch_size,
        dtype=dtype,
        sparse=sparse,
        ragged=ragged,
        batch_shape=batch_shape,
        input_tensor=tensor,
        optional=optional,
        name=name,
    )
    return layer.output


def get_source_inputs(tensor):
    """The input tensors (outputs of `Input`/`InputLayer`) that `tensor` is computed
    from, in order of first appearance (``keras.utils.get_source_inputs``).

    Example:

    >>> from mb_layers.layers import Add
    >>> a, b = Input((2,), name="a"), Input((2,), name="b")
    >>> [x.name for x in get_source_inputs(Add()([a, b]))]
    ['a', 'b']
    """
    if not is_keras_tensor(tensor):
        raise ValueError(
            "get_source_inputs expects a KerasTensor (the output of a layer called on "
            f"mb.Input tensors). Received: {tensor!r} (of type {type(tensor).__name__})."
        )
    found, seen, stack = [], set(), [tensor]
    while stack:
        x = stack.pop()
        history = x._keras_history
        node = None
        if history is not None and history.operation is not None:
            node = history.operation._inbound_nodes[history.node_index]
        parents = node.input_tensors if node is not None else []
        if not parents:  # an Input, or a tensor made outside any recorded call
            if id(x) not in seen:
                seen.add(id(x))
                found.append(x)
            continue
        stack.extend(reversed(parents))
    return found
