"""``mb.legacy`` (``keras.legacy``): what Keras 3 keeps for code written against
tf.keras."""

from mb.legacy import saving as saving

__all__ = ["saving"]
