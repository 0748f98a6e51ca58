"""Replaying a traced step: the per-step Python cost of an eager torch step, removed.

A training step in mb is a pure function of explicit tensors (the trainer maps every
variable to a value in a StatelessScope). Run eagerly on torch, each of its few
hundred ops pays for mb's layers, scopes and op dispatch in Python; the kernels
themselves are cheap for small models. `GraphReplay` runs the step once under a
`TorchDispatchMode` that records every aten op it reaches — the forward pass, the
backward pass autograd runs for ``value_and_grad``, and the optimizer update — then
generates a straight-line Python function of those ops and calls that from then on
(on inputs that require no grad: the backward ops are in the recording already). This is
``jax.jit``'s contract on torch — a step's Python runs once per input signature —
without TorchDynamo's import and compile times.

A recording is refused, and the step stays eager for that signature, when the step
reads a tensor's value into Python (``.item()``, ``bool(t)``, ``tolist()``): the
recording cannot know what the next step would have read. Dropout, normal and
uniform draws compute their bits with tensor ops from the seed (`_random_bits`), so
steps with dropout are recorded too; ``gamma``, ``binomial`` and ``beta`` seed a
``torch.Generator`` from a value and keep a step that draws them eager.

The value-read guards on ``torch.Tensor`` (``numpy``, ``tolist``, ``__array__``) are
installed only while a recording runs and removed after it.
"""

import contextlib
import itertools
import re
import threading
import weakref

import torch

from mb_backend_torch import _compat, _replay_fusion

# Ops that move a tensor's value into Python: a recording cannot replay those reads.
_VALUE_READS = frozenset(
    {
        torch.ops.aten._local_scalar_dense.default,
        torch.ops.aten.is_nonzero.default,
        torch.ops.aten.equal.default,
    }
)


class RecordingRefused(RuntimeError):
    """The step reads tensor values into Python; it cannot be replayed."""


class _Recording(threading.local):
    active = False
    recorder = None


_recording = _Recording()
_GUARDED = ("numpy", "tolist", "__array__")
_guards = {"count": 0, "originals": {}}
_guards_lock = threading.Lock()


@contextlib.contextmanager
def _value_read_guards():
    """While a recording runs: `.numpy()`, `np.asarray(t)` and `.tolist()` (which read
    values without an aten op the recorder could see) refuse the recording.

    torch's own methods are put back when the last recording ends, so outside a
    recording every ``torch.Tensor`` is untouched.
    """
    with _guards_lock:
        if _guards["count"] == 0:
            for name in _GUARDED:
                original = vars(torch.Tensor).get(name, _INHERITED)
                _guards["originals"][name] = original
                setattr(torch.Tensor, name, _guarded(name, getattr(torch.Tensor, name)))
        _guards["count"] += 1
    try:
        yield
    finally:
        with _guards_lock:
            _guards["count"] -= 1
            if _guards["count"] == 0:
                for name, original in _guards["originals"].items():
                    if original is _INHERITED:
                        delattr(torch.Tensor, name)
                    else:
                        setattr(torch.Tensor, name, original)
                _guards["originals"].clear()


_INHERITED = object()  # the method comes from torch._C.TensorBase, not torch.Tensor


def _guarded(name, original):
    def guarded(self, *args, **kwargs):
        if _recording.active:
            raise RecordingRefused(
                f"the step reads a tensor's value into Python (Tensor.{name}); it runs eagerly"
            )
        return original(self, *args, **kwargs)

    return guarded


