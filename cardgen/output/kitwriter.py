"""Writing one language's rendered kit: the imposed files (cards in duplex pairs or
on gutterfold sheets, one-sided sheets) as the imposition stage laid them out, and
one-face-per-page files for print shops and image exports.

Every face is drawn once per file as a form and placed where it is needed; every
page records what it holds in the manifest entry it returns. Where things go is
decided by ``cardgen.impose``: this module draws a :class:`~cardgen.impose.sheets.Sheets`
value in the order its pages and their parts come.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..base.units import PT_PER_MM, mm_to_pt
from ..impose.labels import BAND_EMS, BAND_PAD_MM, TURNED_BASELINE_MM, LabelLine, label_text, sheet_words
from ..impose.outlines import Outline, RectOutline
from ..impose.papers import PAPER_NAMES
from ..impose.printshop import ShopFile, plan_printshop
from ..impose.shapes import shape_for, shape_of
from ..impose.sheets import BoardPage, Page, PiecesPage, SheetFile, SheetPage, Sheets
from ..layout.fonts import FontBook
from ..layout.text import TextEngine
from ..model.build import WrittenFile
from ..model.components import Board, Component, Deck
from ..model.game import Game
from ..model.manifest import BoardTile, FileEntry, PageEntry, PlacedItem, ShopDetails
from ..render.faces import Face, LangKit
from . import canvas as pdfout
from .boards import draw_board_page, write_board_fullsize
from .cmyk import OutputProfile
from .painter import Painter
from .pdfx import make_pdfx
from .reuse import FileReuse
from .shoppages import crop_marks, die_line, ordered, page_margin


def _rounded(*values: float) -> tuple[float, float, float, float]:
    """A board piece's box for the manifest, to the micrometre."""
    x0, y0, x1, y1 = (round(v, 3) for v in values)
    return (x0, y0, x1, y1)


_PROFILES: dict[tuple, OutputProfile] = {}


def _profile(path: Path | None, ink_limit: float | None) -> OutputProfile:
    key = (str(path) if path else None, ink_limit)
    if key not in _PROFILES:
        _PROFILES[key] = OutputProfile.load(path, ink_limit)
    return _PROFILES[key]


