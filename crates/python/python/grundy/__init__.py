"""grundy: Sprague-Grundy tables of impartial games, computed in parallel, with pattern hunting
and conjecture checks, for notebooks.

>>> import grundy
>>> table = grundy.compute("kiki", (20, 20))      # a numpy array of the table's own dtype
>>> table.axes, table.mins, table.shape, table.dtype
(('n', 'm'), (1, 1), (20, 20), dtype('uint8'))
>>> grundy.value("kayles", 10)                     # one position, or the sum of several
2
>>> grundy.check(table, p_set="n % 2 == 1 && m % 2 == 1").disagreements
0

The functions mirror the command-line tool (``grundy compute``, ``value``, ``games``, ``show``,
``patterns``, ``check``, ``plot``); results carry the fields of its ``--json`` output.

Games are named as in the CLI (``"kiki"``, ``"octal:0.137"``, ``"subtraction:1,3,4"``; see
:func:`games`), given as a path to a spec file, or built with :meth:`Game.from_spec`.

Tables (:class:`Table`) are numpy arrays: ``table[i, j]`` holds the value at coordinates
``(table.mins[0] + i, table.mins[1] + j)`` (every catalog game starts its axes at 0 or 1), and
``table.at(x, y)`` reads by coordinates. A computed table is handed over without a copy.
"""

from __future__ import annotations

import io
import os
import tempfile
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import json

import numpy as np

from . import _grundy
from ._args import _I64, _coords, _int, _ints, _play, _seconds, _threads
from ._errors import GrundyError, InputError, TableTooLarge
from ._progress import ProgressArg, _progress
from ._reports import BoardReport, CheckReport, Counterexample, Identification, Record, SequenceReport
from ._view import View

__version__: str = _grundy.__version__

__all__ = [
    "BoardReport",
    "CheckReport",
    "Counterexample",
    "Game",
    "GameInfo",
    "GrundyError",
    "HeapGenus",
    "Identification",
    "InputError",
    "Record",
    "SequenceReport",
    "Table",
    "TableTooLarge",
    "View",
    "check",
    "compute",
    "games",
    "genus",
    "identify",
    "patterns",
    "plot",
    "show",
    "value",
    "view",
]


class Game:
    """A game: a catalog game by name, or rules of your own (:meth:`from_spec`).

    Attributes: ``name``, ``description``, ``axes`` (axis names), ``mins`` (the smallest
    coordinate of each axis), ``dims``, ``spec`` (the TOML text of its rules; see
    ``grundy show``), ``play`` (``"normal"``, or ``"misere"``: see :meth:`misere`) and ``loopy``
    (a move raises a coordinate, so play may go round in circles: such a game's generalized
    values come from ``grundy compute``, and :func:`compute` refuses it).
    """

    __slots__ = ("name", "description", "axes", "mins", "spec", "play", "loopy", "_ref", "_spec")

    def __init__(self, name: str) -> None:
        """The catalog game called ``name`` (``"wythoff"``, ``"octal:0.07"``, ...)."""
        if not isinstance(name, str):
            raise InputError(f"a game name is a string, not {type(name).__name__}")
        self._setup(name, None)

    def _setup(self, ref: str, spec: Optional[str]) -> None:
        name, description, axes, text, play, loopy = _grundy.describe(ref, spec)
        self._ref, self._spec = ref, spec
        self.play: str = play
        self.loopy: bool = loopy
        self.name: str = name
        self.description: str = description
        self.axes: Tuple[str, ...] = tuple(a for a, _ in axes)
        self.mins: Tuple[int, ...] = tuple(m for _, m in axes)
        self.spec: str = text

    @classmethod
    def from_spec(cls, text_or_path: Union[str, "os.PathLike[str]"]) -> "Game":
        """A game from a spec: TOML text, or the path of a ``.toml`` file (the format of
        ``grundy show``)."""
        limit = _grundy.SPEC_LIMIT_BYTES
        looks_like_path = isinstance(text_or_path, str) and "\n" not in text_or_path and "=" not in text_or_path
        if isinstance(text_or_path, os.PathLike) or looks_like_path:
            path = os.fspath(text_or_path)
            try:
                with open(path, "rb") as f:
                    data = f.read(limit + 1)
            except FileNotFoundError:
                raise InputError(f"cannot read spec file {path}: no such file") from None
            except OSError as err:
                raise InputError(f"cannot read spec file {path}: {err.strerror or err}") from None
            if len(data) > limit:
                raise InputError(f"spec file {path} is larger than {limit >> 20} MiB; a spec is a few lines")
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(f"spec file {path} is not UTF-8 text") from None
            origin = path
        elif isinstance(text_or_path, str):
            if len(text_or_path.encode("utf-8", "surrogatepass")) > limit:
                raise InputError(f"the spec is larger than {limit >> 20} MiB; a spec is a few lines")
            text, origin = text_or_path, "spec"
        else:
            raise InputError(f"a spec is TOML text or a path, not {type(text_or_path).__name__}")
        game = cls.__new__(cls)
        game._setup(origin, text)
        return game

    def misere(self) -> "Game":
        """The same game under misère play (the player who makes the last move loses): its
        tables hold misère Grundy values, 0 exactly on the misère P-positions."""
        return self.with_play("misere")

    def with_play(self, play: str) -> "Game":
        """The same game under the play convention ``play``: ``"normal"`` (the last mover wins)
        or ``"misere"`` (the last mover loses), whatever its spec says, as ``--play`` does on
        the command line."""
        play = _play(play)
        if play is None or play == self.play:
            return self
        game = Game.__new__(Game)
        game._setup(self._ref, _grundy.spec_with_play(self._ref, self._spec, play))
        return game

    @property
    def dims(self) -> int:
        """The number of axes: 1 for heap games, 2 for boards."""
        return len(self.axes)

    def __repr__(self) -> str:
        return f"Game({self.name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self._ref, self._spec) == (other._ref, other._spec)

    def __hash__(self) -> int:
        return hash((self._ref, self._spec))


