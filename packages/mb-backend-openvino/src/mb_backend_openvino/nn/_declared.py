"""What the nn module cannot do on OpenVINO: nothing as a whole.

``ctc_decode(strategy="beam_search")`` and ``moments(synchronized=True)`` raise
``NotImplementedError`` for that option only; the functions work otherwise.
"""

UNSUPPORTED = {
    "polar": "it returns complex numbers and OpenVINO has no complex element type",
}
