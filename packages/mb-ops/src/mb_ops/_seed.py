"""``SeedGenerator`` and ``draw_seed``: how random ops turn a seed into a key.

A SeedGenerator holds its state in a non-trainable ``Variable`` of shape (2,),
so under a StatelessScope (the JAX trainer) drawing a seed records the new
state in the scope like any other variable update.
"""

from __future__ import annotations

import random as _pyrandom
from typing import Any

import numpy as np

from mb_ops import _backends
from mb_ops._dynamic_backend import DynamicBackend
from mb_ops._scopes import name_scope
from mb_ops._state import auto_name, register_reset_hook


def _core() -> Any:
    return _backends.backend_module("core")


def seed_dtype() -> str:
    """The dtype of seed tensors on the active backend (``uint32`` unless it says otherwise).

    Returns:
        A dtype name (``"uint32"`` on numpy and jax, ``"int64"`` on torch and tensorflow).

    Example:

    >>> from mb_ops import ops, random
    >>> ops.dtype(random.draw_seed(5)) == random.seed_dtype()
    True
    """
    core = _core()
    fn = getattr(core, "random_seed_dtype", None)
    return fn() if fn is not None else "uint32"


def make_default_seed() -> int:
    """A random int seed in ``[1, 1e9]`` from Python's ``random`` (seeded by ``set_random_seed``).

    Returns:
        An int: the starting point of a ``SeedGenerator`` given no seed.

    Example:

    >>> from mb_ops import random
    >>> seed = random.make_default_seed()
    >>> isinstance(seed, int) and 1 <= seed <= 10**9
    True
    """
    return _pyrandom.randint(1, int(1e9))


