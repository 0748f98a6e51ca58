"""The argument documentation the convolution layers share, written once.

The 1D, 2D and 3D forms of a convolution document the same arguments, with the rank
in the window's sizes ("an int or 2 ints"); the plain, transposed, depthwise and
separable families share most of them too. `conv_doc` fills a docstring's
``{arguments}`` line with the entries of the named arguments, in their order.
"""

_MARKER = "        {arguments}\n"
_INDENT = "\n            "


def _weights(kinds, what, text):
    names = ", ".join(f"{kind}_{what}" for kind in kinds)
    wrap = _INDENT if len(kinds) > 2 else " "
    return f"{names}:{wrap}{text} of the weights (as in ``Dense``)."


def _entries(rank, weights):
    ints = "an int" if rank == 1 else f"an int or {rank} ints"
    padding = (
        'padding: ``"valid"`` (no padding) or ``"same"`` (the output keeps the input\'s'
        f"{_INDENT}spatial size with strides 1)"
    )
    kinds = (*weights, "bias")
    return {
        "filters": "filters: the number of output channels.",
        "kernel_size": f"kernel_size: {ints}: the size of the window.",
        "strides": f"strides: {ints}: the step of the window.",
        "upsampling_strides": f"strides: {ints}: the step of the window (the upsampling factor).",
        "padding": f"{padding}.",
        "causal_padding": f'{padding}, or ``"causal"`` (left padding only, so{_INDENT}step '
        "``t`` sees no later step).",
        "output_padding": f"output_padding: None or {ints}: extra size added to one side of "
        f"the{_INDENT}output.",
        "depth_multiplier": "depth_multiplier: the number of filters per input channel.",
        "data_format": 'data_format: ``"channels_last"`` (``(batch, *spatial, channels)``) or'
        f'{_INDENT}``"channels_first"``; None: the configured ``image_data_format``.',
        "dilation_rate": f"dilation_rate: {ints}: the spacing of the window's elements.",
        "groups": "groups: split the input channels into this many groups, each convolved"
        f"{_INDENT}with its own filters.",
        "activation": "activation: applied to the output; None: linear.",
        "use_bias": "use_bias: whether to add a learned bias per output channel.",
        "weights": "\n        ".join(
            [
                _weights(kinds, "initializer", "initializers"),
                _weights(kinds, "regularizer", "penalties"),
                "activity_regularizer: a penalty on the output.",
                _weights(kinds, "constraint", "projections"),
            ]
        ),
        "**kwargs": "**kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).",
    }


def conv_doc(doc, rank, arguments, weights=("kernel",), example=""):
    """`doc` for a layer of `rank` spatial dimensions whose weights besides the bias are
    `weights`: its ``{arguments}`` line becomes the entries of `arguments` (names separated
    by spaces), then those every convolution takes (activation to ``**kwargs``), and
    ``{rank}`` and ``{example}`` become `rank` and `example` (a 1D, 2D and 3D layer can
    share one text)."""
    if doc.count(_MARKER) != 1:
        raise ValueError("A convolution's docstring needs one `{arguments}` line.")
    entries = _entries(rank, weights)
    names = (*arguments.split(), "activation", "use_bias", "weights", "**kwargs")
    filled = "".join(f"        {entries[name]}\n" for name in names)
    doc = doc.replace("{rank}", str(rank)).replace("{example}", example)
    return doc.replace(_MARKER, filled)


def family_doc(intro, arguments, weights=("kernel",)):
    """The docstring maker of a family of 1D-3D layers that share their text but the rank
    (``{rank}`` in `intro`, the summary and notes) and the example: it takes the rank
    and the example's lines after the imports."""

    def doc(rank, example):
        text = f"""{intro}

    Args:
        {{arguments}}

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops{{example}}"""
        return conv_doc(text, rank, arguments, weights=weights, example=example)

    return doc
