"""Initializers (``keras.initializers``): how a new variable gets its first value.

Each class has a snake_case alias (``glorot_uniform is GlorotUniform``);
`get` accepts a name, a serialized dict, a callable or an instance.
"""

from mb_layers import _serialization
from mb_layers.initializers._base import STFT as STFT
from mb_layers.initializers._base import Constant as Constant
from mb_layers.initializers._base import Identity as Identity
from mb_layers.initializers._base import Initializer as Initializer
from mb_layers.initializers._base import Ones as Ones
from mb_layers.initializers._base import Zeros as Zeros
from mb_layers.initializers._random import GlorotNormal as GlorotNormal
from mb_layers.initializers._random import GlorotUniform as GlorotUniform
from mb_layers.initializers._random import HeNormal as HeNormal
from mb_layers.initializers._random import HeUniform as HeUniform
from mb_layers.initializers._random import LecunNormal as LecunNormal
from mb_layers.initializers._random import LecunUniform as LecunUniform
from mb_layers.initializers._random import Orthogonal as Orthogonal
from mb_layers.initializers._random import RandomNormal as RandomNormal
from mb_layers.initializers._random import RandomUniform as RandomUniform
from mb_layers.initializers._random import TruncatedNormal as TruncatedNormal
from mb_layers.initializers._random import VarianceScaling as VarianceScaling
from mb_layers.initializers._random import compute_fans as compute_fans
from mb_ops import set_initializer_lookup

IdentityInitializer = Identity
OrthogonalInitializer = Orthogonal
STFTInitializer = STFT
constant = Constant
zeros = Zeros
ones = Ones
identity = Identity
orthogonal = Orthogonal
stft = STFT
random_normal = RandomNormal
random_uniform = RandomUniform
truncated_normal = TruncatedNormal
variance_scaling = VarianceScaling
glorot_normal = GlorotNormal
glorot_uniform = GlorotUniform
he_normal = HeNormal
he_uniform = HeUniform
lecun_normal = LecunNormal
lecun_uniform = LecunUniform

_CLASSES = {
    cls.__name__: cls
    for cls in (
        Constant,
        Zeros,
        Ones,
        Identity,
        Orthogonal,
        STFT,
        RandomNormal,
        RandomUniform,
        TruncatedNormal,
        VarianceScaling,
        GlorotNormal,
        GlorotUniform,
        HeNormal,
        HeUniform,
        LecunNormal,
        LecunUniform,
    )
}
ALL_OBJECTS = {
    **_CLASSES,
    "IdentityInitializer": Identity,
    "OrthogonalInitializer": Orthogonal,
    "STFTInitializer": STFT,
    "constant": Constant,
    "zeros": Zeros,
    "ones": Ones,
    "identity": Identity,
    "orthogonal": Orthogonal,
    "stft": STFT,
    "random_normal": RandomNormal,
    "random_uniform": RandomUniform,
    "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling,
    "glorot_normal": GlorotNormal,
    "glorot_uniform": GlorotUniform,
    "he_normal": HeNormal,
    "he_uniform": HeUniform,
    "lecun_normal": LecunNormal,
    "lecun_uniform": LecunUniform,
    # Keras 2 names still found in configs.
    "uniform": RandomUniform,
    "normal": RandomNormal,
    "one": Ones,
    "zero": Zeros,
}


def serialize(initializer):
    """The serialized dict of an initializer (module ``"keras.initializers"`` for built-ins)."""
    return _serialization.serialize_object(initializer, _CLASSES, "keras.initializers")


deserialize, get = _serialization.registry_functions(
    __name__,
    ALL_OBJECTS,
    "initializer",
    "'glorot_uniform'",
    base=Initializer,
)


# `Variable("zeros", shape=...)` (Keras accepts a string initializer): the names are ours.
set_initializer_lookup(get)

__all__ = [
    "STFT",
    "Constant",
    "GlorotNormal",
    "GlorotUniform",
    "HeNormal",
    "HeUniform",
    "Identity",
    "IdentityInitializer",
    "Initializer",
    "LecunNormal",
    "LecunUniform",
    "Ones",
    "Orthogonal",
    "OrthogonalInitializer",
    "RandomNormal",
    "RandomUniform",
    "STFTInitializer",
    "TruncatedNormal",
    "VarianceScaling",
    "Zeros",
    "compute_fans",
    "constant",
    "deserialize",
    "get",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "identity",
    "lecun_normal",
    "lecun_uniform",
    "ones",
    "orthogonal",
    "random_normal",
    "random_uniform",
    "serialize",
    "stft",
    "truncated_normal",
    "variance_scaling",
    "zeros",
]
