"""The imposition stage's entry point (impose.impose_kit): a game laid out as Sheets
values, without rendering or drawing anything."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from cardgen.impose import Sheets, impose_kit
from cardgen.impose.duplex import back_slots
from cardgen.impose.kitplan import deck_blocks, plan_decks
from cardgen.impose.labels import line_box
from cardgen.impose.marks import EDGE_CLEARANCE
from cardgen.impose.outlines import CircleOutline, RectOutline
from cardgen.impose.papers import PAPERS_MM
from cardgen.impose.sheets import BoardPage, PiecesPage, SheetPage
from cardgen.load.game import load_game
from cardgen.model.components import Deck, Sheet


@dataclass(frozen=True)
class Options:
    papers: tuple[str, ...] = ("a4",)
    duplex: str = "long"
    layout: str = "duplex"
    back_offset: tuple[float, float] = (0.0, 0.0)
    proof: bool = False


@dataclass
class Rendered:
    """Stands for a rendered language: only its page counts matter to imposition."""

    lang: str
    sheets: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)


def rendered(game, lang="en", papers=("a4",), headers=0):
    kit = Rendered(lang)
    for comp in game.components:
        for paper in papers:
            if isinstance(comp, Sheet):
                kit.sheets[(comp.id, paper)] = ["page"] * 2
            if isinstance(comp, Deck) and comp.header:
                kit.headers[(comp.id, paper)] = ["header"] * headers
    return kit


def measure(text: str, size_pt: float) -> float:
    return len(text) * size_pt * 0.2  # mm; wide enough that long labels must be split or shortened


@pytest.fixture(scope="module")
def horus():
    return load_game("horus")


@pytest.fixture(scope="module")
def hapy():
    return load_game("hapy")


def pieces(file, component, side=None):
    return [p for p in file.pages if isinstance(p, PiecesPage) and p.component == component
            and (side is None or p.side == side)]


def test_one_sheets_value_per_paper_with_a_cards_and_a_sheets_file(horus):
    out = impose_kit(horus, Options(papers=("a4", "letter")), rendered(horus, papers=("a4", "letter")), measure)
    assert [s.paper for s in out] == ["a4", "letter"] and all(isinstance(s, Sheets) for s in out)
    for sheets in out:
        assert [(f.kind, f.layout, f.duplex) for f in sheets.files] == [("cards", "duplex", "long"),
                                                                       ("sheets", "sheets", None)]
        assert sheets.files[0].size == PAPERS_MM[sheets.paper]


def test_every_copy_of_every_two_sided_card_is_placed_once_per_side(horus):
    cards = impose_kit(horus, Options(), rendered(horus), measure)[0].files[0]
    for deck in (d for d in horus.decks if d.back):
        for side in ("front", "back"):
            placed = [(f.card, f.copy) for p in cards.pages if p.side == side for f in p.faces
                      if f.component == deck.id]
            assert sorted(placed) == sorted((k.id, n) for k in deck.cards for n in range(k.quantity))
    assert all(f.side == p.side for p in cards.pages for f in p.faces)


def test_a_back_page_mirrors_its_front_page_for_the_flip_and_is_shifted_by_the_offset(horus):
    for duplex in ("long", "short"):
        options = Options(duplex=duplex, back_offset=(0.5, -1.0))
        cards = impose_kit(horus, options, rendered(horus), measure)[0].files[0]
        plan = plan_decks(horus, ("a4",))["a4"]["horus-cards"]
        fronts, backs = pieces(cards, "horus-cards", "front"), pieces(cards, "horus-cards", "back")
        assert len(fronts) == len(backs)
        mirrored = back_slots(plan, duplex)
        for front, back in zip(fronts, backs):
            assert front.offset == (0.0, 0.0) and back.offset == (0.5, -1.0)
            assert [b.slot for b in back.faces] == [mirrored[f.slot.index] for f in front.faces]
            assert [b.card for b in back.faces] == [f.card for f in front.faces]
            assert {b.slot.rotation for b in back.faces} == {180 if duplex == "short" else 0}
            assert "backs shifted" in " ".join(line.text for line in back.label)
            assert any("0.5,\u00a0\u20131\u00a0mm" in line.text for line in back.label)  # the pair as one unit
            assert "shifted" not in " ".join(line.text for line in front.label)


def test_gutterfold_puts_fronts_and_backs_on_one_landscape_page_with_its_fold(horus):
    cards = impose_kit(horus, Options(layout="gutterfold"), rendered(horus), measure)[0].files[0]
    pw, ph = PAPERS_MM["a4"]
    assert (cards.kind, cards.layout, cards.size, cards.duplex) == ("cards", "gutterfold", (ph, pw), None)
    for page in cards.pages:
        assert page.side == "gutterfold" and page.offset is None and page.fold is not None
        fronts = [f for f in page.faces if f.side == "front"]
        backs = [f for f in page.faces if f.side == "back"]
        assert len(fronts) == len(backs)
        assert all(f.slot.x + f.size[0] <= page.fold.x < b.slot.x for f, b in zip(fronts, backs))


def test_round_pieces_are_clipped_round_and_get_traced_guides_rect_ones_ticks(horus):
    sheets = impose_kit(horus, Options(), rendered(horus), measure)[0].files[1]
    stones = pieces(sheets, "stones")
    assert stones
    for page in stones:
        assert all(isinstance(f.clip, CircleOutline) for f in page.faces)
        assert len(page.cuts.traced) == len(page.faces) and page.cuts.ticks == ()
    cards = impose_kit(horus, Options(), rendered(horus), measure)[0].files[0]
    tiles = pieces(cards, "tiles", "front")[0]
    assert all(isinstance(f.clip, RectOutline) for f in tiles.faces)
    assert tiles.cuts.traced == () and tiles.cuts.ticks


def test_the_sheets_file_follows_the_game_order_and_the_rendered_page_counts(horus):
    sheets = impose_kit(horus, Options(), rendered(horus), measure)[0].files[1]
    order = [p.component for p in sheets.pages]
    assert [c for i, c in enumerate(order) if i == 0 or order[i - 1] != c] == ["stones", "rules", "setup"]
    assert [(p.component, p.index) for p in sheets.pages if isinstance(p, SheetPage)] == \
        [("rules", 0), ("rules", 1), ("setup", 0), ("setup", 1)]


def test_a_board_gets_one_page_per_tile_with_its_label():
    farao = load_game("farao")
    sheets = impose_kit(farao, Options(), rendered(farao), measure)[0].files[1]
    boards = [p for p in sheets.pages if isinstance(p, BoardPage)]
    assert boards and [p.tile.index for p in boards] == list(range(boards[0].plan.pages))
    assert all(p.label.endswith(f"page {p.tile.index + 1}/{p.plan.pages} · A4 · 100%") for p in boards)


def test_a_one_sided_deck_takes_its_header_where_one_was_rendered(hapy):
    out = impose_kit(hapy, Options(), rendered(hapy, headers=1), measure)[0].files[1]
    stickers = pieces(out, "stickers")
    assert [p.header for p in stickers] == [n == 0 for n in range(len(stickers))]
    assert not any(p.header for p in pieces(impose_kit(hapy, Options(), rendered(hapy), measure)[0].files[1],
                                            "stickers"))


def test_header_blocks_cover_the_pieces_of_each_sheet_with_their_bleed(hapy):
    deck = hapy.component("stickers")
    plan = plan_decks(hapy, ("a4",))["a4"]["stickers"]
    pages = pieces(impose_kit(hapy, Options(), rendered(hapy, headers=9), measure)[0].files[1], "stickers")
    blocks = deck_blocks(deck, plan)
    assert len(blocks) == len(pages)
    for (x, y, w, h), page in zip(blocks, pages):
        for f in page.faces:
            assert x <= f.slot.x - deck.bleed and f.slot.x + f.size[0] + deck.bleed <= x + w + 1e-9
            assert y <= f.slot.y - deck.bleed and f.slot.y + f.size[1] + deck.bleed <= y + h + 1e-9


def test_labels_fit_their_room_by_the_measure_given(horus):
    for sheets in impose_kit(horus, Options(papers=("a4", "letter")), rendered(horus, papers=("a4", "letter")),
                             measure):
        for file in sheets.files:
            for page in (p for p in file.pages if isinstance(p, PiecesPage)):
                assert page.label
                for line in page.label:
                    assert measure(line.text, line.size_pt) <= file.size[0] - 20.0
                    # clear of the printer's 5 mm band, its ink and white band included
                    left, top, _, _ = line_box(line, measure)
                    assert min(left, top) >= EDGE_CLEARANCE - 1e-9, line


def test_proof_lines_only_when_asked(horus):
    plain = impose_kit(horus, Options(), rendered(horus), measure)[0].files[0].pages[0]
    proof = impose_kit(horus, Options(proof=True), rendered(horus), measure)[0].files[0].pages[0]
    assert all(f.proof is None for f in plain.faces)
    assert all(f.proof is not None and f.proof.trim == RectOutline(f.slot.x, f.slot.y, *f.size) for f in proof.faces)


def test_sheets_values_are_frozen(horus):
    sheets = impose_kit(horus, Options(), rendered(horus), measure)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        sheets.files[0].pages[0].faces[0].slot = None  # type: ignore[misc]