GameLike = Union[str, Game, "os.PathLike[str]"]


def _game(game: GameLike, play: Optional[str] = None) -> Game:
    """The game a call names, under the convention ``play`` (see :func:`_play`)."""
    if play is not None:
        return _game(game).with_play(play)
    if isinstance(game, Game):
        return game
    if isinstance(game, os.PathLike):
        return Game.from_spec(game)
    if isinstance(game, str):
        if game.endswith(".toml") or "/" in game or os.sep in game:
            return Game.from_spec(game)
        return Game(game)
    raise InputError(f"a game is a name, a Game or a spec path, not {type(game).__name__}")


class Table(np.ndarray):
    """A Grundy table: a numpy array (uint8, uint16 or uint32, the narrowest that holds its
    values) that also knows its ``game``, its ``axes`` (names) and ``mins`` (the smallest
    coordinate of each axis), and for a computed table the ``engine`` that filled it (the
    library's choice: ``sparse``, ``tiles``, ``search`` for a misère heap game whose moves leave
    sums, ``retrograde`` for a loopy game, whose values are int64 with ∞ as -1).

    It *is* an ``ndarray``: index it, slice it, pass it to numpy, pandas or matplotlib. Arrays
    derived from it with another shape (slices, reductions) keep no coordinates (``axes`` and
    ``mins`` are ``None``). ``np.asarray(table)`` is the plain array, without a copy.
    """

    game: Optional[Game]
    axes: Optional[Tuple[str, ...]]
    mins: Optional[Tuple[int, ...]]
    engine: Optional[str]

    def __array_finalize__(self, obj: Any) -> None:
        same = obj is not None and getattr(obj, "shape", None) == self.shape
        self.game = getattr(obj, "game", None) if same else None
        self.axes = getattr(obj, "axes", None) if same else None
        self.mins = getattr(obj, "mins", None) if same else None
        self.engine = getattr(obj, "engine", None) if same else None

    def at(self, *coords: int) -> int:
        """The value at the given coordinates (not indices)."""
        if self.mins is None:
            raise InputError("this array has no coordinates; index it instead")
        if len(coords) != self.ndim:
            raise InputError(f"{self.ndim} coordinates are needed, {len(coords)} were given")
        index = tuple(c - m for c, m in zip(coords, self.mins))
        if any(i < 0 or i >= n for i, n in zip(index, self.shape)):
            raise InputError(f"{coords} is outside the table")
        return int(self[index])

    @property
    def coords(self) -> Tuple[np.ndarray, ...]:
        """The coordinates along each axis (``np.arange(min, min + length)``)."""
        if self.mins is None:
            raise InputError("this array has no coordinates")
        return tuple(np.arange(m, m + n) for m, n in zip(self.mins, self.shape))

    def __reduce__(self) -> Any:
        # Pickles (multiprocessing, joblib) keep the coordinates.
        constructor, args, state = super().__reduce__()  # type: ignore[misc]
        return constructor, args, (state, self.game and self.game._ref, self.game and self.game._spec, self.axes, self.mins)

    def __setstate__(self, state: Any) -> None:
        base, ref, spec, axes, mins = state
        super().__setstate__(base)  # type: ignore[misc]
        self.game = None
        if ref is not None:
            game = Game.__new__(Game)
            game._setup(ref, spec)
            self.game = game
        self.axes, self.mins = axes, mins


