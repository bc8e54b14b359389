"""Rendered layouts written in block-style YAML, read by the json module.

Rules sheets, setup sheets and art groups are written in block style: indented
``key: value`` lines and ``- `` items whose values are the one-line flow values of
jsonshape.py (``- {rect: {x: 5}}``, ``clip: [0, 0, 40, 40]``, ``size: 10.5``,
``- h2: "Goal"``). :func:`block_shaped` turns the indentation into brackets and
hands the whole to json, which reads it many times faster than YAML builds it.

It takes only the part of block YAML whose meaning it can prove: lines indented
with spaces; a block mapping's keys each a bare word that YAML reads as a string
or a short double-quoted string, one to a line, all at one column, each followed
by ``: value`` or by ``:`` and an indented block (or a ``- `` list at the key's own
column); a block list's ``- `` items at one column, each a value, a nested block
on the lines below, or a mapping that starts after the ``- ``; every value one of
jsonshape.py's (a bare word, a plain number, a double-quoted string or a flow list
or mapping, whole on its line); full-line comments and blank lines anywhere. No
null values, anchors, tags, merges, multi-line scalars, document markers, comments
after a value, and little nesting. Anything else, and every error, is left to the
YAML reader, which keeps each limit and says at which line.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .jsonshape import (
    _MAX_KEY,
    _OTHER_CHARACTER,
    _OTHER_ESCAPE,
    _SHAPE,
    _YAML_WORDS,
    MAX_DEPTH,
    NOT_JSON_SHAPED,
    long_key,
    quote_words,
    split_strings,
)

# `key:` or `key: value` (a bare word or a double-quoted string on one line as the key)
_ENTRY = re.compile(r'([A-Za-z_][A-Za-z0-9_]{0,%d}|"(?:[^"\\\n]|\\.){0,%d}"):(?: +(.*))?$'
                    % (_MAX_KEY - 1, _MAX_KEY - 2))
_KEYWORDS = _YAML_WORDS | {"true", "false", "null"}  # bare keys YAML reads as something other than a string
_INNERMOST_IN_LINE = re.compile(r"\{[^{}\[\]\n]*\}|\[[^{}\[\]\n]*\]")  # a flow pair within one value
# what a value is once its flow pairs are taken out: nothing (one list or mapping), or one scalar
_TOKEN = r"(?:|\x00|[A-Za-z_][A-Za-z0-9_]*|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?)"
_ONE_VALUE_EACH = re.compile(f"{_TOKEN}(?:\n{_TOKEN})*")


class _Leave(Exception):
    """The text leaves the part of block YAML read here: the YAML reader reads it."""


class _Reader:
    """Block structure to a JSON skeleton, the flow values kept aside to be checked
    all at once (their bare words quoted, their shape proven) before json reads them."""

    def __init__(self, lines: list[tuple[int, str]]):
        self.lines = lines
        self.out: list[str | None] = []  # the skeleton; each None stands for the next value
        self.values: list[str] = []
        self.depth = 0  # the deepest block level seen

    def node(self, i: int, column: int, level: int) -> int:
        """Read the block node whose first line is ``i``, at ``column``; the next line's index."""
        if level > MAX_DEPTH:
            raise _Leave
        self.depth = max(self.depth, level)
        text = self.lines[i][1]
        if text == "-" or text.startswith("- "):
            return self.sequence(i, column, level)
        return self.mapping(i, column, text, level)

    def sequence(self, i: int, column: int, level: int) -> int:
        out = self.out
        out.append("[")
        lines = self.lines
        while i < len(lines) and lines[i][0] == column and (lines[i][1] == "-" or lines[i][1].startswith("- ")):
            text = lines[i][1]
            rest = text[1:].lstrip(" ")
            if not rest:  # the item is the block on the lines below, indented further
                i += 1
                if i == len(lines) or lines[i][0] <= column:
                    raise _Leave  # a null item
                i = self.node(i, lines[i][0], level + 1)
            elif rest[0] in "{[" or not _ENTRY.match(rest):
                self.value(rest)
                i += 1
            else:  # `- key: value`: a mapping from the column of its first key
                self.depth = max(self.depth, level + 1)
                if level + 1 > MAX_DEPTH:
                    raise _Leave
                i = self.mapping(i, column + len(text) - len(rest), rest, level + 1)
            out.append(",")
            if i < len(lines) and lines[i][0] > column:
                raise _Leave  # more indented than the item's own lines: YAML decides (an error)
        out[-1] = "]"
        return i

    def mapping(self, i: int, column: int, text: str, level: int) -> int:
        """A block mapping whose first line is ``i``, its first key at ``column`` and its
        text there ``text`` (after a ``- `` for a mapping in a list item)."""
        out = self.out
        out.append("{")
        lines = self.lines
        while True:
            entry = _ENTRY.match(text)
            if entry is None:
                raise _Leave
            key, value = entry.group(1, 2)
            if key[0] == '"':
                out.append(key)
            elif key in _KEYWORDS:
                raise _Leave
            else:
                out.append(f'"{key}"')
            out.append(":")
            i += 1
            if value is not None and value.strip(" "):
                self.value(value)
            elif i < len(lines) and lines[i][0] > column:
                i = self.node(i, lines[i][0], level + 1)
            elif i < len(lines) and lines[i][0] == column and (lines[i][1] == "-" or lines[i][1].startswith("- ")):
                self.depth = max(self.depth, level + 1)  # a list at the key's own column
                if level + 1 > MAX_DEPTH:
                    raise _Leave
                i = self.sequence(i, column, level + 1)
            else:
                raise _Leave  # a null value
            out.append(",")
            if i == len(lines) or lines[i][0] < column:
                break
            if lines[i][0] > column:
                raise _Leave
            text = lines[i][1]
        out[-1] = "}"
        return i

    def value(self, text: str) -> None:
        self.out.append(None)  # filled in by block_shaped
        self.values.append(text.rstrip(" "))


