"""Rendered layouts in the part of YAML that is also JSON, read by the json module.

Most rendered faces are a block list of one-line flow mappings: ``- {rect: {x: 5,
fill: "#2b2420"}}``, the strings written by the ``q`` filter (JSON). Such a text
means the same as JSON once its bare words are quoted and its ``- `` items joined
into a list, and json reads it some forty times faster than YAML builds it.

:func:`json_shaped` takes only a text it can prove means the same in both: every
line a ``- `` item, a full-line comment or blank; bare words that YAML 1.1 reads
as strings (not ``yes``, ``on``, ``Null``…; ``true``, ``false`` and ``null`` mean
the same in both); numbers in the forms both read alike (no ``1e3``, ``012``,
``1_000``, ``.5``); double-quoted strings on one line with JSON's escapes but
``\\u``; no tabs, comments after a value, anchors, tags, merges, line breaks YAML
knows and JSON does not (NEL, U+2028) nor characters YAML refuses; short keys
(YAML keys end at 1,024 characters); little nesting; one value per item. Anything
else, and every error, is left to the YAML reader (``fast_load``), which keeps each
limit and says at which line.
"""

from __future__ import annotations

import json
import re
from typing import Any

NOT_JSON_SHAPED = object()  # what json_shaped returns for a text the YAML reader must read

MAX_DEPTH = 64  # lists and mappings in one another, the item list included; deeper: the YAML reader
_MAX_KEY = 1000  # characters of a key; YAML ends a key at 1,024

_COMMENT_LINE = re.compile(r"^ *#.*$", re.M)
_NOT_AN_ITEM = re.compile(r"\n(?!- |\n|\Z)")  # a line that is neither a `- ` item nor blank
# characters both read alike: YAML's printable ones without its line breaks (NEL, U+2028, U+2029), \r or \t
_OTHER_CHARACTER = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_OTHER_ESCAPE = re.compile(r'\\[^"\\nrtbf]')  # \u (JSON pairs surrogates, YAML refuses them), \x, \e, \/…
_STRING = re.compile(r'("[^"\\\n]*(?:\\.[^"\\\n]*)*")')  # one line, escapes included
# between the strings (each stood in for by \0): brackets, commas, `: `, bare words, plain numbers
_SHAPE = re.compile(r"(?:[ \n{}\[\],\x00]|: |[A-Za-z_][A-Za-z0-9_]{0,%d}(?![A-Za-z0-9_])"
                    r"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?![A-Za-z0-9_.]))*" % (_MAX_KEY - 1))
_WORD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)")  # in a text _SHAPE matched: its bare words, whole
_JSON_WORDS = frozenset(("true", "false", "null"))  # the bare words that mean the same in both
_YAML_WORDS = frozenset("yes Yes YES no No NO True TRUE False FALSE on On ON off Off OFF Null NULL".split())
_INNERMOST = re.compile(r"\{[^{}\[\]]*\}|\[[^{}\[\]]*\]")


def json_shaped(text: str) -> Any:
    """The document of a rendered layout read as JSON, or NOT_JSON_SHAPED when the
    text is not one that means the same in JSON as in YAML."""
    original = text
    if "#" in text:
        text = _COMMENT_LINE.sub("", text)
    text = "\n" + text
    items = text.count("\n- ")
    if not items or _NOT_AN_ITEM.search(text):
        return NOT_JSON_SHAPED
    if _OTHER_CHARACTER.search(original) or _OTHER_ESCAPE.search(original):  # comments too: YAML reads them
        return NOT_JSON_SHAPED
    parts = split_strings(text)  # text, string, text, string… (a string holds no line break here)
    if parts is None or long_key(parts):
        return NOT_JSON_SHAPED
    shape = "\x00".join(parts[0::2]).replace("\n- ", "\n,")
    if not _SHAPE.fullmatch(shape) or _too_deep(shape.replace("\x00", "")):
        return NOT_JSON_SHAPED
    quoted = quote_words(shape)
    if quoted is None:
        return NOT_JSON_SHAPED
    parts[0::2] = quoted.split("\x00")
    try:
        doc = json.loads("[" + "".join(parts).lstrip("\n")[1:] + "]")
    except (ValueError, RecursionError):  # not JSON after all (`{a: 1,}`), a number too long for Python…
        return NOT_JSON_SHAPED
    return doc if len(doc) == items else NOT_JSON_SHAPED  # `- {a: 1}, {b: 2}` is one YAML item, or none


def split_strings(text: str) -> list[str] | None:
    """``text`` cut into text, string, text, string… (each double-quoted string whole
    on its line), or None when a quote opens a string that its line does not close."""
    if "\\" in text:
        parts = _STRING.split(text)
        return None if '"' in "".join(parts[0::2]) else parts
    parts = text.split('"')  # no escapes: every other piece is a string (str.split is much faster)
    strings = parts[1::2]
    if len(parts) % 2 == 0 or "\n" in "".join(strings):
        return None
    parts[1::2] = [f'"{string}"' for string in strings]
    return parts


def long_key(parts: list[str]) -> bool:
    """Whether a string of ``parts`` (from split_strings) is a key too long for YAML."""
    strings = parts[1::2]
    if strings and max(map(len, strings)) > _MAX_KEY:
        for n, string in enumerate(strings):
            if len(string) > _MAX_KEY and parts[2 * n + 2].lstrip(" ").startswith(":"):
                return True
    return False


def quote_words(shape: str) -> str | None:
    """``shape`` (a text _SHAPE matched) with each bare word in double quotes but
    true, false and null; None if it holds a word YAML 1.1 reads as no string."""
    words = _WORD.split(shape)  # text, word, text, word…
    bare = words[1::2]
    if not _YAML_WORDS.isdisjoint(bare):
        return None
    words[1::2] = [word if word in _JSON_WORDS else f'"{word}"' for word in bare]
    return "".join(words)


def _too_deep(shape: str) -> bool:
    """Whether the brackets of ``shape`` (strings taken out) nest more than MAX_DEPTH
    deep with the item list, or do not pair up."""
    depth = 1
    while "{" in shape or "[" in shape:
        depth += 1
        inner = _INNERMOST.sub("", shape)
        if depth > MAX_DEPTH or inner == shape:
            return True
        shape = inner
    return False