def _table(values: np.ndarray, game: Optional[Game], axes: Sequence[str], mins: Sequence[int]) -> Table:
    table = values.view(Table)
    table.game, table.axes, table.mins = game, tuple(axes), tuple(int(m) for m in mins)
    return table


def _size(game: Game, size: Union[int, Sequence[int]]) -> List[int]:
    """A size: an int for a heap game, a tuple with one int per axis for a board (as the CLI
    refuses ``--size 10`` for a board: ``10`` could mean 10x10 or a typo)."""
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        if game.dims != 1:
            example = ", ".join(["10"] * game.dims)
            raise InputError(
                f"{game.name} has {game.dims} axes ({', '.join(game.axes)}); give size as a tuple such as ({example})"
            )
        return [_int(size, "size", *_I64)]
    coords = _ints(size, "size", *_I64)
    if len(coords) != game.dims:
        raise InputError(
            f"{game.name} has {game.dims} axes ({', '.join(game.axes)}); size {tuple(coords)} has {len(coords)}"
        )
    return coords


def compute(
    game: GameLike,
    size: Union[int, Sequence[int]],
    *,
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    progress: ProgressArg = False,
    misere: bool = False,
    play: Optional[str] = None,
) -> Table:
    """The Grundy table of ``game`` up to ``size`` (the largest coordinate on each axis,
    inclusive, as the CLI's ``--size``): a :class:`Table`, which is a numpy array of the table's
    own unsigned type, handed over without a copy.

    ``threads``: worker threads (default: one per core). ``engine``: ``"auto"`` (default),
    ``"sparse"``, ``"tiles"``, ``"waves"`` or ``"reference"``. ``progress``: ``True`` for a bar
    (tqdm's if installed), or a callable ``f(done, total)`` called about ten times a second.

    ``play``: ``"normal"`` or ``"misere"`` (default: the game's own, as ``--play``);
    ``misere=True`` is ``play="misere"``. Under misère play (the last mover loses) the table
    holds misère Grundy values (0 exactly on the misère P-positions); a heap game whose moves
    split heaps is computed by the exact search over sums (see :func:`genus`).

    The GIL is released while the table is computed; Ctrl-C (or a notebook's stop button) stops
    the computation within a second and raises ``KeyboardInterrupt``.

    Raises :class:`InputError` for an unknown game or an impossible size, and
    :class:`TableTooLarge` when the table would not fit in memory (nothing is allocated).
    """
    return _compute(game, size, threads, engine, progress, _play(play, misere), None)


