"""Random numbers: ``SeedGenerator``, ``draw_seed`` and the ``keras.random`` functions."""

from mb_ops._seed import SeedGenerator as SeedGenerator
from mb_ops._seed import draw_seed as draw_seed
from mb_ops._seed import global_seed_generator as global_seed_generator
from mb_ops._seed import make_default_seed as make_default_seed
from mb_ops._seed import seed_dtype as seed_dtype
from mb_ops._seed import set_global_seed as set_global_seed

__all__ = [
    "SeedGenerator",
    "draw_seed",
    "global_seed_generator",
    "make_default_seed",
    "seed_dtype",
    "set_global_seed",
]
