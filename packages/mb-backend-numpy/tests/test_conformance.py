"""mb_ops's conformance kit and backend contract check, run on the numpy backend."""

from mb_ops import testing

globals().update(testing.conformance_tests("mb_backend_numpy"))