def _compute(
    game: GameLike,
    size: Union[int, Sequence[int]],
    threads: Optional[int],
    engine: Optional[str],
    progress: ProgressArg,
    play: Optional[str],
    holds: Optional[str],
) -> Table:
    """:func:`compute`, whose memory check counts what the caller holds besides the table:
    ``holds`` is ``"plot"``, ``"patterns"`` or ``"view"`` (checked before anything is
    allocated), or ``None``."""
    g = _game(game, play)
    coords = _size(g, size)
    threads = _threads(threads)
    if engine is not None and not isinstance(engine, str):
        raise InputError(f"engine must be a name such as 'auto', not {engine!r}")
    cells = 1
    for c, m in zip(coords, g.mins):
        cells *= max(c - m + 1, 0)
    callback, close = _progress(progress, cells, g.name)
    try:
        values, ran = _grundy.compute(g._ref, g._spec, coords, threads, engine, callback, holds)
    finally:
        close()
    table = _table(values, g, g.axes, g.mins)
    table.engine = ran
    return table


def value(
    game: Union[GameLike, Sequence[Tuple[GameLike, Any]]],
    *positions: Union[int, Sequence[int]],
    threads: Optional[int] = None,
    misere: bool = False,
    seconds: Optional[int] = None,
    play: Optional[str] = None,
) -> int:
    """The Grundy value of a position, or of the sum of several (the XOR of their values):
    ``value("kayles", 10)``, ``value("subtraction:2,5", 5, 12)``, ``value("wythoff", (3, 5))``.
    A sum of different games is a list of ``(game, position)`` pairs, as ``grundy value kayles
    10 + wythoff 3x5`` writes it: ``value([("kayles", 10), ("wythoff", (3, 5))])``. A position
    is 0 exactly when the player to move loses.

    As ``grundy value`` does, a heap game whose period a theorem proves is computed only as far
    as the proof needs (``value("kayles", 10**18)``), and a board with bounded moves one strip at
    a time until the strip repeats (``value("kiki", (10**12, 3))``).

    ``play="misere"`` or ``misere=True`` (or games whose spec says ``play = "misere"``;
    ``play="normal"`` plays every game normally, whatever its spec says): the sum's misère Grundy
    value, 0 exactly when the player to move loses under misère play, from the exact search over
    the sum's positions (the tame rule when every component is tame), within ``seconds`` (600
    by default) and the memory available."""
    threads = _threads(threads)
    play = _play(play, misere)
    if isinstance(game, list):
        if positions:
            raise InputError("a sum of games is one list of (game, position) pairs; give no other positions")
        pairs = list(game)
    else:
        pairs = [(game, p) for p in positions]
    if pairs:
        games = [_game(pair[0], play) if isinstance(pair, tuple) and len(pair) == 2 else None for pair in pairs]
        if all(g is not None and g.play == "misere" for g in games):
            terms: List[Tuple[str, Optional[str], List[List[int]]]] = []
            for i, pair in enumerate(pairs):
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise InputError(f"component {i} of the sum must be a (game, position) pair, not {pair!r}")
                g = _game(pair[0], "misere")
                terms.append((g._ref, g._spec, [_coords(pair[1], f"the position of component {i}")]))
            if seconds is not None:
                seconds = _int(seconds, "seconds", 1, 1 << 40)
            report = json.loads(_grundy.misere_sum(terms, seconds))
            return int(report["value"])
        if any(g is not None and g.play == "misere" for g in games):
            raise InputError("some games of the sum are played misère and others not; a sum is played under one convention (give play='misere' or play='normal')")
    if isinstance(game, list):
        if positions:
            raise InputError("a sum of games is one list of (game, position) pairs; give no other positions")
        if not game:
            raise InputError("value needs at least one position")
        # The components of one game are answered together: one proof or strip for all of them,
        # as the CLI answers them.
        by_game: Dict[Tuple[str, Optional[str]], Tuple[Game, List[List[int]]]] = {}
        for i, pair in enumerate(game):
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise InputError(f"component {i} of the sum must be a (game, position) pair, not {pair!r}")
            g = _game(pair[0], play)
            by_game.setdefault((g._ref, g._spec), (g, []))[1].append(_coords(pair[1], f"the position of component {i}"))
        total = 0
        for g, coords in by_game.values():
            for v in _grundy.values_at(g._ref, g._spec, coords, threads):
                total ^= v
        return total
    g = _game(game, play)
    if not positions:
        raise InputError("value needs at least one position")
    coords = [_coords(p, "a position") for p in positions]
    total = 0
    for v in _grundy.values_at(g._ref, g._spec, coords, threads):
        total ^= v
    return total


