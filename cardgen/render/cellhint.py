"""A template error on a value from a spreadsheet names the cell it came from.

When a template fails on a card's face with a type or value error (``row.gain + 1``
with the text ``one`` in the cell), the message says which cells the failing template
line reads and what they hold, so the designer fixes the sheet rather than hunting
through the template: ``… (the line reads crew.csv: row 3, column C ('gain': 'one'))``.
Only text in a column that holds numbers in other rows is named (the load stage keeps
those cells with the card): that is the likely mistake, and a template bug that fails
on every card keeps one message for all of them.

A line that reads a column the sheet does not have (``row.gian``) is told the columns
there are, and one that reads a cell the row leaves empty is told which cell; an image
a face names that the assets folder lacks is reported at the cell that names it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from pathlib import PurePosixPath
from typing import Any

from ..base.errors import CardgenError, Where
from ..layout.images import MissingImage
from ..load.tables import CellWhere, column_letters
from ..model.components import Card, SourceRow

MAX_COLUMNS_LISTED = 30
_NO_ATTRIBUTE = re.compile(r"UndefinedError: .* has no attribute '([^']{1,100})'")

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


def with_columns(exc: CardgenError, card: Card, line_of: Callable[[Where], str | None]) -> CardgenError:
    """``exc`` told about the columns when its template line reads a column of one of
    ``card``'s spreadsheet rows that is not there: the sheet's columns (and the likely
    one) for a name the sheet lacks, the empty cell for a column the row leaves empty;
    else ``exc`` itself."""
    missing = _NO_ATTRIBUTE.search(exc.message)
    line = line_of(exc.where) if card.rows and missing is not None else None
    if not line or missing is None or not _reads(line, missing.group(1)):
        return exc
    column = missing.group(1)
    on_card = re.search(rf"\bcard\s*\.\s*{re.escape(column)}\b", line) is not None  # card.gain, not card.row.gain
    for row in card.rows:
        hint = _column_hint(row, column, on_card)
        if hint:
            return type(exc)(f"{exc.message} ({hint})", exc.where)
    return exc


def _column_hint(row: SourceRow, column: str, on_card: bool) -> str | None:
    """What to tell a line that reads ``column`` of ``row`` (or of the card itself)."""
    named = [c for c in row.columns if c is not None]
    sheet = _sheet_of(row.where)
    if column not in named:
        listed = ", ".join(named[:MAX_COLUMNS_LISTED]) + (f" and {len(named) - MAX_COLUMNS_LISTED} more"
                                                          if len(named) > MAX_COLUMNS_LISTED else "")
        likely = difflib.get_close_matches(column, named, n=1)
        return (f"{sheet} has no column '{column}'; its columns: {listed}"
                + (f"; did you mean '{likely[0]}'?" if likely else ""))
    if on_card:  # the cells are under the for_each name
        return f"column '{column}' of {sheet} is read as card.{row.name}.{column}"
    if row.cell(column) is None and isinstance(row.where, CellWhere):
        cell = CellWhere(row.where.path, row.where.line, row.columns.index(column) + 1, sheet=row.where.sheet)
        return f"the cell is empty: {cell.prefix()}; ask '{row.name}.{column} is defined' first"
    return None


def _sheet_of(where: Where) -> str:
    """A sheet as a message names it: ``crew.csv``, ``goods.xlsx, sheet 'Goods'``."""
    sheet = where.sheet if isinstance(where, CellWhere) else None
    return f"{where.path}, sheet '{sheet}'" if sheet is not None else str(where.path)


def image_at_cell(exc: CardgenError, card: Card | None) -> CardgenError:
    """A missing image of ``card``'s face reported at the spreadsheet cell that names
    it (a cell holding the image's name, or its name without the extension), else at
    the card's row; ``exc`` itself for any other error, or a card of no row."""
    if not isinstance(exc, MissingImage) or card is None or not card.rows:
        return exc
    src = PurePosixPath(exc.src.replace("\\", "/"))
    for row in card.rows:
        values = card.fields.get(row.name)
        if not isinstance(values, Mapping):
            continue
        for column, where in row.cells:
            value = values.get(column)
            if isinstance(value, str) and value.strip() and value in (exc.src, src.name, src.stem):
                return CardgenError(_moved(exc.message), where)
    return CardgenError(_moved(exc.message), card.rows[0].where)


def _moved(message: str) -> str:
    """``template [label]: what`` as ``what (template [label])``: the place moves in front."""
    head, sep, what = message.rpartition("]: ")
    return f"{what} ({head}])" if sep else message
