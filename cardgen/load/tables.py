"""Card lists kept in a spreadsheet: CSV files and XLSX or ODS workbooks read as data.

Each sheet becomes a list of rows, each row a mapping of its column names (the first
row) to its cells, typed where the text is unambiguous. Rows and mappings are the
loader's own YList/YDict, whose places are cells (:class:`CellWhere`), so every later
error about a value, from a quantity to a template, names the file, sheet, row and
column it came from.

A workbook is a zip archive from an untrusted folder: its members are read through
the standard library's zipfile (which never unpacks more than a member declares),
bounded in number and size, and refused if they declare a DTD; only then is a copy of
them handed to the reader (openpyxl for XLSX, python-calamine for ODS). Formulas are
never evaluated: a workbook's cells hold the values its program saved with them.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import XMLPullParser

from ..base.errors import CardgenError, Where, not_utf8
from .yamlsrc import YDict, YList

MAX_TABLE_BYTES = 16 * 1024 * 1024  # a CSV file, and all the members of a workbook once unpacked
MAX_ARCHIVE_MEMBERS = 2000  # files inside one workbook
MAX_ROWS = 10_000  # rows of data in one sheet (a component has at most 10,000 pieces)
MAX_COLUMNS = 200  # columns of one sheet
MAX_SHEETS = 100
MAX_CELL_CHARS = 10_000  # characters in one cell
TABLE_SUFFIXES = (".csv", ".xlsx", ".ods")
SPREADSHEET_ERRORS = frozenset({"#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!",
                                "#GETTING_DATA", "#SPILL!", "#CALC!"})

_INT_RE = re.compile(r"[+-]?(?:0|[1-9][0-9]{0,17})")
_DECIMAL_RE = re.compile(r"[+-]?(?:0|[1-9][0-9]{0,17})\.[0-9]{1,17}")


def column_letters(number: int) -> str:
    """A spreadsheet's name of column ``number`` (1 → A, 27 → AA)."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass(frozen=True)
class CellWhere(Where):
    """A place in a table: ``line`` is the row and ``col`` the column (1-based), and it
    prints the way a spreadsheet user finds it: ``cards.xlsx: sheet 'Cards', row 4,
    column C``."""

    sheet: str | None = None

    def prefix(self) -> str:
        parts = [self.path or ""]
        if self.sheet is not None:
            parts.append(f"sheet '{self.sheet}'")
        if self.line is not None:
            parts.append(f"row {self.line}")
        if self.col is not None:
            parts.append(f"column {column_letters(self.col)}")
        return f"{parts[0]}: " + ", ".join(parts[1:]) if len(parts) > 1 else parts[0]


class TableRow(YDict):
    """A row of a sheet: its filled cells by column name, and every column the sheet
    names (``columns``, column by column, None for a column with no name), filled in
    this row or not."""

    columns: tuple[str | None, ...] = ()


def is_table(name: str) -> bool:
    return Path(name).suffix.lower() in TABLE_SUFFIXES


def is_workbook(name: str) -> bool:
    return Path(name).suffix.lower() in (".xlsx", ".ods")