class _Recorder(_compat.DispatchMode):
    """Records the aten ops of one run as lines of a straight-line function."""

    def __init__(self, inputs):
        super().__init__()
        # Names by id(tensor), each dropped when its tensor dies (so an id reused by a
        # new tensor is not taken for the old one): the recording frees a tensor when
        # the step would, instead of holding every intermediate of the step at once.
        # torch keeps a tensor's Python object while the tensor lives (autograd's saved
        # tensors included), so a tensor seen again has the id it was named under.
        self._names = {}
        self._watches = {}  # id -> the weakref that drops the id from _names
        self._alive = []  # constants: the namespace holds them, their ids stay unique
        self._foldable = set()  # names computed only from literals: may become constants
        self._steps = []
        self._mutated = set()  # storages that in-place ops of the step write to
        self.namespace = {}
        self._counter = itertools.count()
        self.inputs = []
        for tensor in inputs:
            self.inputs.append(self._bind(tensor))
        self._input_names = frozenset(self.inputs)

    def _bind(self, tensor):
        name = f"t{next(self._counter)}"
        self._names[id(tensor)] = name
        self._watch(tensor)
        return name

    def _watch(self, tensor):
        key, names, watches = id(tensor), self._names, self._watches

        def forget(_, key=key):
            names.pop(key, None)
            watches.pop(key, None)

        watches[key] = weakref.ref(tensor, forget)

    def close(self):
        """Stops following the tensors' lives (the recorded run is over)."""
        self._watches.clear()

    def _add(self, step, facts=None):
        """Appends ``step``. One that may fold into a constant (an op that reads only
        results of such steps, or literals, or only shapes) keeps its output tensors;
        the others keep the shapes and dtypes the fusions read (`_replay_fusion`), of
        the ops they rewrite only (``facts.described``: most ops keep none)."""
        if step.foldable and step.reads <= self._foldable:
            self._foldable.update(name for name, _ in step.outs)
            step.storages = [_storage(t) for t in step.given]
        else:
            step.foldable = False
            if facts is None or facts.described:
                step.outs = [(name, _Meta(t)) for name, t in step.outs]
            else:
                step.outs = [(name, None) for name, _ in step.outs]
                step.given = ()
                self._steps.append(step)
                return
        step.given = [_Meta(t) for t in step.given]
        self._steps.append(step)

    def _constant(self, value):
        name = f"k{next(self._counter)}"
        self._alive.append(value)
        if isinstance(value, torch.Tensor) and value.requires_grad:
            value = value.detach()  # same storage, but no autograd graph at replay
        self.namespace[name] = value
        return name

    def _op_name(self, func):
        return self._op_named(_op_facts(func))

    def _op_named(self, facts):
        name = facts.name
        if name not in self.namespace:
            self.namespace[name] = facts.kernel
        return name

    def expression(self, value):
        if isinstance(value, torch.Tensor):
            name = self._names.get(id(value))
            if name is None:  # made outside the recorded ops: a constant of the step
                name = self._constant(value)
                self._names[id(value)] = name
            return name
        if isinstance(value, list | tuple):
            inner = ", ".join(self.expression(v) for v in value)
            return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if value else ''})"
        if value is None or isinstance(value, bool | int | str):
            return repr(value)
        if isinstance(value, float) and value == value and abs(value) != float("inf"):
            return repr(value)
        return self._constant(value)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        # Every aten op of the step comes here (a few thousand for an unrolled
        # recurrent layer): one pass over the arguments names them and collects their
        # tensors, and the op's facts are looked up by id, not by its Python hash.
        facts = _FACTS.get(id(func)) or _op_facts(func)
        kind = facts.kind
        if kind is _READ:
            raise RecordingRefused(
                f"the step reads a tensor's value into Python ({func}); it runs eagerly"
            )
        # The C++ overload itself: OpOverload.__call__ is a Python frame around it.
        out = facts.kernel(*args, **kwargs) if kwargs else facts.kernel(*args)
        names_of = self._names
        given, arguments, names = [], [], set()
        for value in args:
            if isinstance(value, torch.Tensor):
                name = names_of.get(id(value)) or self.expression(value)
                given.append(value)
                names.add(name)
                arguments.append(name)
            elif value is None or value.__class__ in _LITERALS:
                arguments.append(repr(value))
            else:
                arguments.append(self.expression(value))
                if isinstance(value, list | tuple | dict):
                    found = _tensors_in(value)
                    given += found
                    names.update(names_of[id(t)] for t in found)
        if kwargs:
            expression = self.expression  # names the constants among them first
            keywords = [f"{k}={expression(v)}" for k, v in kwargs.items()]
            found = _tensors_in(kwargs)
            given += found
            names.update(names_of[id(t)] for t in found)
        if facts.mutable:
            self._mutated.update(_storage(t) for t in given)
        if kind is _ALIAS and len(given) == 1 and isinstance(out, torch.Tensor):
            # detach/lift_fresh return their input as far as the replay is concerned
            # (nothing requires grad there): a Python alias, not a dispatched op. A
            # lifted literal (torch.tensor(2.0) in the step) is a constant of the step.
            source = names_of[id(given[0])]
            if func is _DETACH and source not in self._input_names:
                # Another name for the same tensor: no line of its own in the replay.
                names_of[id(out)] = source
                self._watch(out)
                return out
            name = self._bind(out)
            literal = func is torch.ops.aten.lift_fresh.default
            self._add(
                _Step(f"{name} = {source}", [(name, out)], set() if literal else {source},
                      given, foldable=True), facts
            )  # fmt: skip
            return out
        # The replay calls the C++ overload itself, skipping OpOverload.__call__'s
        # Python frame (a microsecond per op, a few dozen ops per small step).
        op = self._op_named(facts)
        if kwargs:
            call = ", ".join(arguments + keywords)
        else:
            call = ", ".join(arguments)
        # zeros_like & co read only shapes and dtypes, which the signature fixes.
        shape_reads = _NOTHING
        if kind is _SHAPES:
            names, shape_reads = set(), frozenset(names)
        if isinstance(out, torch.Tensor):
            name = self._bind(out)
            step = _Step(f"{name} = {op}({call})", [(name, out)], names, given,
                         facts.foldable, shape_reads)  # fmt: skip
            if not kwargs:  # what _replay_fusion matches on
                step.call = (func, op, arguments)
            self._add(step, facts)
        elif isinstance(out, list | tuple) and any(isinstance(o, torch.Tensor) for o in out):
            outs = self._bind_items(out)
            self._add(_Step(f"{_targets(out, outs)} = {op}({call})", outs, names, given,
                            facts.foldable), facts)  # fmt: skip
        else:
            self._add(_Step(f"{op}({call})", [], names, given, foldable=False), facts)
        return out

    def _bind_items(self, out):
        return [(self._bind(item), item) for item in out if isinstance(item, torch.Tensor)]

    def record_call(self, fn, args):
        """Runs ``fn(*args)`` outside the recording and records it as one call."""
        with _compat.dispatch_modes_off():
            out = fn(*args)
        given = _tensors_in(args)
        call = ", ".join(self.expression(a) for a in args)
        names = {self._names[id(t)] for t in given}
        op = self._constant(fn)
        outs = self._bind_items(out)
        self._add(
            _Step(f"{_targets(out, outs)} = {op}({call})", outs, names, given, foldable=False)
        )
        return out

    def compile(self, outputs):
        """The replay function, its source, and ``(output index, input index)`` pairs
        for outputs that are inputs themselves (state the step updated in place).

        Ops that only read constants of the step (literals, ``ones_like`` of them, ...)
        are folded: their recorded results become constants, unless the step writes
        into their memory or returns them."""
        names = [self.expression(o) for o in outputs]
        _replay_fusion.fuse_biases(self, self._steps, set(names))
        positions = {name: i for i, name in enumerate(self.inputs)}
        passthrough = tuple((i, positions[n]) for i, n in enumerate(names) if n in positions)
        returned = set(names)
        # Memory the caller gets back, or the step writes to, stays per-replay.
        kept = self._mutated | {_storage(o) for o in outputs if isinstance(o, torch.Tensor)}
        constant, emitted = set(), []
        for step in self._steps:
            if (
                step.foldable
                and step.reads <= constant
                and not any(n in returned for n, _ in step.outs)
                and not any(_storage(t) in kept for _, t in step.outs)
                and not any(s in self._mutated for s in step.storages)
            ):
                for name, tensor in step.outs:
                    self.namespace[name] = tensor
                    constant.add(name)
                continue
            emitted.append(step)
        source = "def replay({}):\n    {}\n    return [{}]\n".format(
            ", ".join(self.inputs) or "",
            "\n    ".join(_released(emitted, returned)) or "pass",
            ", ".join(names),
        )
        namespace = dict(self.namespace)
        exec(compile(source, "<mb torch step replay>", "exec"), namespace)
        return namespace["replay"], source, passthrough


