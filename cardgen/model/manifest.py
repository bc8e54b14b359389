"""``manifest.json``, the record of a built kit, as typed values.

``cardgen build`` writes one beside the PDFs: per file, its language, paper, kind
(cards / sheets / printshop / board), duplex mode and pages, each page with the
pieces placed on it (card, copy, slot, position and size in mm, rotation); a
print-shop file also says what a shop orders it by (its decks, trim size, sides and
page count).
``cardgen validate --kit`` reads it back to check the kit against the deck. Both go
through these classes: the writer builds them, :meth:`Manifest.to_json` writes the
document, :meth:`Manifest.from_json` reads one and checks every key's type, so the
checks that follow work on typed fields instead of looking keys up one by one.

A field that is None is left out of the JSON (an optional key), except the file's
``paper`` and ``duplex``, which are always written (null when they do not apply).
Numbers are kept as read (an int stays an int), so a manifest read and written
again is the same text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..base.errors import CardgenError, Where

FORMAT = 1  # the manifest format this cardgen writes and reads

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class PlacedItem:
    """One piece on a page: which copy of which card, in which slot, where (mm)."""

    card: str
    copy: int
    side: str  # "front" or "back"
    slot: int
    x: float
    y: float
    w: float
    h: float
    rotation: float
    col: int | None = None  # the slot's column and row (imposed sheets; not print-shop pages)
    row: int | None = None
    component: str | None = None  # the piece's deck, where it is not the page's (decks sharing a sheet)

    def to_dict(self) -> Json:
        out: Json = {"card": self.card, "copy": self.copy, "side": self.side, "slot": self.slot, "x": self.x,
                     "y": self.y, "w": self.w, "h": self.h, "rotation": self.rotation}
        _put_optional(out, col=self.col, row=self.row, component=self.component)
        return out

    @classmethod
    def from_dict(cls, value: Any, what: str) -> PlacedItem:
        d = _Keys(value, what)
        return cls(card=d.text("card"), copy=d.whole("copy"), side=d.text("side"), slot=d.whole("slot"),
                   x=d.number("x"), y=d.number("y"), w=d.number("w"), h=d.number("h"),
                   rotation=d.number("rotation"), col=d.optional_whole("col"), row=d.optional_whole("row"),
                   component=d.optional_text("component"))


@dataclass(frozen=True)
class BoardTile:
    """Which piece of a board a page of the sheets file prints (board mm)."""

    label: str  # "A1", "B2"…
    col: int
    row: int
    grid: tuple[int, int]  # columns and rows of pieces the board is cut into
    rotated: bool
    region: tuple[float, float, float, float]  # x0, y0, x1, y1 of the piece
    visible: tuple[float, float, float, float]  # x0, y0, x1, y1 of what shows (the overlap hidden)

    def to_dict(self) -> Json:
        return {"tile": self.label, "col": self.col, "row": self.row, "tiles": list(self.grid),
                "rotated": self.rotated, "region": list(self.region), "visible": list(self.visible)}

    @classmethod
    def from_dict(cls, d: _Keys) -> BoardTile:
        return cls(label=d.text("tile"), col=d.whole("col"), row=d.whole("row"),
                   grid=d.wholes("tiles", 2, "[columns, rows]"), rotated=d.flag("rotated"),
                   region=d.numbers("region", 4, "[x0, y0, x1, y1]"),
                   visible=d.numbers("visible", 4, "[x0, y0, x1, y1]"))


@dataclass(frozen=True, slots=True)
class PageEntry:
    """One page of a file: the component it prints, which side, and its pieces. On a sheet
    that decks of one size share, ``component`` is the first deck on it, and each piece
    of another deck names its own."""

    page: int  # 1-based
    component: str
    side: str  # "front", "back", "gutterfold" (both halves) or "sheet" (a whole page: sheet, board)
    items: tuple[PlacedItem, ...] = ()
    sheet: int | None = None  # the deck's sheet number (imposed pages)
    fold_x: float | None = None  # gutterfold pages: where the sheet folds, mm
    tile: BoardTile | None = None  # board pages of the sheets file

    def to_dict(self) -> Json:
        out: Json = {"page": self.page, "component": self.component, "side": self.side,
                     "items": [it.to_dict() for it in self.items]}
        _put_optional(out, sheet=self.sheet, fold_x=self.fold_x)
        if self.tile is not None:
            out.update(self.tile.to_dict())
        return out

    @classmethod
    def from_dict(cls, value: Any, what: str) -> PageEntry:
        d = _Keys(value, what)
        items = d.array("items")
        return cls(page=d.whole("page"), component=d.text("component"), side=d.text("side"),
                   items=tuple(PlacedItem.from_dict(it, f"{what}, item {k + 1}") for k, it in enumerate(items)),
                   sheet=d.optional_whole("sheet"), fold_x=d.optional_number("fold_x"),
                   tile=BoardTile.from_dict(d) if "tile" in d.value else None)


@dataclass(frozen=True)
class ShopDetails:
    """What a print shop needs to know of a print-shop file before opening it: the
    decks it holds, their trim size (mm), whether every piece has its back on the next
    page, and how many pages it has."""

    components: tuple[str, ...]
    trim: tuple[float, float]
    two_sided: bool
    page_count: int
    order: str = "alternating"  # a shop profile's page order: or "back-first", "fronts-then-backs"
    bleed: float | None = None  # a shop profile's bleed (mm), in place of each deck's own

    def to_dict(self) -> Json:
        out: Json = {"components": list(self.components), "trim": list(self.trim), "two_sided": self.two_sided,
                     "page_count": self.page_count}
        if self.order != "alternating":
            out["order"] = self.order
        if self.bleed is not None:
            out["bleed"] = self.bleed
        return out

    @classmethod
    def from_dict(cls, value: Any, what: str) -> ShopDetails:
        d = _Keys(value, f"{what}.printshop")
        order = d.optional_text("order") or "alternating"
        if order not in ("alternating", "back-first", "fronts-then-backs"):
            raise _BadKey(f"{what}.printshop: 'order' must be alternating, back-first or fronts-then-backs,"
                          f" found {order!r}")
        return cls(components=d.texts("components"), trim=d.numbers("trim", 2, "[width, height] in mm"),
                   two_sided=d.flag("two_sided"), page_count=d.whole("page_count"), order=order,
                   bleed=d.optional_number("bleed"))


@dataclass(frozen=True)
class FileEntry:
    """One PDF of the kit and what each of its pages holds."""

    file: str  # its name inside the kit folder
    lang: str
    kind: str  # "cards", "sheets", "printshop" or "board"
    paper: str | None  # None: pages sized to the pieces (print-shop and full-size board files)
    duplex: str | None  # "long" or "short" for a duplex cards file
    pages: tuple[PageEntry, ...] = ()
    layout: str | None = None  # "gutterfold" for a folded cards file (absent: duplex)
    back_offset: tuple[float, float] | None = None  # duplex cards files: the shift of every back page, mm
    inputs: str | None = None  # the fingerprint of what the file was built from (cardgen.load.inputs)
    printshop: ShopDetails | None = None  # print-shop files: decks, trim, sides, page count

    def to_dict(self) -> Json:
        out: Json = {"file": self.file, "lang": self.lang, "paper": self.paper, "kind": self.kind,
                     "duplex": self.duplex, "pages": [p.to_dict() for p in self.pages]}
        _put_optional(out, layout=self.layout,
                      back_offset=list(self.back_offset) if self.back_offset is not None else None,
                      inputs=self.inputs,
                      printshop=self.printshop.to_dict() if self.printshop is not None else None)
        return out

    @classmethod
    def from_dict(cls, value: Any, what: str) -> FileEntry:
        d = _Keys(value, what)
        name = d.text("file")
        d.what = what = f"{what} ('{name}')"
        pages = d.array("pages")
        return cls(file=name, lang=d.text("lang"), kind=d.text("kind"), paper=d.optional_text("paper"),
                   duplex=d.optional_text("duplex"),
                   pages=tuple(PageEntry.from_dict(p, f"{what}, page {n}") for n, p in enumerate(pages, start=1)),
                   layout=d.optional_text("layout"),
                   back_offset=d.numbers("back_offset", 2, "[x, y] in mm") if "back_offset" in d.value else None,
                   inputs=d.optional_text("inputs"),
                   printshop=ShopDetails.from_dict(d.value["printshop"], what) if "printshop" in d.value else None)


@dataclass(frozen=True)
class DeckRecord:
    """A deck as it was built: each card's quantity, and whether it has backs."""

    cards: Mapping[str, int]
    two_sided: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", MappingProxyType(dict(self.cards)))  # read-only, as the rest

    def to_dict(self) -> Json:
        return {"cards": dict(self.cards), "two_sided": self.two_sided}

    @classmethod
    def from_dict(cls, value: Any, what: str) -> DeckRecord:
        d = _Keys(value, what)
        cards = _Keys(d.mapping("cards"), f"{what}.cards")
        return cls(cards={k: cards.whole(k) for k in cards.value}, two_sided=d.flag("two_sided"))


