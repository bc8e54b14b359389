"""The imposition stage's entry point: a game and one rendered language in, the
:class:`~cardgen.impose.sheets.Sheets` of each paper out, for the writers to draw.

It decides which files a kit has (two-sided decks in duplex pairs or on gutterfold
sheets; sheets, boards and one-sided decks in a sheets file), which decks share sheets
(``share_groups``), which piece goes in which slot of which page, what each shows of its
bleed, its cut marks and guides, and the label of every page. It needs nothing of the
rendered faces but how many pages each sheet component and deck header rendered
(``RenderedKit``), and text widths for the labels (``measure``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from ..base.errors import CardgenError, Collector
from ..model.components import Board, Card, Component, Deck, Sheet
from ..model.game import Game
from .duplex import FoldPlan, back_slots, plan_gutterfold
from .grid import SheetPlan, Slot, bleed_sides, block_of, paginate, paginate_rows
from .keepout import KeepOut
from .labels import LABEL_GUIDE_GAP, Measure, label_text, place_label, sheet_words, shifted
from .marks import EDGE_CLEARANCE, TICK_CLEAR, CutGuide, Mark, clear_of_edges
from .outlines import RectOutline
from .papers import PAPER_NAMES, PAPERS_MM
from .shapes import CutGuides, Shape, shape_for
from .sheets import BoardPage, Fold, Page, PiecesPage, PlacedFace, SheetFile, SheetPage, Sheets
from .tiling import TilePlan, plan_tiles

Items = list[tuple[Card, int]]  # (card, copy), in the order they are laid out
Pieces = list[tuple[Deck, Card, int]]  # (deck, card, copy) of the decks sharing sheets, in order


class ImposeOptions(Protocol):
    """The build options imposition reads (``cardgen.pipeline.BuildOptions`` has them)."""

    @property
    def papers(self) -> tuple[str, ...]: ...

    @property
    def duplex(self) -> str: ...

    @property
    def layout(self) -> str: ...

    @property
    def back_offset(self) -> tuple[float, float]: ...

    @property
    def proof(self) -> bool: ...


class RenderedKit(Protocol):
    """What imposition needs of a rendered language (``render.faces.LangKit``): its
    language, and the pages each sheet component and deck header rendered per paper."""

    @property
    def lang(self) -> str: ...

    @property
    def sheets(self) -> Mapping[tuple[str, str], Sequence[object]]: ...

    @property
    def headers(self) -> Mapping[tuple[str, str], Sequence[object]]: ...


def plan_decks(game: Game, papers: Sequence[str]) -> dict[str, dict[str, SheetPlan]]:
    """Each deck's sheet plan on each paper; every deck too big for a paper is reported
    at its line, all at once."""
    errors = Collector()
    plans: dict[str, dict[str, SheetPlan]] = {}
    for paper in papers:
        plans[paper] = {}
        for comp in game.decks:
            try:
                plans[paper][comp.id] = shape_for(comp).plan(
                    PAPERS_MM[paper], _size(comp), comp.bleed, name=f"{game.id} {comp.id}", paper_name=paper)
            except CardgenError as exc:
                errors.add(exc.message, comp.where)
    errors.raise_if_any()
    return plans


def tile_boards(game: Game, paper: str) -> dict[str, TilePlan]:
    """How each board of the game spreads over pages of ``paper``."""
    return {comp.id: plan_tiles(PAPERS_MM[paper], _size(comp), comp.bleed, comp.overlap,
                                name=f"{game.id} {comp.id}", paper_name=paper)
            for comp in game.boards}


def share_key(comp: Deck) -> tuple[object, ...] | None:
    """Decks with equal keys are imposed on the same sheets, one after the other: the
    same sheet plan (shape, trim, bleed) and the same file (with backs or without), so
    each back on a shared page lands behind its own front by the same mirroring. None:
    the deck keeps sheets of its own, because it lays out rows of its own
    (``new_row_per``) or its header describes each of its sheets."""
    if comp.new_row_per or comp.header:
        return None
    return (comp.back is not None, comp.shape, comp.hex_top, comp.corner_radius, comp.outline, _size(comp),
            comp.bleed)


def share_groups(decks: Sequence[Deck], per_sheet: Callable[[Deck], int]) -> list[tuple[Deck, ...]]:
    """The decks in runs that share sheets, in the order of each run's first deck.

    Decks of one ``share_key``, in game order, join a run while that saves a sheet: a
    deck goes on after the pieces before it when the run and the deck together need
    fewer sheets (of ``per_sheet`` pieces) than apart, so that sharing never splits a
    deck over more sheets for nothing. The 4 Nile cards fill the last sheet of the 50
    Horus cards (6 sheets, not 7); O, Farao!'s 4 aids keep their own sheet, since its
    87 cards and the aids need 11 sheets either way."""
    runs: list[list[Deck]] = []
    last: dict[object, list[Deck]] = {}
    for comp in decks:
        key = share_key(comp)
        run = last.get(key) if key is not None else None
        if run is not None:
            per = per_sheet(run[0])
            held = sum(d.count for d in run)
            if math.ceil((held + comp.count) / per) < math.ceil(held / per) + math.ceil(comp.count / per):
                run.append(comp)
                continue
        runs.append([comp])
        if key is not None:
            last[key] = runs[-1]
    return [tuple(run) for run in runs]


def group_layout(decks: Sequence[Deck], plan: SheetPlan) -> list[tuple[Pieces, list[int]]]:
    """Per sheet, the pieces of decks sharing sheets (deck by deck, card by card, copy by
    copy) and the slot index of each: one deck as :func:`sheet_layout` lays it out, several
    filling slot after slot."""
    if len(decks) == 1:
        return [([(decks[0], card, k) for card, k in items], where) for items, where in sheet_layout(decks[0], plan)]
    pieces = [(comp, card, k) for comp in decks for card in comp.cards for k in range(card.quantity)]
    return [([pieces[i] for i in rng], list(range(len(rng)))) for rng in paginate(len(pieces), plan.per_sheet)]


def sheet_layout(comp: Deck, plan: SheetPlan) -> list[tuple[Items, list[int]]]:
    """Per sheet, the pieces on it (``(card, copy)``, card by card, copy by copy) and the
    slot index of each. In order, slot after slot; with ``new_row_per: card``, each card
    entry starts a row of its own (see :func:`~cardgen.impose.grid.paginate_rows`)."""
    items = [(card, k) for card in comp.cards for k in range(card.quantity)]
    if comp.new_row_per == "card":
        sheets = paginate_rows([card.quantity for card in comp.cards], plan.cols, plan.rows)
    else:
        sheets = [[(i, j) for j, i in enumerate(rng)] for rng in paginate(len(items), plan.per_sheet)]
    return [([items[i] for i, _ in sheet], [j for _, j in sheet]) for sheet in sheets]


def one_sided_pages(decks: Sequence[Deck], plan: SheetPlan) -> list[tuple[Pieces, list[int], SheetPlan]]:
    """The sheets of one-sided decks sharing them: per sheet its pieces, their slot
    indices and the plan trimmed to the rows it uses, centred on the paper."""
    shape = shape_for(decks[0])
    return [(chunk, where, shape.compact(plan, max(where))) for chunk, where in group_layout(decks, plan)]


def deck_blocks(comp: Deck, plan: SheetPlan) -> list[tuple[float, float, float, float]]:
    """Per sheet of a one-sided deck, the box (x, y, w, h, mm from the paper's top
    left) its pieces cover, bleed included: what the deck's header must keep clear
    of (crop marks and the page label run up to about 12 mm outside it)."""
    b = plan.bleed
    blocks = []
    for _, where, page_plan in one_sided_pages((comp,), plan):
        x0, y0, x1, y1 = block_of(page_plan, [page_plan.slots[j] for j in where])
        blocks.append((x0 - b, y0 - b, x1 - x0 + 2 * b, y1 - y0 + 2 * b))
    return blocks


def impose_kit(game: Game, options: ImposeOptions, kit: RenderedKit, measure: Measure) -> tuple[Sheets, ...]:
    """Every printed file of a rendered language, paper by paper, ready to draw."""
    plans = plan_decks(game, options.papers)
    return tuple(impose_paper(game, options, kit, paper, plans[paper], measure) for paper in options.papers)


def impose_paper(game: Game, options: ImposeOptions, kit: RenderedKit, paper: str,
                 plans: Mapping[str, SheetPlan], measure: Measure) -> Sheets:
    """Per paper: the cards file of the two-sided decks (duplex pairs, or gutterfold
    sheets) and the sheets file (sheets, boards and one-sided decks), if the game has them."""
    ctx = _Context(game, options, kit, paper, measure)
    files = []
    two_sided = tuple(d for d in game.decks if d.back)
    if two_sided and options.layout == "gutterfold":
        files.append(_gutterfold_file(ctx, two_sided))
    elif two_sided:
        files.append(_duplex_file(ctx, two_sided, plans))
    if any(not isinstance(c, Deck) or not c.back for c in game.components):
        files.append(_sheets_file(ctx, plans))
    return Sheets(kit.lang, paper, tuple(files))


class _Context:
    """What every page of one paper's files needs: the game, options, language, words."""

    def __init__(self, game: Game, options: ImposeOptions, kit: RenderedKit, paper: str, measure: Measure):
        self.game, self.options, self.kit, self.paper, self.measure = game, options, kit, paper, measure
        self.words = sheet_words(game.strings[kit.lang])

    def name(self, comp: Component) -> str:
        """A component's name in the kit's language."""
        return self.game.strings[self.kit.lang].get(comp.name_key, comp.id) if comp.name_key else comp.id

    def label(self, comp: Component | Pieces, what: Sequence[str], how: Sequence[str] = ()) -> str:
        """A page label: the game, the component, ``what`` page it is, the paper, the scale
        to print at, and ``how`` to print it. For the pieces of a sheet that decks share,
        the component part names each deck and how many of its pieces the sheet holds,
        in the order they fill it ("Horus cards ×5 + Nile cards ×4")."""
        if isinstance(comp, list):
            counts: dict[str, int] = {}
            for deck, _, _ in comp:
                counts[deck.id] = counts.get(deck.id, 0) + 1
            decks = {deck.id: deck for deck, _, _ in comp}
            name = self.name(comp[0][0]) if len(counts) == 1 else \
                " + ".join(f"{self.name(decks[d])}\u00a0×{n}" for d, n in counts.items())
        else:
            name = self.name(comp)
        return label_text(self.game.name(self.kit.lang), name, *what, PAPER_NAMES.get(self.paper, self.paper.upper()),
                          "100%", *how)

    def place(self, plan: SheetPlan, pieces: Pieces, side: str, slots: tuple[Slot, ...]) -> tuple[PlacedFace, ...]:
        """Each piece's face in its slot, clipped to the bleed it may show there."""
        occupied = {(s.col, s.row) for s in slots[: len(pieces)]}
        return tuple(
            PlacedFace(comp.id, card.id, copy, side, slot, _size(comp), comp.bleed,
                       _turned(shape_for(comp), side, slot).placed_clip(plan, slot, occupied,
                                                                        bleed_sides(plan, slot, occupied)),
                       _turned(shape_for(comp), side, slot).proof_lines(slot.x, slot.y, *_size(comp), comp.bleed,
                                                                        comp.safe)
                       if self.options.proof else None)
            for (comp, card, copy), slot in zip(pieces, slots))

    def page(self, comp: Deck, plan: SheetPlan, side: str, sheet: int, faces: tuple[PlacedFace, ...],
             label: str, *, offset: tuple[float, float] | None = None, header: bool = False,
             fold: Fold | None = None) -> PiecesPage:
        """A pieces page: its faces, the crop marks and cut guides of the slots they fill, its label."""
        slots = tuple(f.slot for f in faces)
        shape = shape_for(comp)
        ticks: tuple[Mark, ...] = ()
        traced: tuple[CutGuide, ...] = ()
        # fronts and backs (a gutterfold page has both) are traced in their own outlines
        # (a symmetric outline is one group, so ticks see their neighbours across the fold)
        groups: dict[int, tuple[Shape, list[Slot]]] = {}
        for f in faces:
            turned = _turned(shape, f.side, f.slot)
            groups.setdefault(id(turned), (turned, []))[1].append(f.slot)
        for turned, group in groups.values():
            guides = turned.cut_guides(tuple(group), plan.item, plan.bleed, plan.gutter > 0)
            ticks, traced = ticks + guides.ticks, traced + guides.traced
        guides = CutGuides(clear_of_edges(ticks, plan.paper),
                           tuple(replace(g, ticks=clear_of_edges(g.ticks, plan.paper)) for g in traced))
        marks = clear_of_edges(shape.crop_marks(plan, slots), plan.paper)
        keep = KeepOut.of([_turned(shape, f.side, f.slot).outline(f.slot.x, f.slot.y, *f.size) for f in faces],
                          [f.clip for f in faces],
                          (*marks, *guides.ticks, *(t for g in guides.traced for t in g.ticks),
                           *(fold.marks if fold is not None else ())),
                          trim_gap=TICK_CLEAR, guide_gap=LABEL_GUIDE_GAP)
        return PiecesPage(comp.id, side, sheet, faces, marks, guides,
                          place_label(plan, label, self.measure, keep, bottom_free=not header),
                          offset=offset, header=header, fold=fold)


