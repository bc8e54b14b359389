"""Checks for user YAML: known keys, required keys, value types, choices and ranges.

A file's keys are described once, as a table of :class:`Key` descriptors grouped in
:class:`Section` s (game.yaml's table is :mod:`.gameschema`); :func:`read_section`
checks a mapping against its section, and the reference pages are rendered from the
same table. Each check records problems in a Collector with the line of the offending
key, so that a loader can report every mistake in a file at once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..base.errors import Collector, Where
from .yamlsrc import YDict, YList

ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")  # game, component and variant names: lower-case, digits, - and _

_TYPE_NAMES = {
    str: "text",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    dict: "a mapping",
    list: "a list",
}


def type_name(types: tuple[type, ...]) -> str:
    return " or ".join(dict.fromkeys(_TYPE_NAMES.get(t, t.__name__) for t in types))


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"


def check_mapping(value: Any, where: Where, what: str, errors: Collector) -> bool:
    if not isinstance(value, YDict):
        errors.add(f"{what} must be a mapping, found {describe(value)}", where)
        return False
    return True


def check_keys(d: YDict, required: tuple[str, ...], optional: tuple[str, ...], what: str, errors: Collector) -> None:
    """Flag unknown keys (with the list of allowed ones) and missing required keys."""
    allowed = set(required) | set(optional)
    for key in d:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            errors.add(f"unknown key '{key}' in {what} (allowed: {known})", d.key_at(key))
    for key in required:
        if key not in d:
            errors.add(f"{what} is missing required key '{key}'", d.where)


def get(d: YDict, key: str, types: tuple[type, ...], what: str, errors: Collector, default: Any = None,
        expect: str = "") -> Any:
    """The value of ``key`` if it has one of ``types``; else record an error (saying it
    must be ``expect``, else the types' names) and return default."""
    if key not in d:
        return default
    value = d[key]
    ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
    if float in types and isinstance(value, int) and not isinstance(value, bool):
        ok = True
        value = float(value)
    if not ok:
        errors.add(f"'{key}' in {what} must be {expect or type_name(types)}, found {describe(value)}", d.at(key))
        return default
    return value


def get_size(d: YDict, key: str, what: str, errors: Collector,
             limits: tuple[float, float] | None = None) -> tuple[float, float] | None:
    """A ``[width, height]`` pair of positive millimetre values; with ``limits``
    (smallest, largest), each side must lie within them, so that a slip such as a
    0.01 mm card or a 100 m board is refused instead of imposing millions of pieces."""
    value = d.get(key)
    if value is None:
        return None
    if (
        isinstance(value, YList)
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < float("inf") for v in value)
    ):
        if limits is not None and not all(limits[0] <= v <= limits[1] for v in value):
            errors.add(f"'{key}' in {what} must be [width, height] with each side from {limits[0]:g} to "
                       f"{limits[1]:g} mm, found [{value[0]:g}, {value[1]:g}]", d.at(key))
            return None
        return (float(value[0]), float(value[1]))
    errors.add(f"'{key}' in {what} must be [width, height] in mm, both positive, found {value!r}", d.at(key))
    return None


# -- the descriptors -----------------------------------------------------------------


@dataclass(frozen=True)
class Range:
    """The numbers a key admits beyond its type: from ``low`` (itself refused when
    ``low_open``) to ``high``; ``note`` says why, in the message."""

    low: float
    high: float = math.inf
    unit: str = ""
    low_open: bool = False
    note: str = ""

    def admits(self, value: float) -> bool:
        return (self.low < value if self.low_open else self.low <= value) and value <= self.high  # NaN: never

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        if self.high == math.inf:
            return f"more than {self.low:g}{unit}" if self.low_open else f"{self.low:g} or more{unit}"
        if self.low_open:
            return f"more than {self.low:g} and at most {self.high:,g}{unit}"
        return f"between {self.low:,g} and {self.high:,g}{unit}"


