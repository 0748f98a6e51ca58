"""InputSpec: what a layer accepts as input (rank, dtype, known axis sizes)."""

import numbers

from mb_graph import standardize_shape, tree
from mb_layers._call_spec import is_tensor_like
from mb_ops import dtypes


class InputSpec:
    """Constraints on the rank, dtype and shape of one input of a layer.

    Args:
        dtype: expected dtype.
        shape: expected shape (None for any size on an axis).
        ndim: expected rank.
        max_ndim: largest rank accepted.
        min_ndim: smallest rank accepted.
        axes: dict axis -> expected size (negative axes count from the end).
        allow_last_axis_squeeze: accept a rank one lower or higher when the
            extra last axis has size 1.
        name: the input's name (for multi-input layers given dicts).
        optional: whether None is an acceptable input.

    Example:

    >>> spec = InputSpec(min_ndim=2, axes={-1: 4})
    >>> spec
    InputSpec(min_ndim=2, axes={-1: 4})
    """

    def __init__(
        self,
        dtype=None,
        shape=None,
        ndim=None,
        max_ndim=None,
        min_ndim=None,
        axes=None,
        allow_last_axis_squeeze=False,
        name=None,
        optional=False,
    ):
        self.dtype = dtypes.standardize_dtype(dtype) if dtype is not None else None
        if shape is not None:
            self.shape = standardize_shape(shape)
            self.ndim = len(self.shape)
        else:
            self.shape = None
            self.ndim = ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.name = name
        self.optional = optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            self.axes = {int(k): v for k, v in (axes or {}).items()}
        except (ValueError, TypeError):
            raise TypeError(
                f"InputSpec `axes` must be a dict with int keys. Received: axes={axes!r}."
            ) from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            rank = self.ndim if self.ndim is not None else self.max_ndim
            biggest = max(self.axes)
            if biggest >= rank:
                raise ValueError(f"InputSpec axis {biggest} is out of range for rank {rank}.")

    def __repr__(self):
        parts = [
            f"{key}={value!r}"
            for key, value in (
                ("dtype", self.dtype),
                ("shape", self.shape),
                ("ndim", None if self.shape is not None else self.ndim),
                ("max_ndim", self.max_ndim),
                ("min_ndim", self.min_ndim),
                ("axes", self.axes or None),
            )
            if value is not None
        ]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self):
        return {
            "dtype": self.dtype,
            "shape": self.shape,
            "ndim": self.ndim,
            "max_ndim": self.max_ndim,
            "min_ndim": self.min_ndim,
            "axes": self.axes,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _shape_of(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        return None
    # A symbolic size (torch.export's SymInt, jax2tf's dimension variables) counts as
    # unknown: int() on it would pin the traced graph to the example's size.
    # (`type(d) is int` first: an ABC's isinstance costs ~0.2 us a dimension.)
    return tuple(
        d if type(d) is int else int(d) if isinstance(d, numbers.Integral) else None for d in shape
    )


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raises ValueError when `inputs` do not satisfy `input_spec`.

    Args:
        input_spec: an InputSpec, a list of them (one per flattened input),
            or None.
        inputs: the layer's first call argument (possibly nested).
        layer_name: the layer's name, for errors.
    """
    if not input_spec:
        return
    if type(input_spec) is InputSpec and is_tensor_like(inputs):  # one tensor, one spec
        _check_one(input_spec, _shape_of(inputs), 0, layer_name)
        return
    specs = tree.flatten(input_spec)
    if isinstance(inputs, dict):
        names = [spec.name for spec in specs]
        if all(names):
            inputs = [inputs.get(name) for name in names]
    flat = tree.flatten(inputs)
    if len(flat) != len(specs):
        raise ValueError(
            f"Layer '{layer_name}' expects {len(specs)} input(s), but it received "
            f"{len(flat)} input tensors. Inputs received: {inputs!r}"
        )
    for index, (x, spec) in enumerate(zip(flat, specs, strict=True)):
        if spec is None:
            continue
        if x is None:
            if spec.optional:
                continue
            raise ValueError(f"Layer '{layer_name}' input {index} is None and not optional.")
        shape = _shape_of(x)
        if shape is None:
            raise ValueError(
                f"Layer '{layer_name}' input {index} has no shape: {x!r}. Expected a tensor."
            )
        _check_one(spec, shape, index, layer_name)


def _check_one(spec, shape, index, layer_name):
    ndim = len(shape)
    where = f"Input {index} of layer '{layer_name}' is incompatible with the layer:"
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
        raise ValueError(
            f"{where} expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: {shape}"
        )
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise ValueError(
            f"{where} expected max_ndim={spec.max_ndim}, found ndim={ndim}. "
            f"Full shape received: {shape}"
        )
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(
            f"{where} expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
            f"Full shape received: {shape}"
        )
    for axis, value in spec.axes.items():
        if value is None:
            continue
        if axis >= ndim or axis < -ndim:
            raise ValueError(
                f"{where} expected axis {axis} of size {value}, but the input "
                f"has rank {ndim}. Full shape received: {shape}"
            )
        if shape[axis] not in (value, None):
            raise ValueError(
                f"{where} expected axis {axis} of the input shape to have value {value}, "
                f"but received input with shape {shape}"
            )
    if spec.shape is not None:
        expected = spec.shape
        if spec.allow_last_axis_squeeze:
            if shape and shape[-1] == 1:
                shape = shape[:-1]
            if expected and expected[-1] == 1:
                expected = expected[:-1]
        if len(shape) != len(expected):
            raise ValueError(f"{where} expected shape={spec.shape}, found shape={shape}")
        for spec_dim, dim in zip(expected, shape, strict=True):
            if spec_dim is not None and dim is not None and spec_dim != dim:
                raise ValueError(f"{where} expected shape={spec.shape}, found shape={shape}")
