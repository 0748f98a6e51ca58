"""The progress display of `fit`/`evaluate`/`predict`, drawn with rich.

On a terminal a live bar per epoch shows the step, the ETA and the metrics;
elsewhere (a file, a CI log) one line is written per epoch, as Keras's
``verbose="auto"`` does. Redraws are throttled so the display costs nothing
measurable per step.
"""

import logging
import sys
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

_REFRESH_SECONDS = 0.1
# Set by mb_train.utils.enable/disable_interactive_logging: when off, progress goes
# to the "mb" logger (one line per epoch) instead of stdout.
INTERACTIVE_LOGGING = [True]


def format_logs(logs):
    parts = []
    for key, value in logs.items():
        try:
            parts.append(f"{key}: {float(value):.4f}")
        except (TypeError, ValueError):
            continue
    return " - ".join(parts)


def is_interactive(stream=None):
    if not INTERACTIVE_LOGGING[0]:
        return False
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


class ProgressDisplay:
    """One bar (or one line) per epoch/evaluation."""

    def __init__(self, interactive=None, file=None):
        self.file = file
        self.interactive = is_interactive(file) if interactive is None else interactive
        self._progress = None
        self._task = None
        self._last = 0.0
        self._start = 0.0
        self._title = ""

    def start(self, title, total):
        self._title = title
        self._start = time.perf_counter()
        if not self.interactive:
            return
        console = Console(file=self.file) if self.file is not None else None
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[metrics]}"),
            console=console,
            transient=False,
        )
        self._progress.start()
        self._task = self._progress.add_task(title, total=total, metrics="")

    def due(self):
        """Whether a redraw is due (the caller then reads the logs)."""
        if self._progress is None:
            return False
        now = time.perf_counter()
        if now - self._last >= _REFRESH_SECONDS:
            self._last = now
            return True
        return False

    def update(self, completed, logs=None):
        if self._progress is None:
            return
        fields = {"metrics": format_logs(logs)} if logs else {}
        self._progress.update(self._task, completed=completed, **fields)

    def finish(self, completed, logs):
        elapsed = time.perf_counter() - self._start
        if self._progress is not None:
            self._progress.update(
                self._task, completed=completed, total=completed, metrics=format_logs(logs)
            )
            self._progress.stop()
            self._progress = None
            return
        line = f"{self._title} - {completed} steps - {elapsed:.2f}s"
        metrics = format_logs(logs)
        if metrics:
            line += f" - {metrics}"
        if INTERACTIVE_LOGGING[0] or self.file is not None:
            print(line, file=self.file or sys.stdout, flush=True)
        else:
            logging.getLogger("mb").info(line)
