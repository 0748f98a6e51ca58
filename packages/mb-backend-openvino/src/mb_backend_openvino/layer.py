"""What mb's base ``Layer`` takes from the OpenVINO engine: nothing."""


class Layer:
    """Empty mixin: OpenVINO layers need no engine base class (torch's are ``nn.Module``)."""
