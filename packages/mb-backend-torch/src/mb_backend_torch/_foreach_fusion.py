"""Several steps of a traced update rule as one in-place multi-tensor kernel.

`_training_foreach.foreach_update` records an elementwise rule as steps on lists of
tensors (`Value`s). Some chains of steps have a torch kernel that computes them in
one pass, in the memory of a list that is not read again, where the plain steps
would allocate a list of tensors for an intermediate result. They are found by the
shape of the arithmetic, never by the optimizer that wrote it (a new rule gets them
without torch code):

- **moving average** ``x + (y - x) * w``: ``lerp_(x, y, w)``; with ``y = a * b``
  (``square(g)``: Adam's second moment), ``mul_(x, 1 - w)`` + ``addcmul_(x, a, b, w)``;
- **accumulation** ``x ± term`` or ``x * s ± term`` (``s`` any scalar: ``mul_`` first),
  in x's memory where ``x`` is not read afterwards (else the kernels' out-of-place
  forms: one new list, not two), and the term is ``a * b * c`` (``square(a) * c``:
  ``addcmul_``), ``y * c`` (``add_(alpha=c)``) or ``y * c / z`` (``addcdiv_``), ``c`` a
  Python number; ``y * s / z`` with ``s`` a 0-d tensor divides ``z`` by ``s`` in place
  first when ``z`` is not read afterwards (``lr * g / sqrt(v)``, Adam's
  ``m * alpha / (sqrt(v) + eps)``); on the CPU, ``y * s`` is ``add_(x, y, alpha=s)``
  with s read into Python (SGD's ``p - g * lr``, as torch.optim runs it), or, where a
  dispatch mode (the step recorder) or torch.compile would see that read,
  ``addcmul_(x, y, [s] * n)``;
- **split sums** ``x ± (a ± b)``, the sum read once: two accumulations into x
  (Nesterov's ``p + (m * momentum - g * lr)``);
- **scaling** ``x ± x * s`` (decoupled weight decay): ``mul_(x, 1 ± s)``; what is left
  of a chain ``y * s1 / s2 ...`` (Nadam's ``u * m / (1 - u_prod)``) is one ``mul``.

``c`` and ``s`` stand for a chain of multiplications and divisions by scalars
(``m * lr / (1 - beta)``), folded into one coefficient. Results agree with the plain
steps within rounding (the order of the operations changes, e.g. ``m / (d / s)``
for ``m * s / d``).
"""

import torch

from mb_backend_torch._compat import dispatch_mode_active, foreach
from mb_backend_torch.numpy._common import t


class Value:
    """A list of tensors (one per parameter) in a traced rule: an input, or the result
    of one elementwise function of earlier values and scalars."""

    __slots__ = ("args", "op", "target", "tensors")

    def __init__(self, op, args=(), tensors=None, target=None):
        self.op, self.args, self.tensors, self.target = op, args, tensors, target


class Scalar:
    """A scalar of a traced rule that is a tensor (the learning rate), or a function of
    scalars computed with tensors: a placeholder whose ``value`` (a 0-d torch tensor)
    each call sets, so that one trace serves every step. Python numbers are not
    placeholders: the trace computes with them, and keeps the results as numbers."""

    __slots__ = ("args", "op", "value")

    def __init__(self, op, args=()):
        self.op, self.args, self.value = op, args, None

    def __repr__(self):
        return f"<scalar {self.op}>"


def scalar(value):
    """A Python number stays one (the kernels take it as a Scalar); a `Scalar` is its
    value of this call; anything else (a 0-d tensor of mb's) becomes a torch tensor."""
    if isinstance(value, bool | int | float):
        return value
    if type(value) is Scalar:
        return value.value
    return t(value)


def _is_number(value):
    return isinstance(value, bool | int | float)


class Graph:
    """Who reads what in the traced steps, and which memory a step may write.

    A step may write into the memory of an argument when nothing reads that argument
    afterwards, it is not one of the rule's results, and the memory is scratch
    (allocated by an earlier step) or a parameter's or slot's (never a gradient's):
    their new values are written there at the end in any case.
    """

    def __init__(self, steps, outputs, on_cpu=False):
        self.steps, self.on_cpu = steps, on_cpu
        self.index = {id(step): i for i, step in enumerate(steps)}
        self.readers = {}
        for i, step in enumerate(steps):
            for arg in step.args:
                if isinstance(arg, Value):
                    self.readers.setdefault(id(arg), set()).add(i)
        self.last_read = {key: max(readers) for key, readers in self.readers.items()}
        self.kept = {id(value) for value in outputs if isinstance(value, Value)}

    def writable(self, arg, index):
        """Whether the step at ``index`` may write its result into ``arg``'s memory."""
        if not isinstance(arg, Value) or id(arg) in self.kept:
            return False
        if self.last_read.get(id(arg)) != index:
            return False
        return arg.target is not None or arg.op != "input"

    def only_for(self, value, consumer):
        """Whether ``value`` is a step's result that ``consumer`` alone reads."""
        return (
            isinstance(value, Value)
            and id(value) in self.index
            and id(value) not in self.kept
            and self.readers.get(id(value)) == {self.index[id(consumer)]}
        )


