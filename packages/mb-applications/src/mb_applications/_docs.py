"""The docstrings of the model functions, written once per family."""

_COMMON_ARGS = """\
        include_top: whether to include the classifier at the top of the network.
        weights: ``None`` (random initialization), ``"imagenet"`` (the published
            ImageNet weights, downloaded once into ``~/.keras/models``) or the path of
            a weights file (``.weights.h5``, ``.keras``, or a Keras 2 ``.h5``).
        input_tensor: a symbolic tensor (output of ``mb.layers.Input``) to use as
            the image input.
        input_shape: the image shape without the batch axis, e.g. ``{shape}``
            (channels first under ``channels_first``); with ``include_top`` and
            ImageNet weights it must be the default size. Sides of at least
            {min_size} pixels.
        pooling: with ``include_top=False``: ``None`` (the 4D output of the last
            block), ``"avg"`` or ``"max"`` (global pooling, a 2D output).
        classes: the number of classes, with ``include_top`` and without ImageNet
            weights.
        classifier_activation: the activation of the top layer (``None`` for
            logits); with pretrained weights only ``None`` or ``"softmax"``.
        name: the name of the model.{extra}"""

_TEMPLATE = """Instantiates the {title} architecture.

    Reference: {paper}.

    The layers, their names and their variables are Keras's, so weight files
    written for Keras load unchanged. Inputs are expected as produced by
    ``{preprocessing}``{note}.

    Args:
{args}

    Returns:
        A functional ``Model``.
{example}"""

_EXAMPLE = """
    Example:

    >>> import mb_applications
    >>> model = mb_applications.{function}(weights=None, input_shape={shape}, classes=10)
    >>> model.output_shape
    (None, 10)
"""


def document(
    functions, paper, default_size, min_size, preprocessing, example=None, extra="", note=""
):
    """Gives each function of a family its docstring; `example` names the one with an example."""
    side = max(min_size, 32)
    shape = f"({default_size}, {default_size}, 3)"
    for function in functions:
        variant = function.__name__
        doc = _TEMPLATE.format(
            title=variant,
            paper=paper,
            preprocessing=preprocessing,
            note=note,
            args=_COMMON_ARGS.format(shape=shape, min_size=min_size, extra=extra),
            example=(
                _EXAMPLE.format(function=variant, shape=f"({side}, {side}, 3)")
                if variant == example
                else ""
            ),
        )
        function.__doc__ = doc
