"""The NumPy backend of mb: eager, dependency-free, the reference for every other engine."""

# Keep this file free of engine imports: mb_ops reads this package's entry point
# (``_descriptor``) to list backends, and that must not load the engine.
