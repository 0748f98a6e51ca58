"""`mb.distribution` on the engines' own runtimes: many devices, many processes.

Every test runs its distributed program in fresh processes (`_distributed_worker.py`),
with a timeout, on free ports of 127.0.0.1, and kills what is left of them whatever
happens: the devices (``XLA_FLAGS``) and processes (``torch.distributed``,
``jax.distributed``) of a run are fixed when its engine starts.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from mb_ops import config

# Not `slow`: distribution on every engine is a promise the default matrix checks.
pytestmark = [pytest.mark.trains]

WORKER = Path(__file__).with_name("_distributed_worker.py")
TIMEOUT = 240  # seconds for one run, all its processes together

on_jax = pytest.mark.skipif(config.backend() != "jax", reason="XLA's SPMD devices: jax only")
on_torch = pytest.mark.skipif(config.backend() != "torch", reason="torch.distributed: torch only")
on_tensorflow = pytest.mark.skipif(
    config.backend() != "tensorflow", reason="tf.distribute: tensorflow only"
)
on_torch_or_tensorflow = pytest.mark.skipif(
    config.backend() not in ("torch", "tensorflow"),
    reason="processes that each hold their tensors: torch.distributed, tf.distribute",
)
on_training_engines = pytest.mark.skipif(
    config.backend() not in ("jax", "torch", "tensorflow"),
    reason=f"multi-process runs need jax, torch or tensorflow, not {config.backend()}",
)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(scenario, out, world=1, env=None, expect_codes=(0,)):
    """Runs `scenario` in `world` processes; returns each one's JSON result (or None)."""
    port = _free_port()
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    # Each worker imports its engine afresh: with bytecode caching off, every one
    # compiled torch's or TensorFlow's sources again (seconds per process).
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    processes = [
        subprocess.Popen(
            [sys.executable, str(WORKER), scenario, str(rank), str(world), str(port), str(out)],
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed whole below
        )
        for rank in range(world)
    ]
    logs = [""] * world
    try:
        deadline = time.monotonic() + TIMEOUT
        for rank, process in enumerate(processes):
            remaining = max(deadline - time.monotonic(), 1)
            try:
                logs[rank] = process.communicate(timeout=remaining)[0].decode(errors="replace")
            except subprocess.TimeoutExpired:
                pytest.fail(f"{scenario}: process {rank} of {world} ran past {TIMEOUT}s")
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    for rank, process in enumerate(processes):
        assert process.returncode in expect_codes, (
            f"{scenario}: process {rank} exited with {process.returncode}:\n{logs[rank][-4000:]}"
        )
    results = []
    for rank in range(world):
        path = Path(out) / f"{scenario}-{rank}.json"
        results.append(json.loads(path.read_text()) if path.exists() else None)
    return results


def _close(a, b, tol=1e-5):
    for x, y in zip(a, b, strict=True):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=tol, atol=tol)


def _same_training(run, reference, tol=1e-5):
    _close(run["weights"], reference["weights"], tol)
    for key, values in reference["history"].items():
        np.testing.assert_allclose(run["history"][key], values, rtol=tol, atol=tol)
    for key, value in reference["evaluate"].items():
        np.testing.assert_allclose(run["evaluate"][key], value, rtol=tol, atol=tol)
    np.testing.assert_allclose(run["predict"], reference["predict"], rtol=tol, atol=tol)


@on_jax
def test_jax_data_and_model_parallel_on_eight_devices_train_as_one_device(tmp_path):
    env = {"XLA_FLAGS": "--xla_force_host_platform_device_count=8"}
    (result,) = _run("jax_mesh", tmp_path, env=env)
    reference = result["reference"]
    # Weights, logs, evaluation and predictions equal one device's (float32 sums
    # in another order: 1e-5).
    _same_training(result["data_parallel"], reference)
    _same_training(result["model_parallel"], reference)
    shardings = result["shardings"]

    def spec(suffix):
        (found,) = [s for path, s in shardings.items() if path.endswith(suffix)]
        return found

    # Each variable is laid out as the LayoutMap asked (its value's sharding is that
    # layout's), over the 2 x 4 mesh ...
    assert spec("/hidden/kernel") == [[None, "model"], True, 8]
    assert spec("/hidden/bias") == [["model"], True, 8]
    assert spec("/head/kernel") == [["model", None], True, 8]
    assert spec("/head/bias") == [[None], True, 8]  # not in the map: replicated
    # ... and the optimizer's state like its variable.
    assert spec("_hidden_kernel_momentum") == [[None, "model"], True, 8]
    assert spec("_head_kernel_velocity") == [["model", None], True, 8]
    assert all(laid_out for _, laid_out, _ in shardings.values())
    # A sharded model saved to .keras loads on one device with the same weights.
    loaded = result["loaded"]
    assert loaded["devices"] == [1]
    _close(loaded["weights"], result["model_parallel"]["weights"], 0)
    np.testing.assert_allclose(loaded["predict"], result["model_parallel"]["predict"], atol=1e-6)


