"""Merging layers: combine a list of tensors into one."""

import string

from mb_layers._layer import Layer
from mb_layers._ops import ops


def _broadcast(shapes):
    rank = max(len(s) for s in shapes)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    out = []
    for dims in zip(*padded, strict=True):
        known = {d for d in dims if d not in (None, 1)}
        if len(known) > 1:
            raise ValueError(
                "Inputs of a merging layer must have broadcast-compatible shapes. "
                f"Received shapes: {[tuple(s) for s in shapes]}."
            )
        if known:
            out.append(known.pop())
        elif None in dims:
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


# The docstrings of the elementwise layers and of the functional forms share their text:
# each is composed here from its summary, its name and the result of its example.
_EXAMPLE_INPUTS = """    >>> import numpy as np
    >>> from mb_ops import ops
    >>> a = np.array([[1.0, 5.0]], "float32")
    >>> b = np.array([[4.0, 2.0]], "float32")"""


def _elementwise_doc(summary, name, result):
    return f"""{summary}

    The inputs are a list of tensors of the same shape (or shapes that broadcast, batch
    axis apart).

    Args:
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

{_EXAMPLE_INPUTS}
    >>> ops.convert_to_numpy({name}()([a, b])).tolist()
    {result}
    """


def _functional_doc(layer, result, arg="", call_args=""):
    """Gives a functional form (``add`` for ``Add``, ...) its docstring; `arg` documents its
    one argument besides `inputs`, `call_args` is what its example passes besides them."""

    def decorate(fn):
        fn.__doc__ = f"""Functional form of `{layer}`: ``{layer}(**kwargs)(inputs)``.

    Args:
        inputs: a list of tensors.{arg and chr(10) + 8 * " " + arg}
        **kwargs: the layer's arguments (``name``, ``dtype``, ...).

    Returns:
        The layer's output.

    Example:

{_EXAMPLE_INPUTS}
    >>> ops.convert_to_numpy({fn.__name__}([a, b]{call_args})).tolist()
    {result}
    """
        return fn

    return decorate


