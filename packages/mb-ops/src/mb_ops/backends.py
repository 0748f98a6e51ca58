"""The backend contract as seen by backend packages and by mb itself.

A backend package registers a :class:`BackendDescriptor` under the
``mb.backends`` entry-point group and provides the modules named in
``CONTRACT_MODULES``.
"""

from mb_ops._backends import CONTRACT_MODULES as CONTRACT_MODULES
from mb_ops._backends import ENTRY_POINT_GROUP as ENTRY_POINT_GROUP
from mb_ops._backends import OFFICIAL_BACKENDS as OFFICIAL_BACKENDS
from mb_ops._backends import BackendDescriptor as BackendDescriptor
from mb_ops._backends import BackendNotInstalledError as BackendNotInstalledError
from mb_ops._backends import available_backends as available_backends
from mb_ops._backends import backend_descriptor as backend_descriptor
from mb_ops._backends import backend_module as backend_module
from mb_ops._backends import load_backend as load_backend
from mb_ops._backends import resolve_backend_name as resolve_backend_name
from mb_ops._config import requested_backend as requested_backend
from mb_ops._contract import lookup as lookup
from mb_ops._contract import unsupported_reason as unsupported_reason
from mb_ops._dynamic_backend import DynamicBackend as DynamicBackend

__all__ = [
    "CONTRACT_MODULES",
    "ENTRY_POINT_GROUP",
    "OFFICIAL_BACKENDS",
    "BackendDescriptor",
    "BackendNotInstalledError",
    "DynamicBackend",
    "available_backends",
    "backend_descriptor",
    "backend_module",
    "load_backend",
    "lookup",
    "requested_backend",
    "resolve_backend_name",
    "unsupported_reason",
]
