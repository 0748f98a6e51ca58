"""Toy operations on Python floats and lists of floats: mb_graph has no array library.

A "tensor" value is a float (shape ()) or a list of floats (shape (n,)).
Each operation counts its concrete calls (`calls`) and its shape inferences
(`spec_calls`), so tests can check how much work a graph run did.
"""

import types

import pytest

from mb_graph import KerasTensor, Node, Operation


def _shape_of(value):
    return (len(value),) if isinstance(value, list) else ()


def _elementwise(fn, a, b):
    if isinstance(a, list) and isinstance(b, list):
        return [fn(x, y) for x, y in zip(a, b, strict=True)]
    if isinstance(a, list):
        return [fn(x, b) for x in a]
    if isinstance(b, list):
        return [fn(a, y) for y in b]
    return fn(a, b)


def _broadcast(op, a, b):
    shape_a = a.shape if isinstance(a, KerasTensor) else _shape_of(a)
    shape_b = b.shape if isinstance(b, KerasTensor) else _shape_of(b)
    if shape_a and shape_b and shape_a != shape_b:
        raise ValueError(
            f"{op.name} needs operands of equal shapes (or a scalar). Received shapes "
            f"{shape_a} and {shape_b}."
        )
    dtype = a.dtype if isinstance(a, KerasTensor) else b.dtype
    return KerasTensor(shape_a or shape_b, dtype)


class Counting(Operation):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.calls = 0
        self.spec_calls = 0


class Add(Counting):
    def call(self, a, b):
        self.calls += 1
        return _elementwise(lambda x, y: x + y, a, b)

    def compute_output_spec(self, a, b):
        self.spec_calls += 1
        return _broadcast(self, a, b)


class Multiply(Counting):
    def call(self, a, b):
        self.calls += 1
        return _elementwise(lambda x, y: x * y, a, b)

    def compute_output_spec(self, a, b):
        self.spec_calls += 1
        return _broadcast(self, a, b)


class Scale(Counting):
    """Multiplies by a constant `factor` (the operation's own state)."""

    def __init__(self, factor=2.0, name=None):
        super().__init__(name=name)
        self.factor = factor

    def call(self, x):
        self.calls += 1
        return _elementwise(lambda v, f: v * f, x, self.factor)

    def compute_output_spec(self, x):
        self.spec_calls += 1
        return KerasTensor(x.shape, x.dtype)


class Offset(Counting):
    """``x + bias * sign``: tensors and constants mixed, with a keyword argument."""

    def call(self, x, bias=0.0, negate=False):
        self.calls += 1
        return _elementwise(lambda v, b: v + (-b if negate else b), x, bias)

    def compute_output_spec(self, x, bias=0.0, negate=False):
        self.spec_calls += 1
        return _broadcast(self, x, bias)


class Split(Counting):
    """Two outputs: the first and the second half of a list."""

    def call(self, x):
        self.calls += 1
        half = len(x) // 2
        return x[:half], x[half:]

    def compute_output_spec(self, x):
        self.spec_calls += 1
        n = x.shape[0]
        half = None if n is None else n // 2
        rest = None if n is None else n - n // 2
        return KerasTensor((half,), x.dtype), KerasTensor((rest,), x.dtype)


class Concat(Counting):
    """Concatenates a list of lists: its tensors come nested in one argument."""

    def call(self, values):
        self.calls += 1
        return [v for value in values for v in value]

    def compute_output_spec(self, values):
        self.spec_calls += 1
        dims = [v.shape[0] if isinstance(v, KerasTensor) else len(v) for v in values]
        total = None if None in dims else sum(dims)
        dtype = next(v.dtype for v in values if isinstance(v, KerasTensor))
        return KerasTensor((total,), dtype)


class Take(Counting):
    """``x[index]`` for a slice `index`: a constant that JSON cannot hold as is."""

    def call(self, x, index):
        self.calls += 1
        return x[index]

    def compute_output_spec(self, x, index):
        self.spec_calls += 1
        n = x.shape[0]
        return KerasTensor((None if n is None else len(range(n)[index]),), x.dtype)


class Source(Operation):
    """An entry operation (like an input layer): one node, no tensor inputs."""

    def __init__(self, shape, dtype="float32", name=None):
        super().__init__(name=name)
        self.shape, self.dtype = tuple(shape), dtype
        Node(self, outputs=KerasTensor(shape, dtype, name=self.name))

    def get_config(self):
        return {**super().get_config(), "shape": list(self.shape), "dtype": self.dtype}


@pytest.fixture
def ops():
    return types.SimpleNamespace(
        Add=Add,
        Multiply=Multiply,
        Scale=Scale,
        Offset=Offset,
        Split=Split,
        Concat=Concat,
        Source=Source,
        Take=Take,
        all_classes={
            c.__name__: c for c in (Add, Multiply, Scale, Offset, Split, Concat, Source, Take)
        },
    )
