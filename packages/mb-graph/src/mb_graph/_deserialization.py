"""Rebuilding a graph from Keras 3's functional config (see `_serialization`)."""

import collections
import inspect

from mb_graph._custom_objects import custom_objects_in_scope
from mb_graph._keras_tensor import KerasTensor
from mb_graph._operation import Operation
from mb_graph._serialization import INPUT_TENSOR_CLASS_NAME


def make_default_deserialize_operation(custom_objects):
    """Returns ``fn(entry) -> Operation`` finding ``entry["class_name"]`` in `custom_objects`."""

    def deserialize_operation(entry):
        class_name = entry.get("class_name")
        cls = custom_objects.get(class_name)
        if cls is None:
            raise ValueError(
                f"Unknown operation class '{class_name}' for '{entry.get('name')}'. Pass "
                f"custom_objects={{'{class_name}': {class_name}}}, or a "
                "`deserialize_operation` function that creates operations from their entries."
            )
        config = entry.get("config") or {}
        # Keras's from_config(cls, config) finds nested custom classes in the scope.
        with custom_objects_in_scope(custom_objects):
            if "custom_objects" in inspect.signature(cls.from_config).parameters:
                return cls.from_config(config, custom_objects=custom_objects)
            return cls.from_config(config)

    return deserialize_operation


class _PendingCall(collections.namedtuple("_PendingCall", "name position data")):
    __slots__ = ()

    def describe(self):
        return f"call {self.position} of '{self.name}'"


def _tensor_references(data, found):
    if isinstance(data, dict):
        if data.get("class_name") == "__keras_tensor__" and isinstance(data.get("config"), dict):
            history = data["config"].get("keras_history")
            if history:
                found.append((history[0], history[1]))
            return
        for value in data.values():
            _tensor_references(value, found)
    elif isinstance(data, list):
        for value in data:
            _tensor_references(value, found)


class _Reader:
    def __init__(self, deserialize_value, node_index_offset):
        self.deserialize_value = deserialize_value
        self.node_index_offset = node_index_offset or (lambda operation: 0)
        self.operations = {}  # name -> Operation, or None for a bare input tensor
        self.produced = {}  # name -> [outputs of call 0, outputs of call 1, ...]

    def tensor(self, name, index, tensor_index, where):
        calls = self.produced.get(name)
        if calls is None:
            raise ValueError(f"{where} refers to an unknown operation '{name}'.")
        if not 0 <= index < len(calls) or not 0 <= tensor_index < len(calls[index]):
            raise ValueError(
                f"{where} refers to output {tensor_index} of call {index} of '{name}', "
                f"which has {len(calls)} call(s)."
            )
        return calls[index][tensor_index]

    def value(self, data, where):
        if isinstance(data, list):
            return [self.value(v, where) for v in data]
        if not isinstance(data, dict):
            return data
        class_name, config = data.get("class_name"), data.get("config")
        if class_name is None or "config" not in data:
            return {k: self.value(v, where) for k, v in data.items()}
        if class_name == "__keras_tensor__":
            history = config.get("keras_history")
            if not history:
                return KerasTensor(config["shape"], config["dtype"])
            return self.tensor(*history, where)
        if class_name == "__slice__":
            return slice(*(self.value(config[p], where) for p in ("start", "stop", "step")))
        if class_name == "__ellipsis__":
            return Ellipsis
        if class_name == "__bytes__":
            return config["value"].encode("utf-8")
        if self.deserialize_value is not None:
            return self.deserialize_value(data)
        raise TypeError(
            f"{where}: cannot decode the argument {data!r}. Pass `deserialize_value` to "
            "decode such values."
        )

    def run(self, call):
        where = f"While rebuilding {call.describe()}"
        args = self.value(call.data.get("args", []), where)
        kwargs = self.value(call.data.get("kwargs", {}), where)
        operation = self.operations[call.name]
        count = len(operation._inbound_nodes)
        operation(*args, **kwargs)
        if len(operation._inbound_nodes) == count:
            raise ValueError(
                f"{where}: calling operation '{call.name}' on its rebuilt inputs recorded no "
                "node; were its inputs symbolic?"
            )
        self.produced[call.name].append(operation._inbound_nodes[-1].outputs)

    def triples(self, structure):
        if isinstance(structure, list) and len(structure) == 3 and isinstance(structure[0], str):
            name, index, tensor_index = structure
            operation = self.operations.get(name)
            if operation is not None:
                index -= self.node_index_offset(operation)
            return self.tensor(name, index, tensor_index, "input_layers/output_layers")
        if isinstance(structure, dict):
            return {k: self.triples(v) for k, v in structure.items()}
        if isinstance(structure, tuple):
            return tuple(self.triples(v) for v in structure)
        return [self.triples(v) for v in structure]


