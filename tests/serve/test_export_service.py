"""Exports a print service accepts (issue 17, item 7): ``export --png`` writes one
image per distinct card with ``quantities.csv`` (how many copies of each), and boards
are in ``--png``, ``--tts`` and ``preview``."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PIL import Image

from cardgen import load_game
from cardgen.export import MAX_BOARD_PIXELS, QUANTITY_COLUMNS, board_dpi

EVERY_KEY = Path(__file__).resolve().parents[2] / "docs" / "examples" / "every-key"
pytestmark = pytest.mark.usefixtures("isolated_settings")


@pytest.fixture(scope="module")
def garden():
    return load_game(EVERY_KEY)


def test_png_export_lists_the_copies_of_every_image_and_includes_the_board(cli, garden, tmp_path):
    result = cli("export", EVERY_KEY, "--png", "--dpi", "72", "--lang", "en", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / garden.id / "png" / "en"
    raw = (folder / "quantities.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # a byte-order mark: Excel reads it as UTF-8
    rows = list(csv.DictReader(raw.decode("utf-8-sig").splitlines()))
    assert tuple(rows[0]) == QUANTITY_COLUMNS
    expected = {(d.id, c.id): c.quantity for d in garden.decks for c in d.cards}
    cards = {(r["component"], r["card"]): int(r["quantity"]) for r in rows if r["card"]}
    assert cards == expected
    assert sum(int(r["quantity"]) for r in rows) == sum(d.count for d in garden.decks) + len(garden.boards)
    listed = {name for r in rows for name in (r["front"], r["back"]) if name}
    assert listed == {p.name for p in folder.glob("*.png")}  # every image listed, every listed image there
    for r in rows:
        deck = next((d for d in garden.decks if d.id == r["component"]), None)
        assert bool(r["back"]) == bool(deck is not None and deck.back)
    (board,) = garden.boards
    (row,) = [r for r in rows if r["component"] == board.id]
    assert row["quantity"] == "1" and row["card"] == ""
    with Image.open(folder / row["front"]) as image:  # the whole board with its bleed, at 72 dpi
        want = [(side + 2 * board.bleed) / 25.4 * 72 for side in board.size]
        assert all(abs(got - w) <= 1 for got, w in zip(image.size, want)), (image.size, want)


def test_a_huge_board_is_exported_at_a_lower_resolution(garden):
    (board,) = garden.boards
    from dataclasses import replace
    big = replace(board, size=(2000.0, 2000.0))
    dpi = board_dpi(big, 300)
    assert dpi < 300
    assert ((2000 + 2 * big.bleed) / 25.4 * dpi) ** 2 == pytest.approx(MAX_BOARD_PIXELS)
    assert board_dpi(board, 300) == 300


def test_tts_export_has_the_board(cli, garden, tmp_path):
    result = cli("export", EVERY_KEY, "--tts", "--lang", "en", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / garden.id / "tts" / "en"
    (board,) = garden.boards
    name = f"{garden.id}-en-{board.id}-board.png"
    with Image.open(folder / name) as image:
        assert max(image.size) == 4096
    assert f"{name}: a board; Objects > Components > Custom > Board, image {name}" in \
        (folder / "TTS-IMPORT.txt").read_text(encoding="utf-8").splitlines()


def test_preview_shows_the_board(cli, garden, tmp_path):
    from cardgen.export import face_images, preview

    out = preview(garden, "en", tmp_path / "p.png")
    faces = face_images(garden, "en", 60, trim_only=True, distinct=True)
    with Image.open(out) as image:
        tallest_row = max(f.image.height for f in faces)
        assert image.height > 48 + 720 * 0.5 + tallest_row  # the board's row (720 px on its longer side) is there
        (board,) = garden.boards
        w, h = board.size
        # the board's own colour fills the middle of its picture in the last row
        y = image.height - 8 - 34 - round(720 * h / w) // 2
        assert image.getpixel((20, y)) != image.getpixel((4, 4))