class HeapGenus(NamedTuple):
    """One heap of :func:`genus`: its misère value, its genus as Winning Ways writes it
    (``"4^146"``) and whether it is ``"tame"``, ``"restive"`` or ``"wild"``."""

    heap: int
    misere: int
    genus: str
    tameness: str


def genus(game: GameLike, last: int, *, seconds: Optional[int] = None, progress: ProgressArg = False) -> List[HeapGenus]:
    """The genus of every heap of a heap game up to ``last`` (Conway's g^γ0γ1…: the normal
    value and the misère values of the heap plus copies of *2), with its misère value and
    tameness, as ``grundy compute GAME --misere`` writes them. Exact, by a search over sums of
    heaps within ``seconds`` (600 by default) and the memory available."""
    g = _game(game)
    last = _int(last, "last", *_I64)
    if seconds is not None:
        seconds = _int(seconds, "seconds", 1, 1 << 40)
    callback, close = _progress(progress, max(last - (g.mins[0] if g.mins else 0) + 1, 0), g.name)
    try:
        rows = _grundy.genus_of(g._ref, g._spec, last, seconds, callback)
    finally:
        close()
    return [HeapGenus(*row) for row in rows]


class GameInfo(NamedTuple):
    """A catalog entry."""

    name: str
    axes: str
    description: str


def games() -> List[GameInfo]:
    """The catalog: every game by name, with its axes and a one-line description."""
    return [GameInfo(*entry) for entry in _grundy.games()]


def show(game: GameLike) -> str:
    """The spec (TOML) of a game: save it, edit it, and load it with :meth:`Game.from_spec`."""
    return _game(game).spec


TableLike = Union[GameLike, np.ndarray]


class _Described(NamedTuple):
    """A table as the native half takes it (``TableArg``): C-order values, axes as (name, min),
    a name, and the game when it is known."""

    array: np.ndarray
    axes: List[Tuple[str, int]]
    name: str
    game: Optional[Game]


def _described(
    source: TableLike,
    size: Optional[Union[int, Sequence[int]]],
    axes: Optional[Sequence[str]],
    mins: Optional[Sequence[int]],
    threads: Optional[int],
    progress: ProgressArg,
    play: Optional[str] = None,
    holds: Optional[str] = None,
) -> _Described:
    """The values (C order, the narrowest unsigned type), axes, name and game of a game or an
    array; a game's
    table is checked against the memory with what ``holds`` (see :func:`_compute`) takes
    besides it."""
    if isinstance(source, np.ndarray) and play is not None:
        raise InputError("play and misere are for games; an array is a table already")
    if isinstance(source, np.ndarray):
        if size is not None:
            raise InputError("size is for games; an array is a table already")
        if not (np.issubdtype(source.dtype, np.integer) or source.dtype == np.bool_):
            raise InputError(f"a table holds integers; this array holds {source.dtype}")
        if not 1 <= source.ndim <= 3:
            raise InputError(f"a table has 1 to 3 axes; this array has {source.ndim}")
        if source.size and source.min() < 0:
            raise InputError("a table holds values of 0 or more; this array has negative ones")
        largest = int(source.max()) if source.size else 0
        if largest > np.iinfo(np.uint32).max:
            raise InputError("a table's values fit in 32 bits; this array has larger ones")
        game = getattr(source, "game", None) if isinstance(source, Table) else None
        names = axes or (getattr(source, "axes", None) if isinstance(source, Table) else None)
        starts = mins or (getattr(source, "mins", None) if isinstance(source, Table) else None)
        if names is None:
            names = ("n", "m", "l")[: source.ndim]
        if starts is None:
            starts = (0,) * source.ndim
        if isinstance(names, str) or not all(isinstance(n, str) for n in names):
            raise InputError(f"axes must be a sequence of names, not {names!r}")
        starts = _ints(starts, "mins", *_I64)
        if len(names) != source.ndim or len(starts) != source.ndim:
            raise InputError(f"the array has {source.ndim} axes; give as many names and mins")
        # The narrowest unsigned type that holds the values, converted (once) only when the
        # array is not in it already: a table from compute() crosses without a copy, and the
        # native half copies it once, in that width, with nothing to narrow.
        cell = np.uint8 if largest <= 0xFF else np.uint16 if largest <= 0xFFFF else np.uint32
        if source.dtype == cell and source.flags.c_contiguous:
            values = np.asarray(source).view(np.ndarray)
        else:
            _grundy.check_copy(list(source.shape), np.dtype(cell).itemsize)
            values = np.ascontiguousarray(source, dtype=cell)
        name = game.name if game is not None else "array"
        return _Described(values, list(zip(names, starts)), name, game)
    if size is None:
        raise InputError("size is needed to compute a game's table")
    table = _compute(source, size, threads, None, progress, play, holds)
    values = np.asarray(table).view(np.ndarray)
    g = table.game
    assert g is not None and table.axes is not None and table.mins is not None
    return _Described(values, list(zip(table.axes, table.mins)), g.name, g)


