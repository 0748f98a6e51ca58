"""A function's graph to and from Keras 3's functional config (``layers``, ``inbound_nodes``).

Layout (Keras 3 ``Functional.get_config``, see keras-file-format.md section 2.4)::

    {"layers": [{<operation config>, "name": ..., "inbound_nodes": [
                    {"args": [...], "kwargs": {...}}, ...]}, ...],
     "input_layers": <[name, node, tensor] triples in the inputs' nesting>,
     "output_layers": <the same for the outputs>}

In ``args``/``kwargs`` every KerasTensor is written as
``{"class_name": "__keras_tensor__", "config": {"shape": [...], "dtype": ...,
"keras_history": [operation name, node index, tensor index]}}``; node indices
count only the calls that belong to the graph. Entry calls (input layers) are
not written (``inbound_nodes: []``): the operation recreates them itself.

mb_graph knows nothing of layers: the caller converts an operation to a
config and back (``serialize_operation``/``deserialize_operation``) and
encodes constants it knows (``serialize_value``/``deserialize_value``).
"""

from mb_graph import tree
from mb_graph._keras_tensor import KerasTensor
from mb_graph._topology import make_node_key

# Stands in the ``layers`` list for a graph input that no operation produced
# (a bare KerasTensor). Keras models always have input layers instead.
INPUT_TENSOR_CLASS_NAME = "__input_tensor__"
_PLAIN = (str, int, float, bool, type(None))


def default_serialize_operation(operation):
    """``{"module", "class_name", "config", "registered_name"}`` from `get_config`."""
    return {
        "module": type(operation).__module__,
        "class_name": type(operation).__name__,
        "config": operation.get_config(),
        "registered_name": None,
    }


def _tensor_config(tensor, history):
    return {
        "class_name": "__keras_tensor__",
        "config": {"shape": list(tensor.shape), "dtype": tensor.dtype, "keras_history": history},
    }


class _Writer:
    def __init__(self, function, serialize_operation, serialize_value, node_index_offset):
        self.function = function
        self.serialize_operation = serialize_operation or default_serialize_operation
        self.serialize_value = serialize_value
        self.node_index_offset = node_index_offset or (lambda operation: 0)
        self.kept_index = {}  # node key -> index among the graph's calls of its operation
        for operation in function.operations:
            kept = 0
            for index in range(len(operation._inbound_nodes)):
                key = make_node_key(operation, index)
                if key in function._nodes:
                    self.kept_index[key] = kept
                    kept += 1
        self.free_inputs = {
            id(x): x
            for x in function.inputs
            if x._keras_history is None or x._keras_history.operation is None
        }

    def history(self, tensor, where):
        history = tensor._keras_history
        if history is None or history.operation is None:
            if id(tensor) in self.free_inputs:
                return [tensor.name, 0, 0]
            raise ValueError(f"{where}: tensor '{tensor.name}' has no history to refer to.")
        operation, node_index, tensor_index = history
        key = make_node_key(operation, node_index)
        if key not in self.kept_index:
            raise ValueError(
                f"{where}: tensor '{tensor.name}' (shape={tensor.shape}) comes from operation "
                f"'{operation.name}', which is outside the graph (an intermediate tensor used "
                "as an input). Only graphs whose inputs are entry tensors can be serialized."
            )
        return [operation.name, self.kept_index[key], tensor_index]

    def value(self, value, where):
        if isinstance(value, KerasTensor):
            return _tensor_config(value, self.history(value, where))
        if isinstance(value, _PLAIN):
            return value
        if isinstance(value, (list, tuple)):
            return [self.value(v, where) for v in value]
        if isinstance(value, dict):
            return {k: self.value(v, where) for k, v in value.items()}
        if isinstance(value, slice):
            parts = {p: self.value(getattr(value, p), where) for p in ("start", "stop", "step")}
            return {"class_name": "__slice__", "config": parts}
        if value is Ellipsis:
            return {"class_name": "__ellipsis__", "config": {}}
        if isinstance(value, bytes):
            return {"class_name": "__bytes__", "config": {"value": value.decode("utf-8")}}
        if self.serialize_value is not None:
            return self.serialize_value(value)
        raise TypeError(
            f"{where}: cannot serialize the argument {value!r} (of type "
            f"{type(value).__name__}). Pass `serialize_value` to encode such values."
        )

    def operation_entry(self, operation):
        entry = dict(self.serialize_operation(operation))
        entry["name"] = operation.name
        nodes = []
        for index, node in enumerate(operation._inbound_nodes):
            if node.is_input or make_node_key(operation, index) not in self.kept_index:
                continue
            where = f"Call {index} of operation '{operation.name}'"
            nodes.append(
                {
                    "args": self.value(list(node.arguments.args), where),
                    "kwargs": self.value(node.arguments.kwargs, where),
                }
            )
        entry["inbound_nodes"] = nodes
        return entry

    def triple(self, tensor):
        where = f"{type(self.function).__name__} '{self.function.name}'"
        name, index, tensor_index = self.history(tensor, where)
        if id(tensor) not in self.free_inputs:
            index += self.node_index_offset(tensor._keras_history.operation)
        return [name, index, tensor_index]


