"""The conversion layer: every argument is checked here, by name, before it crosses into the
native half, so that bad input raises InputError (issue 28: OverflowError, TypeError and
ValueError leaked from the conversions, and a panic as PanicException)."""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from ._errors import InputError

_I64 = (-(1 << 63), (1 << 63) - 1)


def _int(value: Any, what: str, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """``value`` as an int (a Python or numpy integer, not a bool, a float or a string), from
    ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{what} must be a whole number, not {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            raise InputError(f"{what} must be from {low} to {high}, not {value}")
        if low is not None:
            raise InputError(f"{what} must be {low} or more, not {value}")
        raise InputError(f"{what} must be {high} or less, not {value}")
    return value


def _ints(values: Any, what: str, low: Optional[int] = None, high: Optional[int] = None) -> List[int]:
    """``values`` (a sequence) as ints, each checked as :func:`_int` checks it."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise InputError(f"{what} must be a sequence of whole numbers, not {values!r}")
    return [_int(v, f"{what}[{i}]", low, high) for i, v in enumerate(values)]


def _seconds(value: Any, what: str) -> Optional[float]:
    """``value`` (``None``, or an int or a float, not a bool) as a float; the library checks its
    range (a finite number of seconds from 0 to a week)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InputError(f"{what} must be a number of seconds, not {value!r}")
    return float(value)


def _threads(threads: Any) -> Optional[int]:
    if threads is None:
        return None
    return _int(threads, "threads", 1, 1024)


def _coords(position: Any, what: str) -> List[int]:
    """A position or size: an int (a heap) or a sequence of ints, each a coordinate."""
    if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
        return [_int(position, what, *_I64)]
    return _ints(position, what, *_I64)


def _play(play: Optional[str], misere: bool = False) -> Optional[str]:
    """The play convention a call asks for: ``play`` (``"normal"`` or ``"misere"``), or
    ``misere=True``, its shorthand as ``--misere`` is the command line's; ``None`` keeps each
    game's own. The one place where the two words meet: everything after passes this value."""
    if play is not None and not isinstance(play, str):
        raise InputError(f"play is 'normal' or 'misere', not {play!r}")
    if play == "misère":
        play = "misere"
    if play not in (None, "normal", "misere"):
        raise InputError(f"play is 'normal' or 'misere', not {play!r}")
    if misere:
        if play == "normal":
            raise InputError("misere=True and play='normal' ask for two conventions; give one")
        return "misere"
    return play
