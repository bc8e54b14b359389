"""Reading a PO file strictly, in one pass over its lines.

A PO file comes back from a translator's tool and is untrusted. Lenient readers
(Babel's among them) take a string that is never closed as if it were, and a line
they do not understand as nothing: a file cut short would be imported as truncated
text. Here every line must be what gettext's grammar allows (a ``#`` comment, a
keyword with a quoted string, a quoted string continuing the one above, a blank
line), every entry must be whole and once in the file, and the first problem stops
the reading with its line. Each line is looked at once and each string decoded by
searches that never go back, so the time grows with the file's size, never faster.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base.errors import CardgenError, Where
from .formats import MAX_ENTRIES, TOO_MANY

_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d{1,3})\])?(?![\w\[])[ \t]*")
_CLOSING_QUOTE = re.compile(r'(?<!\\)"')  # in a string whose escaped backslashes are taken out
_BAD_ESCAPE = re.compile(r'\\[^"ntr]')  # likewise


def _unescape(part: str) -> str:
    """A piece of a string between two escaped backslashes: each backslash in it
    starts one of \\" \\n \\t \\r, so replacing them one kind at a time is exact."""
    if "\\" not in part:
        return part
    return part.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r")


@dataclass(frozen=True)
class PoEntry:
    context: str | None
    msgid: str
    msgstr: str
    fuzzy: bool
    line: int  # of its msgid
    msgid_plural: str | None = None
    msgstrs: tuple[str, ...] = ()  # msgstr[0], msgstr[1]… of an entry with msgid_plural

    @property
    def plural(self) -> bool:
        return self.msgid_plural is not None


@dataclass(frozen=True)
class PoFile:
    entries: list[PoEntry]  # every entry but the header
    headers: dict[str, tuple[str, int]]  # a header's name in lower case -> its value, its line


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:39] + "…")


@dataclass
class _Entry:
    """An entry being read: its strings' pieces, and the lines its keywords stood on."""

    fuzzy: bool
    context: list[str] | None = None
    context_line: int = 0
    msgid: list[str] | None = None
    msgid_line: int = 0
    plural: list[str] | None = None
    msgstr: list[list[str]] = field(default_factory=list)
    msgstr_lines: list[int] = field(default_factory=list)  # of the first msgstr's pieces (the header's)

    @property
    def whole(self) -> bool:
        return bool(self.msgstr)