class _Merge(Layer):
    _min_inputs = 2

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def _check_inputs(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < self._min_inputs:
            raise ValueError(
                f"{type(self).__name__} expects a list of at least {self._min_inputs} inputs. "
                f"Received: {inputs!r}"
            )

    def build(self, input_shape):
        self._check_inputs(input_shape)
        batch_sizes = {s[0] for s in input_shape if s[0] is not None}
        if len(batch_sizes) > 1:
            raise ValueError(
                f"{type(self).__name__}: the inputs have different batch sizes "
                f"{sorted(batch_sizes)}. Received shapes: {list(input_shape)}."
            )
        _broadcast([s[1:] for s in input_shape])

    def call(self, inputs):
        self._check_inputs(inputs)
        return self._merge(list(inputs))

    def compute_output_shape(self, input_shape):
        batch = next((s[0] for s in input_shape if s[0] is not None), None)
        return (batch, *_broadcast([s[1:] for s in input_shape]))

    def compute_output_spec(self, inputs):
        return super().compute_output_spec(inputs)

    def compute_mask(self, inputs, mask=None):
        if mask is None or all(m is None for m in mask):
            return None
        masks = [ops.expand_dims(m, axis=0) for m in mask if m is not None]
        return ops.all(ops.concatenate(masks, axis=0), axis=0)

    def get_config(self):
        return super().get_config()


class _Fold(_Merge):
    """Folds its inputs with the binary op ``ops.<_fold_op>`` (``ops.add``, ...), left to right."""

    _fold_op = ""

    def _merge(self, inputs):
        op = getattr(ops, self._fold_op)
        out = inputs[0]
        for x in inputs[1:]:
            out = op(out, x)
        return out


class Add(_Fold):
    __doc__ = _elementwise_doc("Sums its inputs.", "Add", "[[5.0, 7.0]]")

    _fold_op = "add"


class Subtract(_Merge):
    __doc__ = _elementwise_doc(
        "``inputs[0] - inputs[1]`` (exactly two inputs).", "Subtract", "[[-3.0, 3.0]]"
    )

    def _check_inputs(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 2:
            raise ValueError(f"Subtract expects a list of exactly 2 inputs. Received: {inputs!r}")

    def _merge(self, inputs):
        return ops.subtract(inputs[0], inputs[1])


class Multiply(_Fold):
    __doc__ = _elementwise_doc("Multiplies its inputs elementwise.", "Multiply", "[[4.0, 10.0]]")

    _fold_op = "multiply"


class Average(_Fold):
    __doc__ = _elementwise_doc("The elementwise mean of its inputs.", "Average", "[[2.5, 3.5]]")

    _fold_op = "add"

    def _merge(self, inputs):
        return ops.divide(super()._merge(inputs), len(inputs))


class Maximum(_Fold):
    __doc__ = _elementwise_doc("The elementwise maximum of its inputs.", "Maximum", "[[4.0, 5.0]]")

    _fold_op = "maximum"


class Minimum(_Fold):
    __doc__ = _elementwise_doc("The elementwise minimum of its inputs.", "Minimum", "[[1.0, 2.0]]")

    _fold_op = "minimum"


class Concatenate(_Merge):
    """Concatenates its inputs along `axis`.

    The inputs are a list of tensors with the same shape except along `axis`.

    Args:
        axis: the axis to concatenate along.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> a = np.array([[1.0, 5.0]], "float32")
    >>> b = np.array([[4.0]], "float32")
    >>> ops.convert_to_numpy(Concatenate()([a, b])).tolist()
    [[1.0, 5.0, 4.0]]
    >>> ops.shape(Concatenate(axis=0)([a, a]))
    (2, 2)
    """

    _min_inputs = 1

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        self._check_inputs(input_shape)
        self._output_shape(input_shape)

    def _output_shape(self, shapes):
        rank = len(shapes[0])
        if any(len(s) != rank for s in shapes):
            raise ValueError(
                "Concatenate needs inputs of the same rank. Received shapes: "
                f"{[tuple(s) for s in shapes]}."
            )
        axis = self.axis % rank
        out = list(shapes[0])
        for s in shapes[1:]:
            for i, d in enumerate(s):
                if i == axis:
                    out[i] = None if out[i] is None or d is None else out[i] + d
                elif out[i] is None:
                    out[i] = d
                elif d is not None and d != out[i]:
                    raise ValueError(
                        "Concatenate needs inputs whose shapes match except on the "
                        f"concatenation axis {self.axis}. Received shapes: "
                        f"{[tuple(x) for x in shapes]}."
                    )
        return tuple(out)

    def _merge(self, inputs):
        return ops.concatenate(inputs, axis=self.axis)

    def compute_output_shape(self, input_shape):
        return self._output_shape(input_shape)

    def compute_mask(self, inputs, mask=None):
        if mask is None or all(m is None for m in mask):
            return None
        masks = []
        for x, m in zip(inputs, mask, strict=True):
            if m is None:
                masks.append(ops.ones_like(x, dtype="bool"))
            elif len(m.shape) < len(x.shape):
                masks.append(ops.broadcast_to(ops.expand_dims(m, axis=-1), ops.shape(x)))
            else:
                masks.append(m)
        return ops.any(ops.concatenate(masks, axis=self.axis), axis=-1)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Dot(_Merge):
    """Batched dot product of two inputs along `axes` (``(batch, n) . (batch, n) -> (batch, 1)``).

    Args:
        axes: an int, or a pair of ints (one axis per input).
        normalize: L2-normalize along the axes first (cosine proximity).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> a = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
    >>> b = np.array([[5.0, 6.0], [7.0, 8.0]], "float32")
    >>> ops.convert_to_numpy(Dot(axes=1)([a, b])).tolist()
    [[17.0], [53.0]]
    >>> cosine = Dot(axes=1, normalize=True)([a, a])
    >>> ops.convert_to_numpy(cosine).astype("float64").round(4).tolist()
    [[1.0], [1.0]]
    """

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int) and (not isinstance(axes, (list, tuple)) or len(axes) != 2):
            raise ValueError(f"Dot `axes` must be an int or a pair of ints. Received: {axes!r}.")
        self.axes = axes
        self.normalize = normalize
        self.supports_masking = False

    def _check_inputs(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 2:
            raise ValueError(f"Dot expects a list of exactly 2 inputs. Received: {inputs!r}")

    def _axes(self, shapes):
        axes = (self.axes, self.axes) if isinstance(self.axes, int) else tuple(self.axes)
        return tuple(a % len(s) for a, s in zip(axes, shapes, strict=True))

    def _equation(self, shapes):
        a1, a2 = self._axes(shapes)
        letters = iter(string.ascii_letters[1:])
        left = ["a"] + [next(letters) for _ in shapes[0][1:]]
        right = ["a"] + [next(letters) for _ in shapes[1][1:]]
        right[a2] = left[a1]
        out = (
            ["a"]
            + [c for i, c in enumerate(left[1:], 1) if i != a1]
            + [c for i, c in enumerate(right[1:], 1) if i != a2]
        )
        return f"{''.join(left)},{''.join(right)}->{''.join(out)}"

    def build(self, input_shape):
        self._check_inputs(input_shape)
        a1, a2 = self._axes(input_shape)
        d1, d2 = input_shape[0][a1], input_shape[1][a2]
        if d1 is not None and d2 is not None and d1 != d2:
            raise ValueError(
                f"Dot: the axes {self.axes} have different sizes ({d1} and {d2}). "
                f"Received shapes: {[tuple(s) for s in input_shape]}."
            )

    def _merge(self, inputs):
        x1, x2 = inputs
        a1, a2 = self._axes([x1.shape, x2.shape])
        if self.normalize:
            x1 = ops.normalize(x1, axis=a1)
            x2 = ops.normalize(x2, axis=a2)
        out = ops.einsum(self._equation([x1.shape, x2.shape]), x1, x2)
        if len(out.shape) == 1:
            out = ops.expand_dims(out, axis=1)
        return out

    def compute_output_shape(self, input_shape):
        s1, s2 = (tuple(s) for s in input_shape)
        a1, a2 = self._axes([s1, s2])
        out = (
            s1[0],
            *(d for i, d in enumerate(s1) if i not in (0, a1)),
            *(d for i, d in enumerate(s2) if i not in (0, a2)),
        )
        return out if len(out) > 1 else (*out, 1)

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


@_functional_doc("Add", "[[5.0, 7.0]]")
def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


@_functional_doc("Subtract", "[[-3.0, 3.0]]")
def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


@_functional_doc("Multiply", "[[4.0, 10.0]]")
def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


@_functional_doc("Average", "[[2.5, 3.5]]")
def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


@_functional_doc("Maximum", "[[4.0, 5.0]]")
def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


@_functional_doc("Minimum", "[[1.0, 2.0]]")
def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


@_functional_doc(
    "Concatenate", "[[1.0, 5.0, 4.0, 2.0]]", arg="axis: the axis to concatenate along."
)
def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


@_functional_doc(
    "Dot",
    "[[14.0]]",
    arg="axes: an int, or a pair of ints (one axis per input).",
    call_args=", axes=1",
)
def dot(inputs, axes=-1, **kwargs):
    return Dot(axes=axes, **kwargs)(inputs)
