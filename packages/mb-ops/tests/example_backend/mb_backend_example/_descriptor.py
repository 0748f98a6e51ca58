"""What the backend registers under the ``mb.backends`` entry-point group."""

from mb_ops.backends import BackendDescriptor

DESCRIPTOR = BackendDescriptor(
    name="example", module="mb_backend_example", engine=None, engine_distribution=None
)
