"""A card's dotted fields (``suit.id``): one way to read them for the loader, the deck
checks, game.yaml's expectations and the rules modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_NONE = object()


def field_value(fields: Mapping[str, Any], dotted: str, default: Any = None) -> Any:
    """The value of a dotted card field (``suit.id``), or ``default`` when the card has none."""
    value: Any = fields
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return default
        value = value[part]
    return value


def has_field(fields: Mapping[str, Any], dotted: str) -> bool:
    """Whether the card has the dotted field (its value may be anything, None too)."""
    return field_value(fields, dotted, _NONE) is not _NONE
