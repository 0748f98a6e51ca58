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

    def __init__(self, signature, args, kwargs, plan=None):
        if plan is None:
            plan = call_plan(signature)
        bound = _bind_plainly(plan, args, kwargs)
        if bound is not None:
            self.user_arguments_dict, arguments = bound
        else:
            self.user_arguments_dict, arguments = _bind(signature, args, kwargs)
        self.arguments_dict = arguments
        self.argument_names = plan[0]
        self.first_arg = args[0] if args else next(iter(kwargs.values()), None)
        self.tensor_arguments_dict = {}
        symbolic = False
        for name, value in arguments.items():
            if value is None:
                continue
            if is_keras_tensor(value) or _backend.is_tensor(value):  # a leaf: no flatten
                self.tensor_arguments_dict[name] = value
                symbolic = symbolic or is_keras_tensor(value)
                continue
            leaves = tree.flatten(value)
            if (
                leaves
                and all(x is None or is_tensor_like(x) for x in leaves)
                and any(x is not None for x in leaves)
            ):
                self.tensor_arguments_dict[name] = value
                symbolic = symbolic or any(is_keras_tensor(x) for x in leaves)
        self.eager = not symbolic


def _bind(signature, args, kwargs):
    """(user arguments, every argument by name with defaults), through ``inspect``."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as error:
        raise TypeError(
            f"The arguments do not match the layer's call signature {signature}: {error}"
        ) from None
    user = dict(bound.arguments)
    bound.apply_defaults()
    arguments = {}
    for name, value in bound.arguments.items():
        if signature.parameters[name].kind is inspect.Parameter.VAR_KEYWORD:
            arguments.update(value)
        else:
            arguments[name] = value
    return user, arguments


_EMPTY = inspect.Parameter.empty


def call_plan(signature):
    """What binding a call to `signature` needs, worked out once (a layer keeps it):
    the names in order, the positional ones, the defaults, the names a keyword may
    give, whether the signature has no ``*args``, and the name of its ``**kwargs``
    (None without)."""
    names = list(signature.parameters)
    params = signature.parameters.values()
    plain = all(p.kind is not p.VAR_POSITIONAL for p in params)
    var_keyword = next((p.name for p in params if p.kind is p.VAR_KEYWORD), None)
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keyword = frozenset(p.name for p in params if p.kind not in (p.POSITIONAL_ONLY, p.VAR_KEYWORD))
    defaults = {p.name: p.default for p in params}
    return names, positional, defaults, keyword, plain, var_keyword


def _bind_plainly(plan, args, kwargs):
    """What `_bind` returns, without ``inspect``'s general machinery, for a signature with
    no ``*args`` and a call that binds cleanly (most layer calls, `Sequential`'s and
    `Functional`'s ``**kwargs`` included); None for anything else (`_bind` then binds
    it, or raises its error)."""
    names, positional, defaults, keyword, plain, var_keyword = plan
    if not plain or len(args) > len(positional):
        return None
    user = dict(zip(positional, args, strict=False))  # (fewer args than names)
    extra = None  # what ``**kwargs`` takes
    for name, value in kwargs.items():
        if name in user:
            return None
        if name in keyword:
            user[name] = value
        elif var_keyword is not None:
            if extra is None:
                extra = {}
            extra[name] = value
        else:
            return None
    arguments = {}
    for name in names:
        if name in user:
            arguments[name] = user[name]
        elif name == var_keyword:
            if extra:
                arguments.update(extra)
        else:
            default = defaults[name]
            if default is _EMPTY:  # a required argument is missing
                return None
            arguments[name] = default
    if extra:
        user[var_keyword] = extra
    if len(user) > 1 and kwargs:  # in the signature's order, as `inspect` gives them
        user = {name: user[name] for name in names if name in user}
    return user, arguments


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
