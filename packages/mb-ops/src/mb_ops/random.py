"""Random numbers: ``SeedGenerator``, ``draw_seed`` and the ``keras.random`` functions."""

from mb_ops._random_ops import beta as beta
from mb_ops._random_ops import binomial as binomial
from mb_ops._random_ops import categorical as categorical
from mb_ops._random_ops import dropout as dropout
from mb_ops._random_ops import gamma as gamma
from mb_ops._random_ops import normal as normal
from mb_ops._random_ops import randint as randint
from mb_ops._random_ops import shuffle as shuffle
from mb_ops._random_ops import truncated_normal as truncated_normal
from mb_ops._random_ops import uniform as uniform
from mb_ops._seed import SeedGenerator as SeedGenerator
from mb_ops._seed import draw_seed as draw_seed
from mb_ops._seed import global_seed_generator as global_seed_generator
from mb_ops._seed import make_default_seed as make_default_seed
from mb_ops._seed import seed_dtype as seed_dtype
from mb_ops._seed import set_global_seed as set_global_seed
from mb_ops._seed import set_random_seed as set_random_seed

__all__ = [
    "SeedGenerator",
    "beta",
    "binomial",
    "categorical",
    "draw_seed",
    "dropout",
    "gamma",
    "global_seed_generator",
    "make_default_seed",
    "normal",
    "randint",
    "seed_dtype",
    "set_global_seed",
    "set_random_seed",
    "shuffle",
    "truncated_normal",
    "uniform",
]
