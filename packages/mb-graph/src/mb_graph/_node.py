"""Node: one call of an operation on symbolic inputs, the vertex of a graph."""

import collections

import optree

from mb_graph._keras_tensor import KerasTensor
from mb_graph._structure import StructureMismatch, flatten_like
from mb_graph.tree import NAMESPACE


class KerasHistory(collections.namedtuple("KerasHistory", "operation node_index tensor_index")):
    """Which call produced a KerasTensor.

    Attributes:
        operation: the Operation that produced the tensor.
        node_index: index of the call in ``operation._inbound_nodes``.
        tensor_index: index of the tensor in that call's flattened outputs.
    """

    __slots__ = ()


class SymbolicArguments:
    """The arguments of one call, with tensors and constants kept apart.

    The arguments are flattened once (``None`` is a leaf); the positions of
    the KerasTensors among the leaves are remembered, so filling in values
    for a re-run replaces those positions and unflattens, without walking the
    structure again.

    Attributes:
        args: the positional arguments (a tuple).
        kwargs: the keyword arguments (a dict).
        keras_tensors: the KerasTensors among them, in flattening order.
    """

    def __init__(self, *args, **kwargs):
        leaves, self._treespec = optree.tree_flatten(
            (args, kwargs), none_is_leaf=True, namespace=NAMESPACE
        )
        self._leaves = leaves
        self._tensor_positions = [i for i, x in enumerate(leaves) if isinstance(x, KerasTensor)]
        self.keras_tensors = [leaves[i] for i in self._tensor_positions]
        self.args, self.kwargs = optree.tree_unflatten(self._treespec, leaves)
        # The common case (one tensor, alone) skips the tree entirely on re-runs.
        self._single_tensor = (
            args[0] if len(args) == 1 and not kwargs and isinstance(args[0], KerasTensor) else None
        )

    @property
    def constants(self):
        """The non-tensor leaves, as a list of ``(path, value)`` pairs."""
        paths = self._treespec.paths()
        tensor_positions = set(self._tensor_positions)
        return [
            (paths[i], leaf) for i, leaf in enumerate(self._leaves) if i not in tensor_positions
        ]

    def tensor_paths(self):
        """Where each KerasTensor sits: ``args[0]``, ``kwargs['mask']``, ``args[1][2]``."""
        paths = self._treespec.paths()
        texts = []
        for position in self._tensor_positions:
            first, *rest = paths[position]
            texts.append(("args" if first == 0 else "kwargs") + "".join(f"[{p!r}]" for p in rest))
        return texts

    def fill_in(self, tensor_dict):
        """Returns ``(args, kwargs)`` with each KerasTensor replaced by ``tensor_dict[id(x)]``.

        Tensors missing from `tensor_dict` are replaced by None.
        """
        if self._single_tensor is not None:
            return (tensor_dict.get(id(self._single_tensor)),), {}
        leaves = list(self._leaves)
        for position in self._tensor_positions:
            leaves[position] = tensor_dict.get(id(leaves[position]))
        return optree.tree_unflatten(self._treespec, leaves)

    def convert(self, conversion_fn):
        """Returns ``(args, kwargs)`` with `conversion_fn` applied to every leaf."""
        return optree.tree_unflatten(self._treespec, [conversion_fn(x) for x in self._leaves])


class Node:
    """One call of an operation on symbolic arguments.

    Creating a Node wires the graph: it appends itself to
    ``operation._inbound_nodes`` and to the ``_outbound_nodes`` of the
    operations that produced its input tensors, and stamps each output with a
    `KerasHistory`. When an input tensor has ``record_history=False`` nothing
    is wired and the outputs are marked ``record_history=False`` as well (a
    throw-away shape computation).

    Args:
        operation: the Operation called.
        call_args: the positional arguments of the call.
        call_kwargs: the keyword arguments of the call.
        outputs: the KerasTensor(s) the call returned (any nesting).

    Attributes:
        operation, arguments (`SymbolicArguments`), outputs (flat list),
        is_input (True when the call had no tensor inputs: a graph entry such
        as an input layer), node_index (position in
        ``operation._inbound_nodes``, None when not recorded).
    """

    def __init__(self, operation, call_args=None, call_kwargs=None, outputs=None):
        self.operation = operation
        self.arguments = SymbolicArguments(*(call_args or ()), **(call_kwargs or {}))
        if outputs is None:
            outputs = []
        # The treespec flattens concrete outputs of a re-run "up to" the
        # symbolic structure, so a value that is itself a list stays one leaf.
        self.outputs, self._outputs_treespec = optree.tree_flatten(
            outputs, none_is_leaf=True, namespace=NAMESPACE
        )
        self._single_output = self._outputs_treespec.num_nodes == 1
        self._outputs_structure = outputs
        for i, x in enumerate(self.outputs):
            if not isinstance(x, KerasTensor):
                raise ValueError(
                    f"Operation '{getattr(operation, 'name', operation)}' "
                    f"({type(operation).__name__}) returned a non-tensor output at flat "
                    f"position {i}: {x!r} (of type {type(x).__name__}). Its "
                    "compute_output_spec must return KerasTensors only (any nesting)."
                )
        self.is_input = not self.arguments.keras_tensors
        self.node_index = None
        if not all(x.record_history for x in self.arguments.keras_tensors):
            for x in self.outputs:
                x.record_history = False
            return

        inbound = operation._inbound_nodes
        self.node_index = len(inbound)
        inbound.append(self)
        for x in self.arguments.keras_tensors:
            history = x._keras_history
            if history is not None and history.operation is not None:
                history.operation._outbound_nodes.append(self)
        for i, x in enumerate(self.outputs):
            x._keras_history = KerasHistory(operation, self.node_index, i)

    def flatten_outputs(self, values):
        """Flattens concrete outputs of this node's operation like its symbolic outputs.

        Raises:
            ValueError: when `values` is not nested like the symbolic outputs.
        """
        if self._single_output:
            return [values]
        try:
            return flatten_like(self._outputs_structure, self._outputs_treespec, values)
        except StructureMismatch:
            # Engines differ on containers: accept any nesting with the right
            # number of leaves, as Keras does.
            leaves = optree.tree_leaves(values, none_is_leaf=True, namespace=NAMESPACE)
            if len(leaves) == len(self.outputs):
                return leaves
            raise ValueError(
                f"Operation '{self.operation.name}' ({type(self.operation).__name__}) "
                f"returned outputs nested differently from its symbolic outputs. Expected "
                f"the structure {self._outputs_treespec}; received {values!r}."
            ) from None

    def __repr__(self):
        return f"<Node operation={self.operation.name}, node_index={self.node_index}>"

    @property
    def input_tensors(self):
        """The KerasTensors among the call's arguments, in flattening order."""
        return self.arguments.keras_tensors

    @property
    def output_tensors(self):
        """The call's outputs, flattened."""
        return self.outputs

    @property
    def parent_nodes(self):
        """The nodes that produced this node's input tensors (inputs without history skipped)."""
        parents = []
        for x in self.arguments.keras_tensors:
            history = x._keras_history
            if history is not None and history.operation is not None:
                parents.append(history.operation._inbound_nodes[history.node_index])
        return parents
