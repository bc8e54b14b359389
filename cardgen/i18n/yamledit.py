"""Changing a locale file's strings without rewriting the file.

A translator's import must leave the file as its author wrote it: key order,
comments, nesting, flow mappings (``{god: Anubis, animal: Jackal}``) and quoting
styles. So the YAML is not dumped again: each changed value is replaced in the text
at the span PyYAML's marks give, a new key is added after its siblings (or inside
its flow mapping), and the result is parsed again and compared with what was asked
before anything is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

import yaml

from ..base.errors import CardgenError, Where
from ..load.yamlsrc import YDict, parse_yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: a long string costs milliseconds, not seconds
_PLAIN = re.compile(r"^[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*$")
_FLOW_UNSAFE = re.compile(r"[,\[\]{}]")


def _node_tree(text: str, label: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise CardgenError(f"YAML syntax error: {getattr(exc, 'problem', exc)}",
                           Where(label, mark.line + 1 if mark else None)) from None


def _plain_ok(value: str, in_flow: bool) -> bool:
    if not value or value != value.strip() or not _PLAIN.match(value):
        return False
    if ": " in value or " #" in value or value.endswith(":") or (in_flow and _FLOW_UNSAFE.search(value)):
        return False
    try:
        return yaml.load(value, Loader=_LOADER) == value
    except yaml.YAMLError:
        return False


def scalar(value: str, style: str | None = None, in_flow: bool = False) -> str:
    """``value`` written as a YAML scalar, in the original's style where that is safe."""
    if style is None and _plain_ok(value, in_flow):
        return value
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a double-quoted YAML scalar


class _Index:
    """The scalar nodes and mappings of a YAML text, by their dotted key."""

    def __init__(self, root: yaml.Node | None):
        self.scalars: dict[str, tuple[yaml.ScalarNode, bool]] = {}  # key -> (node, inside a flow mapping)
        self.maps: dict[str, yaml.MappingNode] = {}
        if isinstance(root, yaml.MappingNode):
            self._walk(root, "", False)

    def _walk(self, node: yaml.MappingNode, prefix: str, in_flow: bool) -> None:
        self.maps[prefix.rstrip(".")] = node
        flow = in_flow or bool(node.flow_style)
        for key_node, value_node in node.value:
            key = f"{prefix}{key_node.value}"
            if isinstance(value_node, yaml.MappingNode):
                self._walk(value_node, key + ".", flow)
            elif isinstance(value_node, yaml.ScalarNode):
                self.scalars[key] = (value_node, flow)


def _nested(parts: list[str], value: str, in_flow: bool = False) -> str:
    """``a: {b: "v"}`` for the parts of a key its file lacks (``in_flow``: written
    inside a flow mapping, where a comma or a brace must be quoted)."""
    inner = scalar(value, in_flow=in_flow or len(parts) > 1)
    for part in reversed(parts[1:]):
        inner = f"{{{part}: {inner}}}"
    return f"{parts[0]}: {inner}"


def _insertion(text: str, index: _Index, key: str, value: str) -> tuple[int, str]:
    """Where and what to insert for a key the text lacks: after the last entry of
    its deepest existing mapping."""
    parts = key.split(".")
    depth = len(parts) - 1
    while depth > 0 and ".".join(parts[:depth]) not in index.maps:
        depth -= 1
    mapping = index.maps.get(".".join(parts[:depth]))
    rest = parts[depth:]
    if mapping is None or not mapping.value:
        if mapping is not None and mapping.flow_style:
            return mapping.end_mark.index - 1, _nested(rest, value, in_flow=True)
        if mapping is None and text.strip():
            raise CardgenError(f"cannot add '{key}': the file is not a mapping of keys")
        sep = "" if not text or text.endswith("\n") else "\n"
        return len(text), f"{sep}{_nested(rest, value)}\n"
    if mapping.flow_style:
        return mapping.end_mark.index - 1, f", {_nested(rest, value, in_flow=True)}"
    indent = " " * mapping.value[0][0].start_mark.column
    end = mapping.value[-1][1].end_mark.index
    if end > 0 and text[end - 1] == "\n":
        return end, f"{indent}{_nested(rest, value)}\n"
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    return line_end, f"\n{indent}{_nested(rest, value)}"


def flatten(doc: object, prefix: str = "") -> dict[str, str]:
    """A parsed locale file's strings by dotted key (what the loader reads)."""
    out: dict[str, str] = {}
    if isinstance(doc, dict):
        for key, value in doc.items():
            if isinstance(value, dict):
                out.update(flatten(value, f"{prefix}{key}."))
            elif value is not None and not isinstance(value, (list, bool)):
                out[f"{prefix}{key}"] = str(value)
    return out


def set_strings(text: str, updates: Mapping[str, str], label: str) -> str:
    """``text`` with each key of ``updates`` set to its value, everything else kept."""
    before = flatten(parse_yaml(text, label)) if text.strip() else {}
    index = _Index(_node_tree(text, label))
    edits: list[tuple[int, int, str]] = []
    for key, value in updates.items():
        if key in index.scalars:
            if before.get(key) == value:
                continue
            node, in_flow = index.scalars[key]
            start, end = node.start_mark.index, node.end_mark.index
            old = text[start:end]
            tail = old[len(old.rstrip()):]
            style = node.style if node.style in ("'", '"') else (None if not node.style else '"')
            if not before.get(key, "").strip():
                style = None  # an untranslated string's quotes are the file's, not the translator's
            edits.append((start, end, scalar(value, style, in_flow) + tail))
        elif key in index.maps:
            raise CardgenError(f"cannot set '{key}': the file holds a group of strings there", Where(label))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    for key, value in updates.items():  # new keys, one at a time (each may open a mapping the next uses)
        if key not in index.scalars and key not in index.maps:
            index = _Index(_node_tree(text, label))
            at, piece = _insertion(text, index, key, value)
            text = text[:at] + piece + text[at:]
    after = flatten(parse_yaml(text, label))
    expected = {**before, **updates}
    if after != expected or not isinstance(parse_yaml(text, label), (YDict, type(None))):
        wrong = sorted(k for k in set(after) | set(expected) if after.get(k) != expected.get(k))
        raise CardgenError(f"could not write {', '.join(wrong[:3])} without changing other strings", Where(label))
    return text
