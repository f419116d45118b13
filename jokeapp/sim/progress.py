"""A one-line progress bar on a stream (stderr), redrawn in place."""

from __future__ import annotations

from typing import TextIO


class ProgressBar:
    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total = max(total, 1)
        self.stream = stream
        self.width = width
        self.shown = -1

    def update(self, done: int) -> None:
        filled = self.width * done // self.total
        if filled == self.shown and done != self.total:
            return
        self.shown = filled
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total}")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()
