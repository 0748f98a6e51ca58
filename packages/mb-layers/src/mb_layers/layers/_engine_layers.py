"""Layers around an engine's own models: `TorchModuleWrapper`, `JaxLayer`, `FlaxLayer`.

Each needs its engine as the active backend; what touches the engine lives in
that backend's ``layer`` contract module (``torch_module_*`` on torch,
``jax_tree_*`` and ``flax_functions`` on jax), so this module names no engine.
The wrapped weights are mb Variables: they train with ``fit`` (mb's stateless
steps feed their values through the engine's function), save and load.
"""

import base64
import inspect

import numpy as np

from mb_graph import KerasTensor, tree
from mb_layers import _backend
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_ops import backends, config
from mb_ops.random import SeedGenerator, draw_seed


def _engine_hooks(layer_name, backend_name, *names):
    """The active backend's ``layer`` functions `names`, or a ValueError naming the fix."""
    module = backends.backend_module("layer")
    hooks = [getattr(module, name, None) for name in names]
    if any(hook is None for hook in hooks):
        raise ValueError(
            f"{layer_name} needs MB_BACKEND={backend_name}; the active backend is "
            f"{config.backend()}. Set MB_BACKEND={backend_name} before importing mb."
        )
    return hooks


def _placeholders(spec):
    """Zeros of a KerasTensor's shape (unknown dimensions as 1), to run a function once."""
    shape = tuple(1 if d is None else d for d in spec.shape)
    return ops.zeros(shape, dtype=spec.dtype)


def _specs_like(outputs, batch_unknown):
    def spec(x):
        shape = tuple(x.shape)
        if batch_unknown and shape:
            shape = (None, *shape[1:])
        return KerasTensor(shape, dtype=x.dtype)

    return tree.map_structure(spec, outputs)


class TorchModuleWrapper(Layer):
    """A ``torch.nn.Module`` as an mb layer (torch backend), its parameters as Variables.

    The module's parameters become the layer's weights without a copy, so
    ``fit``, ``torch.optim`` and the module itself see the same tensors. In
    ``call`` the module runs on the values mb's training step gives those
    Variables (``torch.func.functional_call``), in train mode unless
    ``training=False``. Saving writes the module's ``state_dict`` (buffers
    included); the config holds the pickled module, which loads only with
    ``safe_mode=False``.

    Args:
        module: the ``torch.nn.Module`` (lazy modules must have run once).
        name: the layer's name.
        output_shape: the output shape for symbolic calls; by default the module
            runs once on zeros to find it.

    Example:
        >>> import torch  # doctest: +SKIP
        >>> layer = TorchModuleWrapper(torch.nn.Linear(4, 2))  # doctest: +SKIP
        >>> [w.shape for w in layer.trainable_weights]  # doctest: +SKIP
        [(2, 4), (2,)]
    """

    def __init__(self, module, name=None, output_shape=None, **kwargs):
        super().__init__(name=name, **kwargs)
        hooks = _engine_hooks(
            "TorchModuleWrapper",
            "torch",
            "torch_module_parameters",
            "torch_module_call",
            "torch_module_state",
            "torch_module_load_state",
            "torch_module_to_bytes",
            "torch_module_from_bytes",
        )
        (self._parameters_of, self._call_module, self._state_of, self._load_state) = hooks[:4]
        self._to_bytes, self._from_bytes = hooks[4:]
        self.module = module
        self.output_shape = output_shape
        self._parameter_names = []
        variable_class = _backend.variable_class()
        for name_in_module, parameter in self._parameters_of(module):
            variable = variable_class(
                initializer=parameter,
                trainable=parameter.requires_grad,
                name=name_in_module.replace(".", "_"),
            )
            self._track_variable(variable)
            self._parameter_names.append((name_in_module, variable))
        self.built = True

    def parameters(self, recurse=True):
        """The wrapped module's parameters (as ``torch.nn.Module.parameters``)."""
        return self.module.parameters(recurse=recurse)

    def call(self, *args, training=None, **kwargs):
        parameters = {name: variable.value for name, variable in self._parameter_names}
        return self._call_module(self.module, parameters, training, args, kwargs)

    def compute_output_spec(self, *args, **kwargs):
        kwargs.pop("training", None)  # the spec is the inference call's
        if self.output_shape is not None:
            return KerasTensor(tuple(self.output_shape), dtype=self.compute_dtype)
        concrete = tree.map_structure(_placeholders, args)
        outputs = self.call(*concrete, training=False, **kwargs)
        batch_unknown = any(x.shape and x.shape[0] is None for x in tree.flatten(args))
        return _specs_like(outputs, batch_unknown)

    def compute_output_shape(self, input_shape):
        if self.output_shape is not None:
            return tuple(self.output_shape)
        spec = tree.map_shape_structure(KerasTensor, input_shape)
        return tree.map_structure(lambda x: x.shape, self.compute_output_spec(spec))

    def save_own_variables(self, store):
        for key, value in self._state_of(self.module).items():
            store[key] = value

    def load_own_variables(self, store):
        names = store.keys()  # a weights store is not a dict: no iteration of its own
        arrays = {
            (key.decode() if isinstance(key, bytes) else key): np.asarray(store[key])
            for key in names
        }
        self._load_state(self.module, arrays)

    def get_config(self):
        module = base64.b64encode(self._to_bytes(self.module)).decode("ascii")
        return {**super().get_config(), "module": module, "output_shape": self.output_shape}

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        config = dict(config)
        if isinstance(config.get("module"), str):
            if safe_mode is not False:  # None (not said) is safe: fail closed
                raise ValueError(
                    "This TorchModuleWrapper config holds a pickled torch.nn.Module; loading it "
                    "runs code from the file. Refused because safe_mode is on. Pass "
                    "safe_mode=False only for files you trust."
                )
            (from_bytes,) = _engine_hooks("TorchModuleWrapper", "torch", "torch_module_from_bytes")
            config["module"] = from_bytes(base64.b64decode(config["module"].encode("ascii")))
        return cls(**config)


