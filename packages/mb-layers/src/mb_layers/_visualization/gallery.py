"""Galleries of images with matplotlib: plain, with boxes, with segmentation masks."""

from __future__ import annotations

import functools
import math

import numpy as np

from mb_layers._ops import ops
from mb_layers._visualization.draw import draw_bounding_boxes, draw_segmentation_masks
from mb_ops import config


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(
            "The galleries of mb.visualization need matplotlib: pip install matplotlib "
            "(or pip install 'mb-layers[plot]')."
        ) from exc
    return plt


def _to_0_255(images, value_range):
    low, high = value_range
    if (low, high) == (0, 255):
        return images
    images = ops.cast(images, "float32")
    return (images - low) / (high - low) * 255.0


def plot_image_gallery(
    images,
    y_true=None,
    y_pred=None,
    label_map=None,
    rows=None,
    cols=None,
    value_range=(0, 255),
    scale=2,
    path=None,
    show=None,
    transparent=True,
    dpi=60,
    legend_handles=None,
    data_format=None,
):
    """Shows (or saves to ``path``) a grid of images, titled with labels if given.

    Args:
        images: a batch of images.
        y_true: true class ids, named through ``label_map``.
        y_pred: predicted class ids, named through ``label_map``.
        label_map: ``{class id: name}`` (needed with ``y_true`` or ``y_pred``).
        rows: grid rows (default about the square root of the batch).
        cols: grid columns.
        value_range: the images' value range, mapped to [0, 255].
        scale: inches per image.
        path: save the figure there instead of showing it.
        show: show the figure (default: when no ``path``).
        transparent: a transparent background when saving.
        dpi: the saved figure's dots per inch.
        legend_handles: matplotlib legend handles to add.
        data_format: the images' layout; default ``image_data_format``.

    Example:

    ```python
    mb.visualization.plot_image_gallery(x[:16], value_range=(0, 1), path="grid.png")
    ```
    """
    plt = _pyplot()
    if path is not None and show:
        raise ValueError("plot_image_gallery: pass either path= or show=True, not both.")
    if (y_true is not None or y_pred is not None) and label_map is None:
        raise ValueError("plot_image_gallery: y_true or y_pred need a label_map.")
    show = show if show is not None else path is None
    data_format = data_format or config.image_data_format()
    if len(ops.shape(images)) != 4:
        raise ValueError(
            "plot_image_gallery expects a batch of images (rank 4); stack your samples."
        )
    batch = ops.shape(images)[0]
    rows = rows or math.ceil(math.sqrt(batch))
    cols = cols or batch // rows
    images = images[: min(rows * cols, batch), ...]
    if data_format == "channels_first":
        images = ops.transpose(images, (0, 2, 3, 1))
    fig, axes = plt.subplots(
        nrows=rows, ncols=cols, figsize=(cols * scale, rows * scale), frameon=False,
        layout="tight", squeeze=True, sharex="row", sharey="col",
    )  # fmt: skip
    fig.subplots_adjust(wspace=0, hspace=0)
    if isinstance(axes, np.ndarray) and axes.ndim == 1:
        axes = np.expand_dims(axes, 0 if rows == 1 else -1)
    if legend_handles is not None:
        fig.legend(handles=legend_handles, loc="lower center")
    images = np.asarray(ops.convert_to_numpy(_to_0_255(images, value_range)))
    y_true = None if y_true is None else np.asarray(ops.convert_to_numpy(y_true))
    y_pred = None if y_pred is None else np.asarray(ops.convert_to_numpy(y_pred))
    for row in range(rows):
        for col in range(cols):
            index = row * cols + col
            axis = axes[row, col] if isinstance(axes, np.ndarray) else axes
            axis.imshow(images[index].astype("uint8"))
            axis.margins(x=0, y=0)
            axis.axis("off")
            title = []
            if y_true is not None and index < len(y_true):
                title.append(f"Label: {label_map.get(y_true[index], 'Unknown')}")
            if y_pred is not None and index < len(y_pred):
                title.append(f"Pred: {label_map.get(y_pred[index], 'Unknown')}")
            if title:
                axis.set_title("  ".join(title), fontsize=8)
    if path is not None:
        plt.savefig(fname=path, pad_inches=0, bbox_inches="tight", transparent=transparent,
                    dpi=dpi)  # fmt: skip
        plt.close()
    elif show:
        plt.show()
        plt.close()