def serialize_graph(
    function, *, serialize_operation=None, serialize_value=None, node_index_offset=None
):
    """Describes a `Function`'s graph as JSON-able data in Keras 3's functional layout.

    Args:
        function: the `Function` (or subclass) to describe.
        serialize_operation: ``fn(operation) -> dict``, the operation's own
            entry (``name`` and ``inbound_nodes`` are added to a copy). The
            default writes ``module``, ``class_name``, ``config`` (from
            `get_config`) and ``registered_name``.
        serialize_value: ``fn(value) -> JSON-able``, for call arguments that
            are not tensors, plain Python values, lists, tuples, dicts,
            slices, Ellipsis or bytes. Without it such values are an error.
        node_index_offset: ``fn(operation) -> int`` added to node indices in
            ``input_layers``/``output_layers`` (Keras 3 writes nested
            functional models with an offset of 1 there).

    Returns:
        A dict with ``layers``, ``input_layers`` and ``output_layers``.

    Example:

    >>> from mb_graph import Function, KerasTensor, Operation
    >>> class Negate(Operation):
    ...     def call(self, x):
    ...         return [-v for v in x]
    ...     def compute_output_spec(self, x):
    ...         return KerasTensor(x.shape, x.dtype)
    >>> x = KerasTensor((None, 2), name="x")
    >>> config = serialize_graph(Function([x], Negate(name="neg")(x)))
    >>> config["layers"][1]["inbound_nodes"][0]["args"][0]["config"]
    {'shape': [None, 2], 'dtype': 'float32', 'keras_history': ['x', 0, 0]}
    >>> config["input_layers"], config["output_layers"]
    ([['x', 0, 0]], ['neg', 0, 0])
    """
    writer = _Writer(function, serialize_operation, serialize_value, node_index_offset)
    names = {operation.name for operation in function.operations}
    layers = []
    for tensor in writer.free_inputs.values():
        if tensor.name in names:
            raise ValueError(
                f"Input tensor '{tensor.name}' has the name of an operation of the graph; "
                "rename one of them to serialize the graph."
            )
        names.add(tensor.name)
        config = {"shape": list(tensor.shape), "dtype": tensor.dtype, "sparse": tensor.sparse}
        config.update({"ragged": tensor.ragged, "name": tensor.name})
        layers.append(
            {
                "class_name": INPUT_TENSOR_CLASS_NAME,
                "config": config,
                "name": tensor.name,
                "inbound_nodes": [],
            }
        )
    layers.extend(writer.operation_entry(operation) for operation in function.operations)
    return {
        "layers": layers,
        "input_layers": tree.map_structure(writer.triple, function._inputs_struct),
        "output_layers": tree.map_structure(writer.triple, function._outputs_struct),
    }