@dataclass(frozen=True)
class Key:
    """One key of a YAML mapping: what it holds, whether it must be there, its default,
    and a description for the reference page.

    ``types`` are the YAML types :func:`read_section` checks; a key with none is checked
    by the loader's own code (its value is handed over as written), and ``expect``
    then says for the reference how it is written. ``choices`` (value → what it means,
    or an empty meaning) and ``range`` narrow the value further; ``values`` are the
    types of a mapping's values; ``entries`` the sections of a list's items or of a
    mapping's values; ``only`` = (key, value) marks a key that applies only when another
    key has that value."""

    name: str
    types: tuple[type, ...]
    doc: str
    required: bool = False
    default: Any = None
    expect: str = ""
    choices: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    range: Range | None = None
    values: tuple[type, ...] = ()
    entries: tuple[Section, ...] = ()
    only: tuple[str, str] | None = None

    def absent(self) -> Any:
        """The value of the key when it is left out (or refused): its default, or an
        empty mapping or list."""
        if self.default is not None:
            return self.default
        if self.types == (dict,):
            return YDict()
        if self.types == (list,):
            return YList()
        return None

    def expected(self) -> str:
        """How the value is written, as the messages and the reference say it."""
        if self.expect:
            return self.expect
        if self.choices:
            return " or ".join(f"'{c}'" for c in self.choices)
        return type_name(self.types)


@dataclass(frozen=True)
class Section:
    """The keys of one kind of mapping (the game, a deck, a card entry, …): ``title``
    names it on the reference page and in a test, ``tag`` = (key, value) tells an entry
    of a list of several sections apart (``kind: deck``)."""

    name: str
    title: str
    keys: tuple[Key, ...]
    tag: tuple[str, str] | None = None

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys if k.required)

    @property
    def optional(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys if not k.required)

    def __getitem__(self, name: str) -> Key:
        for key in self.keys:
            if key.name == name:
                return key
        raise KeyError(name)


class Checked(dict):
    """Each key of a section → its checked value (or what it is when absent or refused);
    ``refused`` names the keys whose value was reported wrong, ``given`` those the
    mapping sets with a value that passed."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: set[str] = set()
        self.given: set[str] = set()


def read_section(d: YDict, section: Section, what: str, errors: Collector) -> Checked:
    """Check mapping ``d`` (called ``what`` in messages) against ``section``: unknown and
    missing keys, then each key's type, choices, range and values."""
    check_keys(d, section.required, section.optional, what, errors)
    out = Checked()
    for key in section.keys:
        out[key.name] = key.absent()
        if key.name not in d:
            continue
        ok, value = _read_key(d, key, what, errors)
        if ok:
            out[key.name] = value
            out.given.add(key.name)
        else:
            out.refused.add(key.name)
    return out


_REFUSED = object()


def _read_key(d: YDict, key: Key, what: str, errors: Collector) -> tuple[bool, Any]:
    name = key.name
    if key.choices:
        value = d[name]
        if isinstance(value, str) and value in key.choices:
            return True, value
        if all(key.choices.values()):
            said, shown = "; ".join(f"'{k}' ({v})" for k, v in key.choices.items()), describe(value)
        else:
            said = "one of " + ", ".join(key.choices)
            shown = repr(value) if isinstance(value, str) else describe(value)
        errors.add(f"'{name}' in {what} must be {said}, found {shown}", d.at(name))
        return False, None
    if not key.types:
        return True, d[name]
    value = get(d, name, key.types, what, errors, default=_REFUSED, expect=key.expect)
    if value is _REFUSED:
        return False, None
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if key.range is not None and number and not key.range.admits(value):
        note = f" {key.range.note}" if key.range.note else ""
        errors.add(f"'{name}' in {what} must be {key.range.describe()}{note}, found {value:g}", d.at(name))
        return False, None
    if key.values and isinstance(value, YDict):
        for k, v in value.items():
            if not isinstance(v, key.values) or (isinstance(v, bool) and bool not in key.values):
                errors.add(f"'{name}.{k}' in {what} must be {type_name(key.values)}, found {describe(v)}",
                           value.at(k))
    return True, value
