"""Conformance cases for the numpy op family (reductions, shapes, products, creation)."""

from __future__ import annotations

import numpy as np

from mb_ops.testing._case import OpCase
from mb_ops.testing._cases_arithmetic import arithmetic_cases
from mb_ops.testing._cases_logic import logic_cases
from mb_ops.testing._cases_transcendental import transcendental_cases
from mb_ops.testing._inputs import rand

_REDUCTIONS = {
    "sum": (np.sum, 4),
    "prod": (np.prod, 8),
    "mean": (np.mean, 4),
    "max": (np.max, 1),
    "min": (np.min, 1),
    "amax": (np.amax, 1),
    "amin": (np.amin, 1),
    "std": (np.std, 8),
    "var": (np.var, 8),
    "median": (np.median, 4),
    "ptp": (np.ptp, 1),
    "nansum": (np.nansum, 4),
    "nanmean": (np.nanmean, 4),
    "nanmax": (np.nanmax, 1),
    "nanmin": (np.nanmin, 1),
    "nanprod": (np.nanprod, 8),
    "nanstd": (np.nanstd, 8),
    "nanvar": (np.nanvar, 8),
    "nanmedian": (np.nanmedian, 4),
}


def _reduction_cases() -> list[OpCase]:
    out = []
    x = rand((2, 3, 4), low=0.5)
    with_nan = x.copy()
    with_nan[0, 1, 2] = np.nan
    for name, (ref, tol) in _REDUCTIONS.items():
        op = f"numpy.{name}"
        data = with_nan if name.startswith("nan") else x
        for axis, keepdims in ((None, False), (1, False), (-1, True), ((0, 2), False)):
            out.append(
                OpCase(
                    op,
                    (data,),
                    {"axis": axis, "keepdims": keepdims},
                    reference=lambda a, axis, keepdims, ref=ref: ref(
                        a, axis=axis, keepdims=keepdims
                    ),
                    tol=tol,
                    label=f"axis={axis},keepdims={keepdims}",
                )
            )
    for name in ("sum", "prod", "max", "mean"):
        ref = _REDUCTIONS[name][0]
        out.append(
            OpCase(
                f"numpy.{name}",
                (rand((3, 4), "int32", -5, 5),),
                {"axis": 0},
                reference=lambda a, axis, ref=ref: ref(a, axis=axis),
                tol=4,
                label="int32",
            )
        )
    out.append(
        OpCase(
            "numpy.sum",
            (rand((0, 3)),),
            {"axis": 0},
            reference=lambda a, axis: np.sum(a, axis=axis),
            label="empty",
        )
    )
    out.append(
        OpCase(
            "numpy.sum",
            (rand((3, 2), "bool"),),
            {"axis": 0},
            reference=lambda a, axis: np.sum(a, axis=axis),
            label="bool",
        )
    )
    out.append(
        OpCase(
            "numpy.mean",
            (rand((4, 4), "float16"),),
            {"axis": -1},
            reference=lambda a, axis: np.mean(a, axis=axis),
            tol=2,
            label="float16",
        )
    )
    for name, ref in (("all", np.all), ("any", np.any)):
        b = rand((3, 4), "bool")
        out.append(
            OpCase(
                f"numpy.{name}",
                (b,),
                {"axis": -1},
                reference=lambda a, axis, ref=ref: ref(a, axis=axis),
            )
        )
        out.append(OpCase(f"numpy.{name}", (b,), reference=ref, label="all_axes"))
    for name, ref in (
        ("argmax", np.argmax),
        ("argmin", np.argmin),
        ("nanargmax", np.nanargmax),
        ("nanargmin", np.nanargmin),
    ):
        data = with_nan if name.startswith("nan") else x
        out.append(
            OpCase(
                f"numpy.{name}",
                (data,),
                {"axis": -1},
                reference=lambda a, axis, ref=ref: ref(a, axis=axis),
            )
        )
        out.append(OpCase(f"numpy.{name}", (data,), reference=ref, label="flat"))
    for name, ref in (
        ("cumsum", np.cumsum),
        ("cumprod", np.cumprod),
        ("nancumsum", np.nancumsum),
        ("nancumprod", np.nancumprod),
    ):
        data = with_nan if name.startswith("nan") else x
        out.append(
            OpCase(
                f"numpy.{name}",
                (data,),
                {"axis": 1},
                reference=lambda a, axis, ref=ref: ref(a, axis=axis),
                tol=8,
            )
        )
        out.append(OpCase(f"numpy.{name}", (data,), reference=ref, tol=16, label="flat"))
    out.append(
        OpCase(
            "numpy.cumsum",
            (rand((4,), "bool"),),
            {"axis": 0},
            reference=lambda a, axis: np.cumsum(a, axis=axis),
            label="bool",
        )
    )
    out.append(
        OpCase("numpy.sort", (x,), {"axis": 1}, reference=lambda a, axis: np.sort(a, axis=axis))
    )
    out.append(
        OpCase(
            "numpy.argsort", (rand((6,), seed=3),), reference=lambda a: np.argsort(a, kind="stable")
        )
    )
    out.append(
        OpCase(
            "numpy.count_nonzero",
            (rand((3, 4), "int32", -1, 1),),
            {"axis": 1},
            reference=lambda a, axis: np.count_nonzero(a, axis=axis),
        )
    )
    out.append(
        OpCase(
            "numpy.average",
            (x,),
            {"axis": 1, "weights": rand((3,), low=0.1)},
            reference=lambda a, axis, weights: np.average(a, axis=axis, weights=weights),
            tol=4,
        )
    )
    for name, ref, q in (
        ("quantile", np.quantile, 0.3),
        ("percentile", np.percentile, 30.0),
        ("nanquantile", np.nanquantile, 0.3),
        ("nanpercentile", np.nanpercentile, 30.0),
    ):
        data = with_nan if name.startswith("nan") else x
        out.append(
            OpCase(
                f"numpy.{name}",
                (data, q),
                {"axis": 1},
                reference=lambda a, q, axis, ref=ref: ref(a, q, axis=axis),
                tol=8,
            )
        )
    out.append(
        OpCase(
            "numpy.diff",
            (x,),
            {"n": 1, "axis": -1},
            reference=lambda a, n, axis: np.diff(a, n=n, axis=axis),
            tol=4,
        )
    )
    out.append(
        OpCase(
            "numpy.trapezoid",
            (rand((3, 5)),),
            {"axis": -1},
            reference=lambda y, axis: np.trapezoid(y, axis=axis),
            tol=8,
        )
    )
    out.append(
        OpCase(
            "numpy.bincount",
            (np.array([0, 1, 1, 3], "int32"),),
            {"minlength": 5},
            reference=lambda a, minlength: np.bincount(a, minlength=minlength),
            label="minlength",
        )
    )
    return out


