"""The training-side helpers of ``keras.utils``: `Progbar`, `Config` and the
interactive-logging switches."""

import logging
import math
import sys
import time

import numpy as np

from mb_train import _progress
from mb_train._config_dict import Config as Config
from mb_train._progress import format_eta, format_per_step

__all__ = [
    "Config",
    "Progbar",
    "disable_interactive_logging",
    "enable_interactive_logging",
    "is_interactive_logging_enabled",
]

_logger = logging.getLogger("mb")


def enable_interactive_logging():
    """Progress bars and messages go to stdout (the default)."""
    _progress.INTERACTIVE_LOGGING[0] = True


def disable_interactive_logging():
    """Progress and messages go to the ``"mb"`` logger instead of stdout (no bars)."""
    _progress.INTERACTIVE_LOGGING[0] = False


def is_interactive_logging_enabled():
    """Whether progress is printed to stdout (see `disable_interactive_logging`)."""
    return _progress.INTERACTIVE_LOGGING[0]


class Progbar:
    """A text progress bar for custom loops (``keras.utils.Progbar``).

    Args:
        target: the number of steps expected, or None when unknown.
        width: characters of the bar.
        verbose: 1 draws the bar (redrawn in place on a terminal), 2 prints one line
            when the target is reached, 0 prints nothing.
        interval: minimum seconds between redraws.
        stateful_metrics: names whose values are shown as given; the others are
            averaged over the steps since the start.
        stateless_metrics: the opposite list (give one of the two): names that are
            averaged; the others are shown as given.
        unit_name: what a step is called in the per-step time ("step").

    Example:

    >>> bar = Progbar(3, verbose=0)
    >>> for step in range(3):
    ...     bar.update(step + 1, values=[("loss", 1.0 / (step + 1))])
    >>> round(bar.average("loss"), 4)
    0.6111
    """

    def __init__(
        self,
        target,
        width=20,
        verbose=1,
        interval=0.05,
        stateful_metrics=None,
        stateless_metrics=None,
        unit_name="step",
    ):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError(
                "Progbar takes stateful_metrics (names shown as given, the rest averaged) "
                "or stateless_metrics (names averaged, the rest shown as given), not both. "
                f"Received: stateful_metrics={stateful_metrics!r}, "
                f"stateless_metrics={stateless_metrics!r}."
            )
        if target is not None and (isinstance(target, bool) or int(target) != target):
            raise ValueError(f"Progbar: target must be an int or None. Received: {target!r}.")
        self.target = None if target is None else int(target)
        self.width = int(width)
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        # As in Keras: exactly one of the two is a set, the other None.
        if stateless_metrics is not None:
            self.stateful_metrics = None
            self.stateless_metrics = set(stateless_metrics)
        else:
            self.stateful_metrics = set(stateful_metrics or ())
            self.stateless_metrics = None
        self._dynamic = _progress.is_interactive()
        self._sums = {}  # name -> [weighted sum, steps] (averaged) or the last value
        self._names = []
        self._seen = 0
        self._start = time.monotonic()
        self._last_draw = 0.0
        self._last_width = 0
        self._finished = False

    def average(self, name):
        """The value shown for `name`: its running mean, or the last value if stateful."""
        value = self._sums[name]
        if not self._averaged(name):
            return value
        return value[0] / max(1, value[1])

    def _averaged(self, name):
        if self.stateful_metrics is not None:
            return name not in self.stateful_metrics
        return name in self.stateless_metrics

    def update(self, current, values=None, finalize=None):
        """Move to step `current`, recording `values` (a list of ``(name, value)``).

        An averaged metric's value counts once per step advanced since the last
        update; `finalize` (default: `current` reached `target`) ends the bar."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        advanced = max(1, current - self._seen)
        for name, value in values or ():
            value = _scalar(value)
            if name not in self._sums:
                self._names.append(name)
            if not self._averaged(name):
                self._sums[name] = value
            else:
                total = self._sums.setdefault(name, [0.0, 0])
                total[0] += value * advanced
                total[1] += advanced
        self._seen = current
        now = time.monotonic()
        if self.verbose == 0 or self._finished:
            self._finished = self._finished or finalize
            return
        if self.verbose == 1:
            if not finalize and now - self._last_draw < self.interval:
                return
            if self._dynamic or finalize:
                self._write(self._bar_line(current, now, finalize), finalize)
        elif finalize:
            self._write(self._summary_line(current, now), True)
        self._last_draw = now
        self._finished = finalize

    def add(self, n, values=None):
        """Advance by `n` steps (``update(seen + n, values)``)."""
        self.update(self._seen + n, values)

    # ----- drawing -------------------------------------------------------------------

    def _metrics_text(self):
        parts = []
        for name in self._names:
            value = self.average(name)
            parts.append(f" - {name}: {_progress.format_value(value)}")
        return "".join(parts)

    def _bar_line(self, current, now, finalize):
        if self.target is not None:
            digits = int(math.log10(self.target)) + 1 if self.target > 0 else 1
            done = min(1.0, current / self.target) if self.target else 1.0
            filled = int(self.width * done)
            arrow = ">" if 0 < filled < self.width else ""
            bar = "=" * max(0, filled - (1 if arrow else 0)) + arrow
            head = f"{current:{digits}d}/{self.target} [{bar}{'.' * (self.width - len(bar))}]"
        else:
            head = f"{current:7d}/Unknown"
        elapsed = now - self._start
        if finalize:
            per_step = elapsed / max(1, current)
            timing = f" {format_eta(elapsed)} {format_per_step(per_step, self.unit_name)}"
        elif self.target is not None and current:
            timing = f" - ETA: {format_eta(elapsed / current * (self.target - current))}"
        else:
            timing = f" {format_eta(elapsed)}"
        return head + timing + self._metrics_text()

    def _summary_line(self, current, now):
        elapsed = now - self._start
        target = self.target if self.target is not None else current
        per_step = format_per_step(elapsed / max(1, current), self.unit_name)
        return f"{current}/{target} - {format_eta(elapsed)} - {per_step}{self._metrics_text()}"

    def _write(self, line, finalize):
        if not is_interactive_logging_enabled():
            if finalize:
                _logger.info(line)
            return
        if self._dynamic:
            pad = " " * max(0, self._last_width - len(line))
            sys.stdout.write("\r" + line + pad + ("\n" if finalize else ""))
            self._last_width = len(line)
        else:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()


def _scalar(value):
    try:
        return float(value)
    except TypeError:  # an array: its mean, as Keras shows it
        return float(np.mean(np.asarray(value)))
