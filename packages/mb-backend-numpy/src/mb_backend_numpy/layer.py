"""What mb's base ``Layer`` takes from the NumPy engine: nothing."""


class Layer:
    """Empty mixin: NumPy layers need no engine base class (torch's are ``nn.Module``)."""