def _shape_cases() -> list[OpCase]:
    x = rand((2, 3, 4))
    out = [
        OpCase("numpy.reshape", (x, (4, -1)), reference=np.reshape),
        OpCase(
            "numpy.transpose",
            (x,),
            {"axes": (2, 0, 1)},
            reference=lambda a, axes: np.transpose(a, axes),
        ),
        OpCase("numpy.transpose", (x,), reference=np.transpose, label="reverse"),
        OpCase("numpy.expand_dims", (x, -1), reference=np.expand_dims),
        OpCase(
            "numpy.squeeze",
            (rand((2, 1, 3)),),
            {"axis": 1},
            reference=lambda a, axis: np.squeeze(a, axis),
        ),
        OpCase("numpy.ravel", (x,), reference=np.ravel),
        OpCase(
            "numpy.concatenate",
            ([x, rand((2, 3, 2))],),
            {"axis": -1},
            reference=lambda xs, axis: np.concatenate(xs, axis=axis),
        ),
        OpCase(
            "numpy.concatenate",
            ([rand((2, 3), "int32"), rand((1, 3))],),
            {"axis": 0},
            reference=lambda xs, axis: np.concatenate(xs, axis=axis),
            label="mixed_dtypes",
        ),
        OpCase(
            "numpy.stack",
            ([rand((2, 3)), rand((2, 3), seed=1)],),
            {"axis": 1},
            reference=lambda xs, axis: np.stack(xs, axis=axis),
        ),
        OpCase("numpy.hstack", ([rand((2, 3)), rand((2, 1))],), reference=np.hstack),
        OpCase("numpy.vstack", ([rand((3,)), rand((3,), seed=1)],), reference=np.vstack),
        OpCase("numpy.dstack", ([rand((2, 3)), rand((2, 3), seed=1)],), reference=np.dstack),
        OpCase(
            "numpy.append",
            (rand((2, 3)), rand((1, 3))),
            {"axis": 0},
            reference=lambda a, b, axis: np.append(a, b, axis=axis),
        ),
        OpCase("numpy.split", (rand((6, 2)), 3), reference=np.split),
        OpCase("numpy.split", (rand((6, 2)), [1, 4]), reference=np.split, label="indices"),
        OpCase("numpy.array_split", (rand((7,)), 3), reference=np.array_split),
        OpCase("numpy.hsplit", (rand((2, 4)), 2), reference=np.hsplit),
        OpCase("numpy.vsplit", (rand((4, 2)), 2), reference=np.vsplit),
        OpCase("numpy.dsplit", (rand((2, 2, 4)), 2), reference=np.dsplit),
        OpCase("numpy.tile", (rand((2, 3)), (2, 1)), reference=np.tile),
        OpCase(
            "numpy.repeat",
            (rand((2, 3)), 2),
            {"axis": 1},
            reference=lambda a, r, axis: np.repeat(a, r, axis=axis),
        ),
        OpCase("numpy.repeat", (rand((2, 3)), 2), reference=np.repeat, label="flat"),
        OpCase("numpy.flip", (x,), {"axis": -1}, reference=lambda a, axis: np.flip(a, axis)),
        OpCase("numpy.fliplr", (rand((2, 3)),), reference=np.fliplr),
        OpCase("numpy.flipud", (rand((2, 3)),), reference=np.flipud),
        OpCase(
            "numpy.roll", (x, 2), {"axis": 1}, reference=lambda a, s, axis: np.roll(a, s, axis=axis)
        ),
        OpCase("numpy.rot90", (rand((2, 3)),), reference=np.rot90),
        OpCase("numpy.moveaxis", (x, 0, -1), reference=np.moveaxis),
        OpCase("numpy.swapaxes", (x, 0, 2), reference=np.swapaxes),
        OpCase("numpy.broadcast_to", (rand((3,)), (2, 3)), reference=np.broadcast_to),
        OpCase("numpy.copy", (x,), reference=np.copy),
        OpCase(
            "numpy.take",
            (x, np.array([2, 0], "int32")),
            {"axis": -1},
            reference=lambda a, i, axis: np.take(a, i, axis=axis),
        ),
        OpCase("numpy.take", (x, np.array([5, 1], "int32")), reference=np.take, label="flat"),
        OpCase(
            "numpy.take_along_axis",
            (rand((3, 4)), np.array([[0], [3], [1]], "int32")),
            {"axis": 1},
            reference=lambda a, i, axis: np.take_along_axis(a, i, axis),
        ),
        OpCase(
            "numpy.take_along_axis",
            (rand((2, 3, 4)), np.array([[[0], [3], [1]]], "int32")),
            {"axis": -1},
            reference=lambda a, i, axis: np.take_along_axis(a, i, axis),
            label="negative axis, broadcast",
        ),
        OpCase(
            "numpy.where",
            (rand((2, 3), "bool"), rand((2, 3)), rand((3,), seed=1)),
            reference=np.where,
        ),
        OpCase(
            "numpy.where",
            (rand((2, 3), "bool"), rand((2, 3), "int32"), 0.5),
            reference=np.where,
            label="scalar",
        ),
        OpCase("numpy.pad", (rand((2, 3)), ((1, 0), (0, 2))), reference=np.pad),
        OpCase(
            "numpy.pad",
            (rand((2, 3)), ((1, 1), (1, 1))),
            {"mode": "reflect"},
            reference=lambda a, w, mode: np.pad(a, w, mode=mode),
            label="reflect",
        ),
        OpCase("numpy.tril", (rand((3, 4)),), {"k": -1}, reference=lambda a, k: np.tril(a, k)),
        OpCase("numpy.triu", (rand((3, 4)),), {"k": 1}, reference=lambda a, k: np.triu(a, k)),
        OpCase("numpy.diag", (rand((3,)),), {"k": 1}, reference=lambda a, k: np.diag(a, k)),
        OpCase("numpy.diag", (rand((3, 4)),), reference=np.diag, label="extract"),
        OpCase("numpy.diagflat", (rand((2, 2)),), reference=np.diagflat),
        OpCase(
            "numpy.diagonal",
            (x,),
            {"offset": 1, "axis1": 1, "axis2": 2},
            reference=lambda a, offset, axis1, axis2: np.diagonal(a, offset, axis1, axis2),
        ),
        OpCase("numpy.trace", (rand((3, 3)),), reference=np.trace, tol=4),
        OpCase(
            "numpy.searchsorted",
            (np.array([1.0, 2.0, 3.0], "float32"), np.array([0.5, 2.0, 4.0], "float32")),
            reference=np.searchsorted,
        ),
        OpCase(
            "numpy.digitize",
            (np.array([0.2, 1.5, 3.0], "float32"), np.array([0.0, 1.0, 2.0], "float32")),
            reference=np.digitize,
        ),
        OpCase(
            "numpy.isin",
            (np.array([1, 2, 3, 4], "int32"), np.array([2, 4], "int32")),
            reference=np.isin,
        ),
        OpCase(
            "numpy.select",
            ([rand((4,)) > 0, rand((4,), seed=1) > 0], [rand((4,)), rand((4,), seed=2)]),
            reference=lambda c, ch: np.select(c, ch),
        ),
        OpCase("numpy.ndim", (x,), reference=np.ndim, check_dtype=False),
        OpCase("numpy.size", (x,), reference=np.size, check_dtype=False),
        OpCase("numpy.get_item", (x, (slice(None), 1)), reference=lambda a, k: a[k]),
        OpCase(
            "numpy.get_item",
            (x, (Ellipsis, None, 0)),
            reference=lambda a, k: a[k],
            label="ellipsis_newaxis",
        ),
    ]
    return out


