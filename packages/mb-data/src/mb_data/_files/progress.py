"""The download progress bar of `get_file`: bytes so far, the total, speed and ETA.

On a terminal the line is redrawn in place (at most ten times a second); elsewhere
(a file, a CI log) only the finished line is written.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

_WIDTH = 20
_REDRAW_SECONDS = 0.1


def _size(n: float) -> str:
    units = ("B", "KB", "MB", "GB")
    i = 0
    while n >= 1024 and i < len(units) - 1:
        n /= 1024
        i += 1
    return f"{n:.0f} B" if i == 0 else f"{n:.1f} {units[i]}"


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    if seconds >= 60:
        return f"{seconds // 60}:{seconds % 60:02d}"
    return f"{seconds}s"


class DownloadProgress:
    """Draws ``done/total ━━━━━━━━━━──────── 1.2 MB/s ETA 3s`` for one download."""

    def __init__(self, total: int | None, stream: TextIO | None = None) -> None:
        self.total = total if total and total > 0 else None
        self.stream = stream if stream is not None else sys.stdout
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.done = 0
        self._start = time.monotonic()
        self._last_draw = 0.0
        self._last_len = 0

    def line(self) -> str:
        elapsed = max(time.monotonic() - self._start, 1e-9)
        speed = self.done / elapsed
        if self.total is None:
            return f"{_size(self.done)} {_size(speed)}/s {_duration(elapsed)}"
        fraction = min(self.done / self.total, 1.0)
        filled = round(fraction * _WIDTH)
        bar = "━" * filled + "─" * (_WIDTH - filled)
        finished = self.done >= self.total
        if finished:
            timing = _duration(elapsed)
        else:
            eta = (self.total - self.done) / speed if speed > 0 else 0
            timing = f"ETA {_duration(eta)}"
        return f"{_size(self.done)}/{_size(self.total)} {bar} {_size(speed)}/s {timing}"

    def update(self, nbytes: int) -> None:
        self.done += nbytes
        now = time.monotonic()
        if self.live and now - self._last_draw >= _REDRAW_SECONDS:
            self._draw()
            self._last_draw = now

    def finish(self) -> None:
        if self.live:
            self._draw()
            self.stream.write("\n")
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def _draw(self) -> None:
        text = self.line()
        pad = max(self._last_len - len(text), 0)
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self._last_len = len(text)