_DETACH = torch.ops.aten.detach.default
_ALIASES = frozenset({_DETACH, torch.ops.aten.lift_fresh.default})
_METADATA_ONLY = frozenset(
    {
        torch.ops.aten.zeros_like.default,
        torch.ops.aten.ones_like.default,
        torch.ops.aten.full_like.default,
    }
)


class _Step:
    """One recorded call: its source line(s), the (name, tensor) pairs it binds, the
    names of the tensors it reads, the tensors themselves, and whether it may fold.

    ``reads`` leaves out the tensors an op reads only the shape of (``zeros_like``);
    ``shape_reads`` holds those: the line names them all the same. Once recorded
    (`_Recorder._add`), ``given`` and, unless the step may fold, the tensors of ``outs``
    are `_Meta`s, and ``storages`` holds the memory keys of the tensors it read."""

    __slots__ = ("call", "foldable", "given", "outs", "reads", "shape_reads", "storages",
                 "text")  # fmt: skip

    def __init__(self, text, outs, reads, given, foldable, shape_reads=frozenset()):
        self.text, self.outs, self.reads, self.given, self.foldable = (
            text, outs, reads, given, foldable
        )  # fmt: skip
        self.shape_reads = shape_reads
        self.storages = ()
        self.call = None  # (aten overload, its name in the namespace, argument expressions)


