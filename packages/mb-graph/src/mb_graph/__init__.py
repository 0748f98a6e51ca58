"""mb-graph: symbolic tensors, operations, nodes and re-appliable functions.

The graph core of mb, usable alone: it depends on nothing of mb and on no
array library (only optree, for nested structures).
"""

from mb_graph import naming as naming
from mb_graph import tree as tree
from mb_graph._custom_objects import custom_objects_in_scope as custom_objects_in_scope
from mb_graph._custom_objects import find_scoped_object as find_scoped_object
from mb_graph._custom_objects import scoped_objects as scoped_objects
from mb_graph._deserialization import deserialize_graph as deserialize_graph
from mb_graph._function import Function as Function
from mb_graph._hooks import get_operator_hook as get_operator_hook
from mb_graph._hooks import get_output_spec_hook as get_output_spec_hook
from mb_graph._hooks import set_dtype_standardizer as set_dtype_standardizer
from mb_graph._hooks import set_operator_hook as set_operator_hook
from mb_graph._hooks import set_output_spec_hook as set_output_spec_hook
from mb_graph._hooks import standardize_dtype as standardize_dtype
from mb_graph._hooks import standardize_shape as standardize_shape
from mb_graph._keras_tensor import EngineConversionError as EngineConversionError
from mb_graph._keras_tensor import KerasTensor as KerasTensor
from mb_graph._keras_tensor import any_symbolic_tensors as any_symbolic_tensors
from mb_graph._keras_tensor import is_keras_tensor as is_keras_tensor
from mb_graph._node import KerasHistory as KerasHistory
from mb_graph._node import Node as Node
from mb_graph._node import SymbolicArguments as SymbolicArguments
from mb_graph._operation import Operation as Operation
from mb_graph._operation import default as default
from mb_graph._operation import is_default as is_default
from mb_graph._remat import RematMode as RematMode
from mb_graph._remat import RematScope as RematScope
from mb_graph._remat import get_current_remat_mode as get_current_remat_mode
from mb_graph._remat import remat as remat
from mb_graph._remat import set_remat_hook as set_remat_hook
from mb_graph._serialization import INPUT_TENSOR_CLASS_NAME as INPUT_TENSOR_CLASS_NAME
from mb_graph._serialization import default_serialize_operation as default_serialize_operation
from mb_graph._serialization import serialize_graph as serialize_graph
from mb_graph._topology import Topology as Topology
from mb_graph._topology import make_node_key as make_node_key
from mb_graph._topology import map_graph as map_graph

__version__ = "0.1.0"
