"""Preprocessing layers inside a ``tf.data`` pipeline, on every backend.

Keras 3 users write ``dataset.map(lambda x, y: (augment(x), y))`` whatever their
backend. ``tf.data`` traces the mapped function into a TensorFlow graph, where
tensors have no values. On the tensorflow backend mb's layers run in that graph
as they are; on the others the call goes to the host through
``tf.numpy_function``: the layer runs eagerly on the active backend, batch by
batch, and its outputs come back as TensorFlow tensors with the static shapes
and dtypes of ``compute_output_spec``.

``layer.backend`` is mb_ops's `DynamicBackend` (Keras's): the ops a preprocessing
layer computes with, by default those of the active backend.
"""

import numpy as np

from mb_graph import KerasTensor, tree
from mb_layers._ops import ops
from mb_ops import config


def _is_traced_tf_tensor(x):
    # Recognized by type, so TensorFlow is imported only when its tensors are here; a
    # traced (graph) tensor has no value (`numpy`), an eager one does.
    return type(x).__module__.startswith("tensorflow") and not hasattr(x, "numpy")


def traced_by_tf(args, on_tensorflow=False):
    """Whether the call's first input is a tensor that TensorFlow is tracing (the data
    of a ``dataset.map``, or a ``tf.function``) while another backend is active; on
    the tensorflow backend too if `on_tensorflow` (layers that compute on the host)."""
    if not args:
        return False
    x = args[0]
    while isinstance(x, (dict, list, tuple)) and x:
        x = next(iter(x.values())) if isinstance(x, dict) else x[0]
    if not _is_traced_tf_tensor(x):
        return False
    return on_tensorflow or config.backend() != "tensorflow"


def _to_tf_value(x, dtype):
    array = np.asarray(ops.convert_to_numpy(x))
    if dtype == "string":
        if array.dtype.kind == "U" or array.dtype == object:
            return np.vectorize(
                lambda s: s.encode("utf-8") if isinstance(s, str) else s, otypes=[object]
            )(array)
        return array
    return array.astype(dtype)


def call_in_tf_graph(layer, call, args, kwargs):
    """Runs `call(*args, **kwargs)` (the layer's eager call) on the host for tf.data.

    The traced TensorFlow tensors among the arguments go through
    ``tf.numpy_function``; everything else is passed as it is. The outputs have the
    structure, dtypes and static shapes of ``layer.compute_output_spec``.
    """
    import tensorflow as tf

    flat = tree.flatten((args, kwargs))
    traced = [i for i, x in enumerate(flat) if _is_traced_tf_tensor(x)]
    symbolic = list(flat)
    for i in traced:
        shape = flat[i].shape
        if shape.rank is None:
            raise ValueError(
                f"{layer.name} received a tensor of unknown rank from a tf.data pipeline; "
                "it needs the rank to know its outputs. Give the dataset's elements a "
                "shape (e.g. `dataset.map(lambda x: tf.ensure_shape(x, (None, 32, 32, 3)))`)."
            )
        dtype = "string" if flat[i].dtype == tf.string else flat[i].dtype.name
        symbolic[i] = KerasTensor(tuple(shape.as_list()), dtype=dtype)
    spec_args, spec_kwargs = tree.pack_sequence_as((args, kwargs), symbolic)
    spec_kwargs = {k: v for k, v in spec_kwargs.items() if k != "training"}
    spec = layer.compute_output_spec(*spec_args, **spec_kwargs)
    specs = tree.flatten(spec)
    dtypes = [s.dtype for s in specs]

    def run(*arrays):
        values = list(flat)
        for i, array in zip(traced, arrays, strict=True):
            values[i] = np.asarray(array)  # strings arrive as bytes
        call_args, call_kwargs = tree.pack_sequence_as((args, kwargs), values)
        outputs = tree.flatten(call(*call_args, **call_kwargs))
        return [_to_tf_value(x, d) for x, d in zip(outputs, dtypes, strict=True)]

    results = tf.numpy_function(
        run,
        [flat[i] for i in traced],
        [tf.string if d == "string" else tf.as_dtype(d) for d in dtypes],
        stateful=True,  # random layers draw anew for every batch
        name=layer.name,
    )
    for result, s in zip(results, specs, strict=True):
        result.set_shape(s.shape)
    return tree.pack_sequence_as(spec, list(results))
