"""Bounding-box helpers (``keras.utils.bounding_boxes``): format conversion, geometry, IoU."""
