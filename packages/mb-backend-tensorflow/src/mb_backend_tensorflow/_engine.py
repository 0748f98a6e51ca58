"""Imports TensorFlow for this backend, and nothing TensorFlow would import on the side.

``import tensorflow`` imports two other frameworks whenever they are installed: jax
(``tensorflow.lite``'s hooks for converting jax functions) and Keras (an eager import of
``keras.src.optimizers``, which pulls in pandas, scikit-learn and matplotlib through
Keras's own package). Together that is most of the start-up time of the tensorflow
backend, and neither is used by it. mb_ops imports this module before any contract
module, so ``MB_BACKEND=tensorflow`` loads TensorFlow alone.

The two are hidden only while TensorFlow's own ``__init__`` runs and only if this
process has not imported them already: importing them afterwards works as usual. What
TensorFlow then lacks is ``tf.lite``'s ``experimental_from_jax`` converter (mb's jax
exports go through ``jax2tf`` instead) and the eager registration of Keras's optimizers
for ``tf.keras`` SavedModels (``tf.keras`` itself still loads lazily when asked for).
"""

from __future__ import annotations

import sys

# Modules TensorFlow imports at start-up when they are installed, and this backend never uses.
_SIDE_IMPORTS = ("jax", "keras", "tf_keras")


def _import_tensorflow():
    if "tensorflow" in sys.modules:
        return sys.modules["tensorflow"]
    hidden = [name for name in _SIDE_IMPORTS if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # an import of it raises ImportError, which TensorFlow expects
    try:
        import tensorflow
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]
    return tensorflow


tf = _import_tensorflow()
