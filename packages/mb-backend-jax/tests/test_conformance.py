"""mb_ops's conformance kit and the backend contract check, run on the jax backend."""

from mb_ops import testing

globals().update(testing.conformance_tests("mb_backend_jax"))
