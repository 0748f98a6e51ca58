"""How one call of a layer binds to its ``call`` signature, and the shapes for ``build``."""

import inspect

from mb_graph import is_keras_tensor, tree
from mb_layers import _backend


def is_tensor_like(x):
    """A backend tensor or a KerasTensor."""
    return is_keras_tensor(x) or _backend.is_tensor(x)


def shape_of(x):
    """The shape of a tensor as a tuple of ints and Nones."""
    return tuple(None if d is None else int(d) for d in x.shape)


class CallSpec:
    """The arguments of one call, by name.

    Attributes:
        arguments_dict: every argument by parameter name (defaults included).
        user_arguments_dict: the arguments the caller gave.
        tensor_arguments_dict: arguments that are (nests of) tensors.
        first_arg: the value of the first parameter.
        eager: whether no argument is symbolic.
    """

    def __init__(self, signature, args, kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(
                f"The arguments do not match the layer's call signature {signature}: {error}"
            ) from None
        self.user_arguments_dict = dict(bound.arguments)
        bound.apply_defaults()
        arguments = {}
        for name, value in bound.arguments.items():
            kind = signature.parameters[name].kind
            if kind is inspect.Parameter.VAR_KEYWORD:
                arguments.update(value)
            else:
                arguments[name] = value
        self.arguments_dict = arguments
        self.argument_names = list(signature.parameters)
        self.first_arg = args[0] if args else next(iter(kwargs.values()), None)
        self.tensor_arguments_dict = {}
        symbolic = False
        for name, value in arguments.items():
            leaves = tree.flatten(value)
            if (
                leaves
                and all(x is None or is_tensor_like(x) for x in leaves)
                and any(x is not None for x in leaves)
            ):
                self.tensor_arguments_dict[name] = value
                symbolic = symbolic or any(is_keras_tensor(x) for x in leaves)
        self.eager = not symbolic


def shapes_dict(call_spec):
    """``{"<arg>_shape": shape}`` for each tensor argument (nested shapes kept)."""
    out = {}
    for name, value in call_spec.tensor_arguments_dict.items():
        if name in ("mask",) or name.endswith("_mask"):
            continue
        out[f"{name}_shape"] = tree.map_structure(
            lambda x: None if x is None else shape_of(x), value
        )
    return out


def shapes_for(fn, shapes, layer_name, method):
    """Maps `shapes` onto the parameters of `fn` (``build``/``compute_output_shape``)."""
    params = [
        p
        for p in inspect.signature(fn).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if len(params) == 1:
        name = params[0].name
        if name in shapes:
            return {name: shapes[name]}
        return {name: next(iter(shapes.values()), None)}
    out = {}
    for p in params:
        if p.name in shapes:
            out[p.name] = shapes[p.name]
        elif p.default is p.empty:
            raise ValueError(
                f"Layer '{layer_name}': {method}() has the parameter '{p.name}', which does "
                f"not match any tensor argument of call(). Tensor arguments' shapes: "
                f"{', '.join(shapes) or 'none'}. Name the parameters of {method}() "
                "'<call argument>_shape'."
            )
    return out
