"""The few words cardgen itself prints in the small label at the edge of each sheet
("front 1/4 · A4 · duplex long-edge"), in the kit's language.

They are the tool's words, not a game's: English, French and Dutch are built in, and
any other language falls back to English. A game may set any of them in its own
locale files under ``sheet.<word>`` (e.g. ``sheet.front: Vorderseite`` in
``locales/de.yaml``), which wins over the built-in words.
"""

from __future__ import annotations

from typing import Mapping

BUILT_IN: dict[str, dict[str, str]] = {
    "en": {
        "front": "front", "back": "back", "page": "page", "of": "of",
        "duplex_long": "duplex long-edge", "duplex_short": "duplex short-edge",
        "fold_here": "fold on the dashed line", "backs_shifted": "backs shifted {x}, {y} mm", "decimal": ".",
    },
    "fr": {
        "front": "recto", "back": "verso", "page": "page", "of": "sur",
        "duplex_long": "recto verso bord long", "duplex_short": "recto verso bord court",
        "fold_here": "pliez sur le pointillé", "backs_shifted": "versos décalés de {x} / {y} mm",
        "decimal": ",",
    },
    "nl": {
        "front": "voorkant", "back": "achterkant", "page": "pagina", "of": "van",
        "duplex_long": "dubbelzijdig, lange kant", "duplex_short": "dubbelzijdig, korte kant",
        "fold_here": "vouw op de stippellijn", "backs_shifted": "achterkanten {x} / {y} mm verschoven",
        "decimal": ",",
    },
}
WORDS = tuple(BUILT_IN["en"])
LOCALE_KEYS = frozenset(f"sheet.{word}" for word in WORDS)  # optional in a game's locale files


def sheet_words(lang: str, strings: Mapping[str, str] | None = None) -> dict[str, str]:
    """The label words for ``lang``: the game's ``sheet.<word>`` strings, else the
    built-in ones for that language, else English."""
    words = dict(BUILT_IN["en"])
    words.update(BUILT_IN.get(lang, {}))
    if strings:
        for word in WORDS:
            own = strings.get(f"sheet.{word}")
            if isinstance(own, str) and own.strip():
                words[word] = own
    return words


def shifted(words: Mapping[str, str], x: float, y: float) -> str:
    """The back offset, as the label says it (with the language's decimal sign)."""
    def num(v: float) -> str:
        return f"{v:g}".replace(".", words["decimal"])
    return words["backs_shifted"].format(x=num(x), y=num(y))
