"""The one training loop's core: a pure step of explicit state, compiled by the backend.

`StepRunner` turns a model method written in the stateful style (``train_step(data)``,
reading and assigning variables) into a pure function
``step(read_only_values, mutable_values, data) -> (new_mutable_values, outputs)``
by running it in a `StatelessScope` that maps every variable to the value given.
The backend's ``training.jit`` compiles that function (jax, tensorflow) or leaves
it eager (torch), ``training.multi_step`` runs several steps per call where the
backend has it, and after each call the new values are written back into the live
variables, so user code between steps (callbacks) always reads and assigns the
real state, on every backend.

Two forms of a user's own step are adapted here:

- Keras's JAX style, ``train_step(self, state, data) -> (logs, state)`` (and
  ``test_step``/``predict_step`` alike): the state tuple is read from the variables
  and the returned one assigned back, so it runs as a stateful step (any backend).
- On an engine whose compiled functions read and assign its own variables
  (tensorflow), a user's step runs on the live variables, untouched, so the
  engine's autodiff sees them (``tf.GradientTape`` over ``trainable_variables``).
"""

import inspect

from mb_graph import tree
from mb_ops import DonatingStatelessScope, backends
from mb_train._trainer import _distributed

_NOT_TRAINABLE = (
    "fit() and train_on_batch() need a backend that can differentiate, and the {name} "
    "backend cannot: {reason}. Select jax, torch or tensorflow with MB_BACKEND, e.g. "
    "MB_BACKEND=jax. evaluate() and predict() work on every backend."
)


def check_can_train():
    """Raise a clear error when the active backend cannot train; else its ``training``."""
    reason = backends.unsupported_reason("training", "value_and_grad")
    if reason is not None:
        name = backends.backend_descriptor().name  # fixed per process: no entry-point scan
        raise NotImplementedError(_NOT_TRAINABLE.format(name=name, reason=reason))
    return backends.backend_module("training")


