"""The results the package returns: records of the CLI's JSON output (nested objects are records
too) and the report of a checked claim."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

class Record:
    """A result: the fields of the CLI's JSON output as attributes (nested objects are records
    too). ``to_dict()`` gives the JSON object back."""

    def __init__(self, fields: Dict[str, Any]) -> None:
        self._fields = fields
        for key, item in fields.items():
            setattr(self, key, _record(item))

    def to_dict(self) -> Dict[str, Any]:
        """The fields as the JSON output has them."""
        return json.loads(json.dumps(self._fields))

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self._fields == other._fields  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._fields)
        return f"{type(self).__name__}({inner})"


def _record(item: Any) -> Any:
    if isinstance(item, dict):
        return Record(item)
    if isinstance(item, list):
        return [_record(i) for i in item]
    return item


class SequenceReport(Record):
    """The patterns of a heap game's sequence: ``game``, ``size``, ``min``, ``axis``,
    ``sequence`` (``period``, ``saltus``, ``preperiod``, ``from``, ``proved``, ``argument``,
    ``needed_length``, ``searched``), ``records`` and, after ``until_proved``, ``until_proved``
    (``values``, ``rounds``, ``limit``). ``period``, ``preperiod``, ``saltus``, ``proved`` and
    ``argument`` are also read directly on the report."""

    @property
    def period(self) -> Optional[int]:
        return self.sequence.period  # type: ignore[attr-defined,no-any-return]

    @property
    def preperiod(self) -> Optional[int]:
        return self.sequence.preperiod  # type: ignore[attr-defined,no-any-return]

    @property
    def saltus(self) -> Optional[int]:
        return self.sequence.saltus  # type: ignore[attr-defined,no-any-return]

    @property
    def proved(self) -> bool:
        return bool(self.sequence.proved)  # type: ignore[attr-defined]

    @property
    def argument(self) -> Optional[str]:
        return self.sequence.argument  # type: ignore[attr-defined,no-any-return]


class BoardReport(Record):
    """The patterns of a board: ``game``, ``axes``, ``min``, ``size``, ``cells``, ``outcome``
    (``period``, ``from``, ``rule``, ``proved``, ``argument``, ``separable``), ``values``,
    ``symmetric``, ``rows``, ``columns`` and ``diagonals`` (each line's ``index``, ``period``,
    ``saltus``, ``from``). ``proved`` and ``argument`` are the outcome rule's."""

    @property
    def proved(self) -> bool:
        return bool(self.outcome.proved)  # type: ignore[attr-defined]

    @property
    def argument(self) -> Optional[str]:
        return self.outcome.argument  # type: ignore[attr-defined,no-any-return]


class Counterexample(NamedTuple):
    """A cell where a claim fails: its coordinates, its value and what the claim says."""

    position: Tuple[int, ...]
    value: int
    claimed: Union[str, int, bool]


@dataclass(frozen=True)
class CheckReport:
    """A claim checked against a table (the fields of ``grundy check --json``)."""

    game: str
    size: Tuple[int, ...]
    claim: str
    expression: str
    cells: int
    disagreements: int
    counterexamples: List[Counterexample]
    verdict: str
    proved: bool
    argument: str
    checked_box: Optional[List[Tuple[int, int]]]

    @property
    def agrees(self) -> bool:
        """Whether the claim holds on every cell of the table."""
        return self.disagreements == 0

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object of ``grundy check --json``."""
        return {
            "game": self.game,
            "size": list(self.size),
            "claim": self.claim,
            "expression": self.expression,
            "cells": self.cells,
            "disagreements": self.disagreements,
            "counterexamples": [
                {"position": list(c.position), "value": c.value, "claimed": c.claimed} for c in self.counterexamples
            ],
            "verdict": self.verdict,
            "proved": self.proved,
            "argument": self.argument,
            "checked_box": None if self.checked_box is None else [list(b) for b in self.checked_box],
        }


class Identification(Record):
    """What ``grundy identify --json`` finds: ``sequence`` (what was identified), ``values``
    (how many), ``from`` and ``to`` (its coordinates; ``to`` is ``None`` when a proved period
    gives every value), ``proved``, ``max_shift``, ``same_values`` and ``same_p_positions``
    (lists of matches) and ``index`` (the index searched: ``built_with``, ``classes``,
    ``members``).

    A match has ``class`` (its representative), ``shift`` (k in a(n) = b(n + k)), ``from`` and
    ``to`` (the range compared; ``to`` is ``None`` when proved for every n), ``proved`` and
    ``members`` (each ``game``, ``proved``, ``to`` and, for published sequences, ``note``).
    Read ``from`` and ``class`` with ``getattr(match, "from")`` or ``match.to_dict()``."""

    @property
    def names(self) -> List[str]:
        """Every known game with the same values (after a shift), best match first."""
        return [member.game for match in self.same_values for member in match.members]  # type: ignore[attr-defined]