class _Meta:
    """The shape and dtype of a recorded tensor, without holding its memory."""

    __slots__ = ("dtype", "shape")

    def __init__(self, tensor):
        self.shape, self.dtype = tensor.shape, tensor.dtype

    def dim(self):
        return len(self.shape)


def _released(steps, kept):
    """The lines of ``steps`` with each intermediate name (bound by a step, not in
    ``kept``, the returned names) renamed to a slot ``s<n>`` that a later line reuses
    once the name has been read for the last time.

    Rebinding a slot frees the tensor it held, so a replay frees each intermediate soon
    after it is done with it, as eager code does, instead of holding every one until it
    returns: its memory is reused within the step, and a long step (a recurrent layer
    unrolled into thousands of ops) no longer keeps thousands of tensor objects alive,
    each a Python object the garbage collector counts and moves to older generations.
    Slots, unlike ``del`` lines, also keep the function short to compile: a few hundred
    local names instead of one per op."""
    last, bound = {}, set()
    for index, step in enumerate(steps):
        for name, _ in step.outs:
            last[name] = index
            bound.add(name)
        for name in step.reads:
            last[name] = index
        for name in step.shape_reads:
            last[name] = index
    dying = {}  # step index -> the slotted names it reads (or binds) for the last time
    for name, index in last.items():
        if name in bound and name not in kept:
            if index in dying:
                dying[index].append(name)
            else:
                dying[index] = [name]
    slot_of, free = {}, []
    count = itertools.count()
    for index, step in enumerate(steps):
        ending = dying.get(index)
        if ending is None:
            for name, _ in step.outs:
                if name not in kept:
                    slot_of[name] = free.pop() if free else f"s{next(count)}"
            continue
        outs = [name for name, _ in step.outs]
        # The call reads its arguments before it binds its results: the slots of the
        # names it reads for the last time can take its results.
        free += [slot_of[name] for name in ending if name not in outs]
        for name in outs:
            if name not in kept:
                slot_of[name] = free.pop() if free else f"s{next(count)}"
        free += [slot_of[name] for name in ending if name in outs]  # never read
    # A name keeps one slot all its life: the lines are renamed at once, the names
    # being the odd items of the split (a quoted string there is never a key).
    parts = _NAME.split("\n".join([step.text for step in steps]))
    names = parts[1::2]
    parts[1::2] = map(slot_of.get, names, names)
    return "".join(parts).split("\n")


# A recorded line's tokens: quoted strings (literals, left as they are) and names.
_NAME = re.compile(r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\bt\d+\b)")


def _storage(tensor):
    try:
        return tensor.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):  # no storage (sparse, ...): one shared key
        return -1


def _targets(out, outs):
    """The assignment targets of a call returning the sequence ``out``: the bound names
    of its tensors, ``_`` for its other items (one unpacking, not a line per item)."""
    names = iter(name for name, _ in outs)
    return "".join(
        f"{next(names) if isinstance(item, torch.Tensor) else '_'}, " for item in out
    ).rstrip()


_FACTS = {}  # id(aten overload) -> its _Facts
_LITERALS = frozenset({bool, int, str})  # arguments written as their repr
_NOTHING = frozenset()
_KERNEL_NAMES = itertools.count()
# What the recorder does with an op besides recording a call (`_Facts.kind`).
_READ, _ALIAS, _SHAPES, _CALL = "value read", "alias", "reads shapes only", "call"


