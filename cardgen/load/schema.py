"""Tiny checks for user YAML: known keys, required keys, value types.

Each check records problems in a Collector with the line of the offending key, so
that a loader can report every mistake in a file at once.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import Collector, Where
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


def get(d: YDict, key: str, types: tuple[type, ...], what: str, errors: Collector, default: Any = None) -> Any:
    """The value of ``key`` if it has one of ``types``; else record an error and return default."""
    if key not in d:
        return default
    value = d[key]
    ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
    if float in types and isinstance(value, int) and not isinstance(value, bool):
        ok = True
        value = float(value)
    if not ok:
        errors.add(f"'{key}' in {what} must be {type_name(types)}, found {describe(value)}", d.at(key))
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


def get_choice(d: YDict, key: str, choices: dict[str, str], what: str, errors: Collector) -> str | None:
    """The value of ``key`` if it is one of ``choices`` (value → what it means, for the
    message), else record a one-line error naming them; None when the key is absent."""
    if key not in d:
        return None
    value = d[key]
    if isinstance(value, str) and value in choices:
        return value
    meanings = "; ".join(f"'{k}' ({v})" for k, v in choices.items())
    errors.add(f"'{key}' in {what} must be {meanings}, found {describe(value)}", d.at(key))
    return None
