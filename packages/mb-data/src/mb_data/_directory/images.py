"""``image_dataset_from_directory``: a dataset of images from a folder of class folders."""

from __future__ import annotations

import functools
from typing import Any

from mb_data import _tf_pipelines
from mb_data._directory import formats, index
from mb_data._directory.decode import INTERPOLATIONS, load_image_pil, num_channels
from mb_ops import config

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")


def _image_size(image_size: Any) -> tuple[int, int]:
    if isinstance(image_size, int):
        return (image_size, image_size)
    if isinstance(image_size, (list, tuple)) and len(image_size) == 2:
        return tuple(int(v) for v in image_size)
    raise ValueError(
        f"image_size must be (height, width) or one int. Received: image_size={image_size!r}."
    )


def _data_format(data_format: Any) -> str:
    data_format = data_format or config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            "data_format must be 'channels_last' or 'channels_first'. "
            f"Received: data_format={data_format!r}."
        )
    return data_format


def image_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    color_mode="rgb",
    batch_size=32,
    image_size=(256, 256),
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    interpolation="bilinear",
    follow_links=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    data_format=None,
    format="auto",
    verbose=True,
):
    """A dataset of images (and labels) read from a folder, as Keras's.

    With ``labels="inferred"`` each sub-folder of ``directory`` is a class (in
    alphanumeric order, or the order of ``class_names``) and its images, searched
    recursively, belong to it. Files are ``.bmp``, ``.gif`` (first frame),
    ``.jpeg``, ``.jpg`` or ``.png``.

    Args:
        directory: the folder.
        labels: ``"inferred"``, None (images only), or one integer label per file
            in the sorted order of the file paths.
        label_mode: ``"int"`` (int32 ``(batch,)``), ``"categorical"`` (one-hot
            float32), ``"binary"`` (float32 ``(batch, 1)``, two classes) or None.
        class_names: with ``labels="inferred"``, the sub-folders to use, in order.
        color_mode: ``"rgb"``, ``"rgba"`` or ``"grayscale"`` (3, 4 or 1 channels).
        batch_size: samples per batch, or None for single samples.
        image_size: ``(height, width)`` every image is resized to.
        shuffle: shuffle the files (else alphanumeric order).
        seed: the shuffle's seed; needed with ``validation_split``.
        validation_split: fraction of the files kept for validation.
        subset: ``"training"``, ``"validation"`` or ``"both"`` (a pair of datasets).
        interpolation: how images are resized (``"bilinear"``, ``"nearest"``, ...).
        follow_links: visit sub-folders that are symbolic links.
        crop_to_aspect_ratio: crop the largest centered window of the target's aspect
            ratio before resizing, instead of distorting.
        pad_to_aspect_ratio: pad to the target's aspect ratio before resizing.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: mb's
            ``image_data_format``).
        format: ``"tf"`` (a ``tf.data.Dataset``, Keras's default), ``"grain"`` (a
            grain ``IterDataset`` of NumPy batches), ``"pydataset"`` (an mb
            `PyDataset`), or ``"auto"``: ``"tf"`` where TensorFlow is installed,
            else ``"grain"`` where grain is, else ``"pydataset"``. Every format
            trains on every backend.
        verbose: print how many files and classes were found.

    Returns:
        A dataset yielding ``(images, labels)`` (or ``images`` without labels):
        float32 images of shape ``(batch, height, width, channels)``. It has the
        attributes ``class_names`` and ``file_paths``. With ``subset="both"``, a
        pair ``[train, validation]``.

    Example:

    ```python
    train, val = mb.utils.image_dataset_from_directory(
        "flowers", validation_split=0.2, subset="both", seed=1, image_size=(180, 180)
    )
    model.fit(train, validation_data=val, epochs=3)
    ```
    """
    index.check_labels_arguments("image", labels, label_mode, class_names)
    channels = num_channels(color_mode)
    image_size = _image_size(image_size)
    interpolation = str(interpolation).lower()
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            f"interpolation must be one of {INTERPOLATIONS}. Received: {interpolation!r}."
        )
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Pass only one of crop_to_aspect_ratio and pad_to_aspect_ratio.")
    format = formats.resolve_format(format)
    split_options = (validation_split, subset, follow_links, verbose)
    files = index.list_files(
        directory, labels, label_mode, class_names, ALLOWLIST_FORMATS, shuffle, seed, split_options
    )
    options = {
        "image_size": image_size,
        "channels": channels,
        "interpolation": interpolation,
        "data_format": _data_format(data_format),
        "crop_to_aspect_ratio": crop_to_aspect_ratio,
        "pad_to_aspect_ratio": pad_to_aspect_ratio,
    }
    return formats.build_subsets(
        format,
        files,
        (validation_split, subset, shuffle),
        lambda what: f"No {what}images found in {directory}. Allowed formats: {ALLOWLIST_FORMATS}.",
        keep_paths=True,
        load=functools.partial(load_image_pil, **options),
        load_tf=functools.partial(_tf_pipelines.load_image, **options),
        batch_size=batch_size,
    )
