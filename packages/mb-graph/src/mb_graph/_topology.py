"""Walking the graph between input and output tensors, in time linear in its size.

The orders produced are those of Keras 3 (`keras.src.ops.function.map_graph`),
so that a model lists its operations in the same order on both sides; the
walk itself is iterative (no recursion limit) and uses hash lookups where
Keras scans lists.
"""

import collections

from mb_graph._describe import describe_value


def make_node_key(operation, node_index):
    """A string naming call `node_index` of `operation` (as Keras 3 does)."""
    return f"{id(operation)}_ib-{node_index}"


class Topology(
    collections.namedtuple(
        "Topology", "nodes nodes_by_depth operations operations_by_depth execution_order"
    )
):
    """What `map_graph` finds.

    Attributes:
        nodes: set of node keys (`make_node_key`) of the nodes in the graph.
        nodes_by_depth: dict depth -> list of nodes (depth 0: the outputs' nodes).
        operations: operations in topological order (inputs first).
        operations_by_depth: dict depth -> list of operations.
        execution_order: the nodes to run, inputs first (entry nodes excluded).
    """

    __slots__ = ()


def _format_path(prefix, path):
    return prefix + "".join(f"[{p!r}]" for p in path)


class _Walk:
    """Depth-first walk from the outputs back to the inputs (post-order)."""

    def __init__(self, inputs, owner):
        self.input_ids = {id(x) for x in inputs}
        self.inputs = inputs
        self.owner = owner
        self.finished = set()
        self.in_progress = set()
        self.ordered = []
        self.operation_indices = {}

    def _missing_input(self, tensor, consumer, output_text):
        used = (
            f"; it is an input of operation '{consumer.operation.name}'"
            if consumer is not None
            else ""
        )
        names = ", ".join(f"'{x.name}' shape={x.shape}" for x in self.inputs)
        return ValueError(
            f"{self.owner}: output {output_text} cannot be computed from the given "
            f"inputs. It needs {describe_value(tensor)}{used}, which is not among the "
            f"inputs ({names}) nor computed from them. Add it to `inputs`."
        )

    def enter(self, tensor, consumer, output_text):
        """Returns the node to visit for `tensor`, or None when nothing is to visit."""
        is_declared = id(tensor) in self.input_ids
        history = tensor._keras_history
        if history is None or history.operation is None:
            if is_declared:
                return None
            raise self._missing_input(tensor, consumer, output_text)
        operation = history.operation
        node = operation._inbound_nodes[history.node_index]
        if node in self.finished:
            return None
        if node.is_input:
            if not is_declared:
                raise self._missing_input(tensor, consumer, output_text)
        elif is_declared:
            return None  # An intermediate tensor used as an input: the walk stops.
        if node in self.in_progress:
            raise ValueError(
                f"{self.owner}: tensor '{tensor.name}' produced by operation "
                f"'{operation.name}' is part of a cycle."
            )
        self.operation_indices.setdefault(operation, len(self.operation_indices))
        self.in_progress.add(node)
        return node

    def run(self, outputs, output_paths):
        for output, path in zip(outputs, output_paths, strict=True):
            output_text = f"`{_format_path('outputs', path)}` ('{output.name}')"
            node = self.enter(output, None, output_text)
            stack = [] if node is None else [[node, 0]]
            while stack:
                frame = stack[-1]
                node, position = frame
                tensors = () if node.is_input else node.arguments.keras_tensors
                if position < len(tensors):
                    frame[1] = position + 1
                    child = self.enter(tensors[position], node, output_text)
                    if child is not None:
                        stack.append([child, 0])
                    continue
                stack.pop()
                self.in_progress.discard(node)
                self.finished.add(node)
                self.ordered.append(node)


def map_graph(inputs, outputs, output_paths=None, owner="Function"):
    """Finds the nodes and operations between flat lists of input and output tensors.

    Args:
        inputs: flat list of KerasTensors.
        outputs: flat list of KerasTensors.
        output_paths: paths of the outputs in their structure, for errors.
        owner: how errors name the graph's owner (e.g. "Function 'f'").

    Returns:
        A `Topology`.

    Raises:
        ValueError: when an output needs a tensor that is neither an input nor
            computed from the inputs (the error names it, with its shape),
            when the graph has a cycle, or when two operations share a name.
    """
    if output_paths is None:
        output_paths = [(i,) for i in range(len(outputs))]
    walk = _Walk(inputs, owner)
    walk.run(outputs, output_paths)
    ordered, operation_indices = walk.ordered, walk.operation_indices
    in_graph = set(ordered)

    # Depth: 0 at the outputs, growing towards the inputs. Post-order reversed
    # visits every consumer before its producers, so one pass suffices.
    node_depths = {}
    operation_depths = {}
    for node in reversed(ordered):
        depth = max(node_depths.setdefault(node, 0), operation_depths.get(node.operation, 0))
        operation_depths[node.operation] = depth
        node_depths[node] = depth
        for parent in node.parent_nodes:
            if parent in in_graph:
                node_depths[parent] = max(depth + 1, node_depths.get(parent, 0))

    # Entry operations (input layers) of inputs that no output uses still belong.
    for x in inputs:
        history = x._keras_history
        if history is None or history.operation is None:
            continue
        operation = history.operation
        node = operation._inbound_nodes[history.node_index]
        if node.is_input and operation not in operation_depths:
            operation_depths[operation] = 0
            operation_indices[operation] = -1
            node_depths[node] = 0
            in_graph.add(node)

    nodes_by_depth = collections.defaultdict(list)
    for node, depth in node_depths.items():
        nodes_by_depth[depth].append(node)
    operations_by_depth = collections.defaultdict(list)
    for operation, depth in operation_depths.items():
        operations_by_depth[depth].append(operation)

    operations = []
    for depth in sorted(operations_by_depth, reverse=True):
        operations.extend(sorted(operations_by_depth[depth], key=operation_indices.__getitem__))
    execution_order = [
        node
        for depth in sorted(nodes_by_depth, reverse=True)
        for node in nodes_by_depth[depth]
        if not node.is_input
    ]

    seen = {}
    for operation in operations:
        other = seen.setdefault(operation.name, operation)
        if other is not operation:
            raise ValueError(
                f"{owner}: two different operations in the graph are named "
                f"'{operation.name}' ({type(other).__name__} and {type(operation).__name__}). "
                "Names must be unique in a graph, since serialized graphs refer to "
                "operations by name. Give one of them another `name`."
            )
    node_keys = {make_node_key(node.operation, node.node_index) for node in in_graph}
    return Topology(node_keys, nodes_by_depth, operations, operations_by_depth, execution_order)
