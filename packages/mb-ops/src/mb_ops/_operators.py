"""Python's binary operators on a tensor-like class, as ops: the table written once.

`Variable` and the openvino backend's ``OpenVINOTensor`` both answer ``a + b``,
``a @ b``, ``a < b`` ... by calling the same-named op of an op namespace; they
differ only in where that namespace is found and in what ``&``, ``|`` and ``^``
mean (logical for a variable, as in Keras; bitwise on integers for a tensor, as
in NumPy).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

# (dunder stem, op name): each gets ``__stem__`` and the reflected ``__rstem__``.
ARITHMETIC = (
    ("add", "add"),
    ("sub", "subtract"),
    ("mul", "multiply"),
    ("truediv", "true_divide"),
    ("floordiv", "floor_divide"),
    ("mod", "mod"),
    ("pow", "power"),
    ("matmul", "matmul"),
)
LOGICAL = (("and", "logical_and"), ("or", "logical_or"), ("xor", "logical_xor"))
# As NumPy: bitwise on integers, logical on booleans.
BITWISE = (
    ("and", "bitwise_and"),
    ("or", "bitwise_or"),
    ("xor", "bitwise_xor"),
    ("lshift", "left_shift"),
    ("rshift", "right_shift"),
)
# (dunder stem, op name): no reflected form (Python reflects comparisons itself).
COMPARISONS = (
    ("eq", "equal"),
    ("ne", "not_equal"),
    ("lt", "less"),
    ("le", "less_equal"),
    ("gt", "greater"),
    ("ge", "greater_equal"),
)


def binary_operator(ops_of: Callable[[Any], Any], name: str, reflected: bool = False) -> Any:
    """A method ``(self, other)`` calling the op ``name`` of ``ops_of(self)``.

    ``reflected`` swaps the operands (``other - self`` for ``__rsub__``).
    """
    if reflected:

        def method(self: Any, other: Any) -> Any:
            return getattr(ops_of(self), name)(other, self)
    else:

        def method(self: Any, other: Any) -> Any:
            return getattr(ops_of(self), name)(self, other)

    method.__name__ = name
    return method


def add_binary_operators(
    cls: type, ops_of: Callable[[Any], Any], bits: Iterable[tuple[str, str]]
) -> None:
    """Give ``cls`` the `ARITHMETIC` and ``bits`` operators (with reflected forms) and
    the `COMPARISONS`, each calling the same-named op of ``ops_of(self)``.

    >>> class Box:
    ...     def __init__(self, v):
    ...         self.v = v
    >>> class Ops:
    ...     @staticmethod
    ...     def subtract(a, b):
    ...         return getattr(a, "v", a) - getattr(b, "v", b)
    >>> add_binary_operators(Box, lambda self: Ops, LOGICAL)
    >>> Box(5) - 2, 10 - Box(3)
    (3, 7)
    """
    for dunder, op_name in (*ARITHMETIC, *bits):
        setattr(cls, f"__{dunder}__", binary_operator(ops_of, op_name))
        setattr(cls, f"__r{dunder}__", binary_operator(ops_of, op_name, reflected=True))
    for dunder, op_name in COMPARISONS:
        setattr(cls, f"__{dunder}__", binary_operator(ops_of, op_name))