def read_tables(path: Path, label: str, sheet: str | None) -> dict[str, YList]:
    """The sheets of the table file at ``path`` (shown as ``label``), each a list of
    rows under its name: a CSV's single sheet under its file name, a workbook's every
    sheet or only ``sheet``. Raises a CardgenError (one line) for anything wrong."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        if sheet is not None:
            raise CardgenError("a CSV file has no sheets: leave out 'sheet'", Where(label))
        return {path.stem: _rows(_csv_cells(path, label), label, None)}
    members = _safe_members(path, label)
    sheets = _xlsx_sheets(members, label) if suffix == ".xlsx" else _ods_sheets(members, label)
    names = [name for name, _ in sheets]
    if sheet is not None and sheet not in names:
        raise CardgenError(f"no sheet named '{sheet}' (the workbook has: {', '.join(map(repr, names))})",
                           Where(label))
    out: dict[str, YList] = {}
    for name, cells in sheets:
        if sheet is None or name == sheet:
            out[name] = _rows(cells(), label, name)
    return out


# --- typing ---------------------------------------------------------------------------


def typed(value: Any, where: CellWhere) -> Any:
    """A cell's value as the data holds it, or None when it is empty: text that is a
    whole number, a decimal, or true/false becomes one; other text stays text."""
    if value is None:
        return None
    if isinstance(value, str):
        return _typed_text(value, where)
    return _typed_value(value, where)


def _typed_value(value: Any, where: CellWhere) -> Any:
    """A cell the workbook typed itself: a number, true/false, a date or a time."""
    if isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise CardgenError(f"the cell holds {value}: a number in the data must be finite", where)
        return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()  # a date: spreadsheets keep dates as midnight
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    raise CardgenError(f"the cell holds a {type(value).__name__}, not text, a number or true/false", where)


def _typed_text(value: str, where: CellWhere) -> Any:
    """A text cell: a whole number, a decimal or true/false as one, else the text."""
    text = value.strip()
    if len(text) > MAX_CELL_CHARS:
        raise CardgenError(f"the cell holds {len(text):,} characters; at most {MAX_CELL_CHARS:,} are read", where)
    if not text:
        return None
    if text in SPREADSHEET_ERRORS:
        raise CardgenError(f"the cell holds the spreadsheet error {text}: fix the formula that makes it", where)
    if _INT_RE.fullmatch(text):
        return int(text)
    if _DECIMAL_RE.fullmatch(text):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def _rows(cells: Iterable[tuple[int, list[Any]]], label: str, sheet: str | None) -> YList:
    """The rows of a sheet given as (row number, cell values): the first row that holds
    anything names the columns; empty rows are skipped; empty cells are left out."""
    rows = YList()
    rows.where = CellWhere(label, sheet=sheet)
    rows.item_where = []
    header: list[str | None] | None = None
    header_row = 0
    columns: tuple[str | None, ...] = ()
    for number, values in cells:
        if len(values) > MAX_COLUMNS and any(_present(v) for v in values[MAX_COLUMNS:]):
            raise CardgenError(f"the sheet has more than {MAX_COLUMNS} columns", CellWhere(label, number, sheet=sheet))
        if not any(_present(v) for v in values):
            continue
        if header is None:
            header, header_row = _header(values, label, number, sheet), number
            columns = tuple(header)
            continue
        if len(rows) >= MAX_ROWS:
            raise CardgenError(f"the sheet has more than {MAX_ROWS:,} rows of data",
                               CellWhere(label, number, sheet=sheet))
        rows.append(_row(values, header, header_row, label, number, sheet, columns))
        rows.item_where.append(CellWhere(label, number, sheet=sheet))
    if header is None:
        raise CardgenError("the sheet is empty: its first row must name the columns", rows.where)
    return rows


def _present(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _header(values: list[Any], label: str, number: int, sheet: str | None) -> list[str | None]:
    names: list[str | None] = []
    seen: dict[str, int] = {}
    for col, value in enumerate(values, 1):
        where = CellWhere(label, number, col, sheet)
        if not _present(value):
            names.append(None)
            continue
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        name = str(value).strip()
        if len(name) > 100:
            raise CardgenError("a column name is longer than 100 characters", where)
        if name in seen:
            raise CardgenError(f"column name '{name}' is used twice (first in column {column_letters(seen[name])})",
                               where)
        seen[name] = col
        names.append(name)
    return names


def _row(values: list[Any], header: list[str | None], header_row: int, label: str, number: int,
         sheet: str | None, columns: tuple[str | None, ...]) -> TableRow:
    row = TableRow()
    row.where = CellWhere(label, number, sheet=sheet)
    row.columns = columns
    row.key_where, row.value_where = {}, {}
    for col, raw in enumerate(values, 1):
        where = CellWhere(label, number, col, sheet)
        value = typed(raw, where)
        if value is None:
            continue
        name = header[col - 1] if col <= len(header) else None
        if name is None:
            raise CardgenError(f"a value in a column with no name (row {header_row}, column "
                               f"{column_letters(col)} is empty)", where)
        row[name] = value
        row.value_where[name] = where
        row.key_where[name] = CellWhere(label, header_row, col, sheet)
    return row


# --- CSV ------------------------------------------------------------------------------


def _csv_cells(path: Path, label: str) -> Iterator[tuple[int, list[Any]]]:
    """The records of a CSV file (UTF-8, with or without the byte-order mark that
    Excel writes), separated by the comma, semicolon or tab its first line uses most."""
    if path.stat().st_size > MAX_TABLE_BYTES:
        raise CardgenError(f"the file is larger than {MAX_TABLE_BYTES // (1024 * 1024)} MB", Where(label))
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise not_utf8(exc, label) from None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count) if any(c in first for c in ",;\t") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    number = 0
    try:
        for record in reader:
            number += 1
            if number > MAX_ROWS + 1 and any(_present(v) for v in record):
                raise CardgenError(f"the sheet has more than {MAX_ROWS:,} rows of data", CellWhere(label, number))
            yield number, list(record)
    except csv.Error as exc:
        raise CardgenError(f"bad CSV: {exc}", CellWhere(label, number + 1)) from None


# --- workbooks ------------------------------------------------------------------------


def _safe_members(path: Path, label: str) -> dict[str, bytes]:
    """Every member of the workbook's zip archive, unpacked within the bounds, with
    none that declares a DTD (and so no entity that could expand)."""
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_ARCHIVE_MEMBERS:
                raise CardgenError(f"the workbook holds more than {MAX_ARCHIVE_MEMBERS:,} files", Where(label))
            if sum(info.file_size for info in infos) > MAX_TABLE_BYTES:
                raise CardgenError(f"the workbook unpacks to more than {MAX_TABLE_BYTES // (1024 * 1024)} MB",
                                   Where(label))
            members = {info.filename: archive.read(info) for info in infos if not info.is_dir()}
    except zipfile.BadZipFile:
        raise CardgenError("not a workbook: the file is not a zip archive (save it again as .xlsx or .ods)",
                           Where(label)) from None
    except (zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError, ValueError) as exc:
        raise CardgenError(f"the workbook cannot be unpacked: {exc}", Where(label)) from None
    for name, data in members.items():
        if name.endswith(".xml") and (b"<!DOCTYPE" in data or b"<!ENTITY" in data):
            raise CardgenError(f"the workbook's {name} declares a DTD, which cardgen does not read", Where(label))
    return members


def _rezipped(members: dict[str, bytes]) -> io.BytesIO:
    """The members, checked, as a fresh archive for the reader: it sees only them."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    out.seek(0)
    return out