def _turned(shape: Shape, side: str, slot: Slot) -> Shape:
    """The outline of a piece's face in ``slot``: a back's is mirrored (the piece is turned
    over), and turned with the slot."""
    return shape.turned(side == "back", slot.rotation)


def _size(comp: Deck | Board) -> tuple[float, float]:
    if comp.size is None:  # the loader gives every deck and board a size
        raise ValueError(f"component {comp.id!r} has no size")
    return comp.size


def _duplex_file(ctx: _Context, decks: tuple[Deck, ...], plans: Mapping[str, SheetPlan]) -> SheetFile:
    """Each sheet of fronts followed by its sheet of backs, mirrored for the duplex flip;
    decks of one size share sheets, each back behind its own front all the same."""
    duplex, words = ctx.options.duplex, ctx.words
    pages: list[Page] = []
    for group in share_groups(decks, lambda d: plans[d.id].per_sheet):
        plan = plans[group[0].id]
        chunks = group_layout(group, plan)
        backs = back_slots(plan, duplex)
        for n, (chunk, where) in enumerate(chunks, start=1):
            for side, slots in (("front", tuple(plan.slots[j] for j in where)),
                                ("back", tuple(backs[j] for j in where))):
                offset = ctx.options.back_offset if side == "back" else (0.0, 0.0)
                moved = (shifted(words, *offset),) if any(offset) else ()
                label = ctx.label(chunk, [f"{words[side]} {n}/{len(chunks)}"], [words["duplex_" + duplex], *moved])
                faces = ctx.place(plan, chunk, side, slots)
                pages.append(ctx.page(chunk[0][0], plan, side, n, faces, label, offset=offset))
    return SheetFile("cards", "duplex", PAPERS_MM[ctx.paper], duplex, tuple(pages))