def _order_calls(pending, existing_counts):
    """Kahn's algorithm over the calls: returns them in an order where inputs exist first."""
    index_of = {(call.name, call.position): i for i, call in enumerate(pending)}
    dependents = [[] for _ in pending]
    waiting = [0] * len(pending)
    for i, call in enumerate(pending):
        needs = {index_of[(call.name, call.position - 1)]} if call.position else set()
        references = []
        _tensor_references(call.data, references)
        for name, node_index in references:
            if name not in existing_counts:
                raise ValueError(
                    f"{call.describe()} refers to an unknown operation '{name}'. Every "
                    "operation a call uses must be listed in `layers`."
                )
            if node_index < existing_counts[name]:
                continue  # A call the operation made itself (an entry node).
            j = index_of.get((name, node_index - existing_counts[name]))
            if j is None:
                raise ValueError(
                    f"{call.describe()} refers to call {node_index} of '{name}', which is not "
                    "in the config."
                )
            needs.add(j)
        waiting[i] = len(needs)
        for j in needs:
            dependents[j].append(i)
    ready = collections.deque(i for i in range(len(pending)) if not waiting[i])
    order = []
    while ready:
        i = ready.popleft()
        order.append(pending[i])
        for k in dependents[i]:
            waiting[k] -= 1
            if not waiting[k]:
                ready.append(k)
    if len(order) < len(pending):
        stuck = ", ".join(pending[i].describe() for i in range(len(pending)) if waiting[i])
        raise ValueError(f"The graph config has a cycle; these calls wait on each other: {stuck}.")
    return order


def deserialize_graph(
    config,
    *,
    custom_objects=None,
    deserialize_operation=None,
    deserialize_value=None,
    node_index_offset=None,
):
    """Rebuilds the graph described by `serialize_graph` (or by Keras 3).

    Operations are created first, then called on rebuilt tensors in an order
    where every call's inputs exist (each call is made once: linear time).

    Args:
        config: a dict with ``layers``, ``input_layers`` and ``output_layers``.
        custom_objects: dict class name -> Operation class, used by the
            default `deserialize_operation` (``cls.from_config(entry["config"])``).
        deserialize_operation: ``fn(entry) -> Operation`` for one ``layers``
            entry (its ``name`` and ``inbound_nodes`` included).
        deserialize_value: ``fn(data) -> value`` for encoded arguments other
            than tensors, slices, Ellipsis and bytes.
        node_index_offset: ``fn(operation) -> int`` subtracted from node
            indices in ``input_layers``/``output_layers``.

    Returns:
        ``(inputs, outputs)``: the rebuilt KerasTensors, nested as in the config;
        ``Function(inputs, outputs)`` recreates the function.

    Example:

    >>> from mb_graph import Function, KerasTensor, Operation, serialize_graph
    >>> class Negate(Operation):
    ...     def call(self, x):
    ...         return [-v for v in x]
    ...     def compute_output_spec(self, x):
    ...         return KerasTensor(x.shape, x.dtype)
    >>> x = KerasTensor((2,), name="x")
    >>> config = serialize_graph(Function(x, Negate(name="neg")(x)))
    >>> inputs, outputs = deserialize_graph(config, custom_objects={"Negate": Negate})
    >>> Function(inputs, outputs)([1.0, -2.0])
    [-1.0, 2.0]
    """
    for key in ("layers", "input_layers", "output_layers"):
        if key not in config:
            raise ValueError(
                f"A graph config needs the key '{key}'. Received keys: {sorted(config)}."
            )
    make_operation = deserialize_operation or make_default_deserialize_operation(
        custom_objects or {}
    )
    reader = _Reader(deserialize_value, node_index_offset)
    pending = []
    for entry in config["layers"]:
        name = entry["name"]
        if name in reader.produced:
            raise ValueError(f"The name '{name}' appears twice in the graph config's `layers`.")
        if entry.get("class_name") == INPUT_TENSOR_CLASS_NAME:
            spec = entry["config"]
            tensor = KerasTensor(
                spec["shape"],
                spec["dtype"],
                sparse=spec.get("sparse", False),
                ragged=spec.get("ragged", False),
                name=spec.get("name", name),
            )
            reader.operations[name] = None
            reader.produced[name] = [[tensor]]
            continue
        operation = make_operation(entry)
        if not isinstance(operation, Operation):
            raise TypeError(
                f"Deserializing '{name}' gave {operation!r} (of type "
                f"{type(operation).__name__}); expected an Operation."
            )
        reader.operations[name] = operation
        reader.produced[name] = [node.outputs for node in operation._inbound_nodes]
        for position, data in enumerate(entry.get("inbound_nodes") or ()):
            pending.append(_PendingCall(name, position, data))

    existing = {name: len(calls) for name, calls in reader.produced.items()}
    for call in _order_calls(pending, existing):
        reader.run(call)
    return reader.triples(config["input_layers"]), reader.triples(config["output_layers"])
