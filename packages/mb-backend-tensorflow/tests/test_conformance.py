"""mb_ops' conformance kit and backend contract check, run on the tensorflow backend."""

from mb_ops import testing

globals().update(testing.conformance_tests("mb_backend_tensorflow"))
