"""The data adapters, one module per kind of input."""
