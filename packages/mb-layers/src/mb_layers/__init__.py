"""mb-layers: Layer, the layer families, and the functional and sequential networks."""

from mb_layers import activations as activations
from mb_layers import constraints as constraints
from mb_layers import dtype_policies as dtype_policies
from mb_layers import initializers as initializers
from mb_layers import layers as layers
from mb_layers import regularizers as regularizers
from mb_layers._feature_space import FeatureSpace as FeatureSpace
from mb_layers._functional import Functional as Functional
from mb_layers._input_layer import Input as Input
from mb_layers._input_layer import InputLayer as InputLayer
from mb_layers._input_layer import get_source_inputs as get_source_inputs
from mb_layers._input_spec import InputSpec as InputSpec
from mb_layers._layer import Layer as Layer
from mb_layers._masking import get_keras_mask as get_keras_mask
from mb_layers._masking import set_keras_mask as set_keras_mask
from mb_layers._plot_model import model_to_dot as model_to_dot
from mb_layers._plot_model import plot_model as plot_model
from mb_layers._sequential import Sequential as Sequential
from mb_layers._serialization import set_custom_object_lookup as set_custom_object_lookup

__version__ = "0.1.0"
