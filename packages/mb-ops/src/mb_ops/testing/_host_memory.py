"""Page faults of a step-like allocation pattern, before and after some code runs.

malloc's thresholds belong to the process, and glibc moves them by itself as a
process frees large blocks, so each measurement runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from typing import Any

from mb_ops.host_memory import USER_SETTINGS

# Three 4 MiB arrays made and freed, 20 times: the pattern of a step's activations.
# After the first round glibc serves them from its heap, and freeing all three leaves
# 12 MiB free at the top of the heap, above its trim threshold (2 x 4 MiB then), so it
# hands the memory back and the next round faults every page in again.
_SCRIPT = textwrap.dedent(
    """
    import json, resource
    import numpy as np

    def faults():
        start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(20):
            arrays = [np.ones(1 << 20, np.float32) for _ in range(3)]
            del arrays
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start

    before = faults()
    {code}
    faults()  # the heap grows to hold one round
    print(json.dumps({{"before": before, "after": faults()}}))
    """
)


def freed_buffer_faults(code: str, **env: str) -> dict[str, Any]:
    """Minor page faults of 20 rounds of the pattern before and after ``code`` runs.

    ``code`` is one line of Python run in between (e.g. compiling a step). ``env``
    is added to the child's environment, from which the user's malloc settings are
    removed first.
    """
    environment = {k: v for k, v in os.environ.items() if k not in USER_SETTINGS}
    environment.update(env)
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT.format(code=code)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise AssertionError(f"the child failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def glibc() -> bool:
    """Whether this process runs on glibc (where malloc's thresholds can be set)."""
    return sys.platform.startswith("linux") and bool(os.confstr("CS_GNU_LIBC_VERSION"))
