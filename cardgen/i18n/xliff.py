"""Catalogues as XLIFF 1.2 files, written and read with the standard library.

An XLIFF file comes back from a translator or a service, so it is untrusted: a file
that declares a DTD or an entity is refused before it is parsed (entity expansion is
how a small XML file becomes a huge one), and the document must have XLIFF 1.2's
shape: ``xliff/file/body/trans-unit`` (in ``group`` elements or not) with an ``id``,
one ``source`` and at most one ``target`` of plain text, a CAT tool's segments
(``mrk mtype="seg"``) joined; or XLIFF 2.0's ``xliff/file/unit/segment``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ..base.errors import CardgenError, Where, display_path
from .catalog import Entry
from .formats import MAX_ENTRIES, TOO_MANY, Imported, Translation, language_code, read_bounded, utf8_text

NS = "urn:oasis:names:tc:xliff:document:1.2"
NS2 = "urn:oasis:names:tc:xliff:document:2.0"
_Q = f"{{{NS}}}"
_DECLARATION = re.compile(rb"<!(DOCTYPE|ENTITY)", re.IGNORECASE)


def _unit(parent: ET.Element, e: Entry, template: bool) -> None:
    attrs = {"id": e.key, "resname": e.key}
    if e.room is not None and not e.room.shared:  # a limit a tool can enforce: the room the note gives
        attrs.update({"maxwidth": str(e.room.chars), "size-unit": "char"})
    unit = ET.SubElement(parent, f"{_Q}trans-unit", attrs)
    ET.SubElement(unit, f"{_Q}source").text = e.source
    if not template:
        target = ET.SubElement(unit, f"{_Q}target", {"state": "translated" if e.translation else "new"})
        target.text = e.translation
    ET.SubElement(unit, f"{_Q}note", {"from": "developer"}).text = e.note()
    for template_name, line in e.sources:  # where it is used, as translate-toolkit writes PO's "#:" references
        group = ET.SubElement(unit, f"{_Q}context-group", {"name": "po-reference", "purpose": "location"})
        ET.SubElement(group, f"{_Q}context", {"context-type": "sourcefile"}).text = template_name
        ET.SubElement(group, f"{_Q}context", {"context-type": "linenumber"}).text = str(line)


def write(entries: list[Entry], game_id: str, lang: str, source: str, template: bool = False) -> bytes:
    ET.register_namespace("", NS)
    root = ET.Element(f"{_Q}xliff", {"version": "1.2"})
    attrs = {"original": game_id, "source-language": source, "datatype": "plaintext"}
    if not template:
        attrs["target-language"] = lang
    file = ET.SubElement(root, f"{_Q}file", attrs)
    body = ET.SubElement(file, f"{_Q}body")
    groups: dict[str, ET.Element] = {}
    for e in entries:
        parent = body
        if e.plural is not None:  # a plural's forms, as XLIFF 1.2 and translate-toolkit group them
            if e.plural not in groups:
                groups[e.plural] = ET.SubElement(body, f"{_Q}group", {"id": e.plural, "restype": "x-gettext-plurals"})
            parent = groups[e.plural]
        _unit(parent, e, template)
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


def _plain(el: ET.Element, what: str, key: str, where: Where, q: str = _Q) -> str:
    """An element's text; segments a CAT tool marked (``<mrk mtype="seg">`` of 1.2)
    joined with what lies between them."""
    parts = [el.text or ""]
    for child in el:
        if child.tag != f"{q}mrk" or child.get("mtype", "seg") != "seg" or len(child):
            raise CardgenError(f"the {what} of '{key}' holds markup <{child.tag.rpartition('}')[2]}>: "
                               f"only plain text is allowed", where)
        parts += [child.text or "", child.tail or ""]
    return "".join(parts)


def _units(parent: ET.Element, q: str, unit_tag: str, label: str):
    """The units of a body, inside ``<group>`` elements too (Trados and memoQ write them)."""
    for child in parent:
        if child.tag == f"{q}group":
            yield from _units(child, q, unit_tag, label)
        elif child.tag == f"{q}{unit_tag}":
            yield child
        elif child.tag not in (f"{q}notes", f"{q}note", f"{q}context-group", f"{q}count-group", f"{q}prop-group"):
            raise CardgenError(f"unexpected <{child.tag.rpartition('}')[2]}> in <{parent.tag.rpartition('}')[2]}>",
                               Where(label))


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
    if root.tag == f"{{{NS2}}}xliff" and root.get("version", "").startswith("2."):
        return _read_2(root, data, label)
    if root.tag != f"{_Q}xliff" or root.get("version") != "1.2":
        raise CardgenError(f"not an XLIFF 1.2 or 2.0 file (its root is <{root.tag}> version {root.get('version')!r})",
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
    out: list[Translation] = []
    for unit in _units(body, _Q, "trans-unit", label):
        if len(out) >= MAX_ENTRIES:
            raise CardgenError(TOO_MANY, Where(label))
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


def _read_2(root: ET.Element, data: bytes, label: str) -> Imported:
    """An XLIFF 2.0 file: ``xliff/file/unit/segment`` (units in groups too), a unit's
    segments joined; a segment in state "initial" with a target is not yet translated."""
    q = f"{{{NS2}}}"
    value = root.get("trgLang")
    if not value:
        raise CardgenError("the <xliff> has no trgLang", Where(label, 1))
    lang_where = Where(label, _lines_of(data, b"trgLang").get(value))
    lang = language_code(value, "the trgLang of its <xliff>", lang_where)
    files = root.findall(f"{q}file")
    if len(files) != 1:
        raise CardgenError(f"an XLIFF file of cardgen holds one <file>, this one {len(files)}", Where(label))
    lines = _lines_of(data, b"id")
    seen: set[str] = set()
    out: list[Translation] = []
    for unit in _units(files[0], q, "unit", label):
        if len(out) >= MAX_ENTRIES:
            raise CardgenError(TOO_MANY, Where(label))
        key = unit.get("id")
        if not key:
            raise CardgenError("a <unit> has no id", Where(label))
        where = Where(label, lines.get(key))
        if key in seen:
            raise CardgenError(f"two units have the id '{key}' (the first is here)", where)
        seen.add(key)
        source, target, fuzzy = [], [], False
        for part in unit:
            if part.tag not in (f"{q}segment", f"{q}ignorable"):
                continue
            sources, targets = part.findall(f"{q}source"), part.findall(f"{q}target")
            if len(sources) != 1 or len(targets) > 1:
                raise CardgenError(f"a <{part.tag.rpartition('}')[2]}> of unit '{key}' needs one <source> and at "
                                   f"most one <target>", where)
            source.append(_plain(sources[0], "source", key, where, q))
            text = _plain(targets[0], "target", key, where, q) if targets else ""
            target.append(text)
            fuzzy = fuzzy or (part.get("state") == "initial" and bool(text.strip()))
        joined = "".join(target)
        out.append(Translation(key, "".join(source), joined if joined.strip() else "", where, fuzzy=fuzzy))
    return Imported(lang, out, lang_where)
