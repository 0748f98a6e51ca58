"""A minimal third-party mb backend, written from ``mb_ops.contract`` alone.

It implements a handful of ops over NumPy (``core``'s conversions, ``numpy.add``,
``multiply``, ``sum``, ``nn.relu``) and registers itself under the ``mb.backends``
entry points (see ``entry_points.txt`` in the test that installs it). It imports
nothing from mb's own backends.
"""
