"""The ``export`` contract module of the JAX backend: a model's forward pass as TF.

``mb_export`` hands over the forward pass as a pure function of explicit values,
``fn(variable_values, *flat_inputs)``, with the variables it reads and a spec
(``.name``, ``.shape`` with ``None`` for dynamic axes, ``.dtype``) per input.
``to_tf_function`` converts it with ``jax2tf`` (the StableHLO of the traced
function, embedded in a TensorFlow graph), so ``mb_export`` writes a SavedModel
or a LiteRT file from it; tensorflow is imported only when this is called.

Formats that need the graph as plain TF ops (ONNX through tf2onnx, OpenVINO
through its TF frontend) cannot read StableHLO: ``TF_GRAPH_IS_PORTABLE`` says so,
and ``mb_export`` takes another route for those.

Example:
    >>> import numpy as np
    >>> from types import SimpleNamespace as Spec
    >>> from mb_backend_jax import export
    >>> weight = np.ones((3, 2), "float32")
    >>> fn = lambda values, x: x @ values[0]
    >>> tf_vars = export.to_tf_variables([Spec(value=weight, trainable=True, path="w")])
    >>> serve = export.to_tf_function(
    ...     fn, tf_vars, [Spec(name="x", shape=(None, 3), dtype="float32")]
    ... )
    >>> serve(np.ones((4, 3), "float32")).shape.as_list()
    [4, 2]
"""

import jax
import numpy as np

from mb_ops import numpy_shaped

TF_GRAPH_IS_PORTABLE = False
"""The TF graph embeds StableHLO (``XlaCallModule``): TF and LiteRT run it; tf2onnx
and OpenVINO's TF frontend do not."""

UNSUPPORTED = {
    "to_exported_program": "a torch ExportedProgram comes from the torch backend",
    "to_onnx": "JAX has no ONNX exporter in mb's dependencies (jax2onnx pulls flax, orbax "
    "and more); mb_export converts on the torch backend instead",
}


def _polymorphic_shape(spec, index):
    dims = []
    for axis, size in enumerate(spec.shape):
        if size is None:
            dims.append("b" if axis == 0 else f"d{index}_{axis}")
        else:
            dims.append(str(int(size)))
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _tf_variable(tf, variable):
    name = str(getattr(variable, "path", None) or getattr(variable, "name", "variable"))
    return tf.Variable(
        np.asarray(variable.value),
        trainable=bool(getattr(variable, "trainable", True)),
        name=name.replace("/", "_").replace(":", "_"),
    )


def to_tf_variables(variables):
    """A new ``tf.Variable`` holding each variable's current value (same order).

    Args:
        variables: objects with ``.value`` (the current array), ``.trainable``
            and ``.path``.
    """
    import tensorflow as tf

    return [_tf_variable(tf, v) for v in variables]


_map_specs = numpy_shaped.map_specs


def to_tf_function(fn, tf_variables, arguments, **kwargs):
    """Converts ``fn(values, *inputs)`` into a ``tf.function`` with a fixed signature.

    Args:
        fn: a pure JAX function of the variable values (a list, in the order of
            `tf_variables`) and the flat inputs; returns a pytree of arrays.
        tf_variables: from `to_tf_variables`; the function reads them.
        arguments: the positional arguments, each a spec (``.name``, ``.shape``,
            ``.dtype``) or a list/tuple/dict of specs; ``None`` sizes are symbolic
            (axis 0 shares one symbol across inputs).
        **kwargs: ``jax2tf_kwargs`` (a dict passed to ``jax2tf.convert``) and
            ``is_static`` (accepted for Keras compatibility).

    Returns:
        A ``tf.function`` taking the arguments positionally.
    """
    import tensorflow as tf
    from jax.experimental import jax2tf

    kwargs.pop("is_static", None)
    options = dict(kwargs.pop("jax2tf_kwargs", None) or {})
    if kwargs:
        raise TypeError(f"Unexpected export arguments on the jax backend: {sorted(kwargs)}.")
    options.pop("enable_xla", None)
    options.pop("native_serialization", None)
    counter = iter(range(1 << 30))
    options.setdefault(
        "polymorphic_shapes",
        [None] + [_map_specs(lambda s: _polymorphic_shape(s, next(counter)), a) for a in arguments],
    )
    options.setdefault("with_gradient", False)
    converted = jax2tf.convert(fn, **options)
    signature = [
        _map_specs(lambda s: tf.TensorSpec(tuple(s.shape), tf.as_dtype(s.dtype), name=s.name), a)
        for a in arguments
    ]

    @tf.function(input_signature=signature, autograph=False)
    def serve(*inputs):
        return converted(list(tf_variables), *inputs)

    return serve


_REFUSE = numpy_shaped.refusals_for("jax", UNSUPPORTED)
to_exported_program = _REFUSE["to_exported_program"]
to_onnx = _REFUSE["to_onnx"]


def to_numpy(x):
    """A JAX array (or anything array-like) as a NumPy array."""
    return np.asarray(jax.device_get(x))
