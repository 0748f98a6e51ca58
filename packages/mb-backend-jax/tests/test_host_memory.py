"""A step compiled for the CPU keeps glibc's malloc from returning its freed buffers."""

import pytest

from mb_ops import testing

pytestmark = pytest.mark.skipif(not testing.glibc(), reason="malloc's thresholds are glibc's")


def test_a_compiled_cpu_step_stops_the_page_faults_of_freed_buffers():
    # What fit, evaluate and predict call for their steps.
    code = "from mb_backend_jax import training; training.jit(lambda x: x + 1)"
    faults = testing.freed_buffer_faults(code, JAX_PLATFORMS="cpu")
    assert faults["before"] > 5_000, faults  # ~60,000 pages in 20 rounds of 12 MiB
    assert faults["after"] < 200, faults
