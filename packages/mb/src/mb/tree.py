"""``mb.tree``: Keras 3's ``keras.tree`` (nested structures)."""

from mb_graph.tree import *  # noqa: F403
from mb_graph.tree import __all__ as __all__
