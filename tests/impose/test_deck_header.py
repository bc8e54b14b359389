"""A one-sided deck's ``header``: a template drawn on each of the deck's sheets (a
title, what to do with the pieces), given the page, the sheet's number and the box
the pieces cover so it can keep clear of them."""

from __future__ import annotations

import re
import unicodedata

from conftest import edit_file
from kitchecks import build_kit
from pypdf import PdfReader

from cardgen.base.errors import CardgenError
from cardgen.load.game import load_game

TOKENS = """  - id: tokens
    kind: deck
    size: [20, 20]
    bleed: 1
    front: tokens_front.yaml.j2
    header: tokens_header.yaml.j2
    printshop: false
    cards:
      - id: token
        quantity: {n}
"""

HEADER = ('- {text: {x: 20, y: 1, w: 170, h: 5, '
          'text: {{ ("Tokens sheet " ~ sheet.n ~ " of " ~ sheet.of ~ " block at " ~ (block.y|round|int) ~ " "'
          ' ~ (block.y + block.h <= page.h) ~ " " ~ paper)|q }}, size: 8, color: ink}}\n')


def _game_with_tokens(game_copy, n: int):
    root = game_copy("mini_game")
    text = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(text + TOKENS.format(n=n), encoding="utf-8")
    (root / "templates" / "tokens_header.yaml.j2").write_text(HEADER, encoding="utf-8")
    (root / "templates" / "tokens_front.yaml.j2").write_text(
        '- {circle: {cx: {{ w / 2 }}, cy: {{ h / 2 }}, r: {{ w / 2 - 1 }}, stroke: ink}}\n', encoding="utf-8")
    return root


def test_the_header_is_drawn_on_every_sheet_of_the_deck_above_its_pieces(game_copy, tmp_path):
    root = _game_with_tokens(game_copy, 300)  # 20 mm tokens: more than one A4 sheet
    build_kit(tmp_path / "out", str(root), "--lang", "en", "--paper", "a4")
    reader = PdfReader(tmp_path / "out" / "mini" / "mini-en-a4-sheets.pdf")
    texts = [unicodedata.normalize("NFC", p.extract_text()) for p in reader.pages]
    found = [m for t in texts for m in re.finditer(r"Tokens sheet (\d+) of (\d+) block at (\d+) True a4", t)]
    assert len(found) == len(reader.pages) >= 2
    assert [int(m.group(1)) for m in found] == list(range(1, len(found) + 1))
    assert {int(m.group(2)) for m in found} == {len(found)}
    tops = [int(m.group(3)) for m in found]  # each sheet's own block: full sheets start near the top,
    assert 0 < tops[0] < 20 and tops[-1] > 100  # the last, partial one is centred on the paper


def test_a_header_is_for_one_sided_decks_only(game_copy):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "    back: back.yaml.j2\n", "    back: back.yaml.j2\n    header: front.yaml.j2\n")
    try:
        load_game(root)
    except CardgenError as exc:
        line = (root / "game.yaml").read_text(encoding="utf-8").splitlines().index("    header: front.yaml.j2") + 1
        assert f"game.yaml:{line}:" in str(exc)
        assert "'header' in component 'cards' is for one-sided decks" in str(exc)
    else:
        raise AssertionError("a header on a two-sided deck was accepted")


def test_a_missing_header_template_is_reported(game_copy):
    root = _game_with_tokens(game_copy, 4)
    (root / "templates" / "tokens_header.yaml.j2").unlink()
    try:
        load_game(root)
    except CardgenError as exc:
        assert "template 'tokens_header.yaml.j2' not found" in str(exc)
    else:
        raise AssertionError("a missing header template was accepted")