def plot_bounding_box_gallery(
    images,
    bounding_box_format,
    y_true=None,
    y_pred=None,
    value_range=(0, 255),
    true_color=(0, 188, 212),
    pred_color=(255, 235, 59),
    line_thickness=2,
    font_scale=1.0,
    text_thickness=None,
    class_mapping=None,
    ground_truth_mapping=None,
    prediction_mapping=None,
    legend=False,
    legend_handles=None,
    rows=None,
    cols=None,
    data_format=None,
    **kwargs,
):
    """A gallery of images with true boxes (``true_color``) and predicted boxes drawn.

    Arguments after the boxes are `draw_bounding_boxes`'s and `plot_image_gallery`'s
    (``path=``, ``show=``, ``scale=``, ``dpi=`` go to the latter); ``legend=True``
    adds a legend of the two colors.
    """
    _pyplot()
    from matplotlib import patches

    prediction_mapping = prediction_mapping or class_mapping
    ground_truth_mapping = ground_truth_mapping or class_mapping
    data_format = data_format or config.image_data_format()
    if len(ops.shape(images)) != 4:
        raise ValueError("plot_bounding_box_gallery expects a batch of images (rank 4).")
    if data_format == "channels_first":
        images = ops.transpose(images, (0, 2, 3, 1))
    drawn = np.asarray(ops.convert_to_numpy(images))
    draw = functools.partial(
        draw_bounding_boxes, bounding_box_format=bounding_box_format,
        line_thickness=line_thickness, text_thickness=text_thickness, font_scale=font_scale,
        data_format="channels_last",
    )  # fmt: skip
    if y_true is not None:
        drawn = draw(drawn, y_true, color=true_color, class_mapping=ground_truth_mapping)
    if y_pred is not None:
        drawn = draw(drawn, y_pred, color=pred_color, class_mapping=prediction_mapping)
    if legend:
        if legend_handles:
            raise ValueError("Pass legend=True or legend_handles=, not both.")
        legend_handles = [
            patches.Patch(color=np.array(true_color) / 255.0, label="Ground Truth"),
            patches.Patch(color=np.array(pred_color) / 255.0, label="Prediction"),
        ]
    return plot_image_gallery(
        drawn, value_range=value_range, legend_handles=legend_handles, rows=rows, cols=cols,
        data_format="channels_last", **kwargs,
    )  # fmt: skip


def plot_segmentation_mask_gallery(
    images,
    num_classes,
    value_range=(0, 255),
    y_true=None,
    y_pred=None,
    color_mapping=None,
    blend=True,
    alpha=0.8,
    ignore_index=-1,
    data_format=None,
    **kwargs,
):
    """A gallery with one row per image: the image, then its true and predicted masks
    painted on it (`draw_segmentation_masks`); ``**kwargs`` go to `plot_image_gallery`."""
    data_format = data_format or config.image_data_format()
    shape = ops.shape(images)
    if len(shape) != 4:
        raise ValueError("plot_segmentation_mask_gallery expects a batch of images (rank 4).")
    if data_format == "channels_first":
        images = ops.transpose(images, (0, 2, 3, 1))
    plain = np.asarray(ops.convert_to_numpy(images))
    draw = functools.partial(
        draw_segmentation_masks, num_classes=num_classes, color_mapping=color_mapping,
        alpha=alpha, ignore_index=ignore_index, blend=blend, data_format="channels_last",
    )  # fmt: skip
    drawn = []
    for masks in (y_true, y_pred):
        if masks is not None:
            if data_format == "channels_first":
                masks = ops.transpose(masks, (0, 2, 3, 1))
            drawn.append(np.asarray(ops.convert_to_numpy(draw(plain, ops.cast(masks, "int32")))))
    gallery = []
    for i in range(shape[0]):
        gallery.append(plain[i])
        gallery.extend(d[i] for d in drawn)
    return plot_image_gallery(
        np.stack(gallery, axis=0), value_range=value_range, rows=shape[0], cols=1 + len(drawn),
        data_format="channels_last", **kwargs,
    )  # fmt: skip
