"""`jit(fn, pure=True)`: a step recorded once per input signature and replayed."""

import subprocess
import sys

import numpy as np
import pytest
import torch

from mb_backend_torch import training
from mb_backend_torch._training_replay import GraphReplay


def _sgd_step(params, momentum, batch):
    """A pure step: gradient of a least-squares loss, momentum update in place."""
    x, y = batch

    def loss_fn(p):
        w, b = p
        return torch.mean((x @ w + b - y) ** 2)

    loss, grads = training.value_and_grad(loss_fn)(params)
    with torch.no_grad():
        new = []
        for p, m, g in zip(params, momentum, grads, strict=True):
            m.mul_(0.9).add_(g)  # in place: the recording must replay this on new inputs
            new.append(p - 0.05 * m)
    return new, momentum, {"loss": loss}


def _state(seed=0):
    rng = np.random.default_rng(seed)
    params = [torch.tensor(rng.standard_normal((3, 1)), dtype=torch.float32), torch.zeros(1)]
    momentum = [torch.zeros(3, 1), torch.zeros(1)]
    return params, momentum


def _batches(n, size=8, seed=1):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        x = torch.tensor(rng.standard_normal((size, 3)), dtype=torch.float32)
        yield x, x @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3


def _train(step, n=12, size=8):
    params, momentum = _state()
    losses = []
    for batch in _batches(n, size):
        params, momentum, logs = step(params, momentum, batch)
        losses.append(float(logs["loss"]))
    return params, momentum, losses


def test_replayed_steps_give_the_eager_numbers_exactly():
    replay = training.jit(_sgd_step, pure=True)
    assert isinstance(replay, GraphReplay)
    eager = _train(_sgd_step)
    replayed = _train(replay)
    assert replay.recorded == 1 and replay.refusals == []
    assert replayed[2] == eager[2]
    for got, want in zip(replayed[0] + replayed[1], eager[0] + eager[1], strict=True):
        torch.testing.assert_close(got, want, rtol=0, atol=0)
    assert eager[2][-1] < eager[2][0] / 3  # the step does learn


def test_a_new_input_shape_is_recorded_separately():
    replay = training.jit(_sgd_step, pure=True)
    params, momentum = _state()
    for size in (8, 8, 8, 5, 5, 5):
        batch = next(_batches(1, size))
        params, momentum, _ = replay(params, momentum, batch)
    assert replay.recorded == 2


def test_the_first_signature_is_recorded_on_its_first_call_later_ones_on_their_second():
    runs = []

    def step(params, momentum, batch):
        runs.append(batch[0].shape[0])  # the step's Python ran (eagerly or recorded)
        return _sgd_step(params, momentum, batch)

    replay = training.jit(step, pure=True)
    params, momentum = _state()
    eager_params, eager_momentum = _state()
    for size in (8, 8, 8, 5, 8, 5, 5):
        batch = next(_batches(1, size))
        params, momentum, logs = replay(params, momentum, batch)
        eager_params, eager_momentum, eager_logs = _sgd_step(eager_params, eager_momentum, batch)
        assert float(logs["loss"]) == float(eager_logs["loss"])
    assert runs == [8, 5, 5]  # 8: recorded at once; 5: eager, then recorded
    assert replay.recorded == 2
    for got, want in zip(params + momentum, eager_params + eager_momentum, strict=True):
        torch.testing.assert_close(got, want, rtol=0, atol=0)


def test_a_first_call_that_reads_a_value_to_build_state_is_recorded_on_the_second():
    """Lazily built state may read a value into Python once (what the eager warm-up
    call used to absorb): that first call runs eagerly, the next one is recorded."""
    built, runs = [], []

    def step(params, momentum, batch):
        runs.append(1)
        if not built:
            built.append(float(params[0].sum()))  # a one-off read, refused when recorded
        return _sgd_step(params, momentum, batch)

    replay = training.jit(step, pure=True)
    eager = _train(_sgd_step)
    got = _train(replay)
    assert replay.recorded == 1 and replay.refusals == []
    # The refused recording (which ran to the read), the eager call, the recording.
    assert len(runs) == 3
    assert got[2] == eager[2]  # the refused recording ran on copies: no update twice


