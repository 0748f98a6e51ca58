"""Bias additions folded into the kernel before them, in a recorded step (`GraphReplay`).

mb's layers add their bias as an op of its own after the matmul or the convolution
(``ops.add(outputs, bias)``), as Keras's do; torch's own modules hand the bias to the
kernel instead (``addmm``, ``convolution(..., bias)``), which adds it while the output
is still in cache. On a channels_last convolution mb's separate addition also runs over
a permuted, strided view: for a small CNN's `predict` that addition costs about as
much as the convolution itself.

The rewrite works on the recorded aten ops, so the layers stay as they are:

- ``c = convolution(x, w, None, ...)``, optionally ``p = permute(c, perm)``, then
  ``add(p, view(b, shape))`` with ``b`` of the output channels, broadcast along the
  channel axis only: the convolution takes ``b`` and the addition becomes a name for
  its (permuted) output.
- ``m = mm(a, w)`` then ``add(m, b)`` with a 1-D ``b`` of ``m``'s columns: one
  ``addmm(b, a, w)``.

The convolution case is skipped where the addition's result is returned (it would come
back as a view of the convolution's output instead of a tensor of its own).

Each is applied only where the intermediate results have no other reader, are not
returned, no op in between writes in place, and neither shape nor dtype changes, so
the replay computes the same values (up to the order of one addition).
"""

import ast

import torch

from mb_backend_torch import _compat

_CONVOLUTION = torch.ops.aten.convolution.default
_PERMUTE = torch.ops.aten.permute.default
_VIEWS = frozenset({torch.ops.aten.view.default, torch.ops.aten._unsafe_view.default})
_ADD = torch.ops.aten.add.Tensor
_MM = torch.ops.aten.mm.default
_ADDMM = torch.ops.aten.addmm.default
# The ops whose recorded steps the rewrite reads shapes and dtypes of (their arguments'
# and results'): the recorder keeps those for these ops' steps only.
DESCRIBED = frozenset({_CONVOLUTION, _PERMUTE, *_VIEWS, _ADD, _MM})


def fuse_biases(recorder, steps, returned):
    """Rewrites ``steps`` (the recorder's `_Step` list) in place; ``returned`` holds the
    names the step returns."""
    graph = _Graph(recorder, steps, returned)
    for index, step in enumerate(steps):
        if step.call is None or step.call[0] is not _ADD or len(step.given) != 2:
            continue
        if len(step.call[2]) != 2:
            continue
        for side in (0, 1):
            mine, other = step.call[2][side], step.call[2][1 - side]
            if mine not in graph.made_at:
                continue
            addend = step.given[1 - side]
            if graph.fold_into_convolution(step, index, mine, other) or graph.fold_into_mm(
                step, index, mine, other, addend
            ):
                break


class _Graph:
    """Who makes and who reads each name of a recording."""

    def __init__(self, recorder, steps, returned):
        self.recorder, self.steps, self.returned = recorder, steps, returned
        self.uses, self.made_at, self.tensor_of = {}, {}, {}
        for index, step in enumerate(steps):
            for name in step.reads:
                self.uses[name] = self.uses.get(name, 0) + 1
            for name, tensor in step.outs:
                self.made_at[name] = index
                self.tensor_of[name] = tensor

    def single_use(self, name):
        return self.uses.get(name, 0) == 1 and name not in self.returned

    def calm_between(self, first, last):
        """No op between the two steps writes into memory (or is one not understood)."""
        return all(
            s.call is not None and not _compat.is_mutable(s.call[0])
            for s in self.steps[first + 1 : last]
        )

    def defined_before(self, name, position):
        return name not in self.made_at or self.made_at[name] < position

    def fold_into_mm(self, add, index, mine, other, bias):
        producer = self.steps[self.made_at[mine]]
        if producer.call is None or producer.call[0] is not _MM or not self.single_use(mine):
            return False
        product, position = self.tensor_of[mine], self.made_at[mine]
        if (
            bias.dim() != 1
            or product.dim() != 2
            or bias.shape[0] != product.shape[1]
            or bias.dtype != product.dtype
            or not _same(add.outs[0][1], product)
            or not self.defined_before(other, position)
            or not self.calm_between(position, index)
        ):
            return False
        left, right = producer.call[2]
        addmm = self.recorder._op_name(_ADDMM)
        producer.text = f"{mine} = {addmm}({other}, {left}, {right})"
        _alias(producer, add, mine, other, bias)
        return True

    def fold_into_convolution(self, add, index, mine, other):
        made_at, tensor_of = self.made_at, self.tensor_of
        permute, conv_name, producer = None, mine, self.steps[made_at[mine]]
        if producer.call is not None and producer.call[0] is _PERMUTE and self.single_use(mine):
            permute, conv_name = producer, producer.call[2][0]
            if conv_name not in made_at:
                return False
            producer = self.steps[made_at[conv_name]]
        if producer.call is None or producer.call[0] is not _CONVOLUTION:
            return False
        arguments = producer.call[2]
        if arguments[2] != "None" or not self.single_use(conv_name) or other not in made_at:
            return False
        if add.outs[0][0] in self.returned:  # it would become a view of the convolution's
            return False
        view = self.steps[made_at[other]]
        if view.call is None or view.call[0] not in _VIEWS or len(view.given) != 1:
            return False
        bias_name, bias, conv = view.call[2][0], view.given[0], tensor_of[conv_name]
        axis = 1
        if permute is not None:
            order = ast.literal_eval(permute.call[2][1])
            axis = [d % conv.dim() for d in order].index(1)
        expected = [1] * conv.dim()
        expected[axis] = conv.shape[1]
        position = made_at[conv_name]
        if (
            bias.dim() != 1
            or bias.shape[0] != conv.shape[1]
            or bias.dtype != conv.dtype
            or list(tensor_of[other].shape) != expected
            or not _same(add.outs[0][1], tensor_of[mine])
            or not self.defined_before(bias_name, position)
            or not self.calm_between(position, index)
        ):
            return False
        kernel = producer.text.split(" = ", 1)[1].split("(", 1)[0]
        fused = [*arguments[:2], bias_name, *arguments[3:]]
        producer.text = f"{conv_name} = {kernel}({', '.join(fused)})"
        _alias(producer, add, mine, bias_name, bias)
        if self.single_use(other):  # the bias's broadcast view has no other reader
            view.text, view.reads, view.outs = "pass", set(), []
        return True


def _same(a, b):
    return a.shape == b.shape and a.dtype == b.dtype


def _alias(producer, add, source, bias_name, bias):
    """The producer now reads the bias; the addition becomes a name for its output."""
    producer.reads = producer.reads | {bias_name}
    producer.given = [*producer.given, bias]
    producer.call = None
    add.text = f"{add.outs[0][0]} = {source}"
    add.reads = {source}
    add.call = None
