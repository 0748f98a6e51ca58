"""The ``layer`` contract module: what the base ``Layer`` takes from an engine."""

from typing import Any, Protocol


class Layer(Protocol):
    """The names every backend's ``layer`` module provides: none are required."""


class LayerOptional(Protocol):
    """Names a backend's ``layer`` module may provide; mb uses them when present."""

    @property
    def BackendLayer(self) -> type[Any]:
        """A base class every mb ``Layer`` also derives from (torch: ``torch.nn.Module``)."""
        ...

    # mb_layers.layers.TorchModuleWrapper (torch)
    def torch_module_parameters(self, module: Any) -> Any:
        """``(name, parameter)`` of a ``torch.nn.Module``, moved to mb's device first."""
        ...

    def torch_module_call(
        self, module: Any, parameters: Any, training: Any, args: Any, kwargs: Any
    ) -> Any:
        """Runs ``module`` with ``parameters`` (``{name: tensor}``) in place of its own."""
        ...

    def torch_module_state(self, module: Any) -> Any:
        """The module's ``state_dict`` as NumPy arrays (buffers included)."""
        ...

    def torch_module_load_state(self, module: Any, arrays: Any) -> Any:
        """Loads ``{name: array}`` into the module's ``state_dict``, in place."""
        ...

    def torch_module_to_bytes(self, module: Any) -> Any:
        """The pickled module (loading it runs code, so only in unsafe mode)."""
        ...

    def torch_module_from_bytes(self, data: Any) -> Any:
        """The module of ``torch_module_to_bytes`` (unpickles: trusted data only)."""
        ...

    # mb_layers.layers.JaxLayer and FlaxLayer (jax)
    def jax_tree_flatten(self, tree: Any) -> Any:
        """``(leaves, treedef)`` of a JAX pytree."""
        ...

    def jax_tree_unflatten(self, treedef: Any, leaves: Any) -> Any:
        """The pytree of ``treedef`` holding ``leaves``."""
        ...

    def jax_rng_key(self, seed: Any) -> Any:
        """A raw ``uint32[2]`` JAX key from an mb seed (a tensor of shape (2,))."""
        ...

    def flax_functions(self, module: Any, method: Any = None) -> Any:
        """``(init_fn, call_fn)`` of a ``flax.linen.Module`` in ``JaxLayer``'s conventions."""
        ...
