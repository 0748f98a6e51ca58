"""Input signatures: the shapes, dtypes and names an exported function takes.

An input signature is a list of positional arguments, each a structure (a spec,
or a list/tuple/dict of specs), as in Keras: ``[mb.InputSpec((None, 3))]`` for a
model with one input, ``[{"a": spec_a, "b": spec_b}]`` for dict inputs. A spec
may be an ``mb.InputSpec``, an ``mb.KerasTensor``, a ``tf.TensorSpec``, a
backend tensor or a NumPy array; tensors and symbolic tensors make the batch
axis dynamic, specs keep the shape they give (so a fixed batch stays fixed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mb_graph import tree
from mb_ops import config, dtypes


@dataclass(frozen=True)
class TensorSpec:
    """One flat input or output of an export: ``shape`` has None for dynamic axes."""

    shape: tuple
    dtype: str
    name: str | None = None

    def to_json(self):
        return {"shape": list(self.shape), "dtype": self.dtype, "name": self.name}


def _shape_of(value):
    shape = value.shape
    if hasattr(shape, "as_list"):  # tf.TensorShape
        shape = shape.as_list() if shape.rank is not None else None
    if shape is None:
        return None
    return tuple(None if s is None else int(s) for s in shape)


def _is_spec_object(value):
    return type(value).__name__ in ("InputSpec", "TensorSpec") and hasattr(value, "shape")


def to_spec(value):
    """A `TensorSpec` for one leaf of an input signature.

    Raises:
        TypeError: for a leaf that has no shape and dtype.
        ValueError: for an ``InputSpec`` without a full shape and dtype.
    """
    if isinstance(value, TensorSpec):
        return value
    if not hasattr(value, "shape") or not hasattr(value, "dtype"):
        raise TypeError(
            "Each leaf of `input_signature` must be an mb.InputSpec, an mb.KerasTensor, a "
            f"tf.TensorSpec or a tensor. Received: {value!r} of type {type(value).__name__}."
        )
    shape = _shape_of(value)
    if shape is None or (value.dtype is None and _is_spec_object(value)):
        raise ValueError(
            f"An input spec needs a full shape and a dtype. Received: {value!r}. "
            "Example: mb.InputSpec(shape=(None, 3), dtype='float32')."
        )
    name = getattr(value, "name", None)
    name = name if isinstance(name, str) and name else None
    if not _is_spec_object(value) and shape:  # a tensor: its batch axis becomes dynamic
        shape = (None, *shape[1:])
    return TensorSpec(shape, dtypes.standardize_dtype(value.dtype), name)


def normalize(input_signature):
    """``input_signature`` as a list of positional arguments of `TensorSpec`s."""
    if isinstance(input_signature, dict) or not isinstance(input_signature, (list, tuple)):
        input_signature = [input_signature]
    return [tree.map_structure(to_spec, argument) for argument in input_signature]


def from_model(model):
    """The input signature of a built model: one argument, its inputs' structure.

    Raises:
        ValueError: when the model is not built (and so has no input shapes).
    """
    if not getattr(model, "built", False):
        raise ValueError(
            f"The model '{model.name}' has not been built, so its input shapes are "
            "unknown. Call it on data once, or pass `input_signature`, e.g. "
            "model.export(path, input_signature=[mb.InputSpec(shape=(None, 3), "
            "dtype='float32')])."
        )
    structure = None
    try:
        structure = model.input
    except (AttributeError, ValueError, TypeError):
        structure = None
    if structure is not None:
        return [tree.map_structure(_dynamic_batch, structure)]
    shapes = getattr(model, "_build_shapes_dict", None)
    if not shapes:
        raise ValueError(
            f"The model '{model.name}' was built without recording its input shapes. "
            "Pass `input_signature`, e.g. [mb.InputSpec(shape=(None, 3), dtype='float32')]."
        )
    dtype = getattr(model, "input_dtype", None) or config.floatx()
    return [
        tree.map_shape_structure(lambda s: TensorSpec((None, *tuple(s)[1:]), dtype), shape)
        for shape in shapes.values()
    ]


def _dynamic_batch(value):
    spec = to_spec(value)
    return TensorSpec((None, *spec.shape[1:]), spec.dtype, spec.name) if spec.shape else spec


_NAME = re.compile(r"[^A-Za-z0-9_]")


def flat_specs(arguments, argument_names=None):
    """The flat specs of `arguments`, each with a unique name usable in every format.

    A spec's own name is kept (sanitized). An unnamed leaf is named, when
    `argument_names` (one per argument: the traced function's parameter names) is
    given, after its parameter as ``tf.function`` names it (``inputs``,
    ``inputs_1``, ... — what Keras's ExportArchive endpoints show); otherwise a
    dict leaf is named by its key and the rest ``input_<i>``.
    """
    named = []
    for position, argument in enumerate(arguments):
        paths = tree.flatten_with_path(argument)
        for path, spec in paths:
            name = spec.name
            if name is None and argument_names is not None:
                name = argument_names[position] if position < len(argument_names) else None
                name = name or f"args_{position}"
            elif name is None and path and isinstance(path[-1], str):
                name = path[-1]
            named.append((name, spec))
    seen, out = set(), []
    for index, (name, spec) in enumerate(named):
        name = _NAME.sub("_", name) if name else f"input_{index}"
        if not name[0].isalpha():
            name = f"input_{name}"
        base, n = name, 1
        while name in seen:
            name, n = f"{base}_{n}", n + 1
        seen.add(name)
        out.append(TensorSpec(spec.shape, spec.dtype, name))
    return out


def to_json(arguments):
    """``{"structure": ..., "specs": [...]}``: JSON that `from_json` turns back into `arguments`."""
    flat, counter = [], iter(range(1 << 30))

    def index(spec):
        flat.append(spec.to_json())
        return next(counter)

    structure = [tree.map_structure(index, a) for a in arguments]
    return {"structure": structure, "specs": flat}


def from_json(data):
    specs = [TensorSpec(tuple(s["shape"]), s["dtype"], s["name"]) for s in data["specs"]]
    return [tree.map_structure(lambda i: specs[i], a) for a in data["structure"]]
