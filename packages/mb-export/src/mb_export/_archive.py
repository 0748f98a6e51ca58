"""`ExportArchive`: a TensorFlow SavedModel of chosen endpoints and variables."""

from __future__ import annotations

import inspect
import os

from mb_export import _blame, _compat, _signature
from mb_export._forward import Forward
from mb_graph import tree
from mb_layers import Layer
from mb_ops import Variable, backends, config

DEFAULT_ENDPOINT_NAME = "serve"

_NO_TF_BACKEND = (
    "ExportArchive writes a TensorFlow SavedModel, which the {backend} backend cannot trace "
    "({reason}). Build the archive on the jax or tensorflow backend (MB_BACKEND=jax), or "
    "save the model as .keras and run `mb export MODEL.keras --format tf_saved_model`, "
    "which picks such a backend for you."
)


def _tf():
    try:
        import tensorflow as tf
    except ImportError as error:
        raise ImportError(
            "Writing a SavedModel needs TensorFlow: pip install 'mb-export[tensorflow]'."
        ) from error
    return tf


def backend_export_module():
    """The active backend's ``export`` contract module."""
    return backends.backend_module("export")


class ExportArchive:
    """Writes a TensorFlow SavedModel with the endpoints and variables you choose.

    Works on the jax backend (through ``jax2tf``) and the tensorflow backend
    (``tf.function``); the artifact runs with TensorFlow alone (``tf.saved_model.load``),
    without mb or the model's code. On the other backends it builds, as Keras's does,
    but tracking, adding an endpoint or writing raises ``NotImplementedError``.

    Example:

    >>> import numpy as np, mb  # doctest: +SKIP
    >>> model = mb.Sequential([mb.Input((3,)), mb.layers.Dense(2)])  # doctest: +SKIP
    >>> archive = mb.export.ExportArchive()  # doctest: +SKIP
    >>> archive.track(model)  # doctest: +SKIP
    >>> archive.add_endpoint(  # doctest: +SKIP
    ...     "serve", model.call, input_signature=[mb.InputSpec((None, 3), dtype="float32")]
    ... )
    >>> archive.write_out("/tmp/my_model")  # doctest: +SKIP
    """

    def __init__(self, format="saved_model", **kwargs):
        if format != "saved_model":
            raise ValueError(
                f"Unsupported format={format!r}: mb's ExportArchive writes a TensorFlow "
                "SavedModel (format='saved_model'). For ONNX, OpenVINO, LiteRT or torch use "
                "model.export(path, format=...)."
            )
        if kwargs:
            raise TypeError(f"ExportArchive() got unexpected arguments: {sorted(kwargs)}.")
        self._module = backend_export_module()
        # As Keras's, the archive builds on every backend; one that cannot trace to a
        # TensorFlow graph (torch, numpy, openvino) refuses at the first use instead.
        self._unsupported = getattr(self._module, "UNSUPPORTED", {}).get("to_tf_function")
        tf = _tf()
        self.tensorflow_version = tf.__version__
        self._root = _compat.auto_trackable(tf)
        self._variables = []  # mb variables, in order of tracking
        self._tf_variables = {}  # id(mb variable) -> tf.Variable
        self._trackables = []
        self._endpoints = {}  # name -> tf.function
        self._endpoint_specs = {}
        self._collections = {}
        self._trace_label = None  # model.export names itself in tracing errors

    def _check_backend(self):
        if self._unsupported is not None:
            raise NotImplementedError(
                _NO_TF_BACKEND.format(backend=config.backend(), reason=self._unsupported)
            )

    # ----- what the archive holds ------------------------------------------------------

    @property
    def variables(self):
        return [self._tf_variables[id(v)] for v in self._variables]

    @property
    def trainable_variables(self):
        return [self._tf_variables[id(v)] for v in self._variables if v.trainable]

    @property
    def non_trainable_variables(self):
        return [self._tf_variables[id(v)] for v in self._variables if not v.trainable]

    def track(self, resource):
        """Tracks the variables of a layer or model (or a TensorFlow trackable resource).

        Args:
            resource: a built mb `Layer`/`Model`, or a ``tf.Module``/trackable (lookup
                tables and other assets) to store with the archive.
        """
        self._check_backend()
        if isinstance(resource, Layer):
            if not resource.built:
                raise ValueError(
                    f"The layer '{resource.name}' has not been built; build it (call it on "
                    "data once) before tracking it."
                )
            self._track_variables(resource.variables)
            return
        tf = _tf()
        if _compat.is_trackable(tf, resource):
            self._trackables.append(resource)
            return
        raise ValueError(
            "ExportArchive.track expects an mb Layer or Model, or a TensorFlow trackable. "
            f"Received: {resource!r} of type {type(resource).__name__}."
        )

    def _track_variables(self, variables):
        new = [v for v in variables if id(v) not in self._tf_variables]
        for variable, tf_variable in zip(
            new, self._module.to_tf_variables(new) if new else [], strict=True
        ):
            self._variables.append(variable)
            self._tf_variables[id(variable)] = tf_variable

    # ----- endpoints ---------------------------------------------------------------------

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        """Adds a function as an endpoint of the SavedModel.

        Args:
            name: the endpoint's name (an attribute of the reloaded object, and a
                signature key).
            fn: a callable (e.g. ``model.call`` or a lambda) running on tracked
                variables, or an already traced ``tf.function`` (tensorflow backend).
            input_signature: the arguments' specs (see `Model.export`); required
                unless `fn` is a ``tf.function`` that has been called.
            **kwargs: ``jax2tf_kwargs`` / ``is_static`` on the jax backend.

        Returns:
            The ``tf.function`` of the endpoint.
        """
        self._check_backend()
        if name in self._endpoints:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        tf = _tf()
        if input_signature is None:
            if isinstance(fn, tf.types.experimental.GenericFunction):
                if not fn._list_all_concrete_functions():
                    raise ValueError(
                        f"The tf.function '{fn}' has never been called, so its signature is "
                        "unknown. Call it once, or pass `input_signature`."
                    )
                self._endpoints[name] = fn
                setattr(self._root, name, fn)
                return fn
            raise ValueError(
                "`fn` is not a tf.function, so `input_signature` is needed to trace it. "
                "Example: archive.add_endpoint('serve', model.call, input_signature="
                "[mb.InputSpec(shape=(None, 3), dtype='float32')])."
            )
        arguments = _signature.normalize(input_signature)
        specs = _signature.flat_specs(arguments, _parameter_names(fn))
        arguments = _rename(arguments, specs)
        forward = Forward(fn, arguments, self._variables, flat=False, flat_inputs=False)
        tf_variables = [self._tf_variables[id(v)] for v in self._variables]
        label = self._trace_label or (
            f"Tracing the endpoint '{name}' on the {config.backend()} backend"
        )
        with _blame.tracing(label):  # trace now: errors point at the add_endpoint call
            endpoint = self._module.to_tf_function(forward, tf_variables, arguments, **kwargs)
            endpoint.get_concrete_function()
        self._endpoints[name] = endpoint
        self._endpoint_specs[name] = specs
        setattr(self._root, name, endpoint)
        return endpoint

    def track_and_add_endpoint(self, name, resource, input_signature, **kwargs):
        """`track(resource)`, then `add_endpoint(name, resource, input_signature)`."""
        self.track(resource)
        return self.add_endpoint(name, resource, input_signature, **kwargs)

    def add_variable_collection(self, name, variables):
        """Stores variables as attribute `name` of the reloaded object.

        Args:
            name: the attribute's name.
            variables: a list, tuple or set of mb variables (a tracked one is stored as
                the archive's own copy, shared with the endpoints; an untracked one as a
                new ``tf.Variable`` holding its value) or ``tf.Variable``s.
        """
        self._check_backend()
        if not isinstance(variables, (list, tuple, set)):
            raise ValueError(
                "`variables` must be a list, tuple or set of variables. "
                f"Received: {type(variables).__name__}."
            )
        tf = _tf()
        others = {type(v).__name__ for v in variables if not isinstance(v, (Variable, tf.Variable))}
        if others:
            raise ValueError(
                "Each element of `variables` must be an mb Variable or a tf.Variable. "
                f"Found: {sorted(others)}."
            )
        untracked = [
            v for v in variables if isinstance(v, Variable) and id(v) not in self._tf_variables
        ]
        copies = dict(
            zip(
                map(id, untracked),
                self._module.to_tf_variables(untracked) if untracked else [],
                strict=True,
            )
        )
        collection = [
            v if isinstance(v, tf.Variable) else self._tf_variables.get(id(v), copies.get(id(v)))
            for v in variables
        ]
        self._collections[name] = collection
        setattr(self._root, name, list(collection))

    def _get_concrete_fn(self, endpoint):
        return self._endpoints[endpoint].get_concrete_function()

    # ----- writing -----------------------------------------------------------------------

    def write_out(self, filepath, options=None, verbose=True):
        """Writes the SavedModel folder at `filepath` and prints its endpoints.

        Args:
            filepath: the folder to write.
            options: a ``tf.saved_model.SaveOptions``.
            verbose: print the endpoints and their signatures.
        """
        self._check_backend()
        if not self._endpoints:
            raise ValueError(
                "The archive has no endpoint. Add one with add_endpoint() (e.g. 'serve' "
                "running model.call) before write_out()."
            )
        tf = _tf()
        root = self._root
        root.variables = self.variables
        root.trainable_variables = self.trainable_variables
        root.non_trainable_variables = self.non_trainable_variables
        root._mb_trackables = list(self._trackables)
        signatures = {name: fn.get_concrete_function() for name, fn in self._endpoints.items()}
        if "serving_default" not in signatures:
            signatures["serving_default"] = next(iter(signatures.values()))
        tf.saved_model.save(root, os.fspath(filepath), signatures=signatures, options=options)
        if verbose:
            print(
                f"Saved artifact at '{os.fspath(filepath)}'. The following endpoints are available:"
            )
            for name, fn in self._endpoints.items():
                specs = self._endpoint_specs.get(name)
                shown = (
                    ", ".join(f"{s.name}: {s.dtype}{list(s.shape)}" for s in specs)
                    if specs
                    else str(fn)
                )
                print(f"* {name}({shown})")


def _parameter_names(fn):
    """The positional parameter names of `fn` (bound methods without ``self``)."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in parameters if p.kind in kinds]


def _rename(arguments, specs):
    flat = iter(specs)
    return [tree.map_structure(lambda _: next(flat), argument) for argument in arguments]
