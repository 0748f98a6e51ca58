"""The ``export`` contract module of the TensorFlow backend: the forward pass as a
``tf.function``.

``mb_export`` hands over the forward pass (``fn(*flat_inputs)``, reading the
model's variables, which on this backend are ``tf.Variable``s) and a spec per
input (``.name``, ``.shape`` with ``None`` for dynamic axes, ``.dtype``).
``to_tf_function`` traces it once with that signature; the graph holds plain TF
ops, so SavedModel, LiteRT, ONNX (tf2onnx) and OpenVINO (its TF frontend) all
read it.

Example:
    >>> import tensorflow as tf
    >>> from types import SimpleNamespace as Spec
    >>> from mb_backend_tensorflow import export
    >>> w = tf.Variable(tf.ones((3, 2)))
    >>> tf_vars = export.to_tf_variables([Spec(value=w)])
    >>> serve = export.to_tf_function(
    ...     lambda values, x: tf.matmul(x, tf_vars[0]),
    ...     tf_vars,
    ...     [Spec(name="x", shape=(None, 3), dtype="float32")],
    ... )
    >>> serve(tf.ones((4, 3))).shape.as_list()
    [4, 2]
"""

import tensorflow as tf

from mb_ops import numpy_shaped

TF_GRAPH_IS_PORTABLE = True
"""The traced graph is made of plain TF ops: tf2onnx and OpenVINO's TF frontend read it."""

UNSUPPORTED = {
    "to_exported_program": "a torch ExportedProgram comes from the torch backend",
    "to_onnx": "the tensorflow backend exports ONNX through its tf.function (tf2onnx), "
    "which mb_export runs",
}


def to_tf_variables(variables):
    """The ``tf.Variable`` behind each mb variable (the export reads them in place)."""
    return [v.value for v in variables]


def _tensor_spec(spec):
    return tf.TensorSpec(tuple(spec.shape), tf.as_dtype(spec.dtype), name=spec.name)


_map_specs = numpy_shaped.map_specs


def to_tf_function(fn, tf_variables, arguments, **kwargs):
    """Traces ``fn(None, *inputs)`` as a ``tf.function`` with a fixed signature.

    Args:
        fn: the forward pass; called with ``None`` as the values: on this backend
            the model reads its own ``tf.Variable``s, which the trace captures.
        tf_variables: from `to_tf_variables` (unused: the trace captures them).
        arguments: the positional arguments, each a spec (``.name``, ``.shape``,
            ``.dtype``) or a list/tuple/dict of specs.
        **kwargs: none are accepted here (``jax2tf_kwargs`` and ``is_static``
            belong to the jax backend).

    Returns:
        A ``tf.function`` taking the arguments positionally.
    """
    jax_only = sorted(set(kwargs) & {"jax2tf_kwargs", "is_static"})
    if jax_only:
        raise ValueError(
            f"{jax_only} apply only to the jax backend; the tensorflow backend traces with "
            "tf.function. Remove them."
        )
    if kwargs:
        raise TypeError(f"Unexpected export arguments on the tensorflow backend: {sorted(kwargs)}.")
    del tf_variables
    signature = [_map_specs(_tensor_spec, argument) for argument in arguments]

    @tf.function(input_signature=signature, autograph=False)
    def serve(*inputs):
        return fn(None, *inputs)

    return serve


_REFUSE = numpy_shaped.refusals_for("tensorflow", UNSUPPORTED)
to_exported_program = _REFUSE["to_exported_program"]
to_onnx = _REFUSE["to_onnx"]


def to_numpy(x):
    """A TF tensor (or anything array-like) as a NumPy array."""
    return x.numpy() if hasattr(x, "numpy") else tf.convert_to_tensor(x).numpy()
