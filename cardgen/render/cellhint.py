"""A template error on a value from a spreadsheet names the cell it came from.

When a template fails on a card's face with a type or value error (``row.gain + 1``
with the text ``one`` in the cell), the message says which cells the failing template
line reads and what they hold, so the designer fixes the sheet rather than hunting
through the template: ``… (the line reads crew.csv: row 3, column C ('gain': 'one'))``.
Only text in a column that holds numbers in other rows is named (the load stage keeps
those cells with the card): that is the likely mistake, and a template bug that fails
on every card keeps one message for all of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import CardgenError, Where
from ..load.tables import CellWhere, column_letters

_VALUE_ERRORS = ("TypeError:", "ValueError:", "ZeroDivisionError:", "OverflowError:", "UndefinedError:")
MAX_NAMED = 3


def _reads(line: str, column: str) -> bool:
    """Whether a template line reads ``column`` of a mapping (``x.col``, ``x['col']``)."""
    col = re.escape(column)
    return re.search(rf"\.{col}\b|\[\s*['\"]{col}['\"]\s*\]", line) is not None


def with_cells(exc: CardgenError, cells: tuple[tuple[str, Where], ...], fields: Mapping[str, Any],
               line_of: Callable[[Where], str | None]) -> CardgenError:
    """``exc`` with the cells its template line reads appended, or ``exc`` itself when
    it is no type or value error, or names no text cell."""
    if not cells or not any(kind in exc.message for kind in _VALUE_ERRORS):
        return exc
    line = line_of(exc.where)
    if not line:
        return exc
    rows: dict[str, list[str]] = {}  # a row's place -> the cells of it the line reads
    for dotted, where in cells:
        var, _, column = dotted.partition(".")
        row = fields.get(var)
        value = row.get(column) if isinstance(row, Mapping) else None
        if isinstance(value, str) and _reads(line, column) and isinstance(where, CellWhere) and where.col:
            place = CellWhere(where.path, where.line, None, sheet=where.sheet).prefix()
            rows.setdefault(place, []).append(f"column {column_letters(where.col)} ('{column}': {value[:40]!r})")
    if not rows:
        return exc
    read = "; ".join(f"{place}, " + ", ".join(named[:MAX_NAMED]) for place, named in rows.items())
    return type(exc)(f"{exc.message} (the line reads {read})", exc.where)