@dataclass(frozen=True)
class Manifest:
    """The whole document: the game, the variants built, the decks, every file."""

    game: str
    variants: tuple[str, ...]
    decks: Mapping[str, DeckRecord]
    files: tuple[FileEntry, ...]
    format: int = FORMAT

    def __post_init__(self) -> None:
        object.__setattr__(self, "decks", MappingProxyType(dict(self.decks)))  # read-only, as the rest

    def to_json(self) -> str:
        """The text of ``manifest.json`` (keys sorted, one-space indent, UTF-8 as is)."""
        doc = {"game": self.game, "format": self.format, "variants": list(self.variants),
               "decks": {k: v.to_dict() for k, v in self.decks.items()}, "files": [f.to_dict() for f in self.files]}
        return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, where: Where) -> Manifest:
        """Read a manifest's text; a CardgenError at ``where`` (the manifest) names the
        first key that is missing or of the wrong type, and where it is in the document."""
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CardgenError(f"not valid JSON: {exc.msg}", Where(where.path, exc.lineno, exc.colno)) from None
        except RecursionError:  # Python's JSON reader recurses: 100,000 '[' would be a traceback
            raise CardgenError("not a cardgen kit manifest: arrays and objects nested too deeply", where) from None
        except ValueError:  # a whole number longer than Python reads (4,300 digits)
            raise CardgenError("not a cardgen kit manifest: a number too long to read", where) from None
        if not isinstance(doc, dict) or not isinstance(doc.get("files"), list) or not isinstance(doc.get("decks"), dict):
            raise CardgenError("not a cardgen kit manifest (it needs 'game', 'decks' and 'files')", where)
        try:
            d = _Keys(doc, "the manifest")
            version = d.whole("format")
            if version != FORMAT:
                raise _BadKey(f"manifest format {version!r} is not one this cardgen reads ({FORMAT})")
            decks = d.mapping("decks")
            return cls(game=d.text("game"),
                       variants=d.texts("variants") if "variants" in doc else (),
                       decks={k: DeckRecord.from_dict(v, f"decks['{k}']") for k, v in decks.items()},
                       files=tuple(FileEntry.from_dict(f, f"files[{i}]") for i, f in enumerate(d.array("files"))),
                       format=version)
        except _BadKey as exc:
            raise CardgenError(str(exc), where) from None


