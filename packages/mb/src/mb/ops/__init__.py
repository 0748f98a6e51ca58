"""``mb.ops``: Keras 3's ``keras.ops`` — every op, with the ``numpy``, ``nn``, ``linalg``
and ``image`` submodules."""

from mb_ops.ops import *  # noqa: F403  (the namespace is mb_ops.ops, name for name)
from mb_ops.ops import __all__ as __all__
