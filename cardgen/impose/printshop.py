"""Which print-shop files a kit has, what each holds and what it is called.

A print shop prints one product per file: one trim size, one cut (a die for round or
shaped pieces), and one way of printing, both sides or one. So the decks that go to
the shop (``printshop: true``) are grouped by trim size, bleed, shape and sidedness,
in the order the game lists them: decks that agree share a file (Horus's two decks
of 63 × 88 mm cards), any difference starts another. A two-sided file runs front,
back, front, back …, so that a shop imposing odd page = front, even page = back backs
every piece with its own back; a one-sided file holds fronts only.

A file is named after what tells it apart, ``<game>-<lang>-printshop-<trim>[-<shape>]
[-one-sided]``: ``horus-en-printshop-63x88mm.pdf``,
``horus-en-printshop-16mm-round-one-sided.pdf``. A game with a single trim size keeps
the same pattern (``hapy-en-printshop-63x88mm.pdf``). Two groups that would share a
name (same trim and shape, another bleed or outline) add their first deck's id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..model.components import Deck
from .shapes import shape_for

MODES = ("-ink-saver-proof", "-ink-saver", "-proof")
"""The endings an ink-saving or proof build adds to a file's name, longest first."""

SHAPE_TAGS = {"circle": "round", "hex": "hex", "rounded": "rounded", "path": "diecut"}
"""The word a file's name gives the shape of its pieces (rectangles: none)."""


@dataclass(frozen=True)
class ShopFile:
    """One print-shop file: its decks, their trim size (the TrimBox, mm), whether
    each piece has a back page, and the part of its name after ``printshop-``."""

    decks: tuple[Deck, ...]
    trim: tuple[float, float]
    two_sided: bool
    shape: str
    stem: str

    def name(self, game_id: str, lang: str, mode: str = "") -> str:
        """The file's name in the kit (``mode``: ``-ink-saver``, ``-proof``, both or none)."""
        return f"{game_id}-{lang}-printshop-{self.stem}{mode}.pdf"


def _mm(v: float) -> str:
    return f"{round(v, 1):g}"


def trim_of(deck: Deck) -> tuple[float, float]:
    """The size of a deck's TrimBox on its print-shop pages (mm): the piece's size,
    or its outline's bounding box for a die-cut path."""
    left, top, right, bottom = shape_for(deck).trim_bounds(*deck.size)
    return (round(right - left, 3), round(bottom - top, 3))


def _stem(deck: Deck, trim: tuple[float, float], two_sided: bool) -> str:
    w, h = trim
    size = f"{_mm(w)}mm" if deck.shape == "circle" else f"{_mm(w)}x{_mm(h)}mm"  # to 0.1 mm in a name
    tag = SHAPE_TAGS.get(deck.shape)
    return size + (f"-{tag}" if tag else "") + ("" if two_sided else "-one-sided")


def plan_printshop(decks: Iterable[Deck]) -> list[ShopFile]:
    """The print-shop files of the decks that go to a shop, in the game's order."""
    groups: dict[tuple, list[Deck]] = {}
    for deck in decks:
        if deck.printshop and deck.cards:
            key = (deck.size, deck.bleed, deck.shape, deck.hex_top, deck.corner_radius, deck.outline,
                   bool(deck.back))
            groups.setdefault(key, []).append(deck)
    files = [ShopFile(tuple(ds), trim_of(ds[0]), bool(ds[0].back), ds[0].shape,
                      _stem(ds[0], trim_of(ds[0]), bool(ds[0].back))) for ds in groups.values()]
    taken: dict[str, int] = {}
    for f in files:
        taken[f.stem] = taken.get(f.stem, 0) + 1
    return [f if taken[f.stem] == 1 else ShopFile(f.decks, f.trim, f.two_sided, f.shape,
                                                  f"{f.stem}-{f.decks[0].id}") for f in files]


def mode_of(name: str) -> str:
    """The ink-saver / proof ending of a kit file's name ("" for a plain build)."""
    stem = name.removesuffix(".pdf")
    return next((m for m in MODES if stem.endswith(m)), "")