def _xlsx_sheets(members: dict[str, bytes], label: str) -> list[tuple[str, Any]]:
    """The sheets of an XLSX workbook, each with a function that yields its rows."""
    import openpyxl  # imported here: most games read no workbook
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        book = openpyxl.load_workbook(_rezipped(members), read_only=True, data_only=True, keep_links=False,
                                      keep_vba=False)
    except (InvalidFileException, KeyError, ValueError, TypeError, OSError, zipfile.BadZipFile, SyntaxError) as exc:
        raise CardgenError(f"not a readable XLSX workbook: {_short(exc)}", Where(label)) from None
    names = [ws.title for ws in book.worksheets]
    if len(names) > MAX_SHEETS:
        raise CardgenError(f"the workbook has more than {MAX_SHEETS} sheets", Where(label))

    def rows_of(name: str) -> Iterator[tuple[int, list[Any]]]:
        sheet = book[name]
        try:
            for number, cells in enumerate(sheet.iter_rows(min_row=1, max_row=MAX_ROWS + 2, min_col=1,
                                                           max_col=MAX_COLUMNS + 1), 1):
                values = []
                for col, cell in enumerate(cells, 1):
                    if getattr(cell, "data_type", None) == "e":
                        raise CardgenError(f"the cell holds the spreadsheet error {cell.value}: fix the formula "
                                           f"that makes it", CellWhere(label, number, col, name))
                    values.append(cell.value)
                yield number, values
            if sheet.max_row is not None and sheet.max_row > MAX_ROWS + 2:
                _check_beyond(sheet, label, name)
        except CardgenError:
            raise
        except (KeyError, ValueError, TypeError, SyntaxError, OSError) as exc:
            raise CardgenError(f"the sheet cannot be read: {_short(exc)}", CellWhere(label, sheet=name)) from None

    return [(name, lambda name=name: rows_of(name)) for name in names]