class Fusion:
    """Steps (``inner`` and the root) run as one instruction at the root's place.

    ``operands`` are the lists it reads there; ``run()`` returns the root's tensors.
    """

    __slots__ = ("inner", "operands", "run")

    def __init__(self, inner, operands, run):
        self.inner, self.operands, self.run = inner, operands, run


def _list_and_scalar(step):
    """``(list, scalar)`` of ``list * scalar``, ``scalar * list`` or ``list / scalar``."""
    if step.op not in ("multiply", "divide"):
        return None, None
    a, b = step.args
    if step.op == "multiply" and not isinstance(a, Value):
        a, b = b, a
    if isinstance(a, Value) and not isinstance(b, Value):
        return a, b
    return None, None


def _scale_chain(graph, value, consumer):
    """``value = base * s1 / s2 ...`` through steps read only inside the chain:
    ``(base, [(op, scalar), ...], chain steps)``; no factors when there is no chain."""
    factors, inner = [], []
    while graph.only_for(value, consumer):
        base, factor = _list_and_scalar(value)
        if base is None:
            break
        factors.append((value.op, factor))
        inner.append(value)
        consumer, value = value, base
    return value, factors, inner


def _coefficient(factors):
    """The product of the factors (a Python number, or a 0-d tensor if any is one)."""
    coefficient = None
    for op, factor in factors:
        factor = scalar(factor)
        if coefficient is None:
            coefficient = factor if op == "multiply" else 1 / factor
        elif op == "multiply":
            coefficient = coefficient * factor
        else:
            coefficient = coefficient / factor
    return 1 if coefficient is None else coefficient


_INVERSE = {"multiply": "divide", "divide": "multiply"}


def _numeric(factors):
    return all(_is_number(factor) for _, factor in factors)


def _product(graph, value, consumer):
    """``(a, b)`` when ``value`` is ``a * b`` or ``square(a)`` of lists, read only by
    ``consumer``; else None."""
    if not graph.only_for(value, consumer):
        return None
    if value.op == "square" and isinstance(value.args[0], Value):
        return value.args[0], value.args[0]
    if value.op == "multiply" and all(isinstance(arg, Value) for arg in value.args):
        return value.args
    return None


def _lerp(graph, root, index):
    """``x + (y - x) * w`` (w a Python number), x not read afterwards."""
    if root.op != "add":
        return None
    for x, scaled in (root.args, root.args[::-1]):
        if not graph.writable(x, index) or not graph.only_for(scaled, root):
            continue
        difference, weight = _list_and_scalar(scaled)
        if scaled.op != "multiply" or difference is None or not _is_number(weight):
            continue
        if difference.op != "subtract" or not graph.only_for(difference, scaled):
            continue
        y, again = difference.args
        if again is not x or not isinstance(y, Value) or y is x:
            continue
        pair = _product(graph, y, difference)
        if pair is not None and x not in pair:
            a, b = pair

            def average_of_products(x=x, a=a, b=b, w=weight):
                foreach.mul_(x.tensors, 1 - w)
                foreach.addcmul_(x.tensors, a.tensors, b.tensors, value=w)
                return x.tensors

            return Fusion([scaled, difference, y], [a, b], average_of_products)

        def average(x=x, y=y, w=weight):
            foreach.lerp_(x.tensors, y.tensors, w)
            return x.tensors

        return Fusion([scaled, difference], [y], average)
    return None


def _forms(root):
    """``(accumulator, term, sign)`` readings of an add or subtract of two lists."""
    a, b = root.args
    if not (isinstance(a, Value) and isinstance(b, Value)):
        return ()
    if root.op == "add":
        return ((a, b, 1), (b, a, 1))
    if root.op == "subtract":
        return ((a, b, -1),)
    return ()


