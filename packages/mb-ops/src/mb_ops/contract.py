"""The backend contract: what every backend module must provide (Keras 3.15.1's names)."""

from mb_ops._contract import OPTIONAL as OPTIONAL
from mb_ops._contract import REQUIRED as REQUIRED
from mb_ops._contract import check_backend_contract as check_backend_contract
from mb_ops._contract import declared_unsupported as declared_unsupported

__all__ = ["OPTIONAL", "REQUIRED", "check_backend_contract", "declared_unsupported"]
