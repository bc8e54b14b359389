"""Design rules of the shipped Hâpy kit that a reviewer would otherwise check by eye."""

from itertools import combinations

from cardgen.load.game import load_game
from cardgen.render.sandbox import luminance

MIN_GREY_STEP = 0.08  # lightness apart, 0..1: families stay distinct on a greyscale printer


def test_family_colours_stay_apart_in_greyscale():
    game = load_game("hapy")
    families = game.data["families"]
    greys = {f["id"]: luminance(game.palette[f["colour"]]) for f in families}
    close = [(a, b, round(abs(greys[a] - greys[b]), 3)) for a, b in combinations(greys, 2)
             if abs(greys[a] - greys[b]) < MIN_GREY_STEP]
    assert not close, f"families too close in greyscale: {close}"


def test_every_family_has_its_own_symbol_and_glyph():
    families = load_game("hapy").data["families"]
    assert len({f["symbol"] for f in families}) == len(families) == 6
    assert len({f["glyph"] for f in families}) == 6
    assert {f["symbol"] for f in families} == {"drop", "round", "cross", "heart", "moon", "clover"}
