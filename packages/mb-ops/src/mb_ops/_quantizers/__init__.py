"""The quantizers' math (``keras.quantizers``), written once over ``mb_ops.ops``."""
