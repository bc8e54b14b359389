"""Writing one language's rendered kit: imposed cards (duplex or gutterfold), one-sided
sheets, and one-face-per-page files for print shops and image exports.

Every face is drawn once per file as a form and placed where it is needed; every
page records what it holds in the manifest entry it returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import canvas as pdfout
from .painter import Painter
from ..errors import CardgenError, Collector
from ..layout.fonts import FontBook
from ..impose.grid import (SheetPlan, Slot, back_slots, block_of, bleed_ticks, circle_guides, compact, marks_for, paginate, paginate_rows,
                     plan_gutterfold, plan_sheet)
from .boards import draw_board_page, write_board_fullsize
from ..impose.tiling import TilePlan, plan_tiles
from ..render.faces import Face, LangKit
from ..model.components import Board, Card, Component, Deck, Sheet
from ..model.game import Game
from ..model.manifest import BoardTile, FileEntry, PageEntry, PlacedItem
from ..impose.labels import sheet_words, shifted
from ..layout.text import TextEngine
from ..units import PAPERS_MM, PT_PER_MM, mm_to_pt


_LABEL_GAP_MM = 10.0  # a row shorter than this (the gap between two bleeds) takes no label
_LABEL_CENTRE_MM = 6.1  # a side label's centre from the paper edge: its 6 pt line then clears 5 mm


def _spread(text: str, width: Callable[[str], float], gaps: list[tuple[float, float]],
            margin: float) -> list[tuple[str, tuple[float, float]]]:
    """A sheet label's lines, each with the row gap ``(top, bottom)`` it goes in.

    The whole label in the tallest gap when it fits there (less ``margin``); else its
    words packed in order over the gaps from the top down (a line breaks at a space,
    which it drops, or at a " · " separator, whose dot ends the line so that the pieces
    read as one label), the last gap taking whatever is left (to be shortened)."""
    tallest = max(gaps, key=lambda g: g[1] - g[0])
    if len(gaps) == 1 or width(text) <= tallest[1] - tallest[0] - margin:
        return [(text, tallest)]
    words = [(" · " if k and not i else " ", word) for k, part in enumerate(text.split(" · "))
             for i, word in enumerate(part.split(" "))]
    out: list[tuple[str, tuple[float, float]]] = []
    line = ""
    for sep, word in words:
        joined = line + sep + word if line else word
        gap = gaps[len(out)]
        ends = line + " ·" if sep == " · " else line
        if not line or width(joined) <= gap[1] - gap[0] - margin or len(out) == len(gaps) - 1:
            line = joined
        elif width(ends) <= gap[1] - gap[0] - margin:
            out.append((ends, gap))
            line = word
        else:
            out.append((line, gap))
            line = word
    out.append((line, gaps[len(out)]))
    return out


def _round_bleed(plan: SheetPlan, comp: Deck) -> float | None:
    """How much bleed a round piece shows around its trim circle on this plan (None
    for rectangular pieces): its own bleed when pieces stand apart, none when they
    touch (a butted grid), where a ring of bleed would paint over the neighbour."""
    if comp.shape != "circle":
        return None
    return comp.bleed if plan.gutter > 0 else 0.0


def sheet_layout(comp: Deck, plan: SheetPlan) -> list[tuple[list[tuple[Card, int]], list[int]]]:
    """Per sheet, the pieces on it (``(card, copy)``, card by card, copy by copy) and the
    slot index of each. In order, slot after slot; with ``new_row_per: card``, each card
    entry starts a row of its own (see :func:`~cardgen.impose.grid.paginate_rows`)."""
    items = [(card, k) for card in comp.cards for k in range(card.quantity)]
    if comp.new_row_per == "card":
        sheets = paginate_rows([card.quantity for card in comp.cards], plan.cols, plan.rows)
    else:
        sheets = [[(i, j) for j, i in enumerate(rng)] for rng in paginate(len(items), plan.per_sheet)]
    return [([items[i] for i, _ in sheet], [j for _, j in sheet]) for sheet in sheets]


def _rounded(*values: float) -> tuple[float, float, float, float]:
    """A board piece's box for the manifest, to the micrometre."""
    x0, y0, x1, y1 = (round(v, 3) for v in values)
    return (x0, y0, x1, y1)


@dataclass(frozen=True)
class WrittenFile:
    name: str
    pages: int