def _linear_cases() -> list[OpCase]:
    return [
        OpCase("numpy.matmul", (rand((2, 3, 4)), rand((4, 5))), reference=np.matmul, tol=4),
        OpCase(
            "numpy.matmul",
            (rand((4,)), rand((4, 5))),
            reference=np.matmul,
            tol=4,
            label="vector_matrix",
        ),
        OpCase(
            "numpy.matmul",
            (rand((2, 1, 3, 4)), rand((5, 4, 2))),
            reference=np.matmul,
            tol=4,
            label="batch_broadcast",
        ),
        OpCase(
            "numpy.matmul",
            (rand((3, 4), "int32", -3, 3), rand((4, 2), "int32", -3, 3)),
            reference=np.matmul,
            label="int32",
        ),
        OpCase("numpy.matmul", (rand((0, 4)), rand((4, 2))), reference=np.matmul, label="empty"),
        OpCase(
            "numpy.matmul",
            (rand((3, 4), "float16"), rand((4, 2), "float16")),
            reference=np.matmul,
            tol=4,
            label="float16",
        ),
        OpCase("numpy.dot", (rand((3, 4)), rand((4, 2))), reference=np.dot, tol=4),
        OpCase("numpy.dot", (rand((4,)), rand((4,))), reference=np.dot, tol=4, label="vec"),
        OpCase(
            "numpy.tensordot",
            (rand((2, 3, 4)), rand((3, 4, 5))),
            {"axes": 2},
            reference=lambda a, b, axes: np.tensordot(a, b, axes),
            tol=4,
        ),
        OpCase(
            "numpy.einsum",
            ("bij,bjk->bik", rand((2, 3, 4)), rand((2, 4, 5))),
            reference=np.einsum,
            tol=4,
        ),
        OpCase("numpy.einsum", ("ij->j", rand((3, 4))), reference=np.einsum, tol=4, label="reduce"),
        OpCase("numpy.outer", (rand((3,)), rand((4,))), reference=np.outer),
        OpCase("numpy.inner", (rand((2, 3)), rand((4, 3))), reference=np.inner, tol=4),
        OpCase("numpy.vdot", (rand((2, 3)), rand((2, 3), seed=1)), reference=np.vdot, tol=4),
        OpCase("numpy.kron", (rand((2, 2)), rand((2, 3))), reference=np.kron),
        OpCase("numpy.cross", (rand((4, 3)), rand((4, 3), seed=1)), reference=np.cross, tol=4),
        OpCase(
            "numpy.correlate",
            (rand((5,)), rand((3,), seed=1)),
            {"mode": "full"},
            reference=lambda a, v, mode: np.correlate(a, v, mode),
            tol=4,
        ),
        OpCase("numpy.corrcoef", (rand((3, 6)),), reference=np.corrcoef, tol=16),
        OpCase(
            "numpy.slogdet",
            (rand((3, 3)) + 3 * np.eye(3, dtype="float32"),),
            reference=lambda a: tuple(np.linalg.slogdet(a)),
            tol=16,
        ),
        OpCase(
            "numpy.vander", (rand((3,)),), {"N": 4}, reference=lambda a, N: np.vander(a, N), tol=4
        ),
    ]