class _Facts:
    """What the recorder needs of an aten overload, looked up once per op it sees:
    its C++ kernel, the kernel's name in a replay's namespace, whether it writes to an
    input, whether its result may be folded into a constant, whether its steps keep
    their tensors' shapes, and its `kind`."""

    __slots__ = ("described", "foldable", "func", "kernel", "kind", "mutable", "name")

    def __init__(self, func):
        self.func = func
        self.kernel = _compat.overload_kernel(func)
        # Whether its steps keep the shapes and dtypes of their tensors (`_Meta`): only
        # the ops `_replay_fusion` rewrites read them.
        self.described = func in _replay_fusion.DESCRIBED
        self.name = f"a{next(_KERNEL_NAMES)}"
        self.mutable = _compat.is_mutable(func)
        seeded = torch.Tag.nondeterministic_seeded in func.tags
        self.foldable = not self.mutable and not seeded
        self.kind = (
            _READ if func in _VALUE_READS
            else _ALIAS if func in _ALIASES
            else _SHAPES if func in _METADATA_ONLY
            else _CALL
        )  # fmt: skip


def _op_facts(func):
    """The `_Facts` of ``func``, kept by its id (``OpOverload.__hash__`` is Python code,
    a microsecond per op): the entry holds the overload, so the id stays its own."""
    facts = _FACTS.get(id(func))
    if facts is None:
        facts = _FACTS[id(func)] = _Facts(func)
    return facts


def _tensors_in(value):
    found = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, torch.Tensor):
            found.append(item)
        elif isinstance(item, list | tuple):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
    return found


# The step's arguments and results are lists, tuples and dicts of tensors: a
# flattening of just those (namedtuples and dict subclasses keep their type; anything
# else is a leaf) costs a third of torch's general pytree on every call.
_LEAF = None


def _flatten(x, leaves):
    """Appends the leaves of `x` to `leaves`; returns its hashable structure."""
    kind = type(x)
    if kind is list or kind is tuple:
        parts = []
        for v in x:
            if isinstance(v, torch.Tensor):  # the common leaf, without a call
                leaves.append(v)
                parts.append(_LEAF)
            else:
                parts.append(_flatten(v, leaves))
        return (kind, tuple(parts))
    if isinstance(x, dict):
        keys = tuple(x)
        return (kind, keys, tuple([_flatten(x[k], leaves) for k in keys]))
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return (kind, tuple([_flatten(v, leaves) for v in x]))
    leaves.append(x)
    return _LEAF


def _unflatten(structure, leaves):
    """The inverse of `_flatten`, taking leaves from the iterator `leaves`."""
    if structure is _LEAF:
        return next(leaves)
    kind = structure[0]
    if kind is list:
        return [_unflatten(s, leaves) for s in structure[1]]
    if kind is tuple:
        return tuple([_unflatten(s, leaves) for s in structure[1]])
    if len(structure) == 2:  # a namedtuple
        return kind(*[_unflatten(s, leaves) for s in structure[1]])
    return kind(zip(structure[1], [_unflatten(s, leaves) for s in structure[2]], strict=True))


def _signature(flat, structure, tensors):
    """The call's key (structure, each tensor's shape/dtype/device/layout, each other
    leaf's type and value); appends the tensor leaves to `tensors` on the way."""
    parts = [structure]
    for leaf in flat:
        if isinstance(leaf, torch.Tensor):
            tensors.append(leaf)
            parts.append((leaf.shape, leaf.dtype, leaf.device, leaf.layout))
        else:
            parts.append((type(leaf), leaf))
    return tuple(parts)


def opaque_call(fn, *args):
    """``fn(*args)``, a function of tensors returning a tuple of new tensors.

    While a step is recorded and no tensor among ``args`` requires grad (inference),
    the recording holds this one call instead of the aten ops ``fn`` runs: torch
    kernels that are C++ loops over small ops (``torch.gru`` on the CPU, 10-15 ops per
    time step) would otherwise be replayed op by op, their loop run in Python. With
    grads, the ops are recorded as usual (the backward pass needs them)."""
    recorder = _recording.recorder
    if recorder is None or any(t.requires_grad for t in _tensors_in(args)):
        return fn(*args)
    return recorder.record_call(fn, args)


