"""What reading a translator's file gives, whatever its format, and the bounds both
formats share: a catalogue comes from outside, so it is read no further than
``MAX_BYTES``, holds at most ``MAX_ENTRIES`` strings (read in time that grows with
its size, so both bound the time an import takes) and must name its language as a
code a game can have."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..base.errors import CardgenError, Where
from ..load.game import LANG_RE
from ..model.pseudo import PSEUDO

MAX_BYTES = 16 * 1024 * 1024  # a catalogue, PO or XLIFF; cardgen's own for Hâpy is about 40 KiB
MAX_ENTRIES = 100_000  # strings in one catalogue (Hâpy has 73): each costs checks, and may cost a message
TOO_MANY = f"the catalogue holds more than {MAX_ENTRIES:,} strings, the most one may hold"


@dataclass(frozen=True)
class Translation:
    key: str | None  # None: the file does not say (a PO entry without msgctxt), placed by its source text
    source: str  # the source text the translator saw
    text: str  # their translation ("" when there is none)
    where: Where
    fuzzy: bool = False
    category: str | None = None  # which plural form of its entry it is (one, few…)
    forms: tuple[str, ...] | None = None  # a gettext plural entry's msgstr[n], before they are told apart
    source_plural: str = ""  # its msgid_plural

    def plural_forms(self, categories: tuple[str, ...]) -> list[Translation]:
        """A gettext plural entry as one translation per category of its language."""
        assert self.forms is not None
        return [Translation(f"{self.key}.{c}" if self.key is not None else None,
                            self.source if c == "one" else self.source_plural, text, self.where, self.fuzzy, c)
                for c, text in zip(categories, self.forms)]


@dataclass(frozen=True)
class Imported:
    lang: str
    translations: list[Translation]
    lang_where: Where | None = None  # where the file names its language
    plural_header: str = ""  # what a PO file's Plural-Forms header says, and its line: "nplurals=3 (line 12)"


def read_bounded(path: Path, label: str) -> bytes:
    """The bytes of a catalogue, refused unread past ``MAX_BYTES`` (a file that never
    ends, such as a device, is not read whole)."""
    with path.open("rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise CardgenError(f"the file is larger than {MAX_BYTES // 1024 // 1024} MiB, the most a catalogue may be",
                           Where(label))
    return data


def utf8_text(data: bytes, label: str, kind: str) -> str:
    """A catalogue's text; a file in another encoding is refused at its first byte
    that is not UTF-8 (a declaration of another encoding could hide from a check)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CardgenError(f"not UTF-8 text (byte 0x{data[exc.start]:02X}); cardgen reads {kind} files in UTF-8",
                           Where(label, line)) from None


def language_code(value: str, what: str, where: Where) -> str:
    """A language named by a catalogue (``pt_BR`` as gettext writes it), as a game
    names its languages (``pt-BR``)."""
    code = value.strip().replace("_", "-")
    if not LANG_RE.match(code) and code != PSEUDO:  # pseudo is refused by the import, in its own words
        shown = value.strip() if len(value.strip()) <= 40 else value.strip()[:39] + "…"
        raise CardgenError(f"the catalogue's language {shown!r} ({what}) is not a language code such as "
                           f"en, fr or pt-BR", where)
    return code
