"""Every shipped game's colours that tell pieces apart (families, types, players,
backs) stay apart on a greyscale printer: CIE L* at least 10 apart, pairwise."""

from __future__ import annotations

from itertools import combinations

import pytest
from greyscale import lightness

from cardgen.load.game import load_game

MIN_STEP = 10.0  # CIE L*: a clear step in grey


def _groups() -> list[tuple[str, str, dict[str, str]]]:
    """(game, group, {piece: palette colour}) for each group of colours a player sorts by."""
    hapy, egypt, farao, horus = (load_game(g) for g in ("hapy", "egypt", "farao", "horus"))
    faces, backs = horus.data["faces"], horus.data["backs"]
    sides = {name: b["colour"] for name, b in backs.items()}
    sides.update({t["back"]: faces[t["back"]]["colour"] for t in horus.data["tiles"] if t["back"] in faces})
    return [
        ("hapy", "families", {f["id"]: hapy.palette[f["colour"]] for f in hapy.data["families"]}),
        ("egypt", "types", {t["id"]: egypt.palette[t["colour"]] for t in egypt.data["types"]}),
        ("farao", "stones", {str(b["value"]): farao.palette[b["colour"]] for b in farao.data["building"]}),
        ("horus", "terrains", {t: horus.palette[faces[t]["colour"]] for t in horus.data["terrains"]}),
        ("horus", "tile undersides", {k: horus.palette[c] for k, c in sides.items()}),
        ("horus", "players", {s["id"]: horus.palette[s["colour"]] for s in horus.data["stone_colours"]}),
    ]


@pytest.mark.parametrize(("game", "group", "colours"), _groups(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_colours_of_a_group_stay_apart_in_greyscale(game, group, colours):
    light = {k: lightness(c) for k, c in colours.items()}
    close = [(a, b, round(abs(light[a] - light[b]), 1)) for a, b in combinations(light, 2)
             if abs(light[a] - light[b]) < MIN_STEP]
    assert not close, f"{game} {group}: too close in greyscale (ΔL*): {close}"


def test_lightness_is_cie_l_star():
    assert lightness("#ffffff") == pytest.approx(100, abs=0.01)
    assert lightness("#000000") == pytest.approx(0, abs=0.01)
    assert lightness("#777777") == pytest.approx(50.03, abs=0.05)
