"""The ``layer`` contract module of the TensorFlow backend.

``BackendLayer`` is mixed into ``mb_layers.Layer``. It is deliberately empty:
on TensorFlow an mb layer needs nothing from the engine to train. Its variables
are ``tf.Variable``s underneath, ``tf.GradientTape`` watches them when read,
and ``tf.function`` keeps them stateful, so a plain TF training loop works on
``layer.trainable_variables`` directly. Inheriting ``tf.Module`` (Keras's
``tf.__internal__.tracking`` machinery) would add SavedModel tracking but also
TensorFlow's attribute-tracking wrappers around every list and dict a layer
holds; SavedModel export belongs to mb-export instead.
"""

UNSUPPORTED = {}


class BackendLayer:
    """What an mb layer takes from TensorFlow: nothing (see the module docstring)."""
