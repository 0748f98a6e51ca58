"""mb-export: a model's forward pass as SavedModel, ONNX, OpenVINO IR, LiteRT or a torch
ExportedProgram, runnable without mb.

Importing this package connects ``Model.export`` (mb_train) to `export_model`.
The engines and runtimes are imported only when an export runs.
"""

from mb_export._archive import ExportArchive as ExportArchive
from mb_export._convert import pick_backend as pick_backend
from mb_export._convert import run_conversion as run_conversion
from mb_export._export import export_model as export_model
from mb_export._inspect import artifact_format as artifact_format
from mb_export._inspect import format_artifact as format_artifact
from mb_export._inspect import inspect_artifact as inspect_artifact
from mb_export._routes import FORMATS as FORMATS
from mb_export._tfsm_layer import TFSMLayer as TFSMLayer
from mb_train import _export_hook

_export_hook.set_export_implementation(export_model)

__version__ = "0.1.0"