class StepRunner:
    """Runs one of the model's step methods as a pure, compiled function.

    Args:
        method: the bound step method, ``method(data) -> outputs``.
        read_only: variables the step reads but never changes.
        mutable: variables the step may assign (their new values are written back).
        compile: True/False, or "auto" for the backend's default compilation.
        steps_per_execution: steps per compiled call (train/test only).
        pure: the method's Python has no effect but its result (mb's own steps),
            so a backend that runs eagerly by default may record and replay it.
        gather_outputs: the outputs are per-row predictions: under a distribution
            whose replicas each compute some rows, they are concatenated.
    """

    def __init__(
        self,
        method,
        read_only,
        mutable,
        compile="auto",
        steps_per_execution=1,
        pure=False,
        gather_outputs=False,
    ):
        self.method = _explicit_state_adapter(method)
        self.read_only = list(read_only)
        self.mutable = list(mutable)
        self.steps_per_execution = steps_per_execution
        self.pure = pure
        self._layouts = _distributed.state_layouts(self.mutable)
        self._read_state = _distributed.state_reader(self.read_only + self.mutable)
        # Engines that run a step once per replica (tf.distribute) wrap the pure step.
        self._replicated = _distributed.replicated_step(
            self._pure_local, self.mutable, gather_outputs
        )
        self._jit = backends.lookup("training", "jit")
        native = bool(backends.lookup("training", "ASSIGNS_IN_COMPILED"))
        # A user's step on such an engine runs on the live variables (see the module
        # docstring), compiled or eager.
        self._live = native and not pure
        # Engines whose compiled functions can assign variables (tf.function) read and
        # write the state inside the call: no arguments to pass, nothing to write back.
        self._assigns_inside = self._live or (compile is not False and native)
        if self._assigns_inside:
            self._step = self._compile(self._stateful, compile, donate=())
        else:
            self._step = self._compile(self._pure, compile, donate=(1,))
        self._multi = None
        # Up to this many steps per execution are unrolled in one compiled function;
        # more run in the engine's loop (`multi_step`). The backend may say where its
        # loop wins (XLA's CPU runs 8 unrolled Dense steps at ~0.6x a `lax.scan`).
        limit = backends.lookup("training", "MULTI_STEP_UNROLL_LIMIT")
        self._unroll_limit = _UNROLL_LIMIT if limit is None else int(limit)
        # Background compilation of the multi-step function, where the engine has it.
        self._compile_ahead = backends.lookup("training", "compile_ahead")
        self._ahead = None if self._compile_ahead is not None else _NO_AHEAD
        if steps_per_execution > 1:
            self._multi = self._make_multi(compile)

    # ----- the pure function ----------------------------------------------------------

    def _pure(self, read_only_values, mutable_values, data):
        if self._replicated is not None:
            return self._replicated(read_only_values, mutable_values, data)
        return self._pure_local(read_only_values, mutable_values, data)

    def _pure_local(self, read_only_values, mutable_values, data):
        mapping = list(zip(self.read_only, read_only_values, strict=True))
        mapping += list(zip(self.mutable, mutable_values, strict=True))
        # The values are the step's own (what it returns becomes the state), so the
        # step may update them in place (torch's multi-tensor optimizer kernels). Losses
        # layers add (``add_loss``) are collected for the step's `compute_loss`.
        with DonatingStatelessScope(
            mapping, collect_losses=True, initialize_variables=False, donated=mutable_values
        ) as scope:
            outputs = self.method(data)
        new = [scope.get_current_value(v) for v in self.mutable]
        if self._layouts is not None:
            new = _distributed.constrain_state(self._layouts, new)
        return new, outputs

    def _stateful(self, data):
        if self._live:
            return self.method(data)
        # The pure step between a read and an assignment of the live variables, for
        # engines that compile both into the call.
        read_only, mutable = self._state()
        new, outputs = self._pure(read_only, mutable, data)
        self._write_back(new)
        return outputs

    def _compile(self, fn, compile, donate):
        if compile is False or self._jit is None:
            return fn
        # compile="auto" leaves the choice to the engine (jit_compile=None).
        jit_compile = True if compile is True else None
        return self._jit(fn, jit_compile=jit_compile, donate_argnums=donate, pure=self.pure)

    def _make_multi(self, compile):
        n = self.steps_per_execution
        if compile is False:
            return None
        multi_step = backends.lookup("training", "multi_step")
        if self._live:
            return self._make_live_multi(compile, multi_step)
        if n > self._unroll_limit and multi_step is not None:
            # Long executions use the engine's loop (lax.scan, tf.while_loop).
            def body(state, data):
                read_only, mutable = state
                new, outputs = self._pure(read_only, mutable, data)
                return (read_only, new), outputs

            run = multi_step(body, n, jit_compile=True if compile is True else None)

            def multi(read_only, mutable, batches):
                return _unpack(run((read_only, mutable), batches))

            lower = getattr(run, "lower", None)
            if lower is not None:  # the engine can compile it ahead (`compile_ahead`)
                multi.lower = lambda read_only, mutable, batches: _LoweredMulti(
                    lower((read_only, mutable), batches)
                )
            return multi

        # Short ones are unrolled into one compiled function of the n batches.
        def unrolled(read_only, mutable, batches):
            outputs = None
            for data in batches:
                mutable, outputs = self._pure(read_only, mutable, data)
            return read_only, mutable, outputs

        if self._assigns_inside:

            def unrolled_stateful(batches):
                read_only, mutable = self._state()
                _, new, outputs = unrolled(read_only, mutable, batches)
                self._write_back(new)
                return outputs

            return self._compile(unrolled_stateful, compile, donate=())
        return self._compile(unrolled, compile, donate=(1,))

    def _make_live_multi(self, compile, multi_step):
        # The step assigns the live variables itself: no state goes in or out.
        n = self.steps_per_execution
        if n > self._unroll_limit and multi_step is not None:
            run = multi_step(
                lambda state, data: (state, self.method(data)),
                n,
                jit_compile=True if compile is True else None,
            )
            return lambda batches: run((), batches)[1]

        def unrolled_live(batches):
            outputs = None
            for data in batches:
                outputs = self.method(data)
            return outputs

        return self._compile(unrolled_live, compile, donate=())

    # ----- running --------------------------------------------------------------------

    def _state(self):
        if self._read_state is not None:
            values = self._read_state()
            return values[: len(self.read_only)], values[len(self.read_only) :]
        return [v.value for v in self.read_only], [v.value for v in self.mutable]

    def _write_back(self, new_values):
        for variable, value in zip(self.mutable, new_values, strict=True):
            variable._direct_assign(value)

    def run(self, data):
        """One step on one batch; returns the step's outputs."""
        if self._assigns_inside:
            return self._step(data)
        read_only, mutable = self._state()
        new, outputs = self._step(read_only, mutable, data)
        self._write_back(new)
        return outputs

    def run_many(self, batches):
        """Several steps (one compiled call when they stack); returns the last outputs."""
        if (
            self._multi is not None
            and len(batches) == self.steps_per_execution
            and _same_shapes(batches)
        ):
            if self._live or (
                self._assigns_inside and self.steps_per_execution <= self._unroll_limit
            ):
                return self._multi(list(batches))
            read_only, mutable = self._state()
            multi = self._multi_ready(read_only, mutable, batches)
            if multi is None:  # still compiling: one compiled step per batch meanwhile
                return self._run_each(batches, read_only, mutable)
            read_only, new, outputs = multi(read_only, mutable, list(batches))
            # The engine may have reused the input buffers: write both groups back.
            for variable, value in zip(self.read_only, read_only, strict=True):
                variable._direct_assign(value)
            self._write_back(new)
            return outputs
        return self._run_each(batches)

    def _run_each(self, batches, read_only=None, mutable=None):
        # One compiled step per batch, the state passed from step to step as values
        # and written back once, after the last.
        if self._assigns_inside:
            outputs = None
            for data in batches:
                outputs = self._step(data)
            return outputs
        if mutable is None:
            read_only, mutable = self._state()
        outputs = None
        for data in batches:
            mutable, outputs = self._step(read_only, mutable, data)
        self._write_back(mutable)
        return outputs

    def _multi_ready(self, read_only, mutable, batches):
        """The multi-step function, or None while the engine compiles it in the
        background (jax's ``compile_ahead``): an N-step program takes N times a step's
        compile time, so the first epoch runs one compiled step at a time meanwhile
        instead of waiting, and later calls switch to the N-step executable."""
        ahead = self._ahead
        if ahead is _NO_AHEAD:
            return self._multi
        if ahead is None:  # the first batches compile (and run) the one-step function
            self._ahead = _START_AHEAD
            return None
        if ahead is _START_AHEAD:  # ... then the N-step one compiles in the background
            future = self._compile_ahead(self._multi, read_only, mutable, list(batches))
            if future is None:  # not a function the engine compiles ahead
                self._ahead = _NO_AHEAD
                return self._multi
            self._ahead = future
            return None
        if not ahead.done():
            return None
        self._ahead = _NO_AHEAD
        try:
            executable = ahead.result()
        except Exception:  # the jitted function compiles again and reports the error
            return self._multi
        jitted = self._multi

        def multi(*args):
            try:
                return executable(*args)
            except TypeError:  # other shapes or dtypes than compiled for
                return jitted(*args)

        self._multi = multi
        return multi