@pytest.mark.parametrize(
    "read",
    [lambda t: t.item(), lambda t: bool(t > 0), lambda t: t.numpy(), lambda t: t.tolist()],
    ids=["item", "bool", "numpy", "tolist"],
)
def test_a_step_that_reads_values_into_python_stays_eager(read):
    calls = []

    def step(params, momentum, batch):
        new, momentum, logs = _sgd_step(params, momentum, batch)
        calls.append(read(logs["loss"]))  # Python work that depends on this step's value
        return new, momentum, logs

    replay = training.jit(step, pure=True)
    eager = _train(_sgd_step)
    got = _train(replay)
    assert len(calls) == 12  # every step ran its Python: nothing was replayed
    assert replay.recorded == 0 and len(replay.refusals) == 1
    assert "reads a tensor's value" in replay.refusals[0]
    # The refused recording ran on copies: the in-place momentum update was applied once.
    assert got[2] == eager[2]


def test_jit_records_only_when_asked():
    assert training.jit(_sgd_step) is _sgd_step
    assert training.jit(_sgd_step, pure=True, mode="eager") is _sgd_step


def test_a_step_with_dropout_is_recorded_and_draws_new_masks_each_step():
    import mb_ops
    from mb_ops import ops
    from mb_ops.random import SeedGenerator

    generator = SeedGenerator(3)
    state = generator.state

    def step(seed_state, x):
        with mb_ops.StatelessScope([(state, seed_state)]) as scope:
            y = ops.nn.dropout(x, 0.5, seed=generator) if hasattr(ops.nn, "dropout") else None
            y = mb_ops.random.dropout(x, 0.5, seed=generator) if y is None else y
        return scope.get_current_value(state), y

    replay = training.jit(step, pure=True)
    x = torch.ones(64)
    seed, eager_seed = state.value.clone(), state.value.clone()
    masks, eager_masks = [], []
    for _ in range(4):
        seed, y = replay(seed, x)
        eager_seed, z = step(eager_seed, x)
        masks.append(y)
        eager_masks.append(z)
    assert replay.recorded == 1 and replay.refusals == []
    for got, want in zip(masks, eager_masks, strict=True):
        torch.testing.assert_close(got, want, rtol=0, atol=0)
    assert not torch.equal(masks[2], masks[3])  # a new seed each step, also when replayed
    assert set(masks[3].unique().tolist()) == {0.0, 2.0}


