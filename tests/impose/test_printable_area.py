"""Every piece of every shipped kit and of the demo, on both papers, duplex and
gutterfold: its trim at least 5 mm from the paper edge (where home printers start
printing) and its bleed at least 4 mm from it. A home printer that starts at 5 mm clips
at most 1 mm of a 3 mm bleed, never a piece's art or the cut guides drawn in its bleed;
no row or column is bought by running the bleed deeper into the blank band."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen import load_game
from cardgen.impose.kitplan import plan_decks, plan_fold
from cardgen.impose.marks import EDGE_CLEARANCE
from cardgen.impose.papers import PAPERS_MM

BLEED_CLEAR_MM = 4.0
TOL = 1e-6
DEMO = Path(__file__).resolve().parents[2] / "docs" / "examples" / "demo"
KITS = ("hapy", "egypt", "horus", "farao", str(DEMO))


def nearest_edge(paper: tuple[float, float], slots, item: tuple[float, float], grow: float) -> float:
    """How near (mm) the boxes of ``slots``, grown by ``grow`` all round, come to an edge."""
    pw, ph = paper
    w, h = item
    return min(min(s.x - grow, s.y - grow, pw - s.x - w - grow, ph - s.y - h - grow) for s in slots)


def plans_of(game_ref: str):
    game = load_game(game_ref)
    for paper in PAPERS_MM:
        plans = plan_decks(game, [paper])[paper]
        for deck in game.decks:
            yield f"{game.id} {deck.id} on {paper}", plans[deck.id].paper, plans[deck.id]
            if deck.back:
                fold = plan_fold(game, deck, paper)
                yield (f"{game.id} {deck.id} on {paper} (gutterfold)", fold.plan.paper, fold.plan)


@pytest.mark.parametrize("game", KITS, ids=lambda g: Path(g).name)
def test_every_piece_keeps_its_trim_5_mm_and_its_bleed_4_mm_from_the_paper_edge(game):
    found = []
    for what, paper, plan in plans_of(game):
        trim = nearest_edge(paper, plan.slots, plan.item, 0.0)
        bleed = nearest_edge(paper, plan.slots, plan.item, plan.bleed)
        if trim < EDGE_CLEARANCE - TOL or bleed < BLEED_CLEAR_MM - TOL:
            found.append(f"{what}: trim {trim:.2f} mm, bleed {bleed:.2f} mm from the edge")
    assert not found, "\n".join(found)


def test_the_horus_tiles_keep_their_bleed_out_of_the_printers_band_on_a4():
    """40 mm tiles with 3 mm bleed: five across A4 (200 mm of trim on 210 mm) would put
    their trim on the band's edge and their bleed and edge diamonds 2 mm from the paper;
    four across, with seven rows, keep all of it well inside."""
    game = load_game("horus")
    plan = plan_decks(game, ["a4"])["a4"]["tiles"]
    assert (plan.cols, plan.rows) == (4, 7)
    assert nearest_edge(plan.paper, plan.slots, plan.item, plan.bleed) >= EDGE_CLEARANCE
    assert plan.item == (40.0, 40.0)  # the pieces at their true size
