"""The layer families (``keras.layers``), with `serialize` / `deserialize`."""

from mb_layers import _registry
from mb_layers._input_layer import Input as Input
from mb_layers._input_layer import InputLayer as InputLayer
from mb_layers._input_spec import InputSpec as InputSpec
from mb_layers._layer import Layer as Layer
from mb_layers.layers._activation_layers import ELU as ELU
from mb_layers.layers._activation_layers import Activation as Activation
from mb_layers.layers._activation_layers import LeakyReLU as LeakyReLU
from mb_layers.layers._activation_layers import PReLU as PReLU
from mb_layers.layers._activation_layers import ReLU as ReLU
from mb_layers.layers._activation_layers import Softmax as Softmax
from mb_layers.layers._core import Embedding as Embedding
from mb_layers.layers._core import Identity as Identity
from mb_layers.layers._core import Masking as Masking
from mb_layers.layers._dense import Dense as Dense
from mb_layers.layers._einsum_dense import EinsumDense as EinsumDense
from mb_layers.layers._lambda import Lambda as Lambda
from mb_layers.layers._regularization import ActivityRegularization as ActivityRegularization
from mb_layers.layers._regularization import AlphaDropout as AlphaDropout
from mb_layers.layers._regularization import Dropout as Dropout
from mb_layers.layers._regularization import GaussianDropout as GaussianDropout
from mb_layers.layers._regularization import GaussianNoise as GaussianNoise
from mb_layers.layers._regularization import SpatialDropout1D as SpatialDropout1D
from mb_layers.layers._regularization import SpatialDropout2D as SpatialDropout2D
from mb_layers.layers._regularization import SpatialDropout3D as SpatialDropout3D

_ALIASES = {}


def _register_public(namespace):
    for name, value in list(namespace.items()):
        if isinstance(value, type) and issubclass(value, Layer) and not name.startswith("_"):
            _registry.register_builtin(value, names=(name,))


_register_public(dict(globals()))


def serialize(layer):
    """The serialized dict of a layer (Keras 3's form; ``build_config`` when built)."""
    return _registry.serialize(layer)


def deserialize(config, custom_objects=None):
    """The layer described by `config` (built when the config records a build)."""
    return _registry.deserialize(config, custom_objects=custom_objects)