def test_recording_does_not_import_torchdynamo():
    # TorchDynamo's import costs seconds (more without bytecode caches) and loads triton.

    code = (
        "import sys, torch\n"
        "from mb_backend_torch import training\n"
        "def f(a, b):\n"
        "    loss, g = training.value_and_grad(lambda w: ((w @ b) ** 2).mean())(a)\n"
        "    return a - 0.1 * g\n"
        "step = training.jit(f, pure=True)\n"
        "a, b = torch.randn(4, 3), torch.randn(3, 2)\n"
        "for _ in range(3):\n"
        "    a = step(a, b)\n"
        "assert step.recorded == 1, step.refusals\n"
        "print('torch._dynamo' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


def test_dicts_namedtuples_and_none_pass_through_a_replay_with_their_types():
    import collections

    Pair = collections.namedtuple("Pair", "scaled shifted")

    def step(inputs, offset):
        total = inputs["a"] * 2.0 + inputs["b"]
        extra = None if offset is None else total + offset
        return collections.OrderedDict(out=Pair(total, total - 1.0), extra=extra)

    replay = training.jit(step, pure=True)
    for i in range(4):
        inputs = collections.OrderedDict(a=torch.full((2,), float(i)), b=torch.ones(2))
        got = replay(inputs, None)
        assert type(got) is collections.OrderedDict and type(got["out"]) is Pair
        assert got["extra"] is None
        torch.testing.assert_close(got["out"].shifted, torch.full((2,), 2.0 * i))
    assert replay.recorded == 1
    # A different structure (a tensor where None was) is a new signature.
    got = replay(inputs, torch.ones(2))
    torch.testing.assert_close(got["extra"], torch.full((2,), 8.0))


def test_folded_constants_never_leak_state_between_replays():
    """Ops that read only constants of the step (literals, zeros_like) are folded into
    the recording; memory the step writes to or returns is still made per replay."""
    scale = torch.tensor([2.0, 2.0])  # captured from outside: read live, never folded

    def step(x):
        accumulator = torch.zeros(2)  # written in place below: stays per replay
        accumulator.add_(x)
        ones = torch.ones_like(x)  # returned: the caller may write into it
        bias = torch.tensor([0.5, 0.5]) * 2  # literal arithmetic: folded
        return accumulator + scale * 3 + bias, ones  # scale * 3 reads only `scale`

    replay = training.jit(step, pure=True)
    previous_ones = None
    for i in range(5):
        x = torch.full((2,), float(i))
        got, ones = replay(x)
        torch.testing.assert_close(got, x + scale * 3 + 1.0, rtol=0, atol=0)
        torch.testing.assert_close(ones, torch.ones(2), rtol=0, atol=0)
        if previous_ones is not None:
            assert ones.data_ptr() != previous_ones.data_ptr()
        ones.add_(100.0)  # must not reach the next replay's result
        previous_ones = ones
        if i == 2:
            scale.mul_(0.5)  # a live external tensor changes between calls
    assert replay.recorded == 1


def _rnn_forward(kind, kernel, recurrent, bias, x):
    from mb_backend_torch import nn, rnn
    from mb_backend_torch import numpy as tnp

    h0 = torch.zeros(x.shape[0], recurrent.shape[0])
    if kind == "gru":
        last, _, _ = rnn.gru(x, h0, None, kernel, recurrent, bias, tnp.tanh, nn.sigmoid)
    else:
        last, _, _ = rnn.lstm(x, h0, h0, None, kernel, recurrent, bias, tnp.tanh, nn.sigmoid)
    return [last]


_RNN_KERNELS = {"gru": (torch.gru, 3, (2, 15)), "lstm": (torch.lstm, 4, (20,))}


@pytest.mark.parametrize("kind", ["gru", "lstm"])
@pytest.mark.parametrize("grad", [False, True], ids=["inference", "training"])
def test_a_recorded_rnn_step_replays_the_eager_numbers(grad, kind):
    """Inference records torch.gru / torch.lstm as one call (its C++ loop, not 10+ ops
    a time step replayed from Python); with grads the ops are recorded, so the
    backward works."""
    kernel_fn, gates, bias_shape = _RNN_KERNELS[kind]
    rng = np.random.default_rng(0)
    weights = [
        torch.tensor(rng.normal(size=s) * 0.5, dtype=torch.float32, requires_grad=grad)
        for s in [(4, 5 * gates), (5, 5 * gates), bias_shape]
    ]

    def step(kernel, recurrent, bias, x):
        if not grad:
            return _rnn_forward(kind, kernel, recurrent, bias, x)

        def loss(w):
            return torch.sum(_rnn_forward(kind, *w, x)[0] ** 2)

        value, grads = training.value_and_grad(loss)([kernel, recurrent, bias])
        return [value, *grads]

    replay = training.jit(step, pure=True)
    for _ in range(4):  # eager, recorded, then replayed on new inputs
        x = torch.tensor(rng.normal(size=(3, 6, 4)), dtype=torch.float32)
        got, want = replay(*weights, x), step(*weights, x)
        for g, w in zip(got, want, strict=True):
            torch.testing.assert_close(g, w, rtol=1e-6, atol=1e-6)
    assert replay.recorded == 1
    (entry,) = replay._entries.values()
    assert (kernel_fn in entry[0].__globals__.values()) is not grad


def _chain(x, length):
    """`length` ops, each result dropped by the next: CPython reuses the ids of the
    tensor objects that die, which the recording must not confuse."""
    for i in range(length):
        x = torch.tanh(x * 0.9 + 0.01 * i)
    return x


def test_a_long_chain_with_reused_ids_replays_the_eager_values_and_gradients():
    def step(w, x):
        loss, grad = training.value_and_grad(lambda w: torch.sum(_chain(w * x, 300) ** 2))(w)
        return [loss, grad]

    replay = training.jit(step, pure=True)
    rng = np.random.default_rng(0)
    w = torch.tensor(rng.normal(size=(4,)), dtype=torch.float32)
    for _ in range(3):  # recorded, then replayed on new inputs
        x = torch.tensor(rng.normal(size=(4,)), dtype=torch.float32)
        for got, want in zip(replay(w, x), step(w, x), strict=True):
            torch.testing.assert_close(got, want, rtol=1e-6, atol=1e-7)
    assert replay.recorded == 1


def test_the_recording_frees_a_tensor_when_the_step_drops_it():
    import weakref

    alive = []

    def step(x):
        a = x * 2.0
        watched = weakref.ref(a)
        b = a + 1.0
        del a
        alive.append(watched() is not None)  # only the recording could still hold it
        return [b * 3.0]

    replay = training.jit(step, pure=True)
    x = torch.ones(1000)
    for _ in range(3):
        torch.testing.assert_close(replay(x)[0], torch.full((1000,), 9.0))
    assert replay.recorded == 1 and alive == [False]  # recorded on the first call


def test_a_replayed_step_frees_its_intermediates_as_it_goes():
    """A replay drops each intermediate tensor after its last use (as eager code does),
    so a step of thousands of ops holds few tensor objects at once: no garbage
    collection runs during it (each tensor object counts toward a collection)."""
    import gc

    length = gc.get_threshold()[0] or 700  # two ops per link: ~4 thresholds of objects
    replay = training.jit(lambda x: [_chain(x, length)], pure=True)
    x = torch.ones(8)
    replay(x)  # recorded
    collections = []

    def count(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    gc.collect()  # the young generation starts empty
    gc.callbacks.append(count)
    try:
        got = replay(x)
    finally:
        gc.callbacks.remove(count)
    torch.testing.assert_close(got[0], _chain(x, length))
    assert replay.recorded == 1
    assert collections == []


def test_an_op_is_looked_up_once_across_recordings(monkeypatch):
    """The recorder's per-op facts (kernel, kind, foldability) are built on the first
    sight of an aten overload and found by its id after: a second recording of the
    same step builds none."""
    from mb_backend_torch import _training_replay

    built = []

    class Counted(_training_replay._Facts):
        def __init__(self, func):
            built.append(func)
            super().__init__(func)

    monkeypatch.setattr(_training_replay, "_Facts", Counted)
    monkeypatch.setattr(_training_replay, "_FACTS", {})
    first, second = training.jit(_sgd_step, pure=True), training.jit(_sgd_step, pure=True)
    _, _, eager = _train(_sgd_step, n=2)
    _, _, losses = _train(first, n=2)
    seen = len(built)
    _, _, again = _train(second, n=2)
    assert first.recorded == second.recorded == 1
    assert seen > 0 and len(built) == seen
    assert losses == again == eager


def test_only_the_steps_the_fusions_rewrite_keep_their_shapes():
    """A recorded op keeps its tensors' shapes and dtypes (what `_replay_fusion` reads)
    only when the fusions rewrite that op: the other steps of a long recording hold no
    per-tensor record."""
    from mb_backend_torch import _replay_fusion, _training_replay

    _MM = torch.ops.aten.mm.default

    x, w, b = torch.randn(4, 3), torch.randn(3, 2), torch.randn(2)
    recorder = _training_replay._Recorder([x, w, b])
    with recorder:
        out = torch.sin(torch.mm(x, w) + b)
    recorder.close()
    kept = {step.call[0]: step for step in recorder._steps if step.call is not None}
    assert torch.ops.aten.sin.default in kept and _MM in kept
    for func, step in kept.items():
        described = func in _replay_fusion.DESCRIBED
        assert all((meta is not None) == described for _, meta in step.outs)
        assert bool(step.given) == described
    assert kept[_MM].outs[0][1].shape == (4, 2)
    replay, source, _ = recorder.compile([out])
    kernel = {f: _training_replay._op_facts(f).name for f in (_MM, torch.ops.aten.addmm.default)}
    assert f"{kernel[torch.ops.aten.addmm.default]}(" in source  # the fusion read the shapes
    assert f"{kernel[_MM]}(" not in source
    torch.testing.assert_close(replay(x, w, b)[0], out)


def test_slots_rename_names_but_not_quoted_strings():
    from mb_backend_torch._training_replay import _released

    class Step:
        def __init__(self, text, outs, reads):
            self.text, self.outs, self.reads, self.shape_reads = text, outs, reads, ()

    steps = [
        Step("t1 = k0(t0, 't1')", [("t1", None)], {"t0"}),
        Step('t2 = k0(t1, "t2 t1")', [("t2", None)], {"t1"}),
        Step("t3 = k1(t2, t0)", [("t3", None)], {"t2", "t0"}),
    ]
    assert _released(steps, {"t3"}) == [
        "s0 = k0(t0, 't1')",
        's0 = k0(s0, "t2 t1")',
        "t3 = k1(s0, t0)",
    ]
