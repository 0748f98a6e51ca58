"""The ``random`` contract module: what every backend's ``random`` provides."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class Random(Protocol):
    """The names every backend's ``random`` module provides (or declares unsupported)."""

    def beta(self, shape: Any, alpha: Any, beta: Any, dtype: Any = None, seed: Any = None) -> Any:
        """Samples from Beta(``alpha``, ``beta``)."""
        ...

    def binomial(
        self, shape: Any, counts: Any, probabilities: Any, dtype: Any = None, seed: Any = None
    ) -> Any:
        """Samples from Binomial(``counts``, ``probabilities``)."""
        ...

    def categorical(
        self, logits: Tensor, num_samples: Any, dtype: Any = "int32", seed: Any = None
    ) -> Any:
        """``num_samples`` class indices per row of ``logits``."""
        ...

    def dropout(self, inputs: Tensor, rate: Any, noise_shape: Any = None, seed: Any = None) -> Any:
        """``inputs`` with a fraction ``rate`` zeroed and the rest scaled by 1/(1-rate)."""
        ...

    def gamma(self, shape: Any, alpha: Any, dtype: Any = None, seed: Any = None) -> Any:
        """Samples from Gamma(``alpha``, 1)."""
        ...

    def normal(
        self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = None, seed: Any = None
    ) -> Any:
        """Samples from a normal distribution."""
        ...

    def randint(
        self, shape: Any, minval: Any, maxval: Any, dtype: Any = "int32", seed: Any = None
    ) -> Any:
        """Integers drawn uniformly from [``minval``, ``maxval``)."""
        ...

    def shuffle(self, x: Tensor, axis: Any = 0, seed: Any = None) -> Any:
        """``x`` shuffled along ``axis``."""
        ...

    def truncated_normal(
        self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = None, seed: Any = None
    ) -> Any:
        """Normal samples redrawn until within two standard deviations."""
        ...

    def uniform(
        self, shape: Any, minval: Any = 0.0, maxval: Any = 1.0, dtype: Any = None, seed: Any = None
    ) -> Any:
        """Samples drawn uniformly from [``minval``, ``maxval``)."""
        ...
