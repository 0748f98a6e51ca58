"""The serialisable-argument part of layer configs, written once for every layer.

A layer keeps its initializers, regularizers, constraints and activations as
objects; its config holds them serialised. The kind of each argument follows from
its name, as in Keras (``kernel_initializer``, ``bias_regularizer``,
``recurrent_activation``, ...), so a layer lists names and never repeats the
``serialize`` calls.
"""

import inspect

from mb_layers import activations, constraints, initializers, regularizers

# (name suffix, serialize); an unset regularizer or constraint is written as None.
_KINDS = (
    ("_initializer", initializers.serialize),
    ("_regularizer", regularizers.serialize),
    ("_constraint", constraints.serialize),
    ("activation", activations.serialize),
)

_GETTERS = (
    ("_initializer", initializers),
    ("_regularizer", regularizers),
    ("_constraint", constraints),
)


def _serializer(name):
    for suffix, serialize in _KINDS:
        if name.endswith(suffix):
            return serialize
    raise ValueError(
        f"Cannot tell how to serialise the layer argument {name!r}: its name ends in none "
        f"of {[suffix for suffix, _ in _KINDS]}. Serialise it in the layer's get_config."
    )


def serialized_arguments(layer, *names):
    """``{name: serialised getattr(layer, name)}`` for each name, in the order given.

    Args:
        layer: the layer whose attributes hold the argument objects.
        *names: attribute names ending in ``_initializer``, ``_regularizer``,
            ``_constraint`` or ``activation``.
    """
    config = {}
    for name in names:
        value = getattr(layer, name)
        config[name] = None if value is None else _serializer(name)(value)
    return config


def weight_arguments(layer, *weights, initialized_only=(), activity_regularizer=False):
    """The initializer, regularizer and constraint entries of the named weights.

    Keras's key order: every weight's initializer (then those of
    ``initialized_only``, weights without a regularizer or constraint), then the
    regularizers (and ``activity_regularizer`` when asked for), then the
    constraints. For example ``weight_arguments(dense, "kernel", "bias")`` gives
    ``kernel_initializer``, ``bias_initializer``, ``kernel_regularizer``,
    ``bias_regularizer``, ``kernel_constraint``, ``bias_constraint``.
    """
    names = [f"{weight}_initializer" for weight in (*weights, *initialized_only)]
    names += [f"{weight}_regularizer" for weight in weights]
    if activity_regularizer:
        names.append("activity_regularizer")
    names += [f"{weight}_constraint" for weight in weights]
    return serialized_arguments(layer, *names)


def set_weight_arguments(layer, arguments, *weights):
    """Sets ``layer.<weight>_initializer``, ``_regularizer`` and ``_constraint`` for each
    weight from `arguments` (the ``__init__``'s ``locals()``), each through its module's
    ``get`` (so a name, a config dict or an object is accepted, as in Keras)."""
    for weight in weights:
        for suffix, module in _GETTERS:
            name = f"{weight}{suffix}"
            setattr(layer, name, module.get(arguments[name]))


def add_weight_of(layer, weight, shape, name=None, initializer=None, **options):
    """``layer.add_weight`` for `weight` with the initializer, regularizer and constraint
    the layer keeps as ``<weight>_initializer`` (and so on); `name` defaults to `weight`,
    `initializer` overrides the kept one, other `options` go to ``add_weight``."""
    return layer.add_weight(
        shape=shape,
        name=weight if name is None else name,
        initializer=getattr(layer, f"{weight}_initializer") if initializer is None else initializer,
        regularizer=getattr(layer, f"{weight}_regularizer"),
        constraint=getattr(layer, f"{weight}_constraint"),
        **options,
    )


def base_arguments(base_init, arguments):
    """The arguments of ``base_init`` (a base class's ``__init__``, whose last parameter
    is ``**kwargs``) and the ``**kwargs``, out of a subclass ``__init__``'s ``locals()``.

    Each layer repeats its base's arguments in its own signature, as Keras's do;
    ``super().__init__(**base_arguments(_Base.__init__, locals()))`` hands them on
    without listing them a second time.
    """
    names = list(inspect.signature(base_init).parameters)[1:-1]
    return {**{name: arguments[name] for name in names}, **arguments["kwargs"]}