def block_shaped(text: str) -> Any:
    """The document of a block-style rendered layout read as JSON, or NOT_JSON_SHAPED
    when the text is not one whose meaning is proven the same."""
    if _OTHER_CHARACTER.search(text) or _OTHER_ESCAPE.search(text):  # the comments too: YAML reads them
        return NOT_JSON_SHAPED
    lines = [(len(line) - len(stripped), stripped) for line in text.split("\n")
             for stripped in (line.lstrip(" "),) if stripped and stripped[0] != "#"]  # no comment, no blank
    if not lines:
        return NOT_JSON_SHAPED
    reader = _Reader(lines)
    try:
        if reader.node(0, lines[0][0], 1) != len(lines):
            return NOT_JSON_SHAPED  # a line less indented than the first
    except _Leave:
        return NOT_JSON_SHAPED
    values = _values_as_json(reader.values, MAX_DEPTH - reader.depth)
    if values is None:
        return NOT_JSON_SHAPED
    out = reader.out
    filled = iter(values)
    try:
        return json.loads("".join([piece if piece is not None else next(filled) for piece in out]))
    except (ValueError, RecursionError):  # not JSON after all (`{a: 1,}`), a number too long for Python…
        return NOT_JSON_SHAPED


def _values_as_json(values: list[str], depth: int) -> list[str] | None:
    """The flow values, each a single YAML value (a scalar or a list or mapping, whole),
    as JSON text with their bare words quoted; None unless every one is in the part of
    YAML that is also JSON, at most ``depth`` deep."""
    if not values:
        return []
    parts = split_strings("\n".join(values))  # text, string, text, string… (a string holds no line break)
    if parts is None or long_key(parts):
        return None
    shape = "\x00".join(parts[0::2])
    if not _SHAPE.fullmatch(shape):
        return None
    rest = shape
    for _ in range(depth + 1):  # take out the innermost lists and mappings, level by level
        if "{" not in rest and "[" not in rest:
            break
        inner = _INNERMOST_IN_LINE.sub("", rest)
        if inner == rest:
            return None  # brackets that do not pair up within their value
        rest = inner
    else:
        return None  # nested deeper than allowed
    if not _ONE_VALUE_EACH.fullmatch(rest):
        return None  # a value of two values (`a, b`, `[1], [2]`) or a scalar YAML reads otherwise (`b c`)
    quoted = quote_words(shape)
    if quoted is None:
        return None
    parts[0::2] = quoted.split("\x00")
    return "".join(parts).split("\n")