class KitWriter:
    """Writes the PDF files of a rendered language into a folder."""

    def __init__(self, game: Game, options, book: FontBook, text: TextEngine,
                 progress: Callable[[str], None]):
        self.game = game
        self.opt = options
        self.book = book
        self.text = text
        self.progress = progress
        self._plans: dict[str, dict[str, SheetPlan]] | None = None

    def plans(self) -> dict[str, dict[str, SheetPlan]]:
        errors = Collector()
        plans: dict[str, dict[str, SheetPlan]] = {}
        for paper in self.opt.papers:
            plans[paper] = {}
            for comp in self.game.decks:
                try:
                    plans[paper][comp.id] = plan_sheet(
                        PAPERS_MM[paper], comp.size, comp.bleed, name=f"{self.game.id} {comp.id}", paper_name=paper,
                        own_bleed=comp.shape == "circle",
                    )
                except CardgenError as exc:
                    errors.add(exc.message, comp.where)
        errors.raise_if_any()
        self._plans = plans
        return plans

    def one_sided_pages(self, comp: Deck, plan: SheetPlan) -> list[tuple[list[tuple[Card, int]], list[int],
                                                                             SheetPlan]]:
        """A one-sided deck's sheets: per sheet its pieces, their slot indices and the
        plan trimmed to the rows it uses, centred on the paper."""
        out = []
        for chunk, where in sheet_layout(comp, plan):
            out.append((chunk, where, compact(plan, (max(where) // plan.cols + 1) * plan.cols)))
        return out

    def deck_blocks(self, comp: Deck, paper: str) -> list[tuple[float, float, float, float]]:
        """Per sheet of a one-sided deck, the box (x, y, w, h, mm from the paper's top
        left) its pieces cover, bleed included: what the deck's header must keep clear
        of (crop marks and the page label run up to about 12 mm outside it)."""
        plan = (self._plans or self.plans())[paper][comp.id]
        b = plan.bleed
        blocks = []
        for _, where, page_plan in self.one_sided_pages(comp, plan):
            x0, y0, x1, y1 = block_of(page_plan, [page_plan.slots[j] for j in where])
            blocks.append((x0 - b, y0 - b, x1 - x0 + 2 * b, y1 - y0 + 2 * b))
        return blocks

    def tile_plans(self, paper: str) -> dict[str, TilePlan]:
        """How each board of the game spreads over pages of ``paper``."""
        return {comp.id: plan_tiles(PAPERS_MM[paper], comp.size, comp.bleed, comp.overlap,
                                    name=f"{self.game.id} {comp.id}", paper_name=paper)
                for comp in self.game.boards}

    def _suffix(self) -> str:
        return ("-ink-saver" if self.opt.ink_saver else "") + ("-proof" if self.opt.proof else "")

    def _painter(self, c) -> Painter:
        return Painter(c, self.text, self.game.palette, self.game.root / "assets")

    def _draw_face_form(self, forms: pdfout.FormCache, painter: Painter, face: Face, comp: Deck) -> str:
        w, h = comp.size
        b = comp.bleed
        def draw() -> None:
            painter.reset()
            painter.draw(face.ops)

        return forms.form(face.key, (-b, -b, w + b, h + b), draw)

    def _place_items(self, c, forms, painter, plan: SheetPlan, comp: Deck, items: list[tuple[Card, int]],
                     faces: dict, slots: tuple[Slot, ...], side: str, offset: tuple[float, float] = (0.0, 0.0)
                     ) -> list[PlacedItem]:
        """Place each item's face form in its slot, clipped to the bleed it may show;
        returns the manifest records (positions as printed, offset included)."""
        occupied = {(s.col, s.row) for s in slots[: len(items)]}
        w, h = comp.size
        b = comp.bleed
        round_clip = _round_bleed(plan, comp)
        round_clip = None if round_clip is None else w / 2 + round_clip
        placed = []
        for (card, copy), slot in zip(items, slots):
            name = self._draw_face_form(forms, painter, faces[(comp.id, card.id)], comp)
            if plan.gutter > 0:
                clip = (slot.x - b, slot.y - b, slot.x + w + b, slot.y + h + b)
            else:  # butted: bleed only where no neighbour shares the cut line
                clip = (
                    slot.x - (0 if (slot.col - 1, slot.row) in occupied else b),
                    slot.y - (0 if (slot.col, slot.row - 1) in occupied else b),
                    slot.x + w + (0 if (slot.col + 1, slot.row) in occupied else b),
                    slot.y + h + (0 if (slot.col, slot.row + 1) in occupied else b),
                )
            pdfout.place(c, name, slot.x, slot.y, w, h, slot.rotation, clip, round_clip)
            if self.opt.proof:
                pdfout.draw_proof(c, slot.x, slot.y, w, h, b, comp.safe, comp.shape)
            placed.append(PlacedItem(card=card.id, copy=copy, side=side, slot=slot.index, col=slot.col, row=slot.row,
                                     x=round(slot.x + offset[0], 3), y=round(slot.y + offset[1], 3), w=w, h=h,
                                     rotation=slot.rotation))
        return placed

    def _place_deck_page(self, c, forms, painter, plan: SheetPlan, comp: Deck, items: list[tuple[Card, int]],
                         faces: dict, slots: tuple[Slot, ...], side: str, page_no: int, sheet_no: int,
                         pages: list[PageEntry], offset: tuple[float, float] = (0.0, 0.0)) -> None:
        """One imposed page of one side: faces, crop marks, manifest record."""
        placed = self._place_items(c, forms, painter, plan, comp, items, faces, slots, side, offset)
        pdfout.draw_marks(c, marks_for(plan, slots[: len(items)]))
        self._ticks(c, plan, comp, slots[: len(items)])
        self._circle_guides(c, plan, comp, slots[: len(items)])
        pages.append(PageEntry(page=page_no, component=comp.id, side=side, sheet=sheet_no, items=tuple(placed)))

    def _ticks(self, c, plan: SheetPlan, comp: Deck, slots: tuple[Slot, ...]) -> None:
        """Cut ticks in the pieces' outer bleed, printable where the margin marks may not
        be; round pieces are cut along their circular guides instead."""
        if comp.shape != "circle":
            pdfout.draw_ticks(c, bleed_ticks(plan, slots))

    def _circle_guides(self, c, plan: SheetPlan, comp: Deck, slots: tuple[Slot, ...]) -> None:
        """Round pieces get circular cut guides besides the straight crop marks."""
        ring = _round_bleed(plan, comp)
        if ring is not None:
            pdfout.draw_circle_guides(c, circle_guides(slots, comp.size, ring))

    def _label(self, c, plan: SheetPlan, text: str) -> None:
        """A small grey line saying what the page is, placed where no crop mark runs:
        vertically in the left margin between two horizontal cut lines when a row is
        tall enough, else above the block's top marks.

        When rows are short (tokens), a label too long for one row is split at its
        " · " separators over the rows from the top down, so it still says everything;
        only a part longer than any row is shortened with "…"."""
        font = self.text.font(None)
        size = 6.0
        ys = plan.cut_ys
        gaps = [(top, bottom) for top, bottom in zip(ys, ys[1:]) if bottom - top >= _LABEL_GAP_MM]
        top, bottom = max(zip(ys, ys[1:]), key=lambda p: p[1] - p[0]) if len(ys) > 1 else (0.0, 0.0)
        block_top = min(s.y for s in plan.slots) - plan.bleed
        if bottom - top >= 50 or block_top < 14:
            # as far from the paper's edge as the printers' blank band (up to 5 mm) asks, where
            # the margin allows, and never closer than 1.2 mm to the bleed
            room = min(s.x for s in plan.slots) - plan.bleed
            x = max(2.5, min(_LABEL_CENTRE_MM, room - 2.3))
            width = lambda t: self.book.string_width_mm(font, t, size)  # noqa: E731
            for line, (t, b) in _spread(text, width, gaps or [(top, bottom)], 4.0):
                self._label_line(c, font, size, text=line, room=b - t - 4.0, x=x, y=(t + b) / 2, upright=False)
        else:
            self._label_line(c, font, size, text=text, room=plan.paper[0] - 20.0, x=plan.paper[0] / 2,
                             y=block_top - 9.0, upright=True)

    def _label_line(self, c, font: str, size: float, *, text: str, room: float, x: float, y: float,
                    upright: bool) -> None:
        """One line of a sheet label centred on (x, y), shortened with "…" to ``room`` mm."""
        c.saveState()
        c.setFillColorRGB(0.35, 0.35, 0.35)
        c.translate(x, y)
        if not upright:
            c.rotate(-90)
        while len(text) > 1 and self.book.string_width_mm(font, text, size) > room:
            text = text[:-2].rstrip() + "…"
        Painter(c, self.text, {}, None).draw_line(font, size / PT_PER_MM, 0, 0.0 if upright else 0.8, text,
                                                  "center")
        c.restoreState()

    def write_paper_files(self, tmp: Path, kit: LangKit, paper: str, plans: dict[str, SheetPlan],
                           manifest: list[FileEntry]) -> list[WrittenFile]:
        """Per paper: the duplex cards file (two-sided decks) and the one-sided sheets file."""
        out = []
        game = self.game
        base = f"{game.id}-{kit.lang}-{paper}"
        if any(c.back for c in game.decks) and self.opt.layout == "gutterfold":
            out.append(self._write_gutterfold_file(tmp / f"{base}-cards-gutterfold{self._suffix()}.pdf", kit, paper,
                                                   manifest))
        elif any(c.back for c in game.decks):
            dup = "" if self.opt.duplex == "long" else "-short-edge"
            out.append(self._write_cards_file(tmp / f"{base}-cards{dup}{self._suffix()}.pdf", kit, paper, plans,
                                              manifest))
        if any(not isinstance(c, Deck) or not c.back for c in game.components):
            out.append(self._write_sheets_file(tmp / f"{base}-sheets{self._suffix()}.pdf", kit, paper, plans,
                                               manifest))
        return out

    def _component_name(self, comp: Component, lang: str) -> str:
        return self.game.strings[lang].get(comp.name_key, comp.id) if comp.name_key else comp.id

    def _write_cards_file(self, path: Path, kit: LangKit, paper: str, plans: dict[str, SheetPlan],
                          manifest: list[FileEntry]) -> WrittenFile:
        """Each sheet of fronts followed by its sheet of backs, mirrored for the duplex flip."""
        game, paper_mm = self.game, PAPERS_MM[paper]
        words = sheet_words(kit.lang, game.strings[kit.lang])
        self.progress(f"writing {path.name}")
        c = pdfout.new_canvas(path, paper_mm, self.book.register(self.text.font(None)),
                              f"{game.name(kit.lang)} — cards ({paper})", self.opt.duplex)
        forms, painter = pdfout.FormCache(c), self._painter(c)
        pages: list[PageEntry] = []
        n_pages = 0
        for comp in (d for d in game.decks if d.back):
            plan = plans[comp.id]
            chunks = sheet_layout(comp, plan)
            backs = back_slots(plan, self.opt.duplex)
            for n, (chunk, where) in enumerate(chunks, start=1):
                fronts = tuple(plan.slots[j] for j in where)
                for side, faces, slots in (("front", kit.fronts, fronts),
                                           ("back", kit.backs, tuple(backs[j] for j in where))):
                    n_pages += 1
                    offset = self.opt.back_offset if side == "back" else (0.0, 0.0)
                    with pdfout.page(c, paper_mm[1]):
                        c.translate(*offset)  # the printer's measured misregistration, undone
                        self._place_deck_page(c, forms, painter, plan, comp, chunk, faces, slots, side, n_pages, n,
                                              pages, offset)
                        moved = f" · {shifted(words, *offset)}" if any(offset) else ""
                        self._label(c, plan, f"{game.name(kit.lang)} · {self._component_name(comp, kit.lang)} · "
                                             f"{words[side]} {n}/{len(chunks)} · {paper.upper()} · 100% · "
                                             f"{words['duplex_' + self.opt.duplex]}{moved}")
        c.save()
        manifest.append(FileEntry(file=path.name, lang=kit.lang, paper=paper, kind="cards", duplex=self.opt.duplex,
                                  back_offset=tuple(self.opt.back_offset), pages=tuple(pages)))
        return WrittenFile(path.name, n_pages)

    def _write_gutterfold_file(self, path: Path, kit: LangKit, paper: str, manifest: list[FileEntry]) -> WrittenFile:
        """Fronts and mirrored backs on one side of landscape sheets, to fold and glue: no duplex needed."""
        game = self.game
        words = sheet_words(kit.lang, game.strings[kit.lang])
        self.progress(f"writing {path.name}")
        pages: list[PageEntry] = []
        c = None
        n_pages = 0
        for comp in (d for d in game.decks if d.back):
            fold = plan_gutterfold(PAPERS_MM[paper], comp.size, comp.bleed, name=f"{game.id} {comp.id}",
                                   paper_name=paper)
            plan = fold.plan
            if c is None:
                c = pdfout.new_canvas(path, plan.paper, self.book.register(self.text.font(None)),
                                      f"{game.name(kit.lang)} — cards, gutterfold ({paper})", None)
                forms, painter = pdfout.FormCache(c), self._painter(c)
            chunks = sheet_layout(comp, plan)
            for n, (chunk, where) in enumerate(chunks, start=1):
                fronts = tuple(plan.slots[j] for j in where)
                backs = tuple(fold.backs[j] for j in where)
                n_pages += 1
                with pdfout.page(c, plan.paper[1]):
                    placed = self._place_items(c, forms, painter, plan, comp, chunk, kit.fronts, fronts, "front")
                    placed += self._place_items(c, forms, painter, plan, comp, chunk, kit.backs, backs, "back")
                    pdfout.draw_marks(c, marks_for(plan, fronts + backs))
                    self._ticks(c, plan, comp, fronts + backs)
                    self._circle_guides(c, plan, comp, fronts + backs)
                    pdfout.draw_fold_marks(c, fold.fold_marks)
                    self._label(c, plan, f"{game.name(kit.lang)} · {self._component_name(comp, kit.lang)} · "
                                         f"{n}/{len(chunks)} · {paper.upper()} · 100% · {words['fold_here']}")
                pages.append(PageEntry(page=n_pages, component=comp.id, side="gutterfold", sheet=n, fold_x=fold.fold_x,
                                       items=tuple(placed)))
        c.save()
        manifest.append(FileEntry(file=path.name, lang=kit.lang, paper=paper, kind="cards", layout="gutterfold",
                                  duplex=None, pages=tuple(pages)))
        return WrittenFile(path.name, n_pages)

    def _write_sheets_file(self, path: Path, kit: LangKit, paper: str, plans: dict[str, SheetPlan],
                           manifest: list[FileEntry]) -> WrittenFile:
        """Sheet components (rules, setup…) and one-sided decks (stickers, tokens), in game order."""
        game, paper_mm = self.game, PAPERS_MM[paper]
        words = sheet_words(kit.lang, game.strings[kit.lang])
        self.progress(f"writing {path.name}")
        c = pdfout.new_canvas(path, paper_mm, self.book.register(self.text.font(None)),
                              f"{game.name(kit.lang)} — sheets ({paper})", None)
        forms, painter = pdfout.FormCache(c), self._painter(c)
        pages: list[PageEntry] = []
        n_pages = 0
        tiles = self.tile_plans(paper)
        for comp in game.components:
            if isinstance(comp, Board):
                plan = tiles[comp.id]
                name = self._component_name(comp, kit.lang)
                for tile in plan.tiles:
                    n_pages += 1
                    label = (f"{game.name(kit.lang)} · {name} · {plan.tile_label(tile, words['of'])} · "
                             f"{words['page']} {tile.index + 1}/{plan.pages} · {paper.upper()} · 100%")
                    label_font = self.text.font(None)
                    label_bold = self.text.font("bold" if "bold" in game.fonts else None)
                    with pdfout.page(c, paper_mm[1]):
                        draw_board_page(c, forms, painter, self.book, label_font, label_bold,
                                        comp, kit.boards[comp.id], plan, tile, label)
                    pages.append(PageEntry(page=n_pages, component=comp.id, side="sheet", tile=BoardTile(
                        label=tile.label, col=tile.col, row=tile.row, grid=(plan.cols, plan.rows), rotated=plan.rotated,
                        region=_rounded(tile.x0, tile.y0, tile.x1, tile.y1),
                        visible=_rounded(tile.x0, tile.y0, tile.vx1, tile.vy1))))
            elif isinstance(comp, Sheet):
                for face in kit.sheets[(comp.id, paper)]:
                    n_pages += 1
                    with pdfout.page(c, paper_mm[1]):
                        painter.reset()
                        painter.draw(face.ops)
                    pages.append(PageEntry(page=n_pages, component=comp.id, side="sheet"))
            elif not comp.back:
                plan = plans[comp.id]
                chunks = self.one_sided_pages(comp, plan)
                headers = kit.headers.get((comp.id, paper), [])
                for n, (chunk, where, page_plan) in enumerate(chunks, start=1):
                    n_pages += 1
                    with pdfout.page(c, paper_mm[1]):
                        if n <= len(headers):  # the deck's title and instructions, around the pieces
                            painter.reset()
                            painter.draw(headers[n - 1].ops)
                        self._place_deck_page(c, forms, painter, page_plan, comp, chunk, kit.fronts,
                                              tuple(page_plan.slots[j] for j in where), "front", n_pages, n, pages)
                        self._label(c, page_plan, f"{game.name(kit.lang)} · {self._component_name(comp, kit.lang)}"
                                                  f" · {n}/{len(chunks)} · {paper.upper()} · 100%")
        c.save()
        manifest.append(FileEntry(file=path.name, lang=kit.lang, paper=paper, kind="sheets", duplex=None,
                                  pages=tuple(pages)))
        return WrittenFile(path.name, n_pages)

    def write_boards(self, tmp: Path, kit: LangKit, manifest: list[FileEntry]) -> list[WrittenFile]:
        """Each board at full size on one page (trim + bleed, TrimBox and BleedBox set), for
        print shops and large-format printers."""
        out = []
        for comp in self.game.boards:
            name = f"{self.game.id}-{kit.lang}-{comp.id}-fullsize{self._suffix()}.pdf"
            self.progress(f"writing {name}")
            c = pdfout.new_canvas(tmp / name, (comp.size[0] + 2 * comp.bleed, comp.size[1] + 2 * comp.bleed),
                                  self.book.register(self.text.font(None)),
                                  f"{self.game.name(kit.lang)} — {self._component_name(comp, kit.lang)}", None)
            write_board_fullsize(c, self._painter(c), comp, kit.boards[comp.id])
            c.save()
            manifest.append(FileEntry(file=name, lang=kit.lang, paper=None, kind="board", duplex=None,
                                      pages=(PageEntry(page=1, component=comp.id, side="sheet"),)))
            out.append(WrittenFile(name, 1))
        return out

    def write_printshop(self, tmp: Path, kit: LangKit, manifest: list[FileEntry]) -> list[WrittenFile]:
        """One card face per page, trim + bleed, TrimBox and BleedBox set: front, back, front, back…"""
        pages = [
            (comp, card.id, k, side, faces[(comp.id, card.id)])
            for comp in self.game.decks if comp.printshop
            for card in comp.cards
            for k in range(card.quantity)
            for side, faces in (("front", kit.fronts), ("back", kit.backs))
            if (comp.id, card.id) in faces
        ]
        if not pages:
            return []
        name = f"{self.game.id}-{kit.lang}-printshop{self._suffix()}.pdf"
        self.progress(f"writing {name}")
        printed = self.write_face_pages(tmp / name, pages, f"{self.game.name(kit.lang)} — print-shop file")
        manifest.append(FileEntry(file=name, lang=kit.lang, paper=None, kind="printshop", duplex=None, pages=printed))
        return [WrittenFile(name, len(pages))]

    def write_face_pages(self, path: Path, pages: list[tuple[Deck, str, int, str, Face]],
                         title: str) -> tuple[PageEntry, ...]:
        """A PDF with one face per page, each page the card plus its bleed, TrimBox and
        BleedBox set (print shops, PNG exports); returns its pages for the manifest."""
        comp0 = pages[0][0]
        first = (comp0.size[0] + 2 * comp0.bleed, comp0.size[1] + 2 * comp0.bleed)
        c = pdfout.new_canvas(path, first, self.book.register(self.text.font(None)), title, None)
        forms, painter = pdfout.FormCache(c), self._painter(c)
        printed: list[PageEntry] = []
        for n, (comp, card_id, copy, side, face) in enumerate(pages, start=1):
            w, h = comp.size
            b = comp.bleed
            pw, ph = w + 2 * b, h + 2 * b
            c.setPageSize((mm_to_pt(pw), mm_to_pt(ph)))
            c.setTrimBox((mm_to_pt(b), mm_to_pt(b), mm_to_pt(b + w), mm_to_pt(b + h)))
            c.setBleedBox((0, 0, mm_to_pt(pw), mm_to_pt(ph)))
            with pdfout.page(c, ph):
                form = self._draw_face_form(forms, painter, face, comp)
                pdfout.place(c, form, b, b, w, h, 0, (0, 0, pw, ph))
                if self.opt.proof:
                    pdfout.draw_proof(c, b, b, w, h, b, comp.safe)
            printed.append(PageEntry(page=n, component=comp.id, side=side, items=(
                PlacedItem(card=card_id, copy=copy, side=side, slot=0, x=b, y=b, w=w, h=h, rotation=0),)))
        c.save()
        return tuple(printed)

