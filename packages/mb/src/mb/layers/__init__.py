"""``mb.layers``: Keras 3's ``keras.layers``."""

from mb_layers import Input as Input
from mb_layers import InputLayer as InputLayer
from mb_layers import InputSpec as InputSpec
from mb_layers import Layer as Layer
from mb_layers.layers import *  # noqa: F403


def __getattr__(name):
    # TFSMLayer lives in mb_export (it loads SavedModels); imported on first use.
    if name == "TFSMLayer":
        from mb_export import TFSMLayer

        return TFSMLayer
    raise AttributeError(f"module 'mb.layers' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), "TFSMLayer"})