def patterns(
    source: TableLike,
    size: Optional[Union[int, Sequence[int]]] = None,
    *,
    until_proved: bool = False,
    limit: int = 1 << 27,
    axes: Optional[Sequence[str]] = None,
    mins: Optional[Sequence[int]] = None,
    threads: Optional[int] = None,
    progress: ProgressArg = False,
    misere: bool = False,
    law_seconds: Optional[float] = None,
    proof_seconds: Optional[float] = None,
    play: Optional[str] = None,
) -> Union[SequenceReport, BoardReport]:
    """The laws behind a table (``grundy patterns``): a heap game's period, preperiod and
    saltus, proved where a theorem allows; a board's outcome rule, values rule, symmetry and the
    periods of its rows, columns and diagonals.

    ``source`` is a game (computed up to ``size``) or an array (a :class:`Table` keeps its game
    and coordinates; a plain array takes ``axes`` names and ``mins``, by default ``n, m`` from
    0). With ``until_proved=True`` a heap game is computed in rounds, from ``size`` (4095 by
    default) up to ``limit``, until the Octal Periodicity Theorem (or a subtraction game's
    window) proves its period. ``law_seconds`` bounds the search for laws and their proofs (10
    by default, 0 skips it) and ``proof_seconds`` each proof (10 by default), as ``grundy
    patterns --law-seconds --proof-seconds`` do.
    """
    play = _play(play, misere)
    if until_proved:
        if isinstance(source, np.ndarray):
            raise InputError("until_proved computes a game; an array is a table already")
        g = _game(source, play)
        start = None
        if size is not None:
            start = _size(g, size)[0]
        limit = _int(limit, "limit", 1, 1 << 32)
        threads = _threads(threads)
        callback, close = _progress(progress, 0, g.name)
        try:
            text = _grundy.patterns_until_proved(g._ref, g._spec, start, limit, threads, callback)
        finally:
            close()
    else:
        table = _described(source, size, axes, mins, _threads(threads), progress, play, "patterns")
        text = _grundy.patterns_of(
            table,
            _seconds(law_seconds, "law_seconds"),
            _seconds(proof_seconds, "proof_seconds"),
        )
    fields = json.loads(text)
    return SequenceReport(fields) if "sequence" in fields else BoardReport(fields)


