"""Capture of an operation's constructor arguments, for an automatic `get_config`."""

import inspect
import weakref

import optree

from mb_graph.tree import NAMESPACE

_PLAIN_TYPES = (str, int, float, bool, type(None))


class _InitSignature:
    __slots__ = ("accepts_name", "positional_only", "self_name", "signature", "varargs", "varkw")

    def __init__(self, cls):
        self.signature = inspect.signature(cls.__init__)
        params = list(self.signature.parameters.values())
        self.self_name = params[0].name if params else None
        self.positional_only = any(p.kind is p.POSITIONAL_ONLY for p in params[1:])
        self.varargs = next((p.name for p in params if p.kind is p.VAR_POSITIONAL), None)
        self.varkw = next((p.name for p in params if p.kind is p.VAR_KEYWORD), None)
        self.accepts_name = "name" in self.signature.parameters or self.varkw is not None


_SIGNATURES = weakref.WeakKeyDictionary()


def _init_signature(cls):
    info = _SIGNATURES.get(cls)
    if info is None:
        info = _SIGNATURES[cls] = _InitSignature(cls)
    return info


def init_accepts_name(cls):
    """Whether ``cls.__init__`` takes a ``name`` (or ``**kwargs``)."""
    return _init_signature(cls).accepts_name


def capture_init_arguments(cls, args, kwargs):
    """Returns ``(config, None)`` or ``(None, reason)`` for a call ``cls(*args, **kwargs)``.

    The config holds every constructor argument (defaults included, ``name``
    excluded) when they are all plain Python values, possibly nested in
    lists, tuples and dicts; otherwise the reason says why it could not.
    Arguments named in the class attribute ``_auto_config_skip`` are left out:
    the class writes those into its config itself (a layer's ``dtype`` policy).
    """
    info = _init_signature(cls)
    if info.positional_only:
        return None, "positional-only constructor arguments"
    try:
        bound = info.signature.bind(None, *args, **kwargs)
    except TypeError:
        return None, "arguments that do not match the signature of __init__"
    bound.apply_defaults()
    arguments = dict(bound.arguments)
    arguments.pop(info.self_name, None)
    if info.varkw is not None:
        arguments.update(arguments.pop(info.varkw, {}))
    if info.varargs is not None and arguments.pop(info.varargs, ()):
        return None, "variadic positional arguments (*args)"
    arguments.pop("name", None)
    for key in getattr(cls, "_auto_config_skip", ()):
        arguments.pop(key, None)
    leaves = optree.tree_leaves(arguments, none_is_leaf=True, namespace=NAMESPACE)
    for leaf in leaves:
        if not isinstance(leaf, _PLAIN_TYPES):
            return None, (
                f"an argument that is not a plain Python value: {leaf!r} "
                f"(of type {type(leaf).__name__})"
            )
    # A copy of the containers, so later changes by the caller do not leak in.
    return optree.tree_map(lambda x: x, arguments, none_is_leaf=True, namespace=NAMESPACE), None
