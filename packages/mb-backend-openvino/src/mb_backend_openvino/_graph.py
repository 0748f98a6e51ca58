"""Helpers for builders: operands, promotion, and small OpenVINO node recipes.

Builders receive ``openvino.Output`` nodes; these helpers make constants of a
node's element type, convert between mb dtypes, and read ranks and dims (as
constants when static, else through ``ShapeOf``).
"""

import numpy as np
import openvino as ov
import openvino.opset16 as ov_opset

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._engine import run
from mb_backend_openvino._tensor import OpenVINOTensor

opset = ov_opset

# ----- operands ------------------------------------------------------------------------


def operand(x, dtype):
    """``x`` as a tensor; Python scalars become 0-d arrays of ``dtype``."""
    kind = type(x)
    if kind is OpenVINOTensor:
        return x
    if kind is int or kind is float or kind is bool:
        return OpenVINOTensor(np.asarray(x, dtype=_dtypes.to_numpy_dtype(dtype)))
    return to_tensor(x)


def kind_of(x):
    """What ``x`` brings to promotion: a dtype name, or the weak Python type."""
    kind = type(x)
    if kind is OpenVINOTensor:
        return x.dtype
    if kind is int or kind is float:
        return kind
    if kind is bool:
        return "bool"
    return to_tensor(x).dtype


def promote(*xs, extra=()):
    """Operands as tensors and their common mb dtype (Python scalars are weak).

    The tensors keep their own dtypes; builders convert with `cv`, so the cast
    happens inside the op's compiled model.
    """
    tensors = [x if type(x) is OpenVINOTensor else None for x in xs]
    kinds = [t.dtype if t is not None else kind_of(x) for t, x in zip(tensors, xs, strict=True)]
    dtype = _dtypes.fast_result_type(*kinds, *extra)
    return [
        t if t is not None else operand(x, dtype) for t, x in zip(tensors, xs, strict=True)
    ], dtype


# ----- nodes ---------------------------------------------------------------------------


def cv(node, dtype):
    """``node`` converted to the mb ``dtype`` (no node when it already is)."""
    target = _dtypes.ov_type(dtype)
    if node.get_element_type() == target:
        return node
    if target == ov.Type.boolean:
        return ov_opset.not_equal(node, ov_opset.constant(0, node.get_element_type())).output(0)
    return ov_opset.convert(node, target).output(0)


def cv_like(node, like):
    """``node`` converted to the element type of ``like``."""
    target = like.get_element_type()
    if node.get_element_type() == target:
        return node
    return ov_opset.convert(node, target).output(0)


def dtype_of(node):
    return _dtypes.name_of_ov(node.get_element_type())


def const(value, dtype):
    """A constant of the mb ``dtype`` (bfloat16 made from float32)."""
    if dtype == "bfloat16":
        node = ov_opset.constant(np.asarray(value, dtype="float32"))
        return ov_opset.convert(node, ov.Type.bf16).output(0)
    return ov_opset.constant(np.asarray(value, dtype=_dtypes.to_numpy_dtype(dtype))).output(0)


def const_like(value, node):
    """A constant with ``node``'s element type."""
    return const(value, dtype_of(node))


def i64(values):
    """An int64 constant (axes, shapes, indices for shape-manipulating ops)."""
    return ov_opset.constant(np.asarray(values, dtype=np.int64)).output(0)


def i32(values):
    return ov_opset.constant(np.asarray(values, dtype=np.int32)).output(0)


def rank(node):
    return node.get_partial_shape().rank.get_length()


def shape_of(node):
    """The runtime shape of ``node`` as an int64 1-d node."""
    return ov_opset.shape_of(node, ov.Type.i64).output(0)


def dim(node, axis):
    """The runtime size of ``axis`` of ``node`` as an int64 1-element node."""
    return ov_opset.gather(shape_of(node), i64([axis]), i64(0)).output(0)


def scalar_dim(node, axis):
    """The runtime size of ``axis`` as an int64 scalar node."""
    return ov_opset.gather(shape_of(node), i64(axis), i64(0)).output(0)


def static_shape(node):
    """The static shape as a tuple (None for dynamic dims)."""
    shape = node.get_partial_shape()
    return tuple(d.get_length() if d.is_static else None for d in shape)


def reshape(node, shape):
    """Reshape to ``shape`` (a list with at most one -1, or a shape node)."""
    target = shape if isinstance(shape, ov.Output) else i64(list(shape))
    return ov_opset.reshape(node, target, special_zero=False).output(0)


def unsqueeze(node, axes):
    return ov_opset.unsqueeze(node, i64(axes)).output(0)


def squeeze(node, axes):
    return ov_opset.squeeze(node, i64(axes)).output(0)


def transpose(node, perm):
    return ov_opset.transpose(node, i64(list(perm))).output(0)


def concat(nodes, axis):
    return ov_opset.concat(list(nodes), axis).output(0)


def abs_node(node):
    """``|node|`` as ``max(node, -node)``.

    OpenVINO 2026.4's constant folding drops ``Abs`` applied to a folded
    expression (``Abs(Subtract(c1, c2))`` folds to the difference), which would
    give wrong values in parameterless models and traced graphs.
    """
    if node.get_element_type() == ov.Type.boolean:
        return node
    return ov_opset.maximum(node, ov_opset.negative(node)).output(0)


def select(cond, a, b):
    return ov_opset.select(cond, a, b).output(0)


def where_zero(cond, node):
    """``node`` with zeros where ``cond`` is true."""
    return select(cond, const_like(0, node), node)


def canonical_axis(axis, ndim, op_name="op"):
    axis = int(axis)
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(
            f"{op_name}: axis {axis} is out of bounds for a tensor of rank {ndim}. "
            f"Expected an axis in [{-ndim}, {max(ndim, 1)})."
        )
    return axis % ndim if ndim else 0


def canonical_axes(axis, ndim, op_name="op"):
    """``axis`` (None, an int or a sequence) as a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int | np.integer):
        return (canonical_axis(axis, ndim, op_name),)
    out = sorted({canonical_axis(a, ndim, op_name) for a in axis})
    return tuple(out)


__all__ = ["opset", "run"]