def identify(
    source: Union[TableLike, Sequence[int]],
    size: Optional[Union[int, Sequence[int]]] = None,
    *,
    row: Optional[int] = None,
    column: Optional[int] = None,
    diagonal: Optional[int] = None,
    start: Optional[int] = None,
    shift: int = 8,
    limit: int = 1 << 20,
    index: Optional[Union[str, "os.PathLike[str]"]] = None,
    threads: Optional[int] = None,
    progress: ProgressArg = False,
) -> Identification:
    """Which known game is this (``grundy identify``)? Every class of the index of known games
    equal to the sequence after a shift of index, a(n) = b(n + k) with |k| <= ``shift``, and
    apart those whose P-positions alone agree; *proved* when both periods are proved and agree
    past both preperiods for the lcm of the periods, otherwise how far they were compared.

    ``source``: a heap game (computed from ``size``, 4095 by default, until a theorem proves its
    period, up to ``limit``), a board with ``size`` and one of ``row``, ``column`` or
    ``diagonal`` (x - y), a 1-D array or list of values (its first at ``start``, 0 by
    default; a :class:`Table` knows its own), or a 2-D array with a line. ``index``: an index
    file made by ``grundy survey ... --format index`` instead of the built-in one.
    """
    lines = [(kind, at) for kind, at in (("row", row), ("column", column), ("diagonal", diagonal)) if at is not None]
    if len(lines) > 1:
        raise InputError("name one line: row, column or diagonal")
    line = (lines[0][0], _int(lines[0][1], lines[0][0], *_I64)) if lines else None
    shift = _int(shift, "shift", 0, 16)
    index_bytes = None
    if index is not None:
        if not isinstance(index, (str, os.PathLike)):
            raise InputError(f"index is a path to an index file, not {type(index).__name__}")
        try:
            with open(index, "rb") as file:
                index_bytes = file.read()
        except OSError as err:
            raise InputError(f"cannot read index {os.fspath(index)}: {err.strerror}") from None
    if isinstance(source, (list, tuple)):
        values = _ints(source, "values", 0, (1 << 32) - 1)
        if not values:
            raise InputError("no values to identify")
        source = np.asarray(values, dtype=np.uint32)
    if isinstance(source, np.ndarray):
        mins = None if start is None else [_int(start, "start", *_I64)] * source.ndim
        table = _described(source, size, None, mins, None, False)
        text = _grundy.identify_array(table, line, shift, index_bytes)
    else:
        if start is not None:
            raise InputError("start is for values; a game's sequence starts where its table does")
        g = _game(source)
        if size is None:
            if g.dims != 1:
                raise InputError(f"size is needed to compute the board {g.name}")
            coords = [4095]
        else:
            coords = _size(g, size)
        limit = _int(limit, "limit", 1, 1 << 32)
        callback, close = _progress(progress, 0, g.name)
        try:
            text = _grundy.identify_game(g._ref, g._spec, coords, line, limit, shift, index_bytes, _threads(threads), callback)
        finally:
            close()
    return Identification(json.loads(text))


def check(
    source: TableLike,
    size: Optional[Union[int, Sequence[int]]] = None,
    *,
    p_set: Optional[str] = None,
    values: Optional[str] = None,
    holds: Optional[str] = None,
    draws: Optional[str] = None,
    period: Optional[Sequence[int]] = None,
    show: int = 10,
    axes: Optional[Sequence[str]] = None,
    mins: Optional[Sequence[int]] = None,
    threads: Optional[int] = None,
    progress: ProgressArg = False,
    misere: bool = False,
    proof_seconds: Optional[float] = None,
    play: Optional[str] = None,
) -> CheckReport:
    """A closed-form claim against a table (``grundy check``): exactly one of ``p_set`` (the
    P-positions are exactly where the expression is true), ``values`` (the value equals the
    expression), ``holds`` (the expression, which may use ``g``, is true on every cell) or
    ``draws`` (a loopy game's draws are exactly where the expression is true).

    Variables are the axis names, ``i, j, k`` for the axes and ``g`` (in ``holds``); operators
    ``+ - * / %``, comparisons, ``&& || !``; functions ``floor ceil sqrt abs min max xor if``;
    the constant ``phi``. ``period`` proves the claim for every board where the game allows;
    the proof may take ``proof_seconds`` (10 by default), and one that runs out says so.
    The report lists the first ``show`` counterexamples as ``(position, value, claimed)``.
    """
    given = (("p_set", p_set), ("values", values), ("holds", holds), ("draws", draws))
    claims = [(k, e) for k, e in given if e is not None]
    if len(claims) != 1:
        raise InputError("check needs exactly one claim: p_set=, values=, holds= or draws=")
    kind, expression = claims[0]
    if not isinstance(expression, str):
        raise InputError(f"{kind} must be an expression (a string), not {expression!r}")
    show = _int(show, "show", 0, 1 << 32)
    if period is not None:
        period = _ints(period, "period", 1, (1 << 63) - 1)
    table = _described(source, size, axes, mins, _threads(threads), progress, _play(play, misere))
    g = table.game
    if g is not None and g.loopy:
        raise InputError(
            f"check takes tables of Grundy values here; {g.name}'s is a loopy game's (∞ as -1): "
            "check it with `grundy check` on the command line"
        )
    text = _grundy.check_of(
        table,
        kind,
        expression,
        period,
        show,
        _seconds(proof_seconds, "proof_seconds"),
    )
    fields = json.loads(text)
    return CheckReport(
        game=fields["game"],
        size=tuple(fields["size"]),
        claim=fields["claim"],
        expression=fields["expression"],
        cells=fields["cells"],
        disagreements=fields["disagreements"],
        counterexamples=[
            Counterexample(tuple(c["position"]), c["value"], c["claimed"]) for c in fields["counterexamples"]
        ],
        verdict=fields["verdict"],
        proved=fields["proved"],
        argument=fields["argument"],
        checked_box=None if fields["checked_box"] is None else [tuple(b) for b in fields["checked_box"]],
    )


