"""Function: the graph between symbolic inputs and outputs, re-appliable to new inputs."""

import optree

from mb_graph import tree
from mb_graph._custom_objects import scoped_objects
from mb_graph._describe import describe_value
from mb_graph._deserialization import deserialize_graph
from mb_graph._keras_tensor import KerasTensor
from mb_graph._operation import Operation
from mb_graph._serialization import serialize_graph
from mb_graph._structure import StructureMismatch, flatten_like
from mb_graph._topology import map_graph
from mb_graph.tree import NAMESPACE


def _path_text(prefix, path):
    return prefix + "".join(f"[{p!r}]" for p in path)


class Function(Operation):
    """The graph of operations between KerasTensors, callable on new inputs.

    Args:
        inputs: a KerasTensor or any nesting (list, tuple, dict) of them.
        outputs: a KerasTensor or any nesting of them, computable from
            `inputs` alone. Intermediate tensors may be used as inputs or
            outputs, which slices a sub-graph out of a larger one.
        name: name of the function (an operation name).

    Calling the function:

    - on concrete values runs each operation in topological order and returns
      the outputs in the structure of `outputs`;
    - ``fn(symbolic_inputs)`` is one operation call: it records a single node
      for the function (so a function can be nested inside another graph);
    - ``fn.call(symbolic_inputs)`` re-applies each operation to the new
      inputs, building a new graph whose nodes belong to the same operations
      (state such as weights stays shared).

    Example:

    >>> from mb_graph import KerasTensor, Operation
    >>> class Scale(Operation):
    ...     def __init__(self, factor, name=None):
    ...         super().__init__(name=name)
    ...         self.factor = factor
    ...     def call(self, x):
    ...         return [self.factor * v for v in x]
    ...     def compute_output_spec(self, x):
    ...         return KerasTensor(x.shape, x.dtype)
    >>> x = KerasTensor((2,))
    >>> fn = Function(x, Scale(3.0)(Scale(2.0)(x)))
    >>> fn([1.0, 2.0])
    [6.0, 12.0]
    """

    def __init__(self, inputs, outputs, name=None):
        super().__init__(name=name)
        self._inputs_struct = tree.map_structure(lambda x: x, inputs)
        self._outputs_struct = tree.map_structure(lambda x: x, outputs)
        input_paths, self._inputs, self._inputs_treespec = optree.tree_flatten_with_path(
            inputs, none_is_leaf=True, namespace=NAMESPACE
        )
        output_paths, self._outputs, self._outputs_treespec = optree.tree_flatten_with_path(
            outputs, none_is_leaf=True, namespace=NAMESPACE
        )
        for kind, paths, values, given in (
            ("inputs", input_paths, self._inputs, inputs),
            ("outputs", output_paths, self._outputs, outputs),
        ):
            if not values:
                raise ValueError(
                    f"{self._owner()}: `{kind}` must hold at least one KerasTensor. "
                    f"Received: {kind}={given!r}"
                )
            for path, value in zip(paths, values, strict=True):
                if not isinstance(value, KerasTensor):
                    raise ValueError(
                        f"{self._owner()}: every leaf of `{kind}` must be a KerasTensor, but "
                        f"`{_path_text(kind, path)}` is {describe_value(value)} (of type "
                        f"{type(value).__name__})."
                    )
        topology = map_graph(self._inputs, self._outputs, output_paths, owner=self._owner())
        self._nodes = topology.nodes
        self._nodes_by_depth = topology.nodes_by_depth
        self._operations = topology.operations
        self._operations_by_depth = topology.operations_by_depth
        self._execution_order = topology.execution_order

    def _owner(self):
        return f"{type(self).__name__} '{self.name}'"

    @property
    def operations(self):
        """The operations of the graph, in topological order (inputs first)."""
        return self._operations[:]

    @property
    def inputs(self):
        """Flat list of the symbolic inputs."""
        return self._inputs

    @property
    def outputs(self):
        """Flat list of the symbolic outputs."""
        return self._outputs

    def get_config(self):
        """The name and the graph in Keras 3's functional layout (see `serialize_graph`).

        Operations are written with their own `get_config`; use
        `mb_graph.serialize_graph` directly to choose how operations and
        constants are encoded.
        """
        return {"name": self.name, **serialize_graph(self)}

    @classmethod
    def from_config(cls, config):
        """Rebuilds a function from `get_config`'s output.

        Args:
            config: the dict `get_config` returned (or one read from JSON).

        Every operation class in the graph but ``Function`` itself must be in
        scope: ``with mb_graph.custom_objects_in_scope({"Double": Double}):``.
        """
        custom_objects = {"Function": Function, **scoped_objects()}
        inputs, outputs = deserialize_graph(config, custom_objects=custom_objects)
        return cls(inputs, outputs, name=config.get("name"))

    def call(self, inputs):
        """Runs the graph on new inputs (concrete values, or KerasTensors to re-apply it)."""
        self._assert_input_compatibility(inputs)
        return self._run_through_graph(inputs)

    def compute_output_spec(self, inputs):
        """The KerasTensors the function returns for symbolic `inputs`."""
        self._assert_input_compatibility(inputs)
        flat_inputs = self._flatten_inputs(inputs)
        for x, ref in zip(flat_inputs, self._inputs, strict=True):
            if not isinstance(x, KerasTensor):
                raise TypeError(
                    f"{self._owner()}: to infer output shapes, input '{ref.name}' must be a "
                    f"KerasTensor, received {type(x).__name__}: {describe_value(x)}"
                )
        if all(x.shape == ref.shape for x, ref in zip(flat_inputs, self._inputs, strict=True)):
            return tree.map_structure(
                lambda x: KerasTensor(x.shape, x.dtype, sparse=x.sparse, ragged=x.ragged),
                self._outputs_struct,
            )
        return self._run_through_graph(inputs, operation_fn=lambda op: op.compute_output_spec)

    def compute_output_shape(self, input_shape):
        """The output shapes for input shapes given in the structure of the inputs."""
        specs = tree.map_shape_structure(lambda shape: KerasTensor(shape), input_shape)
        flat_specs = self._flatten_inputs(specs)
        flat_specs = [
            KerasTensor(x.shape, ref.dtype, sparse=ref.sparse)
            for x, ref in zip(flat_specs, self._inputs, strict=True)
        ]
        specs = self._inputs_treespec.unflatten(flat_specs)
        return tree.map_structure(lambda x: x.shape, self.compute_output_spec(specs))

    def _flatten_inputs(self, inputs):
        try:
            return flatten_like(self._inputs_struct, self._inputs_treespec, inputs)
        except StructureMismatch:
            raise ValueError(
                f"{self._owner()} was called with inputs nested differently from the inputs "
                f"it was built with.\nExpected structure: {self._inputs_struct!r}\n"
                f"Received: {inputs!r}"
            ) from None

    def _assert_input_compatibility(self, inputs):
        for x, ref in zip(self._flatten_inputs(inputs), self._inputs, strict=True):
            shape = getattr(x, "shape", None)
            if shape is None or callable(shape):
                continue  # Values without a shape (Python lists, scalars) are not checked.
            shape = tuple(shape)
            compatible = len(shape) == len(ref.shape) and all(
                d is None or r is None or d == r for d, r in zip(shape, ref.shape, strict=True)
            )
            if not compatible:
                raise ValueError(
                    f"{self._owner()} received an incompatible value for input "
                    f"'{ref.name}': expected shape {ref.shape}, received shape {shape}."
                )

    def _run_through_graph(self, inputs, operation_fn=None, call_fn=None):
        """Runs every node in topological order on the values fed for the inputs.

        Args:
            inputs: values in the structure of the inputs.
            operation_fn: maps an operation to the callable to run (default:
                the operation itself); e.g. ``lambda op: op.compute_output_spec``.
            call_fn: when given, called as ``call_fn(callable, *args, **kwargs)``
                instead of ``callable(*args, **kwargs)``.

        Returns:
            The values of the outputs, in the structure of the outputs.
        """
        values = {id(x): v for x, v in zip(self._inputs, self._flatten_inputs(inputs), strict=True)}
        for node in self._execution_order:
            args, kwargs = node.arguments.fill_in(values)
            operation = node.operation if operation_fn is None else operation_fn(node.operation)
            try:
                if call_fn is None:
                    outputs = operation(*args, **kwargs)
                else:
                    outputs = call_fn(operation, *args, **kwargs)
            except Exception as error:
                error.add_note(self._describe_failed_node(node, values))
                raise
            for x, y in zip(node.outputs, node.flatten_outputs(outputs), strict=False):
                values[id(x)] = y
        return self._outputs_treespec.unflatten([values[id(x)] for x in self._outputs])

    def _describe_failed_node(self, node, values):
        lines = [
            f"{path}: {describe_value(values.get(id(tensor)))} (fed for {describe_value(tensor)})"
            for path, tensor in zip(
                node.arguments.tensor_paths(), node.arguments.keras_tensors, strict=True
            )
        ]
        return (
            f"While {self._owner()} ran operation '{node.operation.name}' "
            f"({type(node.operation).__name__}) on:\n  " + "\n  ".join(lines)
        )