class SeedGenerator:
    """The state of a random stream: each ``next()`` returns a new seed.

    Give one to a random op's ``seed`` argument (or a layer's) to draw different
    values at every call, reproducibly from the generator's starting seed.

    Args:
        seed: an int, or None for a random starting point.
        name: the generator's name (path of its state variable's scope).
        backend: Keras's ``backend=`` keyword: the backend whose variable holds the
            state. mb's generators live on the active backend; naming it (or a
            `DynamicBackend` set to it) is accepted, another one raises.

    Attributes:
        backend: a `DynamicBackend` of the backend the state lives on.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> gen = random.SeedGenerator(42)
    >>> a, b = random.normal((2,), seed=gen), random.normal((2,), seed=gen)
    >>> bool(np.any(ops.convert_to_numpy(a) != ops.convert_to_numpy(b)))  # a new seed each call
    True
    >>> again = random.SeedGenerator(42)
    >>> c = random.normal((2,), seed=again)  # the same start, the same values
    >>> bool(np.all(ops.convert_to_numpy(c) == ops.convert_to_numpy(a)))
    True
    """

    def __init__(self, seed: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        backend = kwargs.pop("backend", None)
        if kwargs:
            raise TypeError(f"SeedGenerator got unexpected arguments: {sorted(kwargs)}.")
        requested = getattr(backend, "name", backend)
        if requested is not None and requested != _backends.backend():
            raise ValueError(
                f"SeedGenerator(backend={requested!r}): mb's seed generators keep their state "
                f"on the active backend ({_backends.backend()!r}). Leave `backend` out, or "
                f"start Python with MB_BACKEND={requested} to draw on that one."
            )
        self.backend = DynamicBackend()
        self.name = name or auto_name("seed_generator")
        if seed is None:
            seed = make_default_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(
                f"SeedGenerator takes an int seed or None. Received: seed={seed!r} "
                f"of type {type(seed).__name__}."
            )
        self._initial_seed = seed
        core = _core()

        def initializer(shape: Any = None, dtype: Any = None) -> Any:
            return core.convert_to_tensor([seed, 0], dtype=dtype)

        with name_scope(self.name, caller=self):
            self.state = core.Variable(
                initializer,
                shape=(2,),
                dtype=seed_dtype(),
                trainable=False,
                aggregation="none",
                name="seed_generator_state",
            )

    def next(self, ordered: bool = True) -> Any:
        """Return the current seed (shape (2,)) and advance the state."""
        numpy = _backends.backend_module("numpy")
        core = _core()
        # A copy: torch's and TensorFlow's variables are updated in place, so the live
        # value would already show the advanced state when returned.
        current = numpy.copy(self.state.value)
        dtype = self.state.dtype
        if ordered:
            increment = core.convert_to_tensor([0, 1], dtype=dtype)
            self.state.assign(numpy.add(current, increment))
        else:
            # Unordered draws (the global generator) just need a new state.
            bumped = numpy.add(current, core.convert_to_tensor([1, 1], dtype=dtype))
            mixed = numpy.mod(
                numpy.multiply(bumped, core.convert_to_tensor(5387, dtype=dtype)),
                core.convert_to_tensor(933199, dtype=dtype),
            )
            self.state.assign(mixed)
        return current

    def get_config(self) -> dict[str, Any]:
        return {"seed": self._initial_seed}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> SeedGenerator:
        return cls(**config)

    def __repr__(self) -> str:
        return f"<SeedGenerator name={self.name!r} seed={self._initial_seed}>"


class _Global:
    generator: SeedGenerator | None = None


def global_seed_generator() -> SeedGenerator:
    """The generator used when a random op gets ``seed=None``.

    Returns:
        The process's global ``SeedGenerator``, created on first use (restarted by
        ``set_random_seed`` and ``clear_session``).

    Example:

    >>> from mb_ops import random
    >>> random.global_seed_generator() is random.global_seed_generator()
    True
    """
    if _Global.generator is None:
        _Global.generator = SeedGenerator(name="global_seed_generator")
    return _Global.generator


def set_global_seed(seed: int | None) -> None:
    """Restart the global generator from ``seed`` (used by ``set_random_seed``).

    Args:
        seed: an int, or None to start afresh from a random seed on next use.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> random.set_global_seed(3)
    >>> a = ops.convert_to_numpy(random.normal((2,)))
    >>> random.set_global_seed(3)
    >>> bool((ops.convert_to_numpy(random.normal((2,))) == a).all())
    True
    """
    _Global.generator = None if seed is None else SeedGenerator(seed, name="global_seed_generator")


def set_random_seed(seed: int) -> None:
    """Seed every source of randomness mb uses (``keras.utils.set_random_seed``).

    Python's `random`, NumPy's global generator (data shuffling) and mb's global
    `SeedGenerator` (initializers, dropout and other random ops given no seed).

    Args:
        seed: an int.

    Raises:
        TypeError: if ``seed`` is not an int.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, random
    >>> random.set_random_seed(3)
    >>> a = ops.convert_to_numpy(random.normal((2,)))
    >>> random.set_random_seed(3)
    >>> bool((ops.convert_to_numpy(random.normal((2,))) == a).all())
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(
            f"set_random_seed expects an int seed. Received {seed!r} of type {type(seed).__name__}."
        )
    _pyrandom.seed(seed)
    np.random.seed(seed % 2**32)
    set_global_seed(seed)


def _reset_global() -> None:
    _Global.generator = None


register_reset_hook(_reset_global)


def draw_seed(seed: Any) -> Any:
    """Turn ``seed`` into a key tensor of shape (2,) of the active backend.

    Args:
        seed: an int (a fixed key), a SeedGenerator (its next seed), None (the
            next seed of the global generator), or an existing seed tensor.

    Returns:
        A backend tensor of shape (2,) and the backend's seed dtype.

    Raises:
        ValueError: for any other ``seed``.

    Example:

    >>> from mb_ops import ops, random
    >>> ops.convert_to_numpy(random.draw_seed(5)).tolist()
    [5, 0]
    """
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if isinstance(seed, int) and not isinstance(seed, bool):
        return _core().convert_to_tensor([seed, 0], dtype=seed_dtype())
    if seed is None:
        return global_seed_generator().next(ordered=False)
    core = _core()
    if core.is_tensor(seed) and tuple(seed.shape) == (2,):
        return seed
    raise ValueError(
        "seed must be an int, a SeedGenerator, None, or a seed tensor of shape (2,). "
        f"Received: seed={seed!r} of type {type(seed).__name__}."
    )
