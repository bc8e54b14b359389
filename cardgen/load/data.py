"""The game's ``data``: game.yaml's ``data:`` merged with the top-level keys of each of
its ``data_files``, and the marks of where every value of it stands.

Read as YAML (mappings and lists that know their lines) for the loader's own checks,
then frozen into the read-only values the model holds; the marks go beside them
(:class:`~cardgen.model.marks.DataMarks`), so no later check reads the YAML again.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..base.errors import CardgenError, Collector, Where, display_path, is_file
from ..model.marks import DataMarks, Mark
from .gameschema import DATA_FILE
from .readroots import game_roots, inside
from .schema import read_section
from .tables import is_table, is_workbook, read_tables
from .yamlsrc import YDict, YList, load_yaml


def freeze(value: Any) -> Any:
    """Read-only view of nested YAML data (dicts become mapping proxies, lists tuples)."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def mark_of(value: Any, where: Where) -> Mark:
    """The marks of a value read from YAML and of everything it holds."""
    if isinstance(value, YDict):
        return Mark(where, MappingProxyType({k: mark_of(v, value.at(k)) for k, v in value.items()}))
    if isinstance(value, YList):
        return Mark(where, tuple(mark_of(v, value.at(i)) for i, v in enumerate(value)))
    return Mark(where)


def read_data(root: Path, data: YDict, files: YList, doc: Where, game_file: Where,
              errors: Collector) -> tuple[dict[str, Any], DataMarks]:
    """The game's data, as read (not yet frozen), and where each value of it stands:
    game.yaml's ``data`` (which stands in the mapping at ``doc``) and its ``data_files``,
    their types already checked."""
    merged, marks = _data_files(root, files, data, errors)
    bad: dict[Where, str] = {}  # shared by every key: an alias of another key's value is said once
    for key, value in merged.items():
        _non_finite(value, marks[key].where if key in marks else game_file, "data value", str(key), bad)
    for where, message in bad.items():
        errors.add(message, where)
    return merged, DataMarks(Mark(doc, MappingProxyType(marks)), game_file)


def check_finite(value: Any, where: Where, what: str, path: str, errors: Collector) -> None:
    """Every number in ``value`` is finite: a NaN or an infinity would reach a layout op
    (a position, a size) and be reported there, far from the line that holds it. The
    error names ``what`` and the value's ``path`` in it (``data value 'rows[2].x'``); an
    alias repeats a value, so each line is said once."""
    bad: dict[Where, str] = {}
    _non_finite(value, where, what, path, bad)
    for at, message in bad.items():
        errors.add(message, at)


def _non_finite(value: Any, where: Where, what: str, path: str, bad: dict[Where, str]) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        bad.setdefault(where, f"{what} '{path}' is {value}: a number in the data must be finite")
    elif isinstance(value, YDict):
        for key, item in value.items():
            _non_finite(item, value.at(key), what, f"{path}.{key}" if path else str(key), bad)
    elif isinstance(value, YList):
        for index, item in enumerate(value):
            _non_finite(item, value.at(index), what, f"{path}[{index}]", bad)


def _data_files(root: Path, files: YList, data: dict, errors: Collector) -> tuple[dict, dict[Any, Mark]]:
    """Merge the top-level keys of each ``data_files`` entry into ``data``; with the
    marks of every top-level key, wherever it was read.

    Large tables (setup layouts, card art lists) can live in files of their own."""
    merged = dict(data)
    marks = {k: mark_of(v, data.at(k)) for k, v in data.items()} if isinstance(data, YDict) else {}
    for i, item in enumerate(files):
        where = files.at(i)
        source = _data_file(item, where, errors)
        if source is None:
            continue
        name, sheet, key = source
        path = root / name
        if not is_file(path):
            errors.add(f"data file '{name}' not found", where)
            continue
        try:
            safe = inside(path, game_roots(root))
            if is_table(name):
                tables = read_tables(safe, display_path(path), sheet)
                if key is not None:
                    tables = {key: next(iter(tables.values()))}
                extra = YDict(tables)
                extra.where = where
                extra.key_where = {k: where for k in tables}
                extra.value_where = {k: rows.where for k, rows in tables.items()}
            else:
                extra = load_yaml(safe, display_path(path))
        except CardgenError as exc:
            errors.extend(exc)
            table_key = key or (sheet if sheet is not None else Path(name).stem if not is_workbook(name) else None)
            if is_table(name) and table_key is not None and table_key not in merged:
                merged[table_key] = YList()  # said once: the cards that read it are not made
            continue
        if not isinstance(extra, YDict):
            errors.add(f"data file '{name}' must hold a mapping", where)
            continue
        for key in extra:
            if key in merged:
                errors.add(f"data key '{key}' is defined twice (game.yaml or an earlier data file)", extra.key_at(key))
            else:
                merged[key] = extra[key]
                marks[key] = mark_of(extra[key], extra.at(key))
    return merged, marks


def _data_file(item: Any, where: Where, errors: Collector) -> tuple[str, str | None, str | None] | None:
    """One ``data_files`` entry: a file name, or ``{file, sheet, name}`` for one sheet of
    a workbook (or a table) under a data key of its own; None after an error."""
    sheet = key = None
    if isinstance(item, YDict):
        keys = read_section(item, DATA_FILE, "data file entry", errors)
        if keys.refused:
            return None
        name, sheet, key = keys["file"], keys["sheet"], keys["name"]
        for k, value in (("sheet", sheet), ("name", key)):
            if value == "":
                errors.add(f"'{k}' in data file entry must be a name, found empty text", item.at(k))
                return None
        if name is None:
            return None  # check_keys said it is missing
        if key is not None and sheet is None and is_workbook(name):
            errors.add(f"'name' of data file '{name}' needs 'sheet': a workbook's sheets each have their own "
                       f"name", item.at("name"))
            return None
        if (sheet is not None or key is not None) and not is_table(name):
            errors.add(f"'sheet' and 'name' apply to a CSV, XLSX or ODS file, not '{name}'", item.where)
            return None
    else:
        name = item
    if not isinstance(name, str) or ".." in Path(name).parts or Path(name).is_absolute():
        errors.add(f"data file {name!r} must be a file name inside the game folder", where)
        return None
    return name, sheet, key
