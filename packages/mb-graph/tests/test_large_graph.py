"""A graph of a few hundred nodes: order and re-application stay correct, and the
work done is linear in the size of the graph (counted, never timed)."""

import pytest

from mb_graph import Function, KerasTensor, Node, _topology


def build_ladder(ops, rungs):
    """A ladder: two chains with a cross-connection at every rung (3 nodes per rung)."""
    x = KerasTensor((2,), name="x")
    left = ops.Scale(1.0, name="left")  # One operation shared by every rung.
    right = ops.Scale(0.5, name="right")
    adds = [ops.Add(name=f"add_{i}") for i in range(rungs)]
    a, b = x, x
    for add in adds:
        a, b = add(left(a), b), right(b)
    return x, [a, b], left, right, adds


def reference(values, left, right, rungs):
    a, b = values, values
    for _ in range(rungs):
        a = [u * left.factor + v for u, v in zip(a, b, strict=True)]
        b = [v * right.factor for v in b]
    return [a, b]


@pytest.fixture
def counters(monkeypatch):
    counts = {"enter": 0, "parent_nodes": 0}
    original_enter = _topology._Walk.enter
    original_parents = Node.parent_nodes

    def counting_enter(self, *args):
        counts["enter"] += 1
        return original_enter(self, *args)

    def counting_parents(self):
        counts["parent_nodes"] += 1
        return original_parents.fget(self)

    monkeypatch.setattr(_topology._Walk, "enter", counting_enter)
    monkeypatch.setattr(Node, "parent_nodes", property(counting_parents))
    return counts


@pytest.mark.parametrize("rungs", [100, 400])
def test_graph_walk_visits_each_edge_once(ops, counters, rungs):
    x, outputs, _left, _right, _adds = build_ladder(ops, rungs)
    fn = Function(x, outputs)
    nodes = 3 * rungs
    edges = 4 * rungs  # left and right: one input each; add: two.
    assert len(fn._execution_order) == nodes
    assert counters["enter"] == edges + len(outputs)
    assert counters["parent_nodes"] == nodes


def test_operations_are_in_topological_order(ops):
    x, outputs, left, _right, adds = build_ladder(ops, 150)
    fn = Function(x, outputs)
    # Operations are sorted by their deepest node, as Keras does: the shared
    # `left` (first used right at the input) comes first, the adds in order.
    assert fn.operations[0] is left
    assert len(fn.operations) == len(set(fn.operations)) == len(adds) + 2
    assert [op for op in fn.operations if op in adds] == adds
    position = {}
    for i, node in enumerate(fn._execution_order):
        for parent in node.parent_nodes:
            assert position[id(parent)] < i
        position[id(node)] = i


def test_concrete_run_calls_each_node_once_and_matches_reference(ops):
    rungs = 150
    x, outputs, left, right, adds = build_ladder(ops, rungs)
    fn = Function(x, outputs)
    values = [1.0, 2.0]
    assert fn(values) == reference(values, left, right, rungs)
    assert left.calls == rungs and right.calls == rungs
    assert all(add.calls == 1 for add in adds)
    assert all(add.spec_calls == 1 for add in adds)  # Building the Function inferred nothing.


def test_symbolic_reapplication_adds_one_node_per_node(ops):
    rungs = 150
    x, outputs, left, right, adds = build_ladder(ops, rungs)
    fn = Function(x, outputs)
    new_x = KerasTensor((2,))
    new_outputs = fn.call(new_x)
    assert len(left._inbound_nodes) == 2 * rungs
    assert all(len(add._inbound_nodes) == 2 for add in adds)
    assert all(add.spec_calls == 2 for add in adds)
    rebuilt = Function(new_x, new_outputs)
    assert rebuilt.operations == fn.operations
    values = [3.0, -1.0]
    assert rebuilt(values) == fn(values) == reference(values, left, right, rungs)