def plot(
    source: TableLike,
    size: Optional[Union[int, Sequence[int]]] = None,
    *,
    outcome: bool = False,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    max_side: int = 1000,
    axes: Optional[Sequence[str]] = None,
    mins: Optional[Sequence[int]] = None,
    threads: Optional[int] = None,
    misere: bool = False,
    play: Optional[str] = None,
) -> Any:
    """The picture ``grundy plot`` draws of a table: a heatmap of the values (0 in red), or the
    P/N mask with ``outcome=True``; a heap game as its sequence. With ``out`` the picture is
    written there (atomically) and the path returned: a ``.png``, or a ``.svg`` or ``.pdf`` with
    its text as text, for papers. Without, a matplotlib ``Figure`` is returned (matplotlib is
    needed then: ``pip install matplotlib``)."""
    max_side = _int(max_side, "max_side", 16, 8192)
    extension = "png"
    if out is not None:
        path = os.fspath(out)
        extension = os.path.splitext(path)[1].lower().lstrip(".")
        if extension not in ("png", "svg", "pdf"):
            raise InputError(f"out={path} must be a .png, .svg or .pdf file")
    table = _described(source, size, axes, mins, _threads(threads), False, _play(play, misere), "plot")
    picture = _grundy.plot_of(table, outcome, max_side, extension)
    if out is not None:
        directory = os.path.dirname(os.path.abspath(path))
        fd, temporary = tempfile.mkstemp(prefix=".grundy-", suffix="." + extension, dir=directory)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(picture)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        return path
    try:
        import matplotlib.image as mpimg
        import matplotlib.pyplot as plt
    except ImportError:
        raise GrundyError("plot needs matplotlib for a figure (pip install matplotlib), or out= for a PNG file") from None
    image = mpimg.imread(io.BytesIO(picture), format="png")
    height, width = image.shape[:2]
    figure = plt.figure(figsize=(width / 100, height / 100), dpi=100)
    axis = figure.add_axes((0, 0, 1, 1))
    axis.imshow(image)
    axis.set_axis_off()
    return figure


def view(
    source: TableLike,
    size: Optional[Union[int, Sequence[int]]] = None,
    *,
    port: Optional[int] = None,
    height: int = 640,
    axes: Optional[Sequence[str]] = None,
    mins: Optional[Sequence[int]] = None,
    threads: Optional[int] = None,
    progress: ProgressArg = False,
    misere: bool = False,
    play: Optional[str] = None,
) -> View:
    """Serves the page of ``grundy view`` for a table (an array, a ``Table`` from ``compute``,
    or a game with ``size``) and returns a :class:`View`: its ``url``, and in a notebook the page
    inline (an IFrame of ``height`` pixels). The server listens on 127.0.0.1 at ``port`` (a free
    one by default) until ``stop()``. A table that knows its game (from ``compute``) shows each
    cell's moves; a plain array shows values only."""
    if port is not None:
        port = _int(port, "port", 0, 65535)
    height = _int(height, "height", 100, 10000)
    table = _described(source, size, axes, mins, _threads(threads), progress, _play(play, misere), "view")
    server = _grundy.view_start(table, port, _threads(threads))
    return View(server, height)