def _takes_state(method):
    try:
        parameters = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [
        p
        for p in parameters
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return len(positional) >= 2


def _explicit_state_adapter(method):
    """`method` itself, or, for Keras's JAX-style ``step(state, data)``, a
    ``step(data)`` that reads the state tuple from the model's variables and assigns
    the returned one (the model names the groups: `_explicit_state_groups`)."""
    model = getattr(method, "__self__", None)
    groups_of = getattr(model, "_explicit_state_groups", None)
    if groups_of is None or not _takes_state(method):
        return method
    name = getattr(method, "__name__", "step")

    def step(data):
        groups = groups_of(name)
        state = tuple([v.value for v in group] for group in groups)
        outputs, new_state = method(state, data)
        if name == "predict_step":  # returns (outputs, non_trainable_variables)
            groups, new_state = groups[1:2], (new_state,)
        _assign_state(name, groups, new_state)
        return outputs

    return step


def _assign_state(name, groups, new_state):
    sizes = [len(group) for group in groups]
    got = None
    if isinstance(new_state, list | tuple):
        got = [len(v) if isinstance(v, list | tuple) else type(v).__name__ for v in new_state]
    if got != sizes:
        received = f"lists of {got}" if got is not None else f"a {type(new_state).__name__}"
        raise ValueError(
            f"{name}(state, data) must return (outputs, new_state) with new_state shaped "
            f"like state: {len(sizes)} lists of {sizes} values. Received {received}."
        )
    for group, values in zip(groups, new_state, strict=True):
        for variable, value in zip(group, values, strict=True):
            if value is not None and value is not variable.value:
                variable.assign(value)


_NO_AHEAD = object()  # no background compilation (none started, or it has finished)
_START_AHEAD = object()  # start one at the next call

# Up to this many steps per execution are unrolled in one compiled function, unless
# the backend's `training.MULTI_STEP_UNROLL_LIMIT` says otherwise.
_UNROLL_LIMIT = 16


def _unpack(result):
    (read_only, mutable), outputs = result
    return read_only, mutable, outputs


class _LoweredMulti:
    """An engine's lowered `multi_step` program, whose compiled form is called like the
    runner's multi-step function: ``(read_only, mutable, batches) -> (read_only, new,
    outputs)``."""

    def __init__(self, lowered):
        self._lowered = lowered

    def compile(self):
        executable = self._lowered.compile()
        return lambda read_only, mutable, batches: _unpack(
            executable((read_only, mutable), batches)
        )


def _same_shapes(batches):
    first = [tuple(getattr(x, "shape", ())) for x in tree.flatten(batches[0])]
    for batch in batches[1:]:
        if [tuple(getattr(x, "shape", ())) for x in tree.flatten(batch)] != first:
            return False
    return True
