"""The docstring sections the image augmentation layers share, written once.

Most augmentation layers document the same arguments after their own (`data_format`,
`seed`, `**kwargs`), the same call arguments and the same return value; the text
differs only with what the layer transforms: the geometry (boxes move with the
images), the pixel values, or the colours of RGB images. The class decorator
`image_doc` puts them in a docstring in place of its ``{image arguments}`` line.
"""

_MARKER = "        {image arguments}\n"

_KWARGS = {
    "geometry": """``bounding_box_format`` (needed for a dict with boxes, e.g.
            ``"xyxy"``) and the base layer's keyword arguments (``name``, ``dtype``).""",
    "with data_format": """``bounding_box_format`` and the base layer's keyword
            arguments (``name``, ``dtype``).""",
    "without data_format": """``data_format``, ``bounding_box_format`` and the base layer's
            keyword arguments (``name``, ``dtype``).""",
}

_DATA = {
    "geometry": """images ``(batch, height, width, channels)`` (``channels_first``:
            ``(batch, channels, height, width)``), one image, or a dict with
            ``"images"`` and any of ``"labels"``, ``"bounding_boxes"`` and
            ``"segmentation_masks"``.""",
    "pixels": """images ``(batch, height, width, channels)``, one image, or a
            dict with ``"images"`` (and ``"labels"``, ``"bounding_boxes"``,
            ``"segmentation_masks"``, which pass through).""",
    "rgb": """RGB images ``(batch, height, width, 3)``, one image, or a dict
            with ``"images"`` (and ``"labels"``, ``"bounding_boxes"``,
            ``"segmentation_masks"``, which pass through).""",
}

_TRAINING = {
    "geometry": "False returns the data unchanged (images in the compute dtype).",
    "pixels": "False returns the images unchanged (in the compute dtype).",
}


def image_sections(data, seed=True, data_format=True, value_range=False):
    """The shared sections: `data` is what the layer transforms (``"geometry"``,
    ``"pixels"`` or ``"rgb"``); `seed`, `data_format` and `value_range` (a clipping
    range of pixel values) say whether the layer takes them as named arguments."""
    if data == "geometry":
        kwargs = _KWARGS["geometry"]
    else:
        kwargs = _KWARGS["with data_format" if data_format else "without data_format"]
    lines = []
    if value_range:
        lines.append(
            "        value_range: the ``(low, high)`` range of pixel values (outputs are\n"
            "            clipped to it).\n"
        )
    if data_format:
        lines.append('        data_format: ``"channels_last"`` or ``"channels_first"``.\n')
    if seed:
        lines.append("        seed: an int for reproducible draws.\n")
    lines += [
        f"        **kwargs: {kwargs}\n",
        "\n    Call arguments:\n",
        f"        data: {_DATA[data]}\n",
        f"        training: {_TRAINING['geometry' if data == 'geometry' else 'pixels']}\n",
        "\n    Returns:\n",
        "        The same structure, the images of the same shape.\n",
    ]
    return "".join(lines)


def image_doc(data, seed=True, data_format=True, value_range=False):
    """A class decorator: the docstring's ``{image arguments}`` line becomes
    `image_sections` (same arguments)."""

    def decorate(cls):
        if cls.__doc__.count(_MARKER) != 1:
            raise ValueError(f"{cls.__name__}'s docstring needs one `{{image arguments}}` line.")
        cls.__doc__ = cls.__doc__.replace(
            _MARKER, image_sections(data, seed, data_format, value_range)
        )
        return cls

    return decorate
