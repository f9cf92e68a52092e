"""Progress of long computations: a bar (tqdm's when it is installed), or the caller's function."""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional, Tuple, Union

class _Bar:
    """A progress bar: tqdm's when it is installed (it draws in notebooks), else one line of
    text on standard error."""

    def __init__(self, total: int, what: str) -> None:
        self.total = total
        self.done = 0
        try:
            from tqdm.auto import tqdm  # type: ignore[import-not-found]

            self.tqdm = tqdm(total=total, desc=what, unit="cell", unit_scale=True)
        except ImportError:
            self.tqdm = None
        self.what = what

    def __call__(self, done: int, total: int) -> None:
        if self.tqdm is not None:
            self.tqdm.update(done - self.done)
        else:
            width = 30
            filled = width * done // max(total, 1)
            sys.stderr.write(f"\r{self.what} [{'#' * filled}{' ' * (width - filled)}] {100 * done // max(total, 1)}%")
            sys.stderr.flush()
        self.done = done

    def close(self) -> None:
        self(self.total, self.total)
        if self.tqdm is not None:
            self.tqdm.close()
        else:
            sys.stderr.write("\n")


ProgressArg = Union[bool, Callable[[int, int], Any]]


def _progress(progress: ProgressArg, total: int, what: str) -> Tuple[Optional[Callable[[int, int], Any]], Callable[[], None]]:
    if progress is True:
        bar = _Bar(total, what)
        return bar, bar.close
    if callable(progress):
        return progress, lambda: None
    return None, lambda: None