def _check_beyond(sheet: Any, label: str, name: str) -> None:
    """A sheet whose declared size passes the bound: an error if a cell beyond the last
    row read holds anything (spreadsheets often declare formatted empty rows)."""
    for cells in sheet.iter_rows(min_row=MAX_ROWS + 3, max_row=MAX_ROWS + 3 + MAX_ROWS, min_col=1,
                                 max_col=MAX_COLUMNS + 1, values_only=True):
        if any(_present(v) for v in cells):
            raise CardgenError(f"the sheet has more than {MAX_ROWS:,} rows of data", CellWhere(label, sheet=name))


_ODS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_ODS_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"


def _ods_extent(content: bytes, label: str) -> None:
    """Refuse an ODS sheet whose cells with values reach past the bounds, counting the
    rows and columns a single element repeats (a file of a few bytes can repeat one
    cell a million times), before any reader expands them."""
    parser = XMLPullParser(events=("start", "end"))
    sheet, row, rows_repeat, col = "", 0, 1, 0
    step = 1 << 20
    for start in range(0, len(content), step):
        try:
            parser.feed(content[start:start + step])
            events: list[Any] = list(parser.read_events())
        except SyntaxError as exc:
            raise CardgenError(f"not a readable ODS workbook: {_short(exc)}", Where(label)) from None
        for event, found in events:
            element: Any = found
            tag = element.tag
            if event == "start" and tag == _ODS_TABLE + "table":
                sheet, row = element.get(_ODS_TABLE + "name", ""), 0
            elif event == "start" and tag == _ODS_TABLE + "table-row":
                rows_repeat = _repeat(element.get(_ODS_TABLE + "number-rows-repeated"))
                col = 0
            elif event == "end" and tag == _ODS_TABLE + "table-row":
                row += rows_repeat
            elif event == "end" and tag in (_ODS_TABLE + "table-cell", _ODS_TABLE + "covered-table-cell"):
                cols = _repeat(element.get(_ODS_TABLE + "number-columns-repeated"))
                filled = element.get(_ODS_OFFICE + "value-type") is not None or len(element) > 0
                if filled and (row + rows_repeat > MAX_ROWS + 1 or col + cols > MAX_COLUMNS):
                    too = "rows of data" if row + rows_repeat > MAX_ROWS + 1 else "columns"
                    limit = f"{MAX_ROWS:,}" if too == "rows of data" else f"{MAX_COLUMNS}"
                    raise CardgenError(f"the sheet has more than {limit} {too}", CellWhere(label, sheet=sheet))
                col += cols
                element.clear()


def _repeat(text: str | None) -> int:
    try:
        return max(1, int(text)) if text else 1
    except ValueError:
        return 1


def _ods_sheets(members: dict[str, bytes], label: str) -> list[tuple[str, Any]]:
    """The sheets of an ODS workbook, each with a function that yields its rows."""
    import python_calamine  # imported here: most games read no workbook

    content = members.get("content.xml")
    if content is None:
        raise CardgenError("not an ODS workbook: it holds no content.xml", Where(label))
    _ods_extent(content, label)
    try:
        book = python_calamine.CalamineWorkbook.from_filelike(_rezipped(members))
        names = list(book.sheet_names)
    except Exception as exc:  # noqa: BLE001 - the reader's errors have no common base
        raise CardgenError(f"not a readable ODS workbook: {_short(exc)}", Where(label)) from None
    if len(names) > MAX_SHEETS:
        raise CardgenError(f"the workbook has more than {MAX_SHEETS} sheets", Where(label))

    def rows_of(name: str) -> Iterator[tuple[int, list[Any]]]:
        try:
            sheet = book.get_sheet_by_name(name)
            grid = sheet.to_python(skip_empty_area=False)
        except Exception as exc:  # noqa: BLE001
            raise CardgenError(f"the sheet cannot be read: {_short(exc)}", CellWhere(label, sheet=name)) from None
        for number, values in enumerate(grid, 1):
            yield number, [None if v == "" else v for v in values]

    return [(name, lambda name=name: rows_of(name)) for name in names]


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]
