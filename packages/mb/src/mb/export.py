"""``mb.export``: Keras 3's ``keras.export`` (``ExportArchive``); ``Model.export`` and
``mb.layers.TFSMLayer`` come from the same package, mb-export."""

from mb_export import ExportArchive as ExportArchive

__all__ = ["ExportArchive"]
