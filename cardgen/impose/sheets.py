"""What the imposition stage hands the writers: every page of every printed file of one
language on one paper, with everything on it already placed.

Frozen values in page millimetres (origin top-left, y down). A writer draws them in the
order they come (a pieces page: its header, the faces, crop marks, cut guides, fold
marks, label) and decides nothing: which face goes where, turned or mirrored, what it
shows of its bleed, where every mark and label line runs is all here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import Slot
from .labels import LabelLine
from .marks import Mark
from .outlines import Outline
from .shapes import CutGuides, ProofLines
from .tiling import Tile, TilePlan


@dataclass(frozen=True)
class PlacedFace:
    """One face of one copy of a card, placed on a page."""

    component: str
    card: str
    copy: int  # which copy of the card (0-based)
    side: str  # "front" or "back": which of the card's faces
    slot: Slot  # where its trim box goes and how it is turned (a short-edge back: 180°)
    size: tuple[float, float]  # trim, as the component gives it
    bleed: float  # the face is drawn with this bleed all round
    clip: Outline  # what of the face shows: trim plus the bleed it may show here
    proof: ProofLines | None = None  # the designer's proof overlay, when asked for


@dataclass(frozen=True)
class Fold:
    """A gutterfold sheet's fold line and the dashed marks on it in the margins."""

    x: float
    marks: tuple[Mark, ...]


@dataclass(frozen=True)
class PiecesPage:
    """A page of a deck's pieces: fronts, backs, or both on a gutterfold sheet."""

    component: str
    side: str  # "front", "back" or "gutterfold"
    sheet: int  # which of the deck's sheets (1-based)
    faces: tuple[PlacedFace, ...]
    marks: tuple[Mark, ...]  # crop marks in the margin
    cuts: CutGuides  # ticks in the bleed, or traced outlines
    label: tuple[LabelLine, ...]
    offset: tuple[float, float] | None = None  # a duplex page drawn shifted by this (mm); None: never shifted
    header: bool = False  # the deck's header for this sheet goes under the pieces (one-sided decks)
    fold: Fold | None = None  # gutterfold sheets


@dataclass(frozen=True)
class BoardPage:
    """One page of a board tiled over several (``output.boards`` draws its piece)."""

    component: str
    plan: TilePlan
    tile: Tile
    label: str


@dataclass(frozen=True)
class SheetPage:
    """One page of a sheet component (rules, setup), as its template rendered it."""

    component: str
    index: int  # which of the pages it rendered for this paper (0-based)


Page = PiecesPage | BoardPage | SheetPage


@dataclass(frozen=True)
class SheetFile:
    """One printed file: its kind, page size and pages in order."""

    kind: str  # "cards" (two-sided decks) or "sheets" (sheets, boards, one-sided decks)
    layout: str  # "duplex" or "gutterfold" for cards; "sheets"
    size: tuple[float, float]  # page size, mm (a gutterfold sheet is landscape)
    duplex: str | None  # the flip a duplex printer is asked for ("long" or "short")
    pages: tuple[Page, ...]
    printable: Outline | None = None  # a sheet's and a deck header's own art shows only inside this


@dataclass(frozen=True)
class Sheets:
    """Every imposed file of one language on one paper."""

    lang: str
    paper: str
    files: tuple[SheetFile, ...]
