"""The one place mb_export uses an engine's non-public API.

- ``AutoTrackable``: the root object of a SavedModel. ``tf.Module`` would do but
  makes ``variables`` a read-only property, and Keras's archives (which
  `TFSMLayer` and users read back) store ``variables``,
  ``trainable_variables`` and ``non_trainable_variables`` as attributes.
- ``Trackable``: what ``ExportArchive.track`` accepts besides mb layers.
- ``saved_model_pb2``: ``mb inspect`` reads a SavedModel's signatures from its
  protobuf without loading (running) the model.
"""


def auto_trackable(tf):
    """A new empty trackable root (``tf.__internal__.tracking.AutoTrackable``)."""
    return tf.__internal__.tracking.AutoTrackable()


def is_trackable(tf, obj):
    """Whether ``obj`` is a TensorFlow trackable (``tf.__internal__.tracking.Trackable``:
    a ``tf.Module``, a lookup table, an asset) that a SavedModel can store."""
    return isinstance(obj, tf.__internal__.tracking.Trackable)


def saved_model_proto():
    """An empty ``SavedModel`` protobuf message (TensorFlow's generated
    ``tensorflow.core.protobuf.saved_model_pb2``), to parse a ``saved_model.pb`` into."""
    from tensorflow.core.protobuf import saved_model_pb2

    return saved_model_pb2.SavedModel()
