"""A card face must not pass for a back (issue 20, nits): the colour that floods a
front's bleed differs from the flood of its back, so a face-up card in a stack of
face-down ones (the O, Farao! End card, the Egypt Gods) shows at once. Read from the
laid-out faces: each face's first op, the rectangle over the whole bleed. A deck of one
face (the Horus Nile cards, one a player, never shuffled into a pile) is left out."""

from __future__ import annotations

import pytest
from greyscale import delta_e
from kitchecks import render_kits

from cardgen import load_game

DECKS = {"hapy": ("gods",), "egypt": ("cards",), "farao": ("cards",), "horus": ("horus-cards", "nile-cards")}
pytestmark = pytest.mark.usefixtures("isolated_settings")


def _flood(face, palette) -> str:
    first = face.ops[0]
    assert first.kind == "rect" and first.args["x"] < 0 and first.args["y"] < 0, first  # the bleed's flood
    return palette.get(first.args["fill"], first.args["fill"])


@pytest.mark.parametrize("game_id", sorted(DECKS))
def test_no_front_is_flooded_in_its_backs_colour(game_id):
    game = load_game(game_id)
    _, kits = render_kits(game, (game.languages[0],), ("a4",))
    kit = kits[game.languages[0]]
    checked = 0
    faces: dict[str, set[str]] = {}
    for (deck, _), front in kit.fronts.items():
        faces.setdefault(deck, set()).add(front.key)
    for (deck, card), front in kit.fronts.items():
        if len(faces[deck]) < 2:
            continue
        back = kit.backs.get((deck, card))
        if deck not in DECKS[game_id] or back is None:
            continue
        a, b = _flood(front, game.palette), _flood(back, game.palette)
        assert delta_e(a, b) >= 12, (deck, card, a, b)  # the End card and the Gods were 0 apart
        checked += 1
    assert checked
