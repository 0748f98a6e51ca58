"""A compiled CPU step keeps glibc's malloc from returning its buffers between steps.

Each check runs in a fresh interpreter: malloc's thresholds belong to the process,
and glibc moves them by itself as a process frees large blocks.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from mb_backend_torch._malloc import USER_SETTINGS

glibc = pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.confstr("CS_GNU_LIBC_VERSION") is None,
    reason="mallopt's thresholds are glibc's",
)

# Three 4 MiB tensors made and freed, 20 times: the pattern of a step's activations.
# After the first round glibc serves them from its heap, and freeing all three leaves
# 12 MiB free at the top of the heap, above its trim threshold (2 x 4 MiB then), so it
# hands the memory back and the next round faults every page in again.
_SCRIPT = textwrap.dedent(
    """
    import json, resource, sys
    import torch
    from mb_backend_torch import _malloc, training

    def faults():
        start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(20):
            tensors = [torch.empty(1 << 20).fill_(1.0) for _ in range(3)]
            del tensors
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start

    before = faults()
    training.jit(lambda x: x + 1, pure=True)  # what fit, evaluate and predict call
    faults()  # the heap grows to hold the round once
    print(json.dumps({"before": before, "after": faults(),
                      "applied": _malloc.keep_step_buffers()}))
    """
)


def _run(**env):
    environment = {k: v for k, v in os.environ.items() if k not in USER_SETTINGS}
    environment.update(env, MB_TORCH_DEVICE="cpu")
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@glibc
def test_a_compiled_cpu_step_stops_the_page_faults_of_freed_buffers():
    result = _run()
    assert result["applied"] is True
    # 20 rounds of 12 MiB are ~60,000 pages: glibc's own thresholds fault most of them.
    assert result["before"] > 5_000, result
    assert result["after"] < 200, result


@glibc
def test_the_users_malloc_settings_win():
    result = _run(MALLOC_TRIM_THRESHOLD_="131072")
    assert result["applied"] is False
    assert result["after"] > 5_000, result  # their (small) trim threshold still holds
