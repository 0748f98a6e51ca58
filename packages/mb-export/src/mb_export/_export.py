"""`export_model`: ``Model.export`` for every format, on the backend that can write it."""

from __future__ import annotations

import os

from mb_export import _blame, _convert, _routes, _signature, _writers
from mb_export._archive import DEFAULT_ENDPOINT_NAME, ExportArchive, backend_export_module
from mb_export._forward import Forward, output_names
from mb_graph import tree
from mb_ops import config

_REQUIRED_SUFFIX = {"openvino": ".xml", "litert": ".tflite"}


def _check_path(filepath, format):
    suffix = _REQUIRED_SUFFIX.get(format)
    if suffix and not filepath.endswith(suffix):
        raise ValueError(
            f"The {format} export requires the filepath to end with '{suffix}'. "
            f"Received: filepath={filepath!r}."
        )


def export_model(
    model, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs
):
    """Exports `model`'s forward pass (``training=False``) as an inference artifact.

    Args:
        model: a built mb `Model` (or layer).
        filepath: where to write: a folder for ``tf_saved_model``, a ``.onnx``,
            ``.xml`` (OpenVINO, with its ``.bin``), ``.tflite`` or ``.pt2`` file.
        format: ``"tf_saved_model"``, ``"onnx"``, ``"openvino"``, ``"litert"`` or
            ``"torch"``.
        verbose: print where the artifact went (default True).
        input_signature: the inputs' specs, a list of positional arguments (see
            ``mb_export._signature``); by default the model's inputs with a
            dynamic batch axis.
        **kwargs: format options: ``opset_version`` (onnx), ``jax2tf_kwargs`` /
            ``is_static`` (jax SavedModel), ``torch.export.export`` options
            (torch), TFLite converter attributes (litert).

    Returns:
        The path written.

    Raises:
        ValueError: unknown format, wrong file suffix, unbuilt model.
        NotImplementedError: a pair no installed backend can write, naming those
            that work.
    """
    _routes.check_format(format)
    filepath = os.fspath(filepath)
    _check_path(filepath, format)
    verbose = True if verbose is None else bool(verbose)
    if input_signature is None:
        arguments = _signature.from_model(model)
    else:
        arguments = _signature.normalize(input_signature)
    step = _routes.native_step(backend_export_module(), format)
    if step is None:
        return _convert.through_keras_file(
            model, filepath, format, arguments, config.backend(), verbose=verbose, **kwargs
        )
    specs = _signature.flat_specs(arguments)
    flat = iter(specs)
    arguments = [tree.map_structure(lambda _: next(flat), a) for a in arguments]
    label = f"Exporting '{model.name}' to {format} on the {config.backend()} backend"
    if format == "tf_saved_model":
        archive = ExportArchive()
        archive._trace_label = label
        archive.track(model)
        archive.add_endpoint(DEFAULT_ENDPOINT_NAME, model, arguments, **kwargs)
        archive.write_out(filepath, verbose=verbose)
        return filepath
    if step == "program":
        _export_torch_program(model, filepath, format, arguments, specs, label, kwargs)
    else:
        _export_tf_graph(model, filepath, format, arguments, specs, label, kwargs)
    if verbose:
        print(f"Saved artifact at '{filepath}'.")
    return filepath


def _export_tf_graph(model, filepath, format, arguments, specs, label, kwargs):
    archive = ExportArchive()
    archive.track(model)
    opset = kwargs.pop("opset_version", None)
    converter_options = kwargs if format == "litert" else {}
    trace_options = {} if format == "litert" else kwargs
    forward = Forward(model, arguments, archive._variables, flat=True)
    module = backend_export_module()
    tf_variables = archive.variables
    with _blame.tracing(label):
        endpoint = module.to_tf_function(forward, tf_variables, specs, **trace_options)
        concrete = endpoint.get_concrete_function()
    names = output_names(model, len(concrete.structured_outputs or []))
    root = archive._root
    root.variables = tf_variables
    root.serve = endpoint
    if format == "litert":
        _writers.write_litert(endpoint, root, filepath, **converter_options)
    elif format == "onnx":
        _writers.write_onnx_from_tf(endpoint, specs, names, filepath, opset_version=opset)
    else:
        _writers.write_openvino(concrete, specs, names, filepath)


def _export_torch_program(model, filepath, format, arguments, specs, label, kwargs):
    module = backend_export_module()
    opset = kwargs.pop("opset_version", None)
    forward = Forward(model, arguments, [], flat=True)
    with _blame.tracing(label):
        program = module.to_exported_program(forward, [model], specs, **kwargs)
    count = len(program.graph_signature.user_outputs)
    names = output_names(model, count)
    if format == "torch":
        module.save_exported_program(program, filepath)
    elif format == "onnx":
        module.to_onnx(program, filepath, [s.name for s in specs], names, opset, verbose=False)
    else:
        _writers.write_openvino(program, specs, names, filepath)