_CALL_ARGUMENTS = ("params", "state", "rng", "inputs", "training")
_INIT_ARGUMENTS = ("rng", "inputs", "training")


def _argument_names(fn, fn_name, allowed):
    names = list(inspect.signature(fn).parameters)
    unknown = [n for n in names if n not in allowed]
    if unknown or "inputs" not in names:
        raise ValueError(
            f"JaxLayer `{fn_name}` must take `inputs` and only arguments among "
            f"{', '.join(allowed)}. Received: {fn_name}({', '.join(names)})."
        )
    return names


class JaxLayer(Layer):
    """A JAX function as an mb layer (jax backend), its pytrees of weights as Variables.

    ``call_fn`` takes ``inputs`` and any of ``params`` (trainable weights),
    ``state`` (non-trainable weights; the function then returns
    ``(outputs, new_state)``), ``rng`` (a JAX key, drawn from the layer's
    seed generator in training, None in inference) and ``training``.
    ``init_fn(rng, inputs, training)`` returns ``params`` (or ``(params,
    state)``) and runs once at build; or pass ``params``/``state`` directly.
    Every leaf of the pytrees becomes a Variable, so ``fit`` trains them.

    Args:
        call_fn: the forward function.
        init_fn: the initializer, used when `params`/`state` are not given.
        params, state: pytrees of initial values.
        seed: the seed of the ``rng`` stream.

    Example:
        >>> import jax.numpy as jnp  # doctest: +SKIP
        >>> def call_fn(params, inputs):  # doctest: +SKIP
        ...     return inputs @ params["w"]
        >>> layer = JaxLayer(call_fn, params={"w": jnp.ones((3, 2))})  # doctest: +SKIP
        >>> layer(jnp.ones((4, 3))).shape  # doctest: +SKIP
        (4, 2)
    """

    _LAYER_NAME = "JaxLayer"

    def __init__(
        self,
        call_fn,
        init_fn=None,
        params=None,
        state=None,
        seed=None,
        native_serialization_platforms=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        # Keras uses it for jax2tf on the tensorflow backend; mb runs JaxLayer on jax only.
        self.native_serialization_platforms = native_serialization_platforms
        flatten, unflatten, rng_key = _engine_hooks(
            self._LAYER_NAME, "jax", "jax_tree_flatten", "jax_tree_unflatten", "jax_rng_key"
        )
        self._flatten, self._unflatten, self._rng_key = flatten, unflatten, rng_key
        self.call_fn = call_fn
        self.init_fn = init_fn
        self.seed = seed
        self.call_fn_arguments = _argument_names(call_fn, "call_fn", _CALL_ARGUMENTS)
        if init_fn is not None:
            self.init_fn_arguments = _argument_names(init_fn, "init_fn", _INIT_ARGUMENTS)
        self._takes_state = "state" in self.call_fn_arguments
        needs_weights = "params" in self.call_fn_arguments or self._takes_state
        if init_fn is None and params is None and state is None and needs_weights:
            raise ValueError(
                f"{self._LAYER_NAME}: `call_fn` takes `params` or `state`, so give `init_fn`, "
                "`params` or `state` to make them."
            )
        self.seed_generator = SeedGenerator(seed) if "rng" in self.call_fn_arguments else None
        self._params = self._state = None
        if params is not None or state is not None or not needs_weights:
            self._make_weights(params, state)
            self.built = True

    def _make_weights(self, params, state):
        self._params = self._variables_of(params, trainable=True, prefix="param")
        self._state = self._variables_of(state, trainable=False, prefix="state")

    def _variables_of(self, pytree, trainable, prefix):
        if pytree is None:
            return None
        leaves, treedef = self._flatten(pytree)
        variables = []
        for i, leaf in enumerate(leaves):
            variable = self.add_weight(
                shape=tuple(leaf.shape),
                initializer=lambda shape, dtype, leaf=leaf: ops.convert_to_tensor(leaf),
                dtype=str(leaf.dtype),
                trainable=trainable,
                name=f"{prefix}_{i}",
            )
            variables.append(variable)
        return treedef, variables

    @property
    def params(self):
        """The trainable pytree (of Variables), or None."""
        return None if self._params is None else self._unflatten(*self._params)

    @property
    def state(self):
        """The non-trainable pytree (of Variables), or None."""
        return None if self._state is None else self._unflatten(*self._state)

    def build(self, input_shape):
        if self._params is not None or self._state is not None:
            return
        inputs = tree.map_shape_structure(
            lambda s: ops.ones(tuple(1 if d is None else d for d in s)), input_shape
        )
        arguments = {
            "rng": self._rng_key(draw_seed(None)),
            "inputs": inputs,
            "training": True,
        }
        result = self.init_fn(*(arguments[n] for n in self.init_fn_arguments))
        params, state = result if self._takes_state else (result, None)
        self._make_weights(params, state)

    def _values(self, group):
        if group is None:
            return None
        treedef, variables = group
        return self._unflatten(treedef, [v.value for v in variables])

    def call(self, inputs, training=False):
        arguments = {"params": self._values(self._params), "state": self._values(self._state)}
        arguments["inputs"], arguments["training"] = inputs, bool(training)
        rng = None
        if self.seed_generator is not None and training:
            rng = self._rng_key(self.seed_generator.next())
        arguments["rng"] = rng
        result = self.call_fn(*(arguments[n] for n in self.call_fn_arguments))
        if not self._takes_state:
            return result
        outputs, new_state = result
        leaves, _ = self._flatten(new_state)
        variables = [] if self._state is None else self._state[1]
        if len(leaves) != len(variables):
            raise ValueError(
                f"{self._LAYER_NAME}: `call_fn` returned a state of {len(leaves)} arrays; the "
                f"state made at build has {len(variables)}. Return the state's structure."
            )
        for variable, value in zip(variables, leaves, strict=True):
            variable.assign(value)
        return outputs

    def compute_output_spec(self, *args, **kwargs):
        inputs = args[0] if args else kwargs["inputs"]  # Keras's signature: call's arguments
        concrete = tree.map_structure(_placeholders, inputs)
        outputs = self.call(concrete, training=False)
        batch_unknown = any(x.shape and x.shape[0] is None for x in tree.flatten(inputs))
        return _specs_like(outputs, batch_unknown)

    def get_config(self):
        raise NotImplementedError(
            f"{self._LAYER_NAME} holds Python functions, which mb does not serialize. Save "
            "the weights (save_weights) and rebuild the layer from your code."
        )


class FlaxLayer(JaxLayer):
    """A ``flax.linen.Module`` as an mb layer (jax backend, ``pip install mb-backend-jax[flax]``).

    The ``"params"`` collection is trainable; the other collections (for example
    ``"batch_stats"``) are non-trainable state that each call updates. Dropout
    gets its keys from the layer's seed generator in training.

    Args:
        module: the Flax module.
        method: the module's method to call (a name or a function taking the
            module first); ``__call__`` by default. It takes ``inputs`` and
            optionally ``training``.
        variables: initial variables (as ``module.init`` returns); made by
            ``module.init`` at build when None.
        **kwargs: as `JaxLayer` (``seed``: the seed of the dropout keys) and `Layer`.

    Example:
        >>> import flax.linen as nn  # doctest: +SKIP
        >>> layer = FlaxLayer(nn.Dense(2))  # doctest: +SKIP
        >>> layer(np.ones((4, 3), "float32")).shape  # doctest: +SKIP
        (4, 2)
    """

    _LAYER_NAME = "FlaxLayer"

    def __init__(self, module, method=None, variables=None, **kwargs):
        (flax_functions,) = _engine_hooks("FlaxLayer", "jax", "flax_functions")
        init_fn, call_fn = flax_functions(module, method)
        self.module = module
        self.method = method
        params, state = (None, None)
        if variables is not None:
            variables = dict(variables)
            params = variables.pop("params", {})
            state = variables
        super().__init__(call_fn, init_fn=init_fn, params=params, state=state, **kwargs)
