"""What a user training on a GPU notices, checked on the device the backend computes on.

Every test here is marked `gpu`: skipped on a machine without an accelerator, failed
instead of skipped under `ci/test --gpu` (MB_REQUIRE_GPU), and run on the CPU device
under `ci/test --gpu --dry-run` (MB_GPU_DRY_RUN), which checks the tests' own logic in
ordinary CI. The device kind they expect is the `device_kind` fixture's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mb
from mb_ops import backends, config

pytestmark = [pytest.mark.gpu, pytest.mark.trains]

_DRY_RUN = os.environ.get("MB_GPU_DRY_RUN") == "1"


@pytest.fixture
def device_kind():
    """The kind of device this leg computes on: ``gpu`` (``cpu`` in the dry run)."""
    devices = backends.backend_module("distribution").list_devices()
    kinds = [d.split(":")[0] for d in devices if not d.startswith("cpu")]
    return "cpu" if _DRY_RUN or not kinds else "gpu"


def _kind_of(tensor):
    """``cpu`` or ``gpu``: where an engine tensor lives (jax, torch or tensorflow)."""
    if hasattr(tensor, "devices") and callable(tensor.devices):  # jax.Array
        platforms = {d.platform for d in tensor.devices()}
        return "cpu" if platforms == {"cpu"} else "gpu"
    device = tensor.device
    name = getattr(device, "type", device)  # torch.device or TensorFlow's device string
    name = str(name).lower()
    return "gpu" if ("cuda" in name or "gpu" in name) else "cpu"


def _data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 8)).astype("float32")
    y = (x @ rng.normal(size=(8, 1)) + 0.1).astype("float32")
    return x, y


def _model(seed=1, dtype=None):
    mb.utils.set_random_seed(seed)
    return mb.Sequential(
        [
            mb.Input((8,)),
            mb.layers.Dense(16, activation="relu", dtype=dtype),
            mb.layers.Dense(1, dtype=dtype),
        ]
    )


def _weights(model):
    return [np.asarray(w, dtype="float32") for w in model.get_weights()]


def test_accelerator_is_listed(device_kind):
    devices = backends.backend_module("distribution").list_devices()
    assert any(d.split(":")[0] in (device_kind, "cuda") for d in devices), devices


def test_variables_and_optimizer_state_live_on_the_device(device_kind):
    x, y = _data()
    model = _model()
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    variables = [*model.variables, *model.optimizer.variables]
    assert len(model.optimizer.variables) > 2  # iterations, learning rate, Adam moments
    placed = {v.path: _kind_of(v.value) for v in variables}
    assert set(placed.values()) == {device_kind}, placed


def test_fit_copies_to_the_host_once_per_epoch_not_per_step(monkeypatch):
    """Host copies (mb's convert_to_numpy) do not grow with the number of steps."""
    core = backends.backend_module("core")
    calls = []
    original = core.convert_to_numpy

    def counting(x, *args, **kwargs):
        calls.append(1)
        return original(x, *args, **kwargs)

    monkeypatch.setattr(core, "convert_to_numpy", counting)
    counts = []
    for steps in (4, 16):
        x, y = _data(steps * 8)
        model = _model()
        model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
        calls.clear()
        model.fit(x, y, batch_size=8, epochs=2, verbose=0)
        counts.append(len(calls))
    assert counts[0] == counts[1], f"host copies for 4 and 16 steps per epoch: {counts}"


@pytest.mark.parametrize("policy", ["mixed_bfloat16", "mixed_float16"])
def test_mixed_precision_trains_to_the_float32_result(policy):
    x, y = _data(256)
    results = {}
    for name in ("float32", policy):
        mb.config.set_dtype_policy(name)
        try:
            model = _model()
            optimizer = mb.optimizers.SGD(0.05)
            if name == "mixed_float16":  # float16 gradients underflow without loss scaling
                optimizer = mb.optimizers.LossScaleOptimizer(optimizer)
            model.compile(optimizer=optimizer, loss="mse")
            history = model.fit(x, y, batch_size=32, epochs=5, verbose=0)
        finally:
            mb.config.set_dtype_policy("float32")
        assert model.layers[0].compute_dtype == ("float32" if name == "float32" else policy[6:])
        results[name] = history.history["loss"][-1]
    assert results[policy] < 0.5 * float(np.var(y))  # it learned
    np.testing.assert_allclose(results[policy], results["float32"], rtol=0.1)


def test_attention_kernel_equals_the_einsum_path():
    rng = np.random.default_rng(0)
    q, k, v = (rng.normal(size=(2, 16, 4, 8)).astype("float32") for _ in range(3))
    logits = np.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(8)
    weights = np.exp(logits - logits.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    expected = np.einsum("bhqk,bkhd->bqhd", weights, v)
    got = mb.ops.dot_product_attention(q, k, v)
    np.testing.assert_allclose(mb.ops.convert_to_numpy(got), expected, rtol=1e-4, atol=1e-4)
    half = mb.ops.dot_product_attention(*(mb.ops.cast(t, "float16") for t in (q, k, v)))
    np.testing.assert_allclose(
        mb.ops.convert_to_numpy(mb.ops.cast(half, "float32")), expected, rtol=2e-2, atol=2e-2
    )


def test_steps_per_execution_and_data_pipelines_give_the_same_weights():
    x, y = _data(64)
    reference = None
    variants = [{}, {"steps_per_execution": 4}]
    if config.backend() == "torch" and not _DRY_RUN:
        # torch.compile on the CPU takes minutes: the dry run leaves this variant to the GPU.
        variants.append({"jit_compile": True})
    for compile_kwargs in variants:
        model = _model()
        model.compile(optimizer="sgd", loss="mse", **compile_kwargs)
        model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False)
        if reference is None:
            reference = _weights(model)
        for got, want in zip(_weights(model), reference, strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=str(compile_kwargs))
    feeds = []
    if config.backend() == "torch":
        import torch

        dataset = torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
        pin = torch.cuda.is_available()
        feeds.append(torch.utils.data.DataLoader(dataset, batch_size=8, pin_memory=pin))
    if config.backend() in ("tensorflow", "jax"):
        tf = pytest.importorskip("tensorflow")
        feeds.append(tf.data.Dataset.from_tensor_slices((x, y)).batch(8).prefetch(2))
    for feed in feeds:
        model = _model()
        model.compile(optimizer="sgd", loss="mse")
        model.fit(feed, epochs=2, verbose=0)
        for got, want in zip(_weights(model), reference, strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=type(feed).__name__)


_PREDICT_ELSEWHERE = textwrap.dedent(
    """
    import sys
    import numpy as np
    import mb
    model = mb.models.load_model(sys.argv[1])
    from mb_ops import backends
    print(mb.config.backend(), *backends.backend_module("distribution").list_devices())
    np.save(sys.argv[2], model.predict(np.load(sys.argv[3]), verbose=0))
    """
)


@pytest.mark.slow
def test_a_model_trained_here_predicts_the_same_on_every_backend_on_the_cpu(tmp_path):
    x, y = _data()
    model = _model()
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, batch_size=16, epochs=2, verbose=0)
    path = tmp_path / "trained.keras"
    model.save(path)
    np.save(tmp_path / "x.npy", x)
    expected = model.predict(x, verbose=0)
    # Each other engine on the CPU only: no GPU visible to the child.
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "JAX_PLATFORMS": "cpu"}
    env.pop("MB_REQUIRE_GPU", None)
    for backend in ("jax", "torch", "tensorflow", "numpy"):
        if not backends.available_backends()[backend].engine_installed():
            continue
        out = tmp_path / f"{backend}.npy"
        result = subprocess.run(
            [
                sys.executable,
                "-c",
                _PREDICT_ELSEWHERE,
                str(path),
                str(out),
                str(tmp_path / "x.npy"),
            ],
            env={**env, "MB_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        assert "gpu" not in result.stdout.lower() and "cuda" not in result.stdout.lower()
        np.testing.assert_allclose(np.load(out), expected, rtol=1e-4, atol=1e-5, err_msg=backend)


def test_running_out_of_device_memory_names_the_batch_size():
    if _DRY_RUN:
        pytest.skip("needs device memory to exhaust: on the CPU the host would swap instead")
    # A (65536, 2**20) float32 activation: 256 GiB, more than any single GPU holds.
    model = mb.Sequential([mb.Input((1,)), mb.layers.Dense(2**20), mb.layers.Dense(1)])
    x = np.ones((65536, 1), "float32")
    with pytest.raises(MemoryError, match="a batch of 65536 samples") as info:
        model.predict(x, batch_size=65536, verbose=0)
    assert "batch_size=32768" in str(info.value)
