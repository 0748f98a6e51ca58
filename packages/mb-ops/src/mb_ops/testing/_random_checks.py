"""Conformance checks for the ``keras.random`` functions of a backend.

Random streams differ between engines, so these check what must agree: shapes,
dtypes, reproducibility for a fixed seed, a SeedGenerator advancing, and coarse
statistics on a few thousand samples (bounds stated in each check).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mb_ops import _backends, _contract, _dtypes
from mb_ops import random as mrandom

_N = 4000


@dataclass
class RandomCheck:
    """One random function call and what its samples must satisfy."""

    name: str
    args: tuple
    kwargs: dict
    dtype: str
    shape: tuple
    statistic: Any = None  # fn(samples) -> None, raising AssertionError
    label: str = ""

    @property
    def id(self) -> str:
        return f"random.{self.name}[{self.label}]" if self.label else f"random.{self.name}"


def _mean_near(target: float, bound: float) -> Any:
    def check(samples: np.ndarray) -> None:
        mean = float(np.mean(samples))
        if abs(mean - target) > bound:
            raise AssertionError(f"sample mean {mean:.4f}, expected {target} +- {bound}")

    return check


def _within(lo: float, hi: float) -> Any:
    def check(samples: np.ndarray) -> None:
        if samples.min() < lo or samples.max() > hi:
            raise AssertionError(f"samples outside [{lo}, {hi}]: {samples.min()}..{samples.max()}")

    return check


def random_checks() -> list[RandomCheck]:
    """Every random conformance check."""
    logits = np.log(np.array([[0.2, 0.8]], "float32"))
    ones = np.ones((_N,), "float32")
    return [
        RandomCheck("normal", ((_N,),), {}, "float32", (_N,), _mean_near(0.0, 0.1)),
        RandomCheck(
            "normal",
            ((2, 3),),
            {"mean": 2.0, "dtype": "float16"},
            "float16",
            (2, 3),
            label="float16",
        ),
        RandomCheck(
            "uniform", ((_N,),), {"minval": 1.0, "maxval": 3.0}, "float32", (_N,), _within(1.0, 3.0)
        ),
        RandomCheck("truncated_normal", ((_N,),), {}, "float32", (_N,), _within(-2.0, 2.0)),
        RandomCheck("randint", ((_N,), 0, 5), {}, "int32", (_N,), _within(0, 4)),
        RandomCheck("categorical", (logits, _N), {}, "int32", (1, _N), _mean_near(0.8, 0.05)),
        RandomCheck("dropout", (ones,), {"rate": 0.5}, "float32", (_N,), _mean_near(1.0, 0.1)),
        RandomCheck(
            "shuffle",
            (np.arange(10, dtype="int32"),),
            {},
            "int32",
            (10,),
            lambda s: np.testing.assert_array_equal(np.sort(s), np.arange(10)),
        ),
        RandomCheck("gamma", ((_N,), 2.0), {}, "float32", (_N,), _mean_near(2.0, 0.2)),
        RandomCheck("binomial", ((_N,), 10, 0.3), {}, "float32", (_N,), _mean_near(3.0, 0.2)),
        RandomCheck("beta", ((_N,), 2.0, 2.0), {}, "float32", (_N,), _mean_near(0.5, 0.05)),
    ]


def _to_numpy(x: Any) -> np.ndarray:
    return np.asarray(_backends.backend_module("core").convert_to_numpy(x))


def run_random_check(check: RandomCheck) -> str:
    """Run one check on the active backend (``"unsupported"`` when declared so)."""
    declared = _contract.declared_unsupported(_backends.backend_module("random")).get(check.name)
    fn = getattr(mrandom, check.name)
    if declared is not None:
        try:
            fn(*check.args, seed=1, **check.kwargs)
        except NotImplementedError as error:
            if check.name not in str(error) or _backends.backend() not in str(error):
                raise AssertionError(f"{check.id}: the error must name op and backend") from error
            return "unsupported"
        raise AssertionError(f"{check.id} is declared unsupported but did not raise.")
    first = _to_numpy(fn(*check.args, seed=7, **check.kwargs))
    again = _to_numpy(fn(*check.args, seed=7, **check.kwargs))
    if first.shape != check.shape:
        raise AssertionError(f"{check.id}: shape {first.shape}, expected {check.shape}.")
    if _dtypes.standardize_dtype(first.dtype) != check.dtype:
        raise AssertionError(f"{check.id}: dtype {first.dtype}, expected {check.dtype}.")
    np.testing.assert_array_equal(first, again, err_msg=f"{check.id}: int seed not reproducible")
    # A generator's first draw is from its seed's state [seed, 0], as an int seed's.
    fresh = _to_numpy(fn(*check.args, seed=mrandom.SeedGenerator(7), **check.kwargs))
    np.testing.assert_array_equal(
        fresh, first, err_msg=f"{check.id}: SeedGenerator(7)'s first draw differs from seed=7"
    )
    generator = mrandom.SeedGenerator(3)
    a = _to_numpy(fn(*check.args, seed=generator, **check.kwargs))
    b = _to_numpy(fn(*check.args, seed=generator, **check.kwargs))
    if a.size > 8 and np.array_equal(a, b) and check.name != "shuffle":
        raise AssertionError(f"{check.id}: a SeedGenerator gave the same samples twice.")
    if check.statistic is not None:
        try:
            check.statistic(first.astype("float64"))
        except AssertionError as error:
            raise AssertionError(f"{check.id}: {error}") from None
    return "passed"
