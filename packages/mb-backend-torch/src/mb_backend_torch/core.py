"""Tensors of the PyTorch backend are ``torch.Tensor``."""

import numpy as np
import torch


def is_tensor(x):
    return isinstance(x, torch.Tensor)


def convert_to_tensor(x, dtype=None):
    if isinstance(x, torch.Tensor):
        return x if dtype is None else x.to(getattr(torch, dtype))
    return torch.as_tensor(np.asarray(x, dtype=dtype))


def convert_to_numpy(x):
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy()
    return np.asarray(x)
