"""``rearrange`` (einops-style axis rearrangement)."""

from mb_ops._ops.einops import rearrange as rearrange

__all__ = [
    "rearrange",
]
