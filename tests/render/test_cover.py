"""The `covered` filter: which pieces of a layout lie wholly under later ones."""

from __future__ import annotations

from cardgen.load.game import load_game
from cardgen.render.cover import covered
from cardgen.render.sandbox import renderer_for


def test_a_card_under_four_cards_laid_on_its_quarters_is_hidden():
    centre = {"x": 1.0, "y": 1.0}
    ring = [{"x": 0.5, "y": 0.5}, {"x": 1.5, "y": 0.5}, {"x": 0.5, "y": 1.5}, {"x": 1.5, "y": 1.5}]
    assert covered([centre, *ring]) == [0]
    assert covered([centre, *ring[:3]]) == []  # one quarter still shows
    assert covered([*ring, centre]) == []  # laid last, it is on top


def test_a_pyramid_row_hides_nothing_it_only_overlaps():
    rows = [{"x": 0.5, "y": 0.0}, {"x": 0.0, "y": 0.5}, {"x": 1.0, "y": 0.5}]  # half a card down
    assert covered(rows) == []
    assert covered(rows, h=0.5) == []
    assert covered([{"x": 0.5, "y": 0.0}, {"x": 0.0, "y": 0.0, "w": 2.0}]) == [0]  # a wider piece on top


def test_templates_can_use_it():
    game = load_game("hapy")
    r = renderer_for(game.template_dirs, game.palette)
    t = r.env.from_string("{{ [{'x': 1, 'y': 1}, {'x': 0.5, 'y': 0.5}, {'x': 1.5, 'y': 0.5}, {'x': 0.5, 'y': 1.5},"
                          " {'x': 1.5, 'y': 1.5}]|covered }}")
    assert t.render() == "[0]"