def _scaling(graph, root, index):
    """``x ± x * s`` (x not read afterwards): ``mul_(x, 1 ± s)``."""
    for x, term, sign in _forms(root):
        base, factors, inner = _scale_chain(graph, term, root)
        if base is x and factors and graph.writable(x, index):

            def scale(x=x, factors=factors, sign=sign):
                foreach.mul_(x.tensors, 1 + sign * _coefficient(factors))
                return x.tensors

            return Fusion(inner, [], scale)
    return None


def _term(graph, term, root):
    """The term of an accumulation: ``(kind, lists, factors, steps, divisor step)``."""
    base, factors, inner = _scale_chain(graph, term, root)
    consumer = inner[-1] if inner else root
    pair = _product(graph, base, consumer)
    if pair is not None:
        return "addcmul", pair, factors, [*inner, base], None
    if (
        graph.only_for(base, consumer)
        and base.op == "divide"
        and all(isinstance(arg, Value) for arg in base.args)
    ):
        numerator, denominator = base.args
        numerator, more, chain = _scale_chain(graph, numerator, base)
        # A scaled denominator's scalars divide the coefficient instead.
        denominator, under, under_chain = _scale_chain(graph, denominator, base)
        factors = factors + more + [(_INVERSE[op], factor) for op, factor in under]
        steps = [*inner, base, *chain, *under_chain]
        divisor = under_chain[-1] if under_chain else base
        return "addcdiv", (numerator, denominator), factors, steps, divisor
    if factors:
        return "add", (base,), factors, inner, None
    return None


def _accumulation(graph, root, index):
    """``x ± term`` or ``x * s ± term`` into x's memory, or into a new list when x is
    read again (see the module docstring)."""
    for in_place in (True, False):
        for accumulator, term, sign in _forms(root):
            found = _accumulator(graph, accumulator, root, index, in_place)
            if found is None:
                continue
            x, scale, scale_steps = found
            found = _term(graph, term, root)
            if found is None:
                continue
            kind, lists, factors, steps, divisor = found
            if x in lists:
                continue
            if kind == "addcdiv" and not _numeric(factors):
                numerator, denominator = lists
                if numerator is denominator or not graph.writable(
                    denominator, graph.index[id(divisor)]
                ):
                    continue
            elif not _numeric(factors) and not (kind == "add" and graph.on_cpu):
                continue
            run = _accumulate(x, scale, kind, lists, factors, sign, in_place)
            return Fusion([*scale_steps, *steps], list(lists), run)
    return None


def _accumulator(graph, value, root, index, in_place):
    """``(x, scale factors, scale steps)`` of the accumulator ``x`` or ``x * s``, or None."""
    if not isinstance(value, Value):
        return None
    if not in_place:
        return value, [], []
    if graph.writable(value, index):
        return value, [], []
    x, scale, steps = _scale_chain(graph, value, root)
    if scale and graph.writable(x, graph.index[id(steps[-1])]):
        return x, scale, steps
    return None


def _value_readable(coefficient):
    """Whether a 0-d CPU tensor's value may be read into Python here: not while torch
    compiles or a dispatch mode (the step recorder) would see the read."""
    return (
        coefficient.device.type == "cpu"
        and not coefficient.requires_grad
        and not torch.compiler.is_compiling()
        and not dispatch_mode_active()
    )


def _accumulate(x, scale, kind, lists, factors, sign, in_place):
    def run():
        if scale:
            foreach.mul_(x.tensors, scalar(_coefficient(scale)))
        coefficient = _coefficient(factors)
        tensors = [value.tensors for value in lists]
        if kind == "add" and not _is_number(coefficient) and _value_readable(coefficient):
            # On the CPU, read where nothing records the step: ``add_(alpha=)`` is
            # ~10% faster than a product with a broadcast factor (torch.optim's SGD).
            kind_, options = "add", {"alpha": sign * coefficient.item()}
        elif kind == "add" and not _is_number(coefficient):
            # On the CPU the kernels run tensor by tensor, and broadcast a 0-d
            # factor (on a GPU it would leave the one-launch path).
            kind_, tensors = "addcmul", [*tensors, [coefficient] * len(x.tensors)]
            options = {"value": sign}
        elif kind == "add":
            kind_, options = "add", {"alpha": sign * coefficient}
        elif kind == "addcdiv" and not _is_number(coefficient):
            foreach.div_(tensors[1], coefficient)
            kind_, options = kind, {"value": sign}
        else:
            kind_, options = kind, {"value": sign * coefficient}
        if in_place:
            getattr(foreach, kind_ + "_")(x.tensors, *tensors, **options)
            return x.tensors
        return list(getattr(foreach, kind_)(x.tensors, *tensors, **options))

    return run