@pytest.fixture(scope="module")
def tf_two_cpus(tmp_path_factory):
    """One TensorFlow process on two logical CPUs runs the checks of both tests below
    (TensorFlow's start-up is most of each)."""
    (result,) = _run("tf_two_cpus", tmp_path_factory.mktemp("tf_two_cpus"))
    return result


@on_tensorflow
def test_tensorflow_mirrored_strategy_on_two_cpus_trains_as_one_device(tf_two_cpus):
    result = tf_two_cpus["mirrored"]
    assert result["devices"] == ["cpu:0", "cpu:1"]
    assert result["count"] == 2
    for name in ("even", "uneven"):
        # The step ran on 2 replicas (none without a distribution) ...
        assert result[f"{name}_reference_replicas"] == []
        assert result[f"{name}_replicas"] == [2], name
        # ... and trained, evaluated and predicted as one device on the global batches,
        # uneven and empty parts of a batch included (float32 sums in another order).
        _same_training(result[name], result[f"{name}_reference"])
    assert "are not devices TensorFlow sees" in result["bad_devices"]
    assert "set_logical_device_configuration" in result["bad_devices"]


@on_tensorflow
def test_tensorflow_synchronized_batch_norm_on_two_cpus_trains_as_one_device(tf_two_cpus):
    result = tf_two_cpus["synchronized_batch_norm"]
    # Each replica normalizes its 4 rows by the moments of the batch's 8 (one
    # all-reduce): weights, moving statistics, logs and predictions equal one device's
    # (float32 sums in another order: 1e-5) ...
    _same_training(result["synchronized"], result["reference"])
    # ... where moments of each replica's own rows train another model.
    differences = [
        np.max(np.abs(np.asarray(a) - np.asarray(b)))
        for a, b in zip(result["local"]["weights"], result["reference"]["weights"], strict=True)
    ]
    assert max(differences) > 1e-3


def _check_indices(indices, world, num_samples=28):
    """For every data adapter: no sample read by two processes in an epoch, every
    sample read, every process the same number and sizes of batches (the last partial
    batch, 28 % 8 = 4 samples, split too); shuffled inputs in a new order each epoch."""
    kinds = set(indices[0])
    # mb-data's own adapters, and the backend engine's (grain where installed).
    own = {"torch": {"torch_loader", "torch_sampler"}, "tensorflow": {"tf_data"}}
    assert {"arrays", "py_dataset", "generator"} | own.get(config.backend(), set()) <= kinds
    for kind in kinds:
        for epoch in range(2):
            per_rank = [indices[r][kind]["epochs"][epoch] for r in range(world)]
            flat = [i for rank in per_rank for batch in rank for i in batch]
            assert sorted(flat) == list(range(num_samples)), (kind, epoch, per_rank)
            sizes = [[len(b) for b in rank] for rank in per_rank]
            assert all(s == sizes[0] for s in sizes), (kind, sizes)
        if indices[0][kind]["shuffled"]:
            orders = indices[0][kind]["epochs"]
            assert orders[0] != orders[1], f"{kind}: the same order in both epochs"


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory):
    """One run of two processes for both tests below (on torch and tensorflow it also
    writes checkpoints and logs: the `writes` scenario): the results and its folder."""
    out = tmp_path_factory.mktemp("two_processes")
    env = {"XLA_FLAGS": "--xla_force_host_platform_device_count=2"}
    # tf.distribute's TF_CONFIG lists every worker's address (the others need process 0's).
    env["MB_TEST_JOB_ADDRESSES"] = f"127.0.0.1:{_free_port()},127.0.0.1:{_free_port()}"
    return _run("two_processes", out, world=2, env=env), out


@on_training_engines
def test_two_processes_train_one_data_parallel_model_as_one_process(two_processes):
    results, _ = two_processes
    assert [r["process_id"] for r in results] == [0, 1]
    assert all(r["num_processes"] == 2 for r in results)
    # Both processes hold the same weights, logs and predictions, those of one process
    # training on the global batches alone (its reference, without a distribution).
    dp = results[0]["data_parallel"]
    _close(dp["weights"], results[1]["data_parallel"]["weights"], 0)
    assert dp["history"] == results[1]["data_parallel"]["history"]
    assert dp["evaluate"] == results[1]["data_parallel"]["evaluate"]
    _same_training(dp, results[0]["reference"])
    assert len(dp["predict"]) == 44  # every process gets every prediction
    _check_indices([r["indices"] for r in results], 2)
    counts = results[0]["all_reduces"]
    if counts is not None:  # torch: one all-reduce of the gradients per step
        num_params = 4 * 8 + 8 + 8 * 1 + 1
        assert counts[str(num_params)] == 2 * 6  # 2 epochs of 6 batches (44 / 8)


