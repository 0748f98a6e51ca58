"""`TFSMLayer`: a TensorFlow SavedModel (from mb, Keras 3 or TF) as an inference layer."""

from __future__ import annotations

import os

from mb_graph import KerasTensor, tree
from mb_layers import Layer, _registry
from mb_ops import ops
from mb_saving import in_safe_mode

_NOT_TRAINABLE = (
    "TFSMLayer '{name}' cannot be trained: it runs the SavedModel's '{endpoint}' endpoint, "
    "and gradients do not flow into a reloaded SavedModel's variables. Freeze it "
    "(layer.trainable = False) to use it as a fixed feature extractor in fit(), or pass "
    "call_training_endpoint=... naming an endpoint the SavedModel exports for training."
)


def _tf():
    try:
        import tensorflow as tf
    except ImportError as error:
        raise ImportError(
            "TFSMLayer loads a SavedModel with TensorFlow, which is not installed: "
            "pip install 'mb-export[tensorflow]'."
        ) from error
    return tf


def _resolve(reloaded, endpoint):
    if hasattr(reloaded, endpoint):
        return getattr(reloaded, endpoint)
    if endpoint in reloaded.signatures:
        return reloaded.signatures[endpoint]
    raise ValueError(
        f"The endpoint '{endpoint}' is neither an attribute of the reloaded SavedModel nor "
        "an entry of its `signatures`. Select another endpoint with `call_endpoint`. "
        f"Endpoints of this SavedModel: {sorted(reloaded.signatures.keys())}."
    )


def _concrete(fn):
    functions = getattr(fn, "concrete_functions", None)
    if functions:
        return functions[0]
    return fn  # a signature is a concrete function already


class TFSMLayer(Layer):
    """Reloads a TensorFlow SavedModel as an inference-only layer.

    The SavedModel may come from ``model.export(...)`` (mb or Keras 3) or any
    TensorFlow program. On the tensorflow backend it runs inside mb's graphs; on
    the other backends TensorFlow runs it as a host engine, eagerly (call the
    layer outside ``jit``: ``model.predict(..., )`` with ``run_eagerly=True``).

    Args:
        filepath: the SavedModel folder.
        call_endpoint: the endpoint run by ``call`` (``"serve"``, or a
            signature key such as ``"serving_default"``).
        call_training_endpoint: an endpoint to run with ``training=True``.
        trainable: with no training endpoint, a trainable layer refuses
            ``training=True`` (set ``trainable=False`` to use it frozen in fit).
        name: the layer's name.
        dtype: the layer's dtype policy.

    Example:

    >>> layer = mb.layers.TFSMLayer("/tmp/exported_model")  # doctest: +SKIP
    >>> outputs = layer(inputs)  # doctest: +SKIP
    """

    def __init__(
        self,
        filepath,
        call_endpoint="serve",
        call_training_endpoint=None,
        trainable=True,
        name=None,
        dtype=None,
    ):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        tf = _tf()
        self.filepath = os.fspath(filepath)
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        self._reloaded = tf.saved_model.load(self.filepath)
        self.call_endpoint_fn = _resolve(self._reloaded, call_endpoint)
        self.call_training_endpoint_fn = (
            _resolve(self._reloaded, call_training_endpoint) if call_training_endpoint else None
        )
        seen = set()
        for variable in getattr(self._reloaded, "variables", None) or []:
            if id(variable) in seen:
                continue
            seen.add(id(variable))
            # A copy for summary()/count_params(): the endpoints read the SavedModel's own.
            self.add_weight(
                shape=tuple(variable.shape),
                initializer=lambda shape, dtype, v=variable: ops.convert_to_tensor(v.numpy()),
                dtype=variable.dtype.name,
                trainable=False,
                name=variable.name.split(":")[0].replace("/", "_"),
            )
        self.built = True

    def _endpoint(self, training):
        if training:
            if self.call_training_endpoint_fn is not None:
                return self.call_training_endpoint_fn
            if self.trainable:
                raise ValueError(_NOT_TRAINABLE.format(name=self.name, endpoint=self.call_endpoint))
        return self.call_endpoint_fn

    def call(self, inputs, training=False, **kwargs):
        """Runs the endpoint on `inputs`; `kwargs` go to the endpoint as they are."""
        fn = self._endpoint(bool(training))
        tf = _tf()
        flat = tree.flatten(inputs)
        if all(tf.is_tensor(x) for x in flat):  # the tensorflow backend: run in place
            return self._invoke(fn, inputs, kwargs)
        try:
            host = tree.map_structure(lambda x: tf.constant(ops.convert_to_numpy(x)), inputs)
        except Exception as error:
            raise RuntimeError(
                f"TFSMLayer '{self.name}' runs its SavedModel with TensorFlow, so on this "
                "backend it needs concrete inputs, and it received traced ones (inside jit). "
                "Call it eagerly, e.g. compile(..., run_eagerly=True) or layer(x) directly, or "
                "use the tensorflow backend."
            ) from error
        outputs = self._invoke(fn, host, kwargs)
        return tree.map_structure(lambda y: ops.convert_to_tensor(y.numpy()), outputs)

    @staticmethod
    def _invoke(fn, inputs, options):
        concrete = _concrete(fn)
        args, kwargs = concrete.structured_input_signature
        if kwargs and not args:  # a signature: inputs by name
            names = list(kwargs)
            if isinstance(inputs, dict):
                return fn(**inputs, **options)
            flat = tree.flatten(inputs)
            return fn(**dict(zip(names, flat, strict=True)), **options)
        return fn(inputs, **options)

    def compute_output_spec(self, *args, **kwargs):
        # Keras's signature; the arguments are call's (inputs, training=False).
        training = args[1] if len(args) > 1 else kwargs.get("training", False)
        outputs = _concrete(self._endpoint(bool(training))).structured_outputs
        return tree.map_structure(
            lambda s: KerasTensor(tuple(s.shape.as_list()), dtype=s.dtype.name), outputs
        )

    def get_config(self):
        return {
            **super().get_config(),
            "filepath": self.filepath,
            "call_endpoint": self.call_endpoint,
            "call_training_endpoint": self.call_training_endpoint,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        safe = in_safe_mode() if safe_mode is None else safe_mode
        if safe is not False:
            raise ValueError(
                "Requested the deserialization of a TFSMLayer, which loads an external "
                "SavedModel: its graph may run arbitrary code, so this is refused in safe "
                "mode. If you trust the SavedModel, load with safe_mode=False or call "
                "mb.config.enable_unsafe_deserialization()."
            )
        return cls(**config)


_registry.register_builtin(TFSMLayer)