# -- reading ---------------------------------------------------------------------------


class _BadKey(Exception):
    """A key of the document that is missing or of the wrong type."""


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"text {value!r}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    return "a list" if isinstance(value, list) else "a mapping"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Keys:
    """The keys of one JSON object, read by type; ``what`` says where it stands."""

    def __init__(self, value: Any, what: str):
        if not isinstance(value, dict):
            raise _BadKey(f"{what} must be a mapping, found {_describe(value)}")
        self.value: dict[str, Any] = value
        self.what = what

    def _typed(self, key: str, test: Callable[[Any], bool], wanted: str) -> Any:
        """The value of ``key`` if ``test`` accepts it; ``wanted`` says what it must be."""
        if key not in self.value:
            raise _BadKey(f"{self.what} has no '{key}'")
        value = self.value[key]
        if not test(value):
            raise _BadKey(f"{self.what}: '{key}' must be {wanted}, found {_describe(value)}")
        return value

    def text(self, key: str) -> str:
        return self._typed(key, lambda v: isinstance(v, str), "text")

    def optional_text(self, key: str) -> str | None:
        """Text, null or absent (None)."""
        if key not in self.value:
            return None
        return self._typed(key, lambda v: v is None or isinstance(v, str), "text or null")

    def whole(self, key: str) -> int:
        return self._typed(key, _is_whole, "a whole number")

    def optional_whole(self, key: str) -> int | None:
        return self.whole(key) if key in self.value else None

    def number(self, key: str) -> float:
        return self._typed(key, _is_number, "a number")

    def optional_number(self, key: str) -> float | None:
        return self.number(key) if key in self.value else None

    def flag(self, key: str) -> bool:
        return self._typed(key, lambda v: isinstance(v, bool), "true or false")

    def array(self, key: str) -> list[Any]:
        return self._typed(key, lambda v: isinstance(v, list), "a list")

    def mapping(self, key: str) -> dict[str, Any]:
        return self._typed(key, lambda v: isinstance(v, dict), "a mapping")

    def texts(self, key: str) -> tuple[str, ...]:
        return tuple(self._typed(key, lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
                                 "a list of text"))

    def numbers(self, key: str, n: int, shape: str) -> Any:
        return tuple(self._typed(key, lambda v: isinstance(v, list) and len(v) == n and all(map(_is_number, v)),
                                 shape))

    def wholes(self, key: str, n: int, shape: str) -> Any:
        return tuple(self._typed(key, lambda v: isinstance(v, list) and len(v) == n and all(map(_is_whole, v)),
                                 f"{shape}, whole numbers"))


def _put_optional(out: Json, **fields: Any) -> None:
    """Add the fields that are set (None: the key is left out)."""
    out.update((k, v) for k, v in fields.items() if v is not None)