def _creation_cases() -> list[OpCase]:
    return [
        OpCase("numpy.zeros", ((2, 3),), reference=lambda s: np.zeros(s, "float32")),
        OpCase(
            "numpy.ones",
            ((2, 3),),
            {"dtype": "int32"},
            reference=lambda s, dtype: np.ones(s, dtype),
        ),
        OpCase("numpy.full", ((2, 3), 7.0), reference=np.full),
        OpCase("numpy.empty", ((2, 3),), check_values=False),
        OpCase("numpy.zeros_like", (rand((2, 3), "int32"),), reference=np.zeros_like),
        OpCase("numpy.ones_like", (rand((2, 3)),), reference=np.ones_like),
        OpCase("numpy.full_like", (rand((2, 3)), 2.0), reference=np.full_like),
        OpCase("numpy.empty_like", (rand((2, 3)),), check_values=False),
        OpCase("numpy.eye", (3,), {"M": 4, "k": 1}, reference=lambda n, M, k: np.eye(n, M, k)),
        OpCase("numpy.identity", (3,), reference=np.identity),
        OpCase("numpy.tri", (3,), {"k": 0}, reference=lambda n, k: np.tri(n, k=k)),
        OpCase("numpy.arange", (0, 5), reference=np.arange),
        OpCase("numpy.arange", (0.0, 2.0, 0.5), reference=np.arange, label="float"),
        OpCase("numpy.linspace", (0.0, 1.0, 5), reference=np.linspace),
        OpCase("numpy.logspace", (0.0, 2.0, 3), reference=np.logspace, tol=8),
        OpCase("numpy.geomspace", (1.0, 8.0, 4), reference=np.geomspace, tol=8),
        OpCase("numpy.bartlett", (5,), reference=np.bartlett, check_dtype=False),
        OpCase("numpy.hamming", (5,), reference=np.hamming, check_dtype=False, tol=4),
        OpCase("numpy.hanning", (5,), reference=np.hanning, check_dtype=False, tol=4),
        OpCase("numpy.blackman", (5,), reference=np.blackman, check_dtype=False, tol=8),
        OpCase("numpy.kaiser", (5, 2.0), reference=np.kaiser, check_dtype=False, tol=8),
        OpCase(
            "numpy.meshgrid",
            (rand((3,)), rand((2,), seed=1)),
            reference=lambda a, b: tuple(np.meshgrid(a, b)),
        ),
        OpCase(
            "numpy.array", ([[1.0, 2.0], [3.0, 4.0]],), reference=lambda x: np.array(x, "float32")
        ),
    ]


def numpy_cases() -> list[OpCase]:
    """Every conformance case of the numpy family."""
    return [
        *arithmetic_cases(),
        *transcendental_cases(),
        *logic_cases(),
        *_reduction_cases(),
        *_shape_cases(),
        *_linear_cases(),
        *_creation_cases(),
    ]
