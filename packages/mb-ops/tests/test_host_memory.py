"""`host_memory.keep_step_buffers`: freed step buffers are kept, not faulted in again."""

import pytest

from mb_ops import testing

pytestmark = pytest.mark.skipif(not testing.glibc(), reason="malloc's thresholds are glibc's")

SET = "from mb_ops import host_memory; assert host_memory.keep_step_buffers()"


def test_raised_thresholds_stop_the_faults_of_freed_buffers():
    faults = testing.freed_buffer_faults(SET)
    # 20 rounds of 12 MiB are ~60,000 pages: glibc's own thresholds fault most of them.
    assert faults["before"] > 5_000, faults
    assert faults["after"] < 200, faults


def test_the_users_malloc_settings_win():
    code = "from mb_ops import host_memory; assert not host_memory.keep_step_buffers()"
    faults = testing.freed_buffer_faults(code, MALLOC_TRIM_THRESHOLD_="131072")
    assert faults["after"] > 5_000, faults  # their (small) trim threshold still holds


def test_only_the_first_call_decides():
    code = (
        "from mb_ops import host_memory; first = host_memory.keep_step_buffers(); "
        "assert host_memory.keep_step_buffers() is first is True"
    )
    assert testing.freed_buffer_faults(code)["after"] < 200
