"""``mb.datasets.boston_housing`` (``keras.datasets.boston_housing``)."""

from mb_data.datasets.boston_housing import load_data as load_data

__all__ = ["load_data"]
