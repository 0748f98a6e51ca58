"""The torch ``Variable``: its live value is a ``torch.nn.Parameter``."""

import torch

from mb_backend_torch import _device, _sharded
from mb_backend_torch._convert import convert_to_numpy, convert_to_tensor
from mb_backend_torch._dtypes import INEXACT_TORCH
from mb_ops import Variable as _BaseVariable


class Variable(_BaseVariable):
    """An mb Variable holding a ``torch.nn.Parameter``.

    ``requires_grad`` follows ``trainable`` (only float and complex values can
    require a gradient), so the parameter works with ``torch.optim`` and
    ``loss.backward()``. Inside a StatelessScope reads return the scope's value
    (the base class handles that). Torch functions accept a Variable directly.

    A variable that a ``ModelParallel`` layout splits over processes holds a
    parameter of a DTensor (this process's shard, as FSDP2 keeps it); reading it
    gathers the whole value (a collective) and assigning it keeps this process's
    shard (`mb_backend_torch._sharded`).
    """

    def _initialize(self, value):
        if isinstance(value, torch.nn.Parameter):
            self._value = value
            return
        if _sharded.is_sharded(value):
            self._value = torch.nn.Parameter(
                value, requires_grad=self._trainable and value.dtype in INEXACT_TORCH
            )
            # Its reads and writes go through the shard (other variables' reads keep
            # their one attribute lookup).
            self.__class__ = ShardedVariable
            return
        # The converted value may share the caller's buffer (from_numpy, DLPack):
        # a variable owns its memory, on the current device.
        tensor = convert_to_tensor(value, dtype=self._dtype).detach()
        tensor = tensor.to(device=_device.get_device(), copy=True)
        self._value = torch.nn.Parameter(
            tensor, requires_grad=self._trainable and tensor.dtype in INEXACT_TORCH
        )

    def _direct_assign(self, value):
        current = self._value
        if value is current:
            return
        if (
            isinstance(value, torch.Tensor)
            and value.data_ptr() == current.data_ptr()
            and value.shape == current.shape
            and value.stride() == current.stride()
            and value.dtype == current.dtype
            and value.device == current.device
        ):
            return  # updated in place already (a donated step's kernels): same memory
        with torch.no_grad():
            current.copy_(value)

    def _convert_to_tensor(self, value, dtype=None):
        return convert_to_tensor(value, dtype=dtype)

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        if self._value is not None and self._value.dtype in INEXACT_TORCH:
            self._value.requires_grad_(self._trainable)

    def __array__(self, dtype=None, copy=None):
        out = convert_to_numpy(self.value)
        return out.astype(dtype) if dtype is not None else out

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        # Let torch.* functions take a Variable where they take a tensor.
        args = [a.value if isinstance(a, _BaseVariable) else a for a in args]
        kwargs = {
            k: (v.value if isinstance(v, _BaseVariable) else v) for k, v in (kwargs or {}).items()
        }
        return func(*args, **kwargs)


class ShardedVariable(Variable):
    """A `Variable` that a layout splits over processes: it holds this process's shard
    (a DTensor parameter); reads gather the whole value (a collective), assignments
    keep this process's shard of the whole value they are given."""

    @property
    def value(self):
        """The whole value, gathered from every process's shard."""
        return _sharded.whole(_BaseVariable.value.fget(self))

    @property
    def local_value(self):
        """The stored value (this process's shard, a DTensor), or a stateless scope's
        value for this variable: what `value` gathers from."""
        return _BaseVariable.value.fget(self)

    def _direct_assign(self, value):
        if value is not self._value:
            _sharded.assign_shard(self._value, value)
