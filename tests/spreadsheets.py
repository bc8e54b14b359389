"""Small spreadsheet files for the tests: ODS written by hand (a zip with content.xml,
the least a reader needs; no ODS writer is a dependency) and XLSX through openpyxl,
with a way to change a sheet's XML afterwards (cached formula values, error cells)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import openpyxl

ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"
_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


def ods_cell(value: Any) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(value).lower()}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    if isinstance(value, (int, float)):
        return (f'<table:table-cell office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    if isinstance(value, str) and value.startswith("<"):
        return value  # a cell written out (repeats, formulas)
    return f'<table:table-cell office:value-type="string"><text:p>{escape(value)}</text:p></table:table-cell>'


def ods_content(sheets: dict[str, list[Any]]) -> str:
    """content.xml of a workbook; a row given as a string is written as it is."""
    tables = []
    for name, rows in sheets.items():
        body = "".join(row if isinstance(row, str) else
                       "<table:table-row>" + "".join(ods_cell(v) for v in row) + "</table:table-row>" for row in rows)
        tables.append(f'<table:table table:name="{escape(name)}">{body}</table:table>')
    return (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS} office:version="1.2">'
            f"<office:body><office:spreadsheet>{''.join(tables)}</office:spreadsheet></office:body>"
            "</office:document-content>")


def write_ods(path: Path, sheets: dict[str, list[Any]], content: str | None = None) -> Path:
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{ODS_MIME}"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", ODS_MIME, compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", manifest)
        archive.writestr("content.xml", content if content is not None else ods_content(sheets))
    return path


def write_xlsx(path: Path, sheets: dict[str, list[tuple]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def patch_member(path: Path, member: str, old: str, new: str) -> None:
    """Replace text in one member of a zip file (the rest copied as it is)."""
    with zipfile.ZipFile(path) as archive:
        items = [(info, archive.read(info)) for info in archive.infolist()]
    found = False
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in items:
            if info.filename == member:
                text = data.decode("utf-8")
                assert old in text, f"{old!r} not in {member}"
                data, found = text.replace(old, new, 1).encode("utf-8"), True
            archive.writestr(info.filename, data)
    assert found, member
