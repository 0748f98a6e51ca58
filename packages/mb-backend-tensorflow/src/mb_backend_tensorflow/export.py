"""The ``export`` contract module of the TensorFlow backend.

SavedModel export belongs in mb-export (built on this backend's ``tf.function``
and variables); the backend itself exports nothing yet.
"""

UNSUPPORTED = {
    "export": "not written yet; SavedModel export will live in mb-export",
}


def export(*args, **kwargs):
    raise NotImplementedError(
        "export is not supported on the tensorflow backend yet: SavedModel export will live "
        "in mb-export."
    )
