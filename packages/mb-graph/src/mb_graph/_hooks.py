"""The places where an op library (mb_ops) plugs itself into mb_graph.

mb_graph knows nothing of arrays or dtypes tables. An op library registers:

- an operator namespace (`set_operator_hook`): the functions that Python
  operators on symbolic tensors call (``x + 1`` calls ``namespace.add(x, 1)``);
- a dtype standardizer (`set_dtype_standardizer`): turns what users pass as a
  dtype (``None``, ``float``, a NumPy dtype, ...) into a dtype string;
- an output-spec function (`set_output_spec_hook`): what
  `Operation.compute_output_spec` does for operations that do not override
  it (typically: run ``call`` symbolically on the active backend).

Each setter returns the previous value, so a caller can restore it.
"""

_PYTHON_DTYPES = {bool: "bool", int: "int64", float: "float32", str: "string"}


class _Registry:
    operators = None
    dtype_standardizer = None
    output_spec = None


def set_operator_hook(namespace):
    """Registers the namespace whose functions Python operators on KerasTensors call.

    Args:
        namespace: any object (a module, a class) with functions named after
            Keras ops: ``add``, ``subtract``, ``multiply``, ``true_divide``,
            ``floor_divide``, ``mod``, ``power``, ``matmul``, ``negative``,
            ``absolute``, ``not_equal``, ``less``, ``less_equal``, ``greater``,
            ``greater_equal``, ``logical_and``, ``logical_or``,
            ``logical_xor``, ``logical_not``, ``get_item``, ``round``,
            ``reshape``, ``squeeze``. `None` unregisters.

    Returns:
        The namespace registered before (or None).
    """
    previous = _Registry.operators
    _Registry.operators = namespace
    return previous


def get_operator_hook():
    """Returns the registered operator namespace, or None."""
    return _Registry.operators


def set_dtype_standardizer(fn):
    """Registers ``fn(dtype) -> str``, used by KerasTensor for its dtype. Returns the previous."""
    previous = _Registry.dtype_standardizer
    _Registry.dtype_standardizer = fn
    return previous


def set_output_spec_hook(fn):
    """Registers ``fn(call_fn, *args, **kwargs) -> spec``, the default output-spec inference.

    `Operation.compute_output_spec` calls it with the operation's bound
    ``call`` when a subclass does not override `compute_output_spec`.
    Returns the previous function.
    """
    previous = _Registry.output_spec
    _Registry.output_spec = fn
    return previous


def get_output_spec_hook():
    """Returns the registered output-spec function, or None."""
    return _Registry.output_spec


def standardize_dtype(dtype):
    """Returns the dtype as a string, through the registered standardizer if any.

    Without one: ``None`` gives ``"float32"``, Python ``bool``/``int``/``float``
    give ``"bool"``/``"int64"``/``"float32"``, strings are kept, and objects
    with a string ``name`` (NumPy dtypes, ...) give that name.
    """
    if _Registry.dtype_standardizer is not None:
        return _Registry.dtype_standardizer(dtype)
    if dtype is None:
        return "float32"
    if isinstance(dtype, type) and dtype in _PYTHON_DTYPES:
        return _PYTHON_DTYPES[dtype]
    if isinstance(dtype, str):
        return dtype
    name = getattr(dtype, "name", None)
    if isinstance(name, str):
        return name
    raise TypeError(
        f"Cannot read a dtype from {dtype!r} (of type {type(dtype).__name__}). "
        "Pass a dtype string such as 'float32', or import an op library (mb_ops) that "
        "registers a dtype standardizer with mb_graph.set_dtype_standardizer."
    )


def standardize_shape(shape):
    """Returns `shape` as a tuple of non-negative ints and Nones.

    Raises:
        ValueError: for a missing shape, a non-iterable, or a dimension that is
            not an int or None (strings and floats are refused even when they
            would convert), or is negative.
    """
    if shape is None:
        raise ValueError(
            "A shape is required; undefined shapes (None) are not supported. "
            "Use None for each unknown dimension instead, e.g. shape=(None, 3)."
        )
    if not isinstance(shape, tuple):
        if hasattr(shape, "as_list"):  # TensorShape-like objects.
            shape = shape.as_list()
        if not hasattr(shape, "__iter__"):
            raise ValueError(
                f"Cannot convert {shape!r} to a shape: expected a tuple or list of ints "
                "and Nones, e.g. (None, 3)."
            )
    dims = []
    for d in shape:
        if d is None:
            dims.append(None)
            continue
        if isinstance(d, (str, float)):
            raise ValueError(
                f"Cannot convert {tuple(shape)!r} to a shape: dimension {d!r} is a "
                f"{type(d).__name__}; expected an int or None."
            )
        try:
            d = int(d)
        except (TypeError, ValueError):
            raise ValueError(
                f"Cannot convert {tuple(shape)!r} to a shape: dimension {d!r} "
                f"(of type {type(d).__name__}) is not an int or None."
            ) from None
        if d < 0:
            raise ValueError(
                f"Cannot convert {tuple(shape)!r} to a shape: negative dimension {d}. "
                "Use None for an unknown dimension."
            )
        dims.append(d)
    return tuple(dims)
