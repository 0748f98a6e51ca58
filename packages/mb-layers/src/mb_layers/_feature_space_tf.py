"""`FeatureSpace` inside a ``tf.data`` pipeline: ``dataset.map(feature_space)``.

``tf.data`` traces the mapped function into a graph, where tensors have no
values; mb's preprocessing runs on the host, so the call goes through
``tf.numpy_function`` and comes back as TensorFlow tensors with the static
shapes and dtypes of `FeatureSpace.get_encoded_features` (as Keras's does).
Imported only when a FeatureSpace is called on traced TensorFlow tensors.
"""

import numpy as np
import tensorflow as tf

from mb_layers._ops import ops


def call_in_graph(feature_space, data):
    """Runs `feature_space` on the traced dict `data` and returns TF tensors."""
    names = list(feature_space.features)
    tensors = [tf.convert_to_tensor(data[name]) for name in names]
    rank = tensors[0].shape.rank
    unbatched = rank == 0
    batch = None if unbatched else tensors[0].shape[0]
    specs = feature_space._output_specs()
    keys = list(specs)
    dtypes = [np.dtype(specs[k][1]) for k in keys]

    def run(*arrays):
        out = feature_space._call_eager(dict(zip(names, arrays, strict=True)))
        flat = [out] if keys == [None] else [out[k] for k in keys]
        return [
            np.asarray(ops.convert_to_numpy(x)).astype(d) for x, d in zip(flat, dtypes, strict=True)
        ]

    results = tf.numpy_function(
        run, tensors, [tf.as_dtype(d) for d in dtypes], stateful=False, name="feature_space"
    )
    for key, result in zip(keys, results, strict=True):
        shape = specs[key][0][1:]
        if unbatched:
            # Keras drops the batch of one it adds to single values (concat: always; dict:
            # outputs of shape (1, n)).
            if key is not None and len(shape) != 1:
                shape = (1, *shape)
        else:
            shape = (batch, *shape)
        result.set_shape(shape)
    if keys == [None]:
        return results[0]
    return dict(zip(keys, results, strict=True))
