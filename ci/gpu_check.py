"""`ci/test --gpu`'s first step per leg: the active backend's engine must see a GPU.

Run with MB_BACKEND set. Prints the devices mb sees on that engine; exits 1 when none is
an accelerator (no silent CPU fallback), unless `--allow-cpu` (the dry run).
"""

from __future__ import annotations

import sys

from mb_ops import backends, config


def main(argv: list[str]) -> int:
    devices = backends.backend_module("distribution").list_devices()
    accelerators = [d for d in devices if not d.startswith("cpu")]
    print(f"{config.backend()}: devices {', '.join(devices) or 'none'}")
    if accelerators or "--allow-cpu" in argv:
        return 0
    print(
        f"{config.backend()} sees no GPU. Build the GPU environment with "
        "`python3 ci/gpu_env.py` on a machine with an NVIDIA driver (see `nvidia-smi`), "
        "or run `bash ci/test --gpu --dry-run` to check the plumbing on the CPU.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
