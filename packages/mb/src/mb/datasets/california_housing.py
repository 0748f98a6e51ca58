"""``mb.datasets.california_housing`` (``keras.datasets.california_housing``)."""

from mb_data.datasets.california_housing import load_data as load_data

__all__ = ["load_data"]
