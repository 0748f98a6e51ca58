"""Helpers shared by the nn ops: data layouts, per-axis arguments and windows."""

from mb_ops import config


def data_format_of(data_format):
    """``data_format`` validated, with None meaning the configured default."""
    data_format = data_format or config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            "data_format must be 'channels_last' or 'channels_first'. "
            f"Received: data_format={data_format!r}."
        )
    return data_format


def per_dim(value, num_dims, name):
    """An int or sequence as a tuple of ``num_dims`` ints."""
    if isinstance(value, int):
        return (value,) * num_dims
    value = tuple(int(v) for v in value)
    if len(value) != num_dims:
        raise ValueError(
            f"{name} needs one value per spatial dimension ({num_dims}). Received {name}={value}."
        )
    return value


def window(value, num_dims, data_format):
    """Per-dim window values extended with 1 for the batch and channel axes."""
    if data_format == "channels_last":
        return (1, *value, 1)
    return (1, 1, *value)


def check_padding(padding):
    if padding not in ("valid", "same"):
        raise ValueError(f"padding must be 'valid' or 'same'. Received: padding={padding!r}.")
    return padding.upper()


def conv_dimension_numbers(num_dims, data_format):
    """``lax`` dimension numbers: inputs in ``data_format``, kernels (*spatial, in, out)."""
    spatial = "DHW"[-num_dims:] if num_dims <= 3 else None
    if spatial is None:
        raise ValueError(f"Convolutions support 1 to 3 spatial dims. Received {num_dims}.")
    lhs = f"N{spatial}C" if data_format == "channels_last" else f"NC{spatial}"
    return (lhs, f"{spatial}IO", lhs)
