"""Type stubs of the native module (the Python functions in ``grundy`` wrap these)."""

from typing import Any, Callable, List, Optional, Protocol, Sequence, Tuple

import numpy as np

class TableArg(Protocol):
    """A table as the native half takes it: ``grundy._Described`` (its ``game`` a ``Game``,
    read through ``_ref`` and ``_spec``, or None)."""

    array: np.ndarray
    axes: Sequence[Tuple[str, int]]
    name: str
    game: Any

__version__: str
SPEC_LIMIT_BYTES: int
COORD_LIMIT: int

def games() -> List[Tuple[str, str, str]]: ...
def describe(game: str, spec: Optional[str] = None) -> Tuple[str, str, List[Tuple[str, int]], str, str, bool]: ...
def spec_with_play(game: str, spec: Optional[str], play: str) -> str: ...
def compute(
    game: str,
    spec: Optional[str],
    size: Sequence[int],
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
    holds: Optional[str] = None,
) -> Tuple[np.ndarray, str]: ...
def values_at(
    game: str, spec: Optional[str], positions: Sequence[Sequence[int]], threads: Optional[int] = None
) -> List[int]: ...
def misere_sum(terms: Sequence[Tuple[str, Optional[str], Sequence[Sequence[int]]]], seconds: Optional[int] = None) -> str: ...
def genus_of(
    game: str,
    spec: Optional[str],
    last: int,
    seconds: Optional[int] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> List[Tuple[int, int, str, str]]: ...
def patterns_of(
    table: TableArg,
    law_seconds: Optional[float] = None,
    proof_seconds: Optional[float] = None,
) -> str: ...
def identify_game(
    game: str,
    spec: Optional[str],
    size: Sequence[int],
    line: Optional[Tuple[str, int]],
    limit: int,
    shift: int,
    index: Optional[bytes] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> str: ...
def identify_array(
    table: TableArg,
    line: Optional[Tuple[str, int]],
    shift: int,
    index: Optional[bytes] = None,
) -> str: ...
def patterns_until_proved(
    game: str,
    spec: Optional[str],
    start: Optional[int],
    limit: int,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> str: ...
def check_of(
    table: TableArg,
    kind: str,
    expression: str,
    period: Optional[Sequence[int]] = None,
    show: int = 10,
    proof_seconds: Optional[float] = None,
) -> str: ...
def plot_of(
    table: TableArg,
    outcome: bool = False,
    max_side: int = 1000,
    extension: str = "png",
) -> bytes: ...
def check_copy(lens: Sequence[int], cell_bytes: int) -> None: ...

class ViewServer:
    @property
    def url(self) -> str: ...
    @property
    def running(self) -> bool: ...
    def stop(self) -> None: ...

def view_start(
    table: TableArg,
    port: Optional[int] = None,
    threads: Optional[int] = None,
) -> ViewServer: ...
