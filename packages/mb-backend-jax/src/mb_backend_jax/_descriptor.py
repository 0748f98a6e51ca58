"""The entry point of this backend: read by mb_ops without importing the engine."""

from mb_ops.backends import BackendDescriptor

DESCRIPTOR = BackendDescriptor(
    name="jax",
    module="mb_backend_jax",
    engine="jax",
    engine_distribution="jax",
    trainable=True,
    engine_distributions=("jax", "jaxlib"),
)