def plan_fold(game: Game, comp: Deck, paper: str) -> FoldPlan:
    """A two-sided deck's gutterfold sheet on ``paper``."""
    return plan_gutterfold(PAPERS_MM[paper], _size(comp), comp.bleed, name=f"{game.id} {comp.id}", paper_name=paper)


def printable_area(paper: tuple[float, float]) -> RectOutline:
    """The part of a sheet a home printer prints: all but the blank band along each edge
    (``EDGE_CLEARANCE``). A sheet's art and a deck header are shown only inside it, so a
    flood ends in one straight edge on every printer instead of wherever each one stops."""
    pw, ph = paper
    return RectOutline.spanning(EDGE_CLEARANCE, EDGE_CLEARANCE, pw - EDGE_CLEARANCE, ph - EDGE_CLEARANCE)


def _gutterfold_file(ctx: _Context, decks: tuple[Deck, ...]) -> SheetFile:
    """Fronts and mirrored backs on one side of landscape sheets, to fold and glue: no duplex
    needed. Decks of one size share sheets, as in a duplex file."""
    game, paper = ctx.game, ctx.paper
    pages: list[Page] = []

    def fold_plan(comp: Deck) -> FoldPlan:
        return plan_fold(game, comp, paper)

    for group in share_groups(decks, lambda d: fold_plan(d).plan.per_sheet):
        comp = group[0]
        fold = fold_plan(comp)
        plan = fold.plan
        chunks = group_layout(group, plan)
        for n, (chunk, where) in enumerate(chunks, start=1):
            faces = (ctx.place(plan, chunk, "front", tuple(plan.slots[j] for j in where))
                     + ctx.place(plan, chunk, "back", tuple(fold.backs[j] for j in where)))
            label = ctx.label(chunk, [f"{n}/{len(chunks)}"], [ctx.words["fold_here"]])
            pages.append(ctx.page(chunk[0][0], plan, "gutterfold", n, faces, label,
                                  fold=Fold(fold.fold_x, fold.fold_marks)))
    landscape = (max(PAPERS_MM[paper]), min(PAPERS_MM[paper]))
    return SheetFile("cards", "gutterfold", landscape, None, tuple(pages))