class KitWriter:
    """Writes the PDF files of a rendered language into a folder."""

    def __init__(self, game: Game, options, book: FontBook, text: TextEngine,
                 progress: Callable[[str], None]):
        self.game = game
        self.opt = options
        self.book = book
        self.text = text
        self.progress = progress
        self.reuse: FileReuse | None = None  # set per language with the face cache: files kept from the kit

    def _taken(self, tmp: Path, name: str, what, manifest: list[FileEntry]) -> tuple[WrittenFile | None, str | None]:
        """The kit's file ``name`` taken as it is (its key unchanged), else None and the key
        to remember the file under once it is drawn."""
        if self.reuse is None:
            return None, None
        key = self.reuse.key(name, what)
        got = self.reuse.take(key, name, tmp)
        if got is None:
            return None, key
        manifest.append(got[0])
        return WrittenFile(name, got[1]), None

    def _remember(self, key: str | None, tmp: Path, entry: FileEntry, pages: int) -> None:
        if key is not None and self.reuse is not None:
            self.reuse.remember(key, entry.file, tmp, entry, pages)

    def label_width(self, text: str, size_pt: float) -> float:
        """How wide (mm) a sheet label's text is in the font it is drawn in: the measure
        the imposition stage places labels with."""
        return self.book.string_width_mm(self.text.font(None), text, size_pt)

    def output_profile(self) -> OutputProfile:
        """The CMYK profile the print-shop files are converted through (one per process,
        so each distinct colour and image is converted once for every language): the
        options', else the game's own (game.yaml's ``print:``), else the shipped one."""
        printing = getattr(self.game, "printing", None)
        profile = getattr(self.opt, "profile", None) or (printing.profile if printing else None)
        ink_limit = getattr(self.opt, "ink_limit", None)
        if ink_limit is None and printing is not None:
            ink_limit = printing.ink_limit
        return _profile(profile, ink_limit)

    def _suffix(self) -> str:
        return ("-ink-saver" if self.opt.ink_saver else "") + ("-proof" if self.opt.proof else "")

    def _painter(self, c, profile: OutputProfile | None = None) -> Painter:
        return Painter(c, self.text, self.game.palette, self.game.root / "assets",
                       self.game.ink_palette if self.opt.ink_saver else None, profile)

    def _draw_face_form(self, forms: pdfout.FormCache, painter: Painter, face: Face, size: tuple[float, float],
                        bleed: float) -> str:
        w, h = size
        b = bleed
        def draw() -> None:
            ops, fits = face.unpacked()
            self.text.remember_fits(fits)  # its texts as rendered: not fitted again
            painter.reset()
            painter.draw(ops)

        return forms.form(face.key, (-b, -b, w + b, h + b), draw)

    def write_sheets(self, tmp: Path, kit: LangKit, sheets: Sheets, manifest: list[FileEntry]) -> list[WrittenFile]:
        """The imposed files of one paper."""
        return [self._write_file(tmp, kit, sheets.paper, file, manifest) for file in sheets.files]

    def _write_file(self, tmp: Path, kit: LangKit, paper: str, file: SheetFile, manifest: list[FileEntry]) -> WrittenFile:
        """One imposed file, page by page, and its manifest entry."""
        game = self.game
        base = f"{game.id}-{kit.lang}-{paper}"
        words = sheet_words(game.strings[kit.lang])
        if file.kind == "cards" and file.layout == "gutterfold":
            name, what = f"{base}-cards-gutterfold{self._suffix()}.pdf", words["file_gutterfold"]
            entry = FileEntry(file=name, lang=kit.lang, paper=paper, kind="cards", layout="gutterfold", duplex=None)
        elif file.kind == "cards":
            dup = "" if file.duplex == "long" else "-short-edge"
            name, what = f"{base}-cards{dup}{self._suffix()}.pdf", words["file_cards"]
            entry = FileEntry(file=name, lang=kit.lang, paper=paper, kind="cards", duplex=self.opt.duplex,
                              back_offset=tuple(self.opt.back_offset))
        else:
            name, what = f"{base}-sheets{self._suffix()}.pdf", words["file_sheets"]
            entry = FileEntry(file=name, lang=kit.lang, paper=paper, kind="sheets", duplex=None)
        taken, key = self._taken(tmp, name, file, manifest)
        if taken is not None:
            return taken
        self.progress(f"writing {name}")
        c = pdfout.new_canvas(tmp / name, file.size, self.book.register(self.text.font(None)),
                              f"{game.name(kit.lang)} — {what} ({PAPER_NAMES.get(paper, paper)})", file.duplex)
        forms, painter = pdfout.FormCache(c), self._painter(c)
        pages = []
        for n, page in enumerate(file.pages, start=1):
            with pdfout.page(c, file.size[1]):
                pages.append(self._draw_page(c, forms, painter, kit, paper, page, n, file.printable))
        c.save()
        entry = replace(entry, pages=tuple(pages))
        manifest.append(entry)
        self._remember(key, tmp, entry, len(file.pages))
        return WrittenFile(name, len(file.pages))

    def _draw_page(self, c, forms: pdfout.FormCache, painter: Painter, kit: LangKit, paper: str, page: Page,
                   number: int, printable: Outline | None = None) -> PageEntry:
        """Draw one page; returns its manifest record. A sheet's and a deck header's art
        shows only inside ``printable``."""
        if isinstance(page, PiecesPage):
            return self._draw_pieces(c, forms, painter, kit, paper, page, number, printable)
        if isinstance(page, BoardPage):
            comp = self.game.component(page.component)
            assert isinstance(comp, Board)
            label_font = self.text.font(None)
            label_bold = self.text.font("bold" if "bold" in self.game.fonts else None)
            draw_board_page(c, forms, painter, self.book, label_font, label_bold,
                            comp, kit.boards[comp.id], page.plan, page.tile, page.label)
            tile, plan = page.tile, page.plan
            return PageEntry(page=number, component=comp.id, side="sheet", tile=BoardTile(
                label=tile.label, col=tile.col, row=tile.row, grid=(plan.cols, plan.rows), rotated=plan.rotated,
                region=_rounded(tile.x0, tile.y0, tile.x1, tile.y1),
                visible=_rounded(tile.x0, tile.y0, tile.vx1, tile.vy1)))
        assert isinstance(page, SheetPage)
        painter.reset()
        with pdfout.clipped(c, printable):
            painter.draw(kit.sheets[(page.component, paper)][page.index].ops)
        return PageEntry(page=number, component=page.component, side="sheet")

    def _draw_pieces(self, c, forms: pdfout.FormCache, painter: Painter, kit: LangKit, paper: str,
                     page: PiecesPage, number: int, printable: Outline | None = None) -> PageEntry:
        """A page of pieces: the deck's header, each face in its slot, crop marks, cut
        guides, fold marks, label."""
        if page.offset is not None:
            c.translate(*page.offset)  # the printer's measured misregistration, undone
        if page.header:  # the deck's title and instructions, around the pieces
            painter.reset()
            with pdfout.clipped(c, printable):
                painter.draw(kit.headers[(page.component, paper)][page.sheet - 1].ops)
        dx, dy = page.offset or (0.0, 0.0)
        placed = []
        for face in page.faces:
            faces = kit.fronts if face.side == "front" else kit.backs
            slot, (w, h) = face.slot, face.size
            name = self._draw_face_form(forms, painter, faces[(face.component, face.card)], face.size, face.bleed)
            pdfout.place(c, name, slot.x, slot.y, w, h, slot.rotation, face.clip)
            if face.proof is not None:
                pdfout.draw_proof(c, face.proof)
            placed.append(PlacedItem(card=face.card, copy=face.copy, side=face.side, slot=slot.index, col=slot.col,
                                     row=slot.row, x=round(slot.x + dx, 3), y=round(slot.y + dy, 3), w=w, h=h,
                                     rotation=slot.rotation,
                                     component=face.component if face.component != page.component else None))
        pdfout.draw_marks(c, page.marks)
        pdfout.draw_ticks(c, page.cuts.ticks)
        pdfout.draw_cut_guides(c, page.cuts.traced)
        if page.fold is not None:
            pdfout.draw_fold_marks(c, page.fold.marks)
        for line in page.label:
            self._label_line(c, line)
        return PageEntry(page=number, component=page.component, side=page.side, sheet=page.sheet, items=tuple(placed),
                         fold_x=page.fold.x if page.fold is not None else None)

    def _label_line(self, c, line: LabelLine) -> None:
        """One line of a sheet label, small and grey, centred where the imposition put it;
        on a white band where it lies over the pieces' bleed (``backed``)."""
        c.saveState()
        c.setFillColorRGB(0.35, 0.35, 0.35)
        c.translate(line.x, line.y)
        if not line.upright:
            c.rotate(-90)
        em, baseline = line.size_pt / PT_PER_MM, 0.0 if line.upright else TURNED_BASELINE_MM
        if line.backed:  # from just above the accents to below the descenders, a little wider than the text
            half = self.label_width(line.text, line.size_pt) / 2 + BAND_PAD_MM
            c.setFillColorRGB(1, 1, 1)
            c.rect(-half, baseline - BAND_EMS[0] * em, 2 * half, sum(BAND_EMS) * em, stroke=0, fill=1)
            c.setFillColorRGB(0.35, 0.35, 0.35)
        Painter(c, self.text, {}, None).draw_line(self.text.font(None), em, 0, baseline, line.text, "center")
        c.restoreState()

    def _component_name(self, comp: Component, lang: str) -> str:
        return self.game.strings[lang].get(comp.name_key, comp.id) if comp.name_key else comp.id

    def write_boards(self, tmp: Path, kit: LangKit, manifest: list[FileEntry]) -> list[WrittenFile]:
        """Each board at full size on one page (trim + bleed, TrimBox and BleedBox set), for
        print shops and large-format printers."""
        out = []
        for comp in self.game.boards:
            name = f"{self.game.id}-{kit.lang}-{comp.id}-fullsize{self._suffix()}.pdf"
            taken, key = self._taken(tmp, name, ("board", comp.id, kit.boards[comp.id].key), manifest)
            if taken is not None:
                out.append(taken)
                continue
            self.progress(f"writing {name}")
            c = pdfout.new_canvas(tmp / name, (comp.size[0] + 2 * comp.bleed, comp.size[1] + 2 * comp.bleed),
                                  self.book.register(self.text.font(None)),
                                  f"{self.game.name(kit.lang)} — {self._component_name(comp, kit.lang)}", None)
            write_board_fullsize(c, self._painter(c), comp, kit.boards[comp.id])
            c.save()
            entry = FileEntry(file=name, lang=kit.lang, paper=None, kind="board", duplex=None,
                              pages=(PageEntry(page=1, component=comp.id, side="sheet"),))
            manifest.append(entry)
            self._remember(key, tmp, entry, 1)
            out.append(WrittenFile(name, 1))
        return out

    def write_printshop(self, tmp: Path, kit: LangKit, manifest: list[FileEntry],
                        decks: tuple[Deck, ...] | None = None) -> list[WrittenFile]:
        """The print-shop files (:mod:`cardgen.impose.printshop`): one per trim size, shape
        and sidedness, one face per page with trim + bleed, TrimBox and BleedBox set;
        two-sided files run front, back, front, back … (or as the build's shop profile
        orders them, :mod:`cardgen.output.shoppages`). ``decks``: the game's decks with
        the shop's bleed, when ``kit`` was rendered with it. A file whose inputs are
        unchanged is taken from the kit as it is (:mod:`cardgen.output.reuse`)."""
        words = sheet_words(self.game.strings[kit.lang])
        profile_of_shop = getattr(self.opt, "shop", None)
        out = []
        for shop in plan_printshop(decks if decks is not None else self.game.decks):
            pages = [
                (comp, card.id, k, side, faces[(comp.id, card.id)])
                for comp in shop.decks
                for card in comp.cards
                for k in range(card.quantity)
                for side, faces in (("front", kit.fronts), ("back", kit.backs))
                if (comp.id, card.id) in faces
            ]
            name = shop.name(self.game.id, kit.lang, self._suffix())
            if profile_of_shop is not None:
                pages = ordered(pages, [p[3] for p in pages], profile_of_shop.page_order)
                name = f"{profile_of_shop.file_stem(self.game.id, kit.lang, shop.stem)}{self._suffix()}.pdf"
            title = self._shop_title(shop, kit.lang, words)
            profile = self.output_profile()
            x1a = ["pdfx1a"] if getattr(self.opt, "pdfx", "4") == "1a" else []  # an X-4 file's key as it was
            taken, key = self._taken(tmp, name, [title, profile.digest] + x1a + [(c.id, card, k, side, face.key)
                                                                           for c, card, k, side, face in pages],
                                     manifest)
            if taken is not None:
                out.append(taken)
                continue
            self.progress(f"writing {name}")
            printed = self.write_face_pages(tmp / name, pages, title, die_lines=True, profile=profile)
            if x1a:
                from .pdfx1a import face_label, make_pdfx1a  # local: its flattening imports shapely and numpy

                make_pdfx1a(tmp / name, profile, title, kit.lang, [face_label(p) for p in printed])
            else:
                make_pdfx(tmp / name, profile, title, kit.lang)
            details = ShopDetails(components=tuple(d.id for d in shop.decks), trim=shop.trim,
                                  two_sided=shop.two_sided, page_count=len(printed))
            if profile_of_shop is not None:
                details = replace(details, order=profile_of_shop.page_order, bleed=profile_of_shop.bleed)
            entry = FileEntry(file=name, lang=kit.lang, paper=None, kind="printshop", duplex=None,
                              pages=printed, printshop=details)
            manifest.append(entry)
            self._remember(key, tmp, entry, len(printed))
            out.append(WrittenFile(name, len(printed)))
        return out

    def _shop_title(self, shop: ShopFile, lang: str, words: dict[str, str]) -> str:
        """A print-shop file's PDF title, in its language: what it is, its trim size and
        sides, and the decks it holds ("Horus — print-shop file · 63 × 88 mm · two-sided ·
        Horus cards, Nile cards")."""
        w, h = (f"{v:g}".replace(".", words["decimal"]) for v in shop.trim)
        size = f"Ø\u00a0{w}\u00a0mm" if shop.shape == "circle" else f"{w}\u00a0×\u00a0{h}\u00a0mm"
        decks = ", ".join(self._component_name(d, lang) for d in shop.decks)
        sides = words["two_sided"] if shop.two_sided else words["one_sided"]
        return f"{self.game.name(lang)} — {label_text(words['file_printshop'], size, sides, decks)}"

    def write_face_pages(self, path: Path, pages: list[tuple[Deck, str, int, str, Face]],
                         title: str, die_lines: bool = False,
                         profile: OutputProfile | None = None) -> tuple[PageEntry, ...]:
        """A PDF with one face per page, each page the card plus its bleed, TrimBox and
        BleedBox set (print shops, PNG exports); returns its pages for the manifest.
        ``die_lines``: die-cut shapes get their CutContour line (the print-shop file; an
        image export shows the piece without it), or the shapes the build's shop profile
        names, which may also ask for crop marks around the bleed. ``profile``: the
        faces drawn in its inks (a print-shop file)."""
        shop = getattr(self.opt, "shop", None) if die_lines else None
        m = page_margin(shop)
        comp0 = pages[0][0]
        first = (comp0.size[0] + 2 * comp0.bleed + 2 * m, comp0.size[1] + 2 * comp0.bleed + 2 * m)
        c = pdfout.new_canvas(path, first, self.book.register(self.text.font(None)), title, None)
        forms, painter = pdfout.FormCache(c), self._painter(c, profile)
        printed: list[PageEntry] = []
        for n, (comp, card_id, copy, side, face) in enumerate(pages, start=1):
            w, h = comp.size
            b = comp.bleed
            pw, ph = w + 2 * b, h + 2 * b
            shape = (shape_for(comp) if isinstance(comp, Deck) else shape_of("rect")).turned(side == "back", 0)  # a back's die line is mirrored
            if m:  # a shop's crop marks: paper around the bleed, the boxes where they were
                self._marked_page(c, shape, comp, m)
            else:
                c.setPageSize((mm_to_pt(pw), mm_to_pt(ph)))
                # the TrimBox is the outline's bounding box (page y is up, the outline's y down)
                left, top, right, bottom = shape.trim_bounds(w, h)
                c.setTrimBox((mm_to_pt(b + left), mm_to_pt(ph - b - bottom), mm_to_pt(b + right), mm_to_pt(ph - b - top)))
                c.setArtBox((mm_to_pt(b + left), mm_to_pt(ph - b - bottom), mm_to_pt(b + right), mm_to_pt(ph - b - top)))  # = TrimBox
                c.setBleedBox((0, 0, mm_to_pt(pw), mm_to_pt(ph)))
            with pdfout.page(c, ph + 2 * m if m else ph):
                if m:
                    c.translate(m, m)
                form = self._draw_face_form(forms, painter, face, comp.size, comp.bleed)
                die = die_lines and die_line(shop, shape.name, shape.cut_contour)
                if shape.cut_contour:  # a die-cut piece: art to its bleed outline, and its die line
                    pdfout.place(c, form, b, b, w, h, 0, shape.outline(b, b, w, h, -b))
                    if die:
                        pdfout.draw_cut_contour(c, shape.outline(b, b, w, h))
                    if self.opt.proof:
                        pdfout.draw_proof(c, shape.proof_lines(b, b, w, h, b, getattr(comp, "safe", 0.0)))
                else:
                    pdfout.place(c, form, b, b, w, h, 0, RectOutline.spanning(0, 0, pw, ph))
                    if die:  # a shop's die line around a card or a round piece (a circle)
                        pdfout.draw_cut_contour(c, shape.outline(b, b, w, h))
                    if self.opt.proof:  # a rectangle for cards and round pieces alike, as this page always drew
                        pdfout.draw_proof(c, shape_of("rect").proof_lines(b, b, w, h, b, getattr(comp, "safe", 0.0)))
                if m:
                    left, top, right, bottom = shape.trim_bounds(w, h)
                    pdfout.draw_marks(c, crop_marks(b + left, b + top, b + right, b + bottom, b))
            printed.append(PageEntry(page=n, component=comp.id, side=side, items=(
                PlacedItem(card=card_id, copy=copy, side=side, slot=0, x=b, y=b, w=w, h=h, rotation=0),)))
        c.save()
        return tuple(printed)

    @staticmethod
    def _marked_page(c, shape, comp: Deck, m: float) -> None:
        """A page with ``m`` mm of paper around its bleed for crop marks: MediaBox the
        whole, BleedBox and TrimBox (= ArtBox) as on a page without marks, moved by ``m``."""
        (w, h), b = comp.size, comp.bleed
        pw, ph = w + 2 * b + 2 * m, h + 2 * b + 2 * m
        left, top, right, bottom = shape.trim_bounds(w, h)
        trim = (mm_to_pt(m + b + left), mm_to_pt(ph - m - b - bottom), mm_to_pt(m + b + right),
                mm_to_pt(ph - m - b - top))
        c.setPageSize((mm_to_pt(pw), mm_to_pt(ph)))
        c.setTrimBox(trim)
        c.setArtBox(trim)
        c.setBleedBox((mm_to_pt(m), mm_to_pt(m), mm_to_pt(pw - m), mm_to_pt(ph - m)))

