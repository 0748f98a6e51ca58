"""The progress display of `fit`/`evaluate`/`predict`, drawn with rich.

On a terminal a live bar shows, as Keras's does, ``step/steps``, the bar, the
ETA (the elapsed time once done), the time per step and the metrics; the
metrics wrap under themselves when the line is too long, so the step count and
the ETA always stay in view. Elsewhere (a file, a CI log) one line is written
per epoch, as Keras's ``verbose="auto"`` does. Redraws are throttled so the
display costs nothing measurable per step.
"""

import logging
import sys
import time

from rich import get_console
from rich.cells import cell_len
from rich.console import Console
from rich.measure import Measurement
from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn
from rich.table import Column
from rich.text import Text

_REFRESH_SECONDS = 0.1
_BAR_WIDTH = 20
# Set by mb_train.utils.enable/disable_interactive_logging: when off, progress goes
# to the "mb" logger (one line per epoch) instead of stdout.
INTERACTIVE_LOGGING = [True]


def format_value(value):
    """A metric as Keras prints it: 4 decimals, or 4 significant digits when tiny."""
    return f"{value:.4f}" if abs(value) > 1e-3 else f"{value:.4e}"


def _log_entries(logs):
    entries = []
    for key, value in (logs or {}).items():
        try:
            entries.append(f"{key}: {format_value(float(value))}")
        except (TypeError, ValueError):
            continue
    return tuple(entries)


def format_logs(logs):
    return " - ".join(_log_entries(logs))


def format_eta(seconds):
    """``42s``, ``3:05`` or ``1:02:03``."""
    seconds = int(seconds)
    if seconds > 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    if seconds > 60:
        return f"{seconds // 60}:{seconds % 60:02d}"
    return f"{seconds}s"


def format_per_step(seconds, unit="step"):
    """``2s/step``, ``15ms/step`` or ``840us/step`` (another `unit` in place of step)."""
    if seconds >= 1 or seconds == 0:
        return f"{seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/{unit}"
    return f"{seconds * 1e6:.0f}us/{unit}"


def is_interactive(stream=None):
    if not INTERACTIVE_LOGGING[0]:
        return False
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


class _Metrics:
    """``- loss: 0.1234 - acc: 0.5000``, wrapped between entries (inside one only when
    it is wider than the column)."""

    def __init__(self, entries):
        self.pieces = [f"- {entry}" for entry in entries]

    def __rich_measure__(self, console, options):
        longest = max((cell_len(piece) for piece in self.pieces), default=0)
        total = cell_len(" ".join(self.pieces))
        return Measurement(min(longest, options.max_width), min(total, options.max_width))

    def __rich_console__(self, console, options):
        lines = []
        for piece in self.pieces:
            if lines and cell_len(lines[-1]) + 1 + cell_len(piece) <= options.max_width:
                lines[-1] += " " + piece
            else:
                lines.append(piece)
        yield Text("\n".join(lines), overflow="fold")


class _MetricsColumn(ProgressColumn):
    def render(self, task):
        return _Metrics(task.fields["metrics"])


def _columns():
    fixed = Column(no_wrap=True)
    return (
        TextColumn("[bold]{task.fields[steps]}[/]", table_column=fixed),
        BarColumn(bar_width=_BAR_WIDTH, table_column=Column(no_wrap=True)),
        TextColumn("[bold]{task.fields[time]}[/] {task.fields[per_step]}", table_column=fixed),
        # The only column that may wrap: it gives way first when the line is too long.
        _MetricsColumn(table_column=Column(no_wrap=False)),
    )


class ProgressDisplay:
    """One bar (or one line) per epoch/evaluation.

    Args:
        interactive: draw a live bar (default: when `file`, or stdout, is a terminal).
        file: where to write (default: stdout).
        console: a rich Console to draw on (overrides `file` for the bar).
    """

    def __init__(self, interactive=None, file=None, console=None):
        self.file = file
        self.interactive = is_interactive(file) if interactive is None else interactive
        self._console = console
        self._progress = None
        self._task = None
        self._total = None
        self._last = 0.0
        self._start = 0.0
        self._first_step = None  # (time, step) of the first update: compiling excluded
        self._title = ""

    def start(self, title, total, header=True):
        """Starts a bar for `total` steps (None: unknown); `header` prints `title` above it."""
        self._title = title
        self._total = total
        self._start = time.perf_counter()
        self._first_step = None
        if not self.interactive:
            return
        console = self._console
        if console is None:
            console = Console(file=self.file) if self.file is not None else get_console()
        if header:
            console.print(title, markup=False, highlight=False)
        self._progress = Progress(*_columns(), console=console, transient=False)
        self._progress.start()
        self._task = self._progress.add_task(
            title, total=total, metrics=(), **self._timing(0, time.perf_counter(), False)
        )

    def _steps_text(self, completed):
        if not self._total:
            return f"{completed:7d}/Unknown"
        return f"{completed:>{len(str(self._total))}d}/{self._total}"

    def _timing(self, completed, now, finished):
        per_step = 0.0
        if completed:
            first = self._first_step
            if first is not None and completed > first[1]:
                per_step = (now - first[0]) / (completed - first[1])
            else:
                per_step = (now - self._start) / completed
        if finished or not self._total:
            shown = f"{now - self._start:.0f}s"
        else:
            shown = format_eta(per_step * max(self._total - completed, 0))
        return {
            "steps": self._steps_text(completed),
            "time": shown,
            "per_step": format_per_step(per_step),
        }

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
        now = time.perf_counter()
        if self._first_step is None and completed >= 1:
            self._first_step = (now, completed)
        fields = self._timing(completed, now, False)
        if logs:
            fields["metrics"] = _log_entries(logs)
        self._progress.update(self._task, completed=completed, **fields)

    def __rich__(self):
        """The bar as it is drawn now (for printing it elsewhere, e.g. in tests)."""
        return self._progress.get_renderable() if self._progress is not None else ""

    def finish(self, completed, logs):
        now = time.perf_counter()
        elapsed = now - self._start
        if self._progress is not None:
            self._total = self._total or completed
            self._progress.update(
                self._task,
                completed=completed,
                total=self._total,
                metrics=_log_entries(logs),
                **self._timing(completed, now, True),
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