class GraphReplay:
    """``fn`` recorded once per input signature, then replayed.

    The first signature ``fn`` is called with is recorded on that first call: a
    training loop's batches share it, and the recording's own run gives the call's
    results, so the step's Python runs once, not once eagerly and once recorded. A
    later new signature (an epoch's last partial batch, one of many sequence lengths)
    runs eagerly `warmup` times first and is recorded when it comes back: one seen only
    once then costs an eager run, not a recording.

    When the first call's recording is refused or fails (a step that reads a value
    into Python while it builds lazily created state, or a plain error), that call
    runs eagerly and counts as the signature's warm-up: the signature is recorded on
    its next call, as a later one would be, and an error shows its plain traceback.

    Args:
        fn: a pure function of tensors (nested in lists, tuples, dicts), returning
            tensors; the trainer's step.
        warmup: eager calls before recording a signature other than the first.
    """

    def __init__(self, fn, warmup=1):
        self.fn = fn
        self.warmup = warmup
        self._lock = threading.Lock()
        self._entries = {}  # signature -> replay function, or a refusal reason
        self._calls = {}

    @property
    def refusals(self):
        """The reasons recordings were refused, one per signature that stays eager."""
        return [e for e in self._entries.values() if isinstance(e, str)]

    @property
    def recorded(self):
        """How many input signatures replay a recording."""
        return sum(1 for e in self._entries.values() if not isinstance(e, str))

    def __call__(self, *args):
        flat, given = [], []
        structure = _flatten(args, flat)
        key = _signature(flat, structure, given)
        try:
            entry = self._entries.get(key)  # (a key is hashed once: tuples cache no hash)
        except TypeError:  # an unhashable constant among the inputs: no recording
            return self.fn(*args)
        if entry is None:
            with self._lock:
                first = not self._calls  # the first signature: recorded at once
                calls = self._calls.get(key, 0) + 1
                self._calls[key] = calls
                entry = self._entries.get(key)
                if entry is None and (first or calls > self.warmup):
                    entry, result = self._record(structure, flat)
                    if not isinstance(entry, str):
                        self._entries[key] = entry
                        return result  # the recording's own results: no second run
                    if not first:
                        self._entries[key] = entry  # refused after a warm-up: stays eager
                    # else: this eager call is the warm-up; the next one records again
            if entry is None or isinstance(entry, str):
                return self.fn(*args)
        elif isinstance(entry, str):
            return self.fn(*args)
        replay, out_spec, passthrough = entry
        # Grad mode stays on as while recording (some kernels, e.g. mkldnn's RNN, only
        # keep what their backward needs when it is), but nothing requires grad, so
        # autograd builds no graph: the backward ops are in the recording already.
        tensors = [t.detach() if t.requires_grad else t for t in given]
        if torch.is_grad_enabled():  # (no context manager to enter per call)
            outputs = replay(*tensors)
        else:
            with torch.enable_grad():
                outputs = replay(*tensors)
        # An input returned as an output (updated in place) comes back as the object
        # the caller passed, so writing it back is recognised as a no-op.
        for out_index, in_index in passthrough:
            outputs[out_index] = given[in_index]
        return _unflatten(out_spec, iter(outputs))

    def _record(self, structure, flat):
        # Record on copies: a refused recording may have run part of the step, and
        # in-place updates (the optimizer's) must not reach the live state twice.
        copies = [x.detach().clone() if isinstance(x, torch.Tensor) else x for x in flat]
        copied_args = _unflatten(structure, iter(copies))
        recorder = _Recorder([c for c in copies if isinstance(c, torch.Tensor)])
        _recording.active, _recording.recorder = True, recorder
        try:
            with _value_read_guards(), recorder:
                out = self.fn(*copied_args)
        except RecordingRefused as refused:
            return str(refused), None
        except Exception as error:  # the step runs eagerly (an error of its own shows there)
            return f"the step could not be recorded ({type(error).__name__}: {error})", None
        finally:
            _recording.active, _recording.recorder = False, None
            recorder.close()
        out_flat = []
        out_spec = _flatten(out, out_flat)
        replay, _, passthrough = recorder.compile(out_flat)
        # This call's results are the recording's: what the step wrote in place into its
        # copies goes to the caller's tensors, and inputs it returns come back as the
        # caller's objects (as a replay returns them).
        given = [x for x in flat if isinstance(x, torch.Tensor)]
        copied = [c for c in copies if isinstance(c, torch.Tensor)]
        with torch.no_grad():
            for original, copy in zip(given, copied, strict=True):
                if _storage(copy) in recorder._mutated:
                    original.copy_(copy)
        results = [o.detach() if isinstance(o, torch.Tensor) else o for o in out_flat]
        for out_index, in_index in passthrough:
            results[out_index] = given[in_index]
        return (replay, out_spec, passthrough), _unflatten(out_spec, iter(results))
