"""Loading order of two engines that bundle LLVM: triton (torch's compiler) and TensorFlow.

``torch.export``, ``torch.compile`` and ``torch.export.load`` load triton. Loaded
after TensorFlow, triton aborts the whole process ("LLVM ERROR: inconsistency in
registered CommandLine options"); loaded before, both work. So the backend loads
triton with its first module (``_dtypes``) while TensorFlow is not loaded yet, and
the steps that need triton check the order first: a process that imported
TensorFlow before using the torch backend gets an error instead of an abort.
"""

import importlib.util
import sys


def _triton_installed():
    return importlib.util.find_spec("triton") is not None


def load_triton_first():
    """Imports triton now, unless TensorFlow is loaded already or triton is absent."""
    if "triton" not in sys.modules and "tensorflow" not in sys.modules and _triton_installed():
        importlib.import_module("triton")


def check_triton_loadable(what):
    """Raises RuntimeError where `what` would load triton after TensorFlow (an abort)."""
    if "triton" in sys.modules or "tensorflow" not in sys.modules or not _triton_installed():
        return
    raise RuntimeError(
        f"{what} loads triton (torch's compiler), and this process loaded TensorFlow before "
        "the torch backend: both bundle LLVM, and triton loaded after TensorFlow aborts the "
        "process. Import mb (or torch._dynamo) before tensorflow, or run this step in a "
        "fresh process (e.g. `mb export model.keras --format torch`)."
    )
