"""The ``layer`` contract module of the torch backend: an mb layer is a ``torch.nn.Module``.

``BackendLayer`` is mixed into ``mb_layers.Layer``. Its trainable variables are
registered as the module's parameters (their values are ``torch.nn.Parameter``
objects, shared, not copied) and the non-trainable ones as buffers, so
``layer.parameters()`` feeds ``torch.optim``, ``state_dict()`` sees every
variable, ``.to(device)`` moves them in place, and ``layer(x)`` / ``forward`` run
the mb call. A plain torch training loop therefore works on an mb model::

    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()          # updates the mb variables in place

The host class provides ``variables`` and ``trainable_variables`` (as
``mb_layers.Layer`` does) and calls ``BackendLayer.__init__`` first.
"""

import io

import torch

from mb_backend_torch import _device
from mb_ops import in_stateless_scope

# Nothing in this module is unsupported on torch.
UNSUPPORTED = {}


def _key(path, taken):
    key = path.replace(".", "_") or "variable"
    base, i = key, 1
    while key in taken:
        key = f"{base}_{i}"
        i += 1
    return key


class _Buffers(torch.nn.Module):
    """Holds the non-trainable variables' values as buffers."""


class BackendLayer(torch.nn.Module):
    """Makes the host layer a ``torch.nn.Module`` over its mb variables."""

    def _post_build(self):
        # Variables created inside a StatelessScope are not initialized yet.
        if in_stateless_scope():
            return
        self._track_variables()

    def _track_variables(self):
        trainable = {id(v) for v in self.trainable_variables}
        variables = self.variables
        signature = tuple((id(v), id(v._value), id(v) in trainable) for v in variables)
        if self.__dict__.get("_torch_signature") == signature and "_torch_params" in self._modules:
            return
        object.__setattr__(self, "_torch_signature", signature)
        params, buffers = torch.nn.ParameterDict(), _Buffers()
        taken = set()
        for variable in variables:
            value = variable._value
            if value is None:  # deferred initialization
                continue
            key = _key(variable.path, taken)
            taken.add(key)
            if id(variable) in trainable and isinstance(value, torch.nn.Parameter):
                params[key] = value
            else:
                buffers.register_buffer(key, value)
        # torch.nn.Module.__setattr__ registers these as submodules.
        torch.nn.Module.__setattr__(self, "_torch_params", params)
        torch.nn.Module.__setattr__(self, "_torch_buffers", buffers)

    @property
    def torch_params(self):
        """The ``ParameterDict`` of trainable variable values, by variable path."""
        if "_torch_params" not in self._modules:
            self._track_variables()
        return self._modules["_torch_params"]

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        # Re-sync first: variables may have been added or made (non-)trainable.
        self._track_variables()
        return torch.nn.Module.named_parameters(self, prefix, recurse, remove_duplicate)

    def forward(self, *args, **kwargs):
        # The host class's __call__ (mb's call pipeline) comes first in the MRO.
        call = type(self).__call__
        if call is torch.nn.Module.__call__:
            raise TypeError(
                f"{type(self).__name__} mixes in BackendLayer but defines no __call__ of its "
                "own, so forward() has nothing to run. Subclass mb_layers.Layer instead."
            )
        return call(self, *args, **kwargs)

    def _post_track_variable(self, variable):
        if "_torch_params" in self._modules and not in_stateless_scope():
            self._track_variables()

    def _post_untrack_variable(self, variable):
        if "_torch_params" in self._modules and not in_stateless_scope():
            self._track_variables()


# ----- TorchModuleWrapper: a torch.nn.Module inside an mb layer ---------------------


def torch_module_parameters(module):
    """``(name, parameter)`` of a ``torch.nn.Module``, moved to mb's device first.

    ``mb_layers.layers.TorchModuleWrapper`` wraps each parameter in a Variable
    that shares it (no copy), so optimizers and ``state_dict`` see one tensor.
    """
    if not isinstance(module, torch.nn.Module):
        raise TypeError(
            "TorchModuleWrapper wraps a torch.nn.Module. Received: "
            f"{module!r} (of type {type(module).__name__})."
        )
    lazy = isinstance(module, torch.nn.modules.lazy.LazyModuleMixin)
    if lazy and module.has_uninitialized_params():
        raise ValueError(
            f"TorchModuleWrapper received a lazy module whose parameters are not made yet: "
            f"{module}. Run it once on an example input before wrapping it."
        )
    module.to(_device.get_device())
    return list(module.named_parameters())


def torch_module_call(module, parameters, training, args, kwargs):
    """Runs `module` with `parameters` (``{name: tensor}``) in place of its own.

    Inside mb's stateless steps the tensors are the step's values, so gradients
    reach them; ``training`` switches the module's train/eval mode, as Keras does.
    """
    module.train(training is not False)
    return torch.func.functional_call(module, parameters, tuple(args), kwargs, strict=False)


def torch_module_state(module):
    """The module's ``state_dict`` as NumPy arrays (buffers included)."""
    return {key: value.detach().cpu().numpy() for key, value in module.state_dict().items()}


def torch_module_load_state(module, arrays):
    """Loads ``{name: array}`` into the module's ``state_dict``, in place."""
    state = {key: torch.as_tensor(value) for key, value in arrays.items()}
    module.load_state_dict(state)


def torch_module_to_bytes(module):
    """The pickled module (``torch.save``): loading it runs code, so only in unsafe mode."""
    buffer = io.BytesIO()
    torch.save(module, buffer)
    return buffer.getvalue()


def torch_module_from_bytes(data):
    """The module of `torch_module_to_bytes` (unpickles: call only with trusted data)."""
    return torch.load(io.BytesIO(data), weights_only=False)


Layer = BackendLayer
