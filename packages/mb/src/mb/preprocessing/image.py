"""``mb.preprocessing.image`` (``keras.preprocessing.image``)."""

from mb_data import array_to_img as array_to_img
from mb_data import img_to_array as img_to_array
from mb_data import load_img as load_img
from mb_data import save_img as save_img
from mb_data import smart_resize as smart_resize

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"]
