"""House rules: a rules engine's named options, read from the game's ``data.house_rules``.

Where a rulebook is silent the engine makes a choice and names it; the data may pick
another. An options class is a frozen dataclass whose fields are the options (with
their defaults) and whose class attributes say what each may hold: ``CHOICES``
(option → allowed words), ``BOOLS`` (true/false options) and ``INTS`` (option →
inclusive range). Anything else is judged by the ``special`` callback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

from ..base.errors import Where
from .api import Problem

T = TypeVar("T")
Special = Callable[[str, Any], "str | None"]  # (option, value) → what is wrong, or None


def read_house_rules(cls: type[T], data: Any, locate: Callable[..., Where] | None = None,
                     special: Special | None = None) -> tuple[T, list[Problem]]:
    """The options ``data`` sets (missing ones keep their default) and every problem in
    it, each at its line: an unknown option, a word not among the choices, a
    number out of range."""
    problems: list[Problem] = []
    loc = locate or (lambda *p: Where())
    if data is None:
        return cls(), problems
    if not isinstance(data, Mapping):
        return cls(), [Problem("'house_rules' must be a mapping of rule options", loc("house_rules"))]
    known = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    choices: Mapping[str, tuple] = getattr(cls, "CHOICES", {})
    bools: tuple[str, ...] = getattr(cls, "BOOLS", ())
    ints: Mapping[str, tuple[int, int]] = getattr(cls, "INTS", {})
    values: dict[str, Any] = {}
    for key, value in data.items():
        where = loc("house_rules", key)
        wrong: str | None
        if key not in known:
            wrong = f"unknown rule option '{key}' in 'house_rules' (known: {', '.join(known)})"
        elif key in choices:
            wrong = None if value in choices[key] else \
                f"rule option '{key}' must be one of {', '.join(choices[key])}, found {value!r}"
        elif key in bools:
            wrong = None if isinstance(value, bool) else f"rule option '{key}' must be true or false, found {value!r}"
        elif key in ints:
            lo, hi = ints[key]
            ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
            wrong = None if ok else f"rule option '{key}' must be a whole number from {lo} to {hi}, found {value!r}"
        else:
            wrong = special(key, value) if special is not None else None
        if wrong is None:
            values[key] = value
        else:
            problems.append(Problem(wrong, where))
    return cls(**values), problems
