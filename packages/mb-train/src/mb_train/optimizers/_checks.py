"""Argument checks shared by the optimizers: what was received, what is expected."""

import math
import numbers


def is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def learning_rate_value(value, who):
    """A float learning rate from a number or a scalar tensor; refuses negatives and NaN."""
    if not is_number(value) and tuple(getattr(value, "shape", (None,))) == ():
        value = float(value)
    if not is_number(value):
        raise ValueError(
            f"{who}: argument `learning_rate` should be a float, a LearningRateSchedule, or a "
            "callable returning the rate. Received instead: "
            f"learning_rate={value!r} (of type {type(value).__name__})."
        )
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(
            f"{who}: `learning_rate` must be a finite number >= 0. Received: "
            f"learning_rate={value!r}. Pass a positive rate such as learning_rate=0.001."
        )
    return value


def optional_non_negative(value, name, who):
    """None, or a finite number >= 0 (returned as given)."""
    if value is None:
        return None
    if not is_number(value) or not math.isfinite(value) or value < 0:
        raise ValueError(
            f"{who}: `{name}` must be None or a finite number >= 0. Received: {name}={value!r}."
        )
    return value


def check_clipping(clipnorm, clipvalue, global_clipnorm, who):
    for name, value in (
        ("clipnorm", clipnorm),
        ("clipvalue", clipvalue),
        ("global_clipnorm", global_clipnorm),
    ):
        optional_non_negative(value, name, who)
    given = [a is not None for a in (clipnorm, clipvalue, global_clipnorm)]
    if sum(given) > 1:
        raise ValueError(
            f"{who}: only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. "
            f"Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
            f"global_clipnorm={global_clipnorm}. Keep the one you need and set the others to None."
        )


def check_ema(use_ema, ema_momentum, ema_overwrite_frequency, who):
    if not use_ema:
        return
    if not is_number(ema_momentum) or not 0 <= ema_momentum <= 1:
        raise ValueError(
            f"{who}: `ema_momentum` must be in the range [0, 1]. Received: "
            f"ema_momentum={ema_momentum!r}."
        )
    if ema_overwrite_frequency is not None and (
        not isinstance(ema_overwrite_frequency, int)
        or isinstance(ema_overwrite_frequency, bool)
        or ema_overwrite_frequency < 1
    ):
        raise ValueError(
            f"{who}: `ema_overwrite_frequency` must be an integer >= 1 or None. Received: "
            f"ema_overwrite_frequency={ema_overwrite_frequency!r}."
        )


def check_accumulation(steps, who):
    if steps is None:
        return
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 2:
        raise ValueError(
            f"{who}: `gradient_accumulation_steps` must be an integer >= 2 (or None to update "
            f"at every step). Received: gradient_accumulation_steps={steps!r}."
        )


def check_loss_scale_factor(value, who):
    if value is None:
        return
    if not is_number(value) or not math.isfinite(value) or value <= 0:
        raise ValueError(
            f"{who}: `loss_scale_factor` must be None or a finite number > 0. Received: "
            f"loss_scale_factor={value!r}."
        )


def check_range(value, name, low, high, who, low_open=False):
    """`low <= value <= high` (`low < value` with `low_open`)."""
    ok = is_number(value) and (low < value if low_open else low <= value) and value <= high
    if not ok:
        bracket = "(" if low_open else "["
        raise ValueError(
            f"{who}: `{name}` must be a number in {bracket}{low}, {high}]. Received: "
            f"{name}={value!r}."
        )
    return value