class _Reader:
    def __init__(self, label: str):
        self.label = label
        self.entries: list[PoEntry] = []
        self.headers: dict[str, tuple[str, int]] = {}
        self.seen: dict[object, int] = {}  # an entry's key -> the line of its msgid
        self.entry: _Entry | None = None
        self.piece: list[str] | None = None  # the string a quoted line continues
        self.fuzzy = False  # the flags of the comments above the next entry
        self.inner_comment = 0  # the line of a comment between an entry's msgid and its msgstr

    def fail(self, message: str, line: int) -> CardgenError:
        return CardgenError(message, Where(self.label, line))

    def string(self, text: str, line: int) -> str:
        """A quoted string that makes up the rest of a line, its escapes decoded."""
        if not text.startswith('"'):
            raise self.fail('a keyword must be followed by a string in quotes ("…")', line)
        rest = text[1:]
        # each escaped backslash as two plain characters: every backslash left starts an
        # escape, and the positions stay those of ``rest``
        plain = rest.replace("\\\\", "..") if "\\" in rest else rest
        closing = _CLOSING_QUOTE.search(plain)
        if closing is None:
            raise self.fail('a string is not closed: the line ends before its closing "', line)
        end = closing.start()
        if rest[end + 1:].strip(" \t"):
            raise self.fail('text after the closing " of a string (write \\" for a quote inside it)', line)
        body = rest[:end]
        if "\\" not in body:
            return body
        bad = _BAD_ESCAPE.search(plain, 0, end)
        if bad is not None:
            raise self.fail(f"unknown escape {bad.group()!r} in a string (a PO string knows \\n, \\t, \\r, "
                            f'\\" and \\\\)', line)
        return "\\".join(_unescape(part) for part in body.split("\\\\"))

    def comment(self, text: str, line: int) -> None:
        entry = self.entry
        if entry is not None and not entry.whole:  # an error if a msgstr follows, else the entry's own
            self.inner_comment = self.inner_comment or line
            self.piece = None
            return
        self.finish()
        if text.startswith("#,") and "fuzzy" in (flag.strip() for flag in text[2:].split(",")):
            self.fuzzy = True

    def keyword(self, text: str, line: int) -> None:
        """A line that starts with a keyword: msgctxt, msgid, msgid_plural or msgstr[n]."""
        found = _KEYWORD.match(text)
        if found is None:
            raise self.fail(f"not a line of a PO file: {_shown(text)} (a line is a # comment, msgctxt, msgid, "
                            f"msgstr or a string in quotes)", line)
        word, index = found.group(1), found.group(2)
        if index is not None and word != "msgstr":
            raise self.fail(f"{word}[{index}] is not a keyword (only msgstr takes an index)", line)
        value = self.string(text[found.end():], line)
        if word in ("msgctxt", "msgid"):
            self.opening(word, value, line)
            return
        entry = self.entry
        if entry is None or entry.msgid is None:
            raise self.fail(f"{word}{'' if index is None else f'[{index}]'} without a msgid before it", line)
        if self.inner_comment:
            raise self.fail(f"a comment inside an entry, before its msgstr (the entry at line {entry.msgid_line})",
                            self.inner_comment)
        if word == "msgid_plural":
            self.msgid_plural(entry, value, line)
        else:
            self.msgstr(entry, index, value, line)

    def opening(self, word: str, value: str, line: int) -> None:
        """msgctxt or msgid: a new entry, or the msgid after an entry's msgctxt."""
        entry = self.entry
        if entry is not None and entry.whole:
            self.finish()
            entry = None
        if entry is not None and (entry.msgid is not None or word == "msgctxt"):
            if entry.msgid is None:
                raise self.fail("msgctxt without a msgid after it", entry.context_line)
            raise self.fail("msgid without a msgstr after it", entry.msgid_line)
        if entry is None:
            entry = self.entry = _Entry(self.fuzzy)
            self.fuzzy = False
        if word == "msgctxt":
            entry.context, entry.context_line = [value], line
            self.piece = entry.context
        else:
            entry.msgid, entry.msgid_line = [value], line
            self.piece = entry.msgid

    def msgid_plural(self, entry: _Entry, value: str, line: int) -> None:
        if entry.plural is not None or entry.whole:
            raise self.fail(f"msgid_plural out of place in the entry at line {entry.msgid_line}", line)
        entry.plural = self.piece = [value]

    def msgstr(self, entry: _Entry, index: str | None, value: str, line: int) -> None:
        """msgstr, or msgstr[n] of an entry with msgid_plural, each in its turn."""
        if entry.plural is None and index is not None:
            raise self.fail(f"msgstr[{index}] in an entry without msgid_plural (the entry at line "
                            f"{entry.msgid_line})", line)
        if entry.plural is not None and index is None:
            raise self.fail(f"msgstr in an entry with msgid_plural, which needs msgstr[0], msgstr[1]… (the entry "
                            f"at line {entry.msgid_line})", line)
        expected = len(entry.msgstr)
        if index is None and expected:
            raise self.fail(f"a second msgstr for the msgid at line {entry.msgid_line}", line)
        if index is not None and int(index) != expected:
            raise self.fail(f"msgstr[{index}] where msgstr[{expected}] was due (the entry at line "
                            f"{entry.msgid_line})", line)
        self.piece = [value]
        entry.msgstr.append(self.piece)
        if not entry.msgstr_lines:
            entry.msgstr_lines.append(line)

    def continuation(self, text: str, line: int) -> None:
        if self.piece is None:
            raise self.fail("a string in quotes that belongs to no msgctxt, msgid or msgstr above it", line)
        self.piece.append(self.string(text, line))
        if self.entry is not None and self.entry.msgstr and self.piece is self.entry.msgstr[0]:
            self.entry.msgstr_lines.append(line)

    def finish(self) -> None:
        """The entry read so far, checked whole and kept."""
        entry, self.entry, self.piece, self.inner_comment = self.entry, None, None, 0
        if entry is None:
            return
        assert entry.msgid is not None
        context = "".join(entry.context) if entry.context is not None else None
        msgid = "".join(entry.msgid)
        key: object = context if context is not None else (None, msgid)
        if key in self.seen:
            what = f"msgctxt {_shown(context)}" if context is not None else f"msgid {_shown(msgid)}"
            raise self.fail(f"a second entry for {what} (the first is at line {self.seen[key]})", entry.msgid_line)
        self.seen[key] = entry.msgid_line
        if len(self.seen) > MAX_ENTRIES:
            raise self.fail(TOO_MANY, entry.msgid_line)
        if context is None and msgid == "" and not self.headers:
            self.read_headers(entry)
            return
        strings = tuple("".join(pieces) for pieces in entry.msgstr)
        self.entries.append(PoEntry(context, msgid, strings[0], entry.fuzzy, entry.msgid_line,
                                    msgid_plural="".join(entry.plural) if entry.plural is not None else None,
                                    msgstrs=strings if entry.plural is not None else ()))

    def read_headers(self, entry: _Entry) -> None:
        """``Name: value`` lines of the header's msgstr, each with the line it was written on."""
        start, text = 0, ""
        for piece, line in zip(entry.msgstr[0], entry.msgstr_lines, strict=True):
            for n, part in enumerate(piece.split("\n")):
                if n:
                    self.header_line(text, start)
                    text = ""
                if not text:
                    start = line
                text += part
        self.header_line(text, start)

    def header_line(self, text: str, line: int) -> None:
        name, colon, value = text.partition(":")
        if colon and name.strip():
            self.headers.setdefault(name.strip().lower(), (value.strip(), line))


def parse_po(text: str, label: str) -> PoFile:
    """The entries and header fields of a PO file's text; CardgenError at the first
    line that breaks the format."""
    reader = _Reader(label)
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.rstrip("\r").lstrip(" \t")
        if not line.rstrip(" \t"):
            reader.piece = None
        elif line[0] == "#":
            reader.comment(line, number)
        elif line[0] == '"':
            reader.continuation(line, number)
        else:
            reader.keyword(line, number)
    entry = reader.entry
    if entry is not None and not entry.whole:
        if entry.msgid is None:
            raise reader.fail("msgctxt without a msgid after it (the file ends)", entry.context_line)
        raise reader.fail("msgid without a msgstr after it (the file ends)", entry.msgid_line)
    reader.finish()
    return PoFile(reader.entries, reader.headers)
