"""The distribution API's implementation (public names: `mb_ops.distribution`)."""
