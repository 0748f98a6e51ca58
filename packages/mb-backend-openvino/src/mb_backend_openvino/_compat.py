"""The non-public OpenVINO APIs mb uses, in one place, each with its public fallback.

Nothing outside this module imports ``openvino._pyopenvino`` or another private
OpenVINO module (the tooling leg checks it). Each entry is resolved once; where an
OpenVINO release moved it, the public path is used instead (slower, never wrong).
``tests/test_compat.py`` asserts that every fast path is still resolved on the
OpenVINO this workspace pins, so an upgrade that loses one fails CI instead of
slowing every op down silently.
"""

import openvino as ov


def _resolve_start_async():
    try:
        from openvino import _pyopenvino

        start = _pyopenvino.InferRequest.start_async
        if not callable(start) or not issubclass(ov.InferRequest, _pyopenvino.InferRequest):
            return None
        return start
    except Exception:  # any drift in the private API: the public path is used
        return None


_START = _resolve_start_async()
FAST_START = _START is not None
"""Whether `start_async` calls the C++ method directly (else the Python wrapper)."""


def _public_start(request, inputs, userdata):
    request.start_async(inputs or None, userdata)


start_async = _START if FAST_START else _public_start
"""``start_async(request, inputs, userdata)``: start an infer request on the inputs
already bound to it (``inputs`` an empty dict).

The C++ ``InferRequest.start_async`` skips the Python wrapper of ``infer()`` /
``start_async()``, which inspects and converts the inputs and builds a dict of every
output: a third of the cost of a small op."""