def _split(graph, root, index):
    """``x ± (a ± b)`` (x not read afterwards, the sum read by this step alone), each of
    ``a`` and ``b`` a list, a scaled list or a product: two accumulations into x's
    memory (Nesterov's ``p + (m * momentum - g * lr)``: ``add_`` and ``addcmul_``, no
    list for the sum)."""
    for x, total, sign in _forms(root):
        if not graph.writable(x, index) or not graph.only_for(total, root):
            continue
        if total.op not in ("add", "subtract") or x in total.args:
            continue
        parts = []
        for part, part_sign in zip(total.args, (sign, sign * _SIGN[total.op]), strict=True):
            if not isinstance(part, Value):
                break
            found = _term(graph, part, total)
            kind, lists, factors, steps = ("add", (part,), [], [])
            if found is not None:
                kind, lists, factors, steps, _ = found
            if kind == "addcdiv" or x in lists:
                break
            if not _numeric(factors) and not (kind == "add" and graph.on_cpu):
                break
            parts.append((kind, lists, factors, steps, part_sign))
        else:
            runs = [_accumulate(x, [], kind, lists, f, s, True) for kind, lists, f, _, s in parts]

            def accumulate(x=x, runs=runs):
                for run in runs:
                    run()
                return x.tensors

            inner = [total, *(step for part in parts for step in part[3])]
            return Fusion(inner, [value for part in parts for value in part[1]], accumulate)
    return None


_SIGN = {"add": 1, "subtract": -1}


def plan(graph):
    """The fusions of the traced steps: ``{root index: Fusion}`` and the ids of the
    steps they absorb (which then do not run by themselves)."""
    fusions, absorbed = {}, set()
    # Sums split into two accumulations first: their terms' own steps would otherwise
    # be planned (as an out-of-place accumulation) before the root is reached.
    for index, root in enumerate(graph.steps):
        if root.op in ("add", "subtract"):
            fusion = _split(graph, root, index)
            if fusion is not None and _can_defer(graph, fusion, index, fusions, absorbed):
                fusions[index] = fusion
                absorbed.update(id(step) for step in fusion.inner)
    for index, root in enumerate(graph.steps):
        if root.op not in ("add", "subtract") or index in fusions or id(root) in absorbed:
            continue
        for match in (_lerp, _scaling, _accumulation):
            fusion = match(graph, root, index)
            if fusion is not None and _can_defer(graph, fusion, index, fusions, absorbed):
                fusions[index] = fusion
                absorbed.update(id(step) for step in fusion.inner)
                break
    # Then what is left of chains of scalings, outermost first.
    for index in reversed(range(len(graph.steps))):
        root = graph.steps[index]
        if id(root) in absorbed or index in fusions:
            continue
        fusion = _scalings(graph, root, index)
        if fusion is not None and _can_defer(graph, fusion, index, fusions, absorbed):
            fusions[index] = fusion
            absorbed.update(id(step) for step in fusion.inner)
    return fusions, absorbed


def _scalings(graph, root, index):
    """``y * s1 / s2 ...``: one ``mul`` by the folded coefficient, in y's memory when
    y is not read afterwards."""
    y, factor = _list_and_scalar(root)
    if y is None:
        return None
    y, factors, inner = _scale_chain(graph, y, root)
    if not inner:
        return None
    factors = [(root.op, factor), *factors]
    in_place = graph.writable(y, graph.index[id(inner[-1])])

    def scale(y=y, factors=factors, in_place=in_place):
        coefficient = scalar(_coefficient(factors))
        if in_place:
            foreach.mul_(y.tensors, coefficient)
            return y.tensors
        return list(foreach.mul(y.tensors, coefficient))

    return Fusion(inner, [y], scale)


def _can_defer(graph, fusion, index, fusions, absorbed):
    """Whether the fusion's steps may all run at the root's place: none belongs to
    another fusion, and no other step before the root may overwrite a list it reads."""
    steps = {graph.index[id(step)] for step in fusion.inner}
    if any(id(step) in absorbed for step in fusion.inner) or steps & fusions.keys():
        return False
    steps.add(index)
    for value in fusion.operands:
        last = graph.last_read.get(id(value))
        # Only the step reading a list last may write into its memory.
        if last not in steps and last < index and graph.writable(value, last):
            return False
    return True
