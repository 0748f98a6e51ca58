"""``compute_output_spec``: the outputs a function would return, without running it for real."""

import tensorflow as tf

import mb_ops
from mb_backend_tensorflow import _compat
from mb_backend_tensorflow._convert import shape as shape
from mb_backend_tensorflow._dtypes import standardize_dtype
from mb_ops import StatelessScope, SymbolicScope


def compute_output_spec(fn, *args, **kwargs):
    """Trace ``fn`` on placeholders for the ``KerasTensor`` inputs; return output specs."""
    with StatelessScope(), SymbolicScope():
        graph = _compat.func_graph("mb_output_spec")
        with graph.as_default():

            def to_placeholder(x):
                if isinstance(x, mb_ops.KerasTensor):
                    return _compat.placeholder(x.shape, x.dtype)
                return x

            args, kwargs = tf.nest.map_structure(to_placeholder, (args, kwargs))
            out = fn(*args, **kwargs)

            def to_keras_tensor(x):
                if tf.is_tensor(x):
                    shape = None if x.shape.rank is None else tuple(x.shape.as_list())
                    return mb_ops.KerasTensor(shape, standardize_dtype(x.dtype))
                return x

            return tf.nest.map_structure(to_keras_tensor, out)
