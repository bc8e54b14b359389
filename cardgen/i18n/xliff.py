"""Catalogues as XLIFF 1.2 files, written and read with the standard library.

An XLIFF file comes back from a translator or a service, so it is untrusted: a file
that declares a DTD or an entity is refused before it is parsed (entity expansion is
how a small XML file becomes a huge one), and the document must have XLIFF 1.2's
shape: ``xliff/file/body/trans-unit`` with an ``id``, one ``source`` and at most one
``target`` of plain text.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import CardgenError, Where, display_path
from .catalog import Entry
from .formats import MAX_ENTRIES, TOO_MANY, Imported, Translation, language_code, read_bounded, utf8_text

NS = "urn:oasis:names:tc:xliff:document:1.2"
_Q = f"{{{NS}}}"
_DECLARATION = re.compile(rb"<!(DOCTYPE|ENTITY)", re.IGNORECASE)


def write(entries: list[Entry], game_id: str, lang: str, source: str) -> bytes:
    ET.register_namespace("", NS)
    root = ET.Element(f"{_Q}xliff", {"version": "1.2"})
    file = ET.SubElement(root, f"{_Q}file", {"original": game_id, "source-language": source,
                                              "target-language": lang, "datatype": "plaintext"})
    body = ET.SubElement(file, f"{_Q}body")
    for e in entries:
        unit = ET.SubElement(body, f"{_Q}trans-unit", {"id": e.key, "resname": e.key})
        ET.SubElement(unit, f"{_Q}source").text = e.source
        target = ET.SubElement(unit, f"{_Q}target", {"state": "translated" if e.translation else "new"})
        target.text = e.translation
        ET.SubElement(unit, f"{_Q}note", {"from": "cardgen"}).text = e.note()
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8",
                                                                    xml_declaration=False) + b"\n"


def _lines_of(data: bytes, attribute: bytes) -> dict[str, int]:
    """The line of each value of ``attribute`` in the file, the first where one is
    written twice: one pass over the file, however many units it holds."""
    lines: dict[str, int] = {}
    line, last = 1, 0
    for found in re.finditer(rb'(?<![\w:.-])' + attribute + rb'\s*=\s*"([^"]*)"', data):
        line += data.count(b"\n", last, found.start())
        last = found.start()
        lines.setdefault(found.group(1).decode("utf-8"), line)
    return lines


def _plain(el: ET.Element, what: str, key: str, where: Where) -> str:
    if len(el):
        raise CardgenError(f"the {what} of '{key}' holds markup <{el[0].tag.removeprefix(_Q)}>: "
                           f"only plain text is allowed", where)
    return el.text or ""


def read(path: Path) -> Imported:
    label = display_path(path)
    data = read_bounded(path, label)
    utf8_text(data, label, "XLIFF")  # UTF-8 first: a UTF-16 file would hide a declaration from the search below
    found = _DECLARATION.search(data)
    if found:
        line = data.count(b"\n", 0, found.start()) + 1
        raise CardgenError("the file declares a DTD or an entity, which an XLIFF file never needs "
                           "(refused: entities can make a small file expand without end)", Where(label, line))
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise CardgenError(f"not well-formed XML: {exc}", Where(label, exc.position[0])) from None
    if root.tag != f"{_Q}xliff" or root.get("version") != "1.2":
        raise CardgenError(f"not an XLIFF 1.2 file (its root is <{root.tag}> version {root.get('version')!r})",
                           Where(label, 1))
    files = root.findall(f"{_Q}file")
    if len(files) != 1:
        raise CardgenError(f"an XLIFF file of cardgen holds one <file>, this one {len(files)}", Where(label))
    file = files[0]
    value = file.get("target-language")
    if not value:
        raise CardgenError("the <file> has no target-language", Where(label))
    lang_where = Where(label, _lines_of(data, b"target-language").get(value))
    lang = language_code(value, "the target-language of its <file>", lang_where)
    lines = _lines_of(data, b"id")
    seen: set[str] = set()
    body = file.find(f"{_Q}body")
    if body is None:
        raise CardgenError("the <file> has no <body>", Where(label))
    if len(body) > MAX_ENTRIES:
        raise CardgenError(TOO_MANY, Where(label))
    out = []
    for unit in body:
        if unit.tag != f"{_Q}trans-unit":
            raise CardgenError(f"unexpected <{unit.tag.removeprefix(_Q)}> in <body>", Where(label))
        key = unit.get("id")
        if not key:
            raise CardgenError("a <trans-unit> has no id", Where(label))
        where = Where(label, lines.get(key))
        if key in seen:
            raise CardgenError(f"two trans-units have the id '{key}' (the first is here)", where)
        seen.add(key)
        sources = unit.findall(f"{_Q}source")
        targets = unit.findall(f"{_Q}target")
        if len(sources) != 1 or len(targets) > 1:
            raise CardgenError(f"trans-unit '{key}' needs one <source> and at most one <target>", where)
        text = _plain(targets[0], "target", key, where) if targets else ""
        state = targets[0].get("state", "") if targets else ""
        out.append(Translation(key, _plain(sources[0], "source", key, where), text, where,
                               fuzzy=state.startswith("needs-")))
    return Imported(lang, out, lang_where)