@on_torch_or_tensorflow
def test_only_process_zero_writes_checkpoints_and_logs(two_processes):
    results, tmp_path = two_processes
    results = [result["writes"] for result in results]
    assert results[1]["written"] == []
    written = results[0]["written"]
    assert "log.csv" in written and "model.keras" in written
    assert any(path.startswith("tb") for path in written)
    assert len((tmp_path / "log.csv").read_text().splitlines()) == 3  # header + 2 epochs
    # Layouts a backend cannot store are refused with a clear error: on torch, the
    # head's kernel, (8, 1), split on its dimension of size 1 over 2 processes; on
    # tensorflow, any split (MirroredStrategy replicates every variable).
    error = results[0]["model_parallel"]
    if config.backend() == "torch":
        assert "Cannot split dimension 1 (size 1) of a variable of shape (8, 1)" in error
        assert "over mesh axis 'model' of 2 devices" in error
    else:
        assert "cannot split a tensor over mesh axis 'model'" in error


@on_torch
def test_torch_model_parallel_keeps_dtensor_shards_and_trains_as_one_process(tmp_path):
    env = {"MB_TEST_JOB_ADDRESSES": f"127.0.0.1:{_free_port()}"}
    results = _run("torch_model_parallel", tmp_path, world=2, env=env)
    reference = results[0]["reference"]  # one process, the same global batches
    for rank, result in enumerate(results):
        # Weights, logs, evaluation and predictions equal one process's, on both
        # processes (float32 sums in another order: 1e-5) ...
        _same_training(result["fsdp"], reference)
        _same_training(result["model"], reference)
        _same_training(result["reordered"], reference)
        # ... and each variable is stored as its layout asked: this process keeps a
        # DTensor shard (torch's placements), the optimizer's state like its variable.
        shards = result["shards"]

        def shard(suffix, shards=shards):
            (found,) = [s for path, s in shards.items() if path.endswith(suffix)]
            return found

        assert shard("/hidden/kernel") == [["S(1)"], [4, 4]], rank
        assert shard("/hidden/bias") == [["S(0)"], [4]]
        assert shard("/head/kernel") == [["S(0)"], [4, 1]]
        assert shard("/head/bias") is None  # not in the map: the whole value
        assert shard("_hidden_kernel_momentum") == [["S(1)"], [4, 4]]
        assert shard("_head_kernel_velocity") == [["S(0)"], [4, 1]]
        assert shard("/iteration") is None
        # A 2-D mesh: replicated over its "batch" axis, split over "model".
        model = result["model_shards"]
        assert [s for p, s in model.items() if p.endswith("/hidden/kernel")] == [
            [["R", "S(1)"], [4, 4]]
        ]
        assert [s for p, s in model.items() if p.endswith("/head/kernel")] == [
            [["R", "S(0)"], [4, 1]]
        ]
    # Only process 0 wrote the checkpoint, the backup and what every process asked
    # `save`/`save_weights` to write (process 1 joined in gathering the shards).
    assert results[1]["written"] == []
    assert {"sharded.keras", "every.keras", "every.weights.h5"} <= set(results[0]["written"])
    assert "backup/training_metadata.json" in results[0]["written"]
    # The sharded model's .keras loads in one process: the same weights and predictions.
    (loaded,) = _run("torch_load_sharded", tmp_path)
    _close(loaded["weights"], results[0]["fsdp"]["weights"], 0)
    np.testing.assert_allclose(loaded["predict"], results[0]["fsdp"]["predict"], atol=1e-6)


@on_torch
@pytest.mark.parametrize("kind", ["data_parallel", "model_parallel"])
def test_backup_and_restore_resumes_a_killed_two_process_run(tmp_path, kind):
    env = {"MB_TEST_BACKUP": kind}
    _run("backup_killed", tmp_path, world=2, env=env, expect_codes=(17,))
    assert (tmp_path / "backup" / "training_metadata.json").exists()
    results = _run("backup_resumed", tmp_path, world=2, env=env)
    reference = results[0]["reference"]  # one process, 4 epochs uninterrupted
    for rank, result in enumerate(results):
        assert result["epochs"] == [2, 3]  # resumed after the two epochs backed up
        # The resumed run ends with the weights, evaluation and predictions of the
        # uninterrupted run, on both processes (float32 sums in another order: 1e-5).
        resumed = result["resumed"]
        _close(resumed["weights"], reference["weights"], 1e-5)
        np.testing.assert_allclose(resumed["predict"], reference["predict"], atol=1e-5)
        for key, value in reference["evaluate"].items():
            np.testing.assert_allclose(resumed["evaluate"][key], value, rtol=1e-5, atol=1e-5)
        if kind == "model_parallel":
            # Restored into its shards: each process still holds half of the split
            # variables and of their optimizer state.
            shards = result["shards"]
            (kernel,) = [s for p, s in shards.items() if p.endswith("/hidden/kernel")]
            (moment,) = [s for p, s in shards.items() if p.endswith("_hidden_kernel_momentum")]
            assert kernel == moment == [["S(1)"], [4, 4]], rank