def _sheets_file(ctx: _Context, plans: Mapping[str, SheetPlan]) -> SheetFile:
    """Sheet components (rules, setup…), boards and one-sided decks (stickers, tokens), in game
    order; one-sided decks of one size share sheets, where the first of them comes."""
    paper, words = ctx.paper, ctx.words
    tiles = tile_boards(ctx.game, paper)
    groups = {group[0].id: group for group in share_groups([d for d in ctx.game.decks if not d.back],
                                                           lambda d: plans[d.id].per_sheet)}
    pages: list[Page] = []
    for comp in ctx.game.components:
        if isinstance(comp, Board):
            tiling = tiles[comp.id]
            for tile in tiling.tiles:
                label = ctx.label(comp, [tiling.tile_label(tile, words["of"]),
                                         f"{words['page']} {tile.index + 1}/{tiling.pages}"])
                pages.append(BoardPage(comp.id, tiling, tile, label))
        elif isinstance(comp, Sheet):
            pages += [SheetPage(comp.id, k) for k in range(len(ctx.kit.sheets[(comp.id, paper)]))]
        elif not comp.back and comp.id in groups:  # a deck sharing the sheets of an earlier one is on them
            chunks = one_sided_pages(groups[comp.id], plans[comp.id])
            headers = len(ctx.kit.headers.get((comp.id, paper), ()))
            for n, (chunk, where, page_plan) in enumerate(chunks, start=1):
                faces = ctx.place(page_plan, chunk, "front", tuple(page_plan.slots[j] for j in where))
                label = ctx.label(chunk, [f"{n}/{len(chunks)}"])
                pages.append(ctx.page(chunk[0][0], page_plan, "front", n, faces, label, header=n <= headers))
    return SheetFile("sheets", "sheets", PAPERS_MM[paper], None, tuple(pages), printable_area(PAPERS_MM[paper]))
