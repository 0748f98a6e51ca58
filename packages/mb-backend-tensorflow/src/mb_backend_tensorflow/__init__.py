"""The TensorFlow backend of mb."""

# Keep this file free of engine imports: mb_ops reads this package's entry point
# (``_descriptor``) to list backends, and that must not load the engine.
