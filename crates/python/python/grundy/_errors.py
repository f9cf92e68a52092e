"""The errors grundy raises. Every one is a :class:`GrundyError`; the ones caused by the input
are also :class:`ValueError` (:class:`InputError`), and a table that cannot fit in memory is also
a :class:`MemoryError` (:class:`TableTooLarge`). An interrupted computation raises the
:class:`KeyboardInterrupt` that stopped it."""


class GrundyError(Exception):
    """Base class of every error grundy raises."""


class InputError(GrundyError, ValueError):
    """The input is at fault: an unknown game, a malformed spec, an impossible size or position,
    a bad expression, an array that is not a table."""


class TableTooLarge(GrundyError, MemoryError):
    """The table would not fit in the memory available; nothing was allocated."""
