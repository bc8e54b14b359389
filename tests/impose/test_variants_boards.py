"""The two generic extensions: optional card variants (`variant:` on a card entry,
`--variant NAME` on build, list and validate, recorded in the manifest), and boards
larger than the paper (`kind: board`, tiled across pages with glue strips, alignment
half-diamonds, crop marks and assembly labels)."""

from __future__ import annotations

import json
import math
import re
import shutil

import pytest
from conftest import DATA, edit_file
from pypdf import PdfReader

from cardgen.base.errors import CardgenError
from cardgen.impose.papers import PAPER_NAMES, PAPERS_MM
from cardgen.impose.tiling import alignment_marks, column_letter, cut_lines, plan_tiles, to_frame
from cardgen.load.game import load_game

GAME = DATA / "variant_board_game"


# --------------------------------------------------------------------------- variants: the loader
def test_variant_cards_are_left_out_unless_asked_for():
    plain = load_game(GAME)
    assert [(k.id, k.quantity) for k in plain.component("cards").cards] == [
        ("card-1", 1), ("card-2", 1), ("card-3", 1), ("card-4", 1)]
    assert plain.variants == () and plain.known_variants == ("bonus", "jokers")

    jokers = load_game(GAME, ["jokers"])
    cards = {k.id: k for k in jokers.component("cards").cards}
    assert set(cards) == {"card-1", "card-2", "card-3", "card-4", "wild", "blank"}
    assert cards["wild"].variant == "jokers" and cards["wild"].quantity == 2  # from the data: "{x.variant}"
    assert cards["blank"].variant == "jokers"  # a literal name
    assert cards["card-1"].variant is None
    assert jokers.variants == ("jokers",) and jokers.component("cards").count == 7

    both = load_game(GAME, ["jokers", "bonus"])
    assert both.component("cards").count == 8 and both.variants == ("bonus", "jokers")
    every = load_game(GAME, every_variant=True)
    assert every.component("cards").count == 8


def test_an_unknown_variant_is_one_line_naming_the_known_ones():
    with pytest.raises(CardgenError) as exc:
        load_game(GAME, ["nope"])
    (line,) = exc.value.lines()
    assert line.endswith("game.yaml: game 'vb' has no variant 'nope' (it has: bonus, jokers)")
    with pytest.raises(CardgenError) as exc:
        load_game("egypt", ["jokers"])
    assert "has no variant 'jokers' (it has none)" in exc.value.lines()[0]


def test_a_bad_variant_entry_is_reported_with_its_line(tmp_path):
    game = tmp_path / "vb"
    shutil.copytree(GAME, game)
    edit_file(game / "game.yaml", 'variant: "{x.variant}"', 'variant: "{x.kind}"')
    edit_file(game / "game.yaml", "variant: jokers\n", "variant: Big Jokers\n")
    with pytest.raises(CardgenError) as exc:
        load_game(game)
    lines = exc.value.lines()
    assert any("game.yaml:30:18:" in l and "'variant' \"{x.kind}\" refers to unknown field 'x.kind'" in l for l in lines), lines
    assert any("game.yaml:32:18:" in l and "variant name 'Big Jokers' must be lower-case" in l for l in lines), lines


# --------------------------------------------------------------------------- variants: the CLI
def test_build_with_a_variant_records_it_and_never_mixes_decks(cli, tmp_path):
    out = tmp_path / "out"
    r = cli("build", GAME, "--variant", "jokers", "--paper", "a4", "--out", out, "--jobs", "1")
    assert r.exit_code == 0, r.output + r.stderr
    assert "Built vb with variant jokers" in r.output
    manifest = json.loads((out / "vb" / "manifest.json").read_text())
    assert manifest["variants"] == ["jokers"]
    assert manifest["decks"]["cards"]["cards"] == {"card-1": 1, "card-2": 1, "card-3": 1, "card-4": 1,
                                                   "wild": 2, "blank": 1}
    shop = PdfReader(out / "vb" / "vb-en-printshop-63x88mm.pdf")
    assert len(shop.pages) == 2 * 7
    assert (out / "vb" / "vb-en-a4-cards.pdf").is_file()

    # the plain deck, letter only: the A4 files of the jokers deck must not stay behind unlisted
    r = cli("build", GAME, "--paper", "letter", "--out", out, "--jobs", "1")
    assert r.exit_code == 0, r.output + r.stderr
    manifest = json.loads((out / "vb" / "manifest.json").read_text())
    assert manifest["variants"] == []
    assert set(manifest["decks"]["cards"]["cards"]) == {"card-1", "card-2", "card-3", "card-4"}
    assert not (out / "vb" / "vb-en-a4-cards.pdf").exists()
    assert {f["file"] for f in manifest["files"]} == {p.name for p in (out / "vb").glob("*.pdf")}
    assert len(PdfReader(out / "vb" / "vb-en-printshop-63x88mm.pdf").pages) == 2 * 4

    # validate --kit sees the deck of the variants it is given, and says when they differ
    r = cli("validate", GAME, "--kit", out / "vb", "--games", "1")
    assert r.exit_code == 0, r.output + r.stderr
    r = cli("validate", GAME, "--variant", "jokers", "--kit", out / "vb", "--games", "1")
    assert r.exit_code == 1
    assert "the kit was built with variants [], this check expects ['jokers']" in r.output + r.stderr
    # that one cause is said once, not once per card and page it changes
    assert sum(line.startswith("  ✗") for line in r.output.splitlines()) == 1, r.output


def test_build_with_an_unknown_variant_is_a_usage_error(cli, tmp_path):
    r = cli("build", GAME, "--variant", "nope", "--out", tmp_path)
    assert r.exit_code == 2
    assert "Error: Invalid value for '--variant': " in r.stderr
    assert "has no variant 'nope' (it has: bonus, jokers)" in r.stderr
    assert not (tmp_path / "vb").exists()


def test_list_shows_variant_cards_and_boards(cli):
    r = cli("list", "--data", GAME)  # (exit status: 1 while a shipped game in progress cannot be loaded)
    assert "vb  Variant Board Game" in r.output, r.output
    assert "+1 with --variant bonus: bonus ×1" in r.output
    assert "+3 with --variant jokers: wild ×2, blank ×1" in r.output
    assert re.search(r"board 300×320 mm +Board \(4 pages on A4, 4 on Letter\)", r.output), r.output
    assert "       4 × 63×88 mm two-sided" in r.output  # the plain deck's count


# --------------------------------------------------------------------------- boards: the geometry
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("board,bleed,overlap", [((400, 250), 3, 10), ((300, 200), 3, 12), ((600, 420), 0, 8),
                                                 ((150, 100), 3, 10)])
def test_the_pieces_cover_the_whole_board_with_the_overlap(paper, board, bleed, overlap):
    plan = plan_tiles(PAPERS_MM[paper], board, bleed, overlap)
    w, h = board
    fw, fh = plan.frame
    assert plan.pages == plan.cols * plan.rows == len(plan.tiles)
    assert sorted((fw, fh)) == sorted(PAPERS_MM[paper]) and plan.rotated == (fw > fh)
    for t in plan.tiles:
        pw, ph = t.size
        assert pw <= fw - 2 * plan.margin + 1e-9 and ph <= fh - 2 * plan.margin + 1e-9, "a piece fits its page"
        assert t.label == f"{column_letter(t.col)}{t.row + 1}"
    # the visible parts partition the board (bleed included), edge to edge
    xs = sorted({(t.x0, t.vx1) for t in plan.tiles})
    ys = sorted({(t.y0, t.vy1) for t in plan.tiles})
    assert xs[0][0] == pytest.approx(-bleed) and xs[-1][1] == pytest.approx(w + bleed)
    assert ys[0][0] == pytest.approx(-bleed) and ys[-1][1] == pytest.approx(h + bleed)
    for (_a0, a1), (b0, _b1) in zip(xs, xs[1:]):
        assert a1 == pytest.approx(b0)
    for (_a0, a1), (b0, _b1) in zip(ys, ys[1:]):
        assert a1 == pytest.approx(b0)
    # every piece but the last of its row/column carries exactly `overlap` mm more: the glue strip
    for t in plan.tiles:
        assert t.x1 - t.vx1 == pytest.approx(overlap if t.col < plan.cols - 1 else 0)
        assert t.y1 - t.vy1 == pytest.approx(overlap if t.row < plan.rows - 1 else 0)
    # and no orientation would have needed fewer pages
    for frame in ((PAPERS_MM[paper][0], PAPERS_MM[paper][1]), (PAPERS_MM[paper][1], PAPERS_MM[paper][0])):
        aw, ah = frame[0] - 2 * plan.margin, frame[1] - 2 * plan.margin
        def need(total, avail):
            return 1 if total <= avail else math.ceil((total - overlap) / (avail - overlap))
        assert plan.pages <= need(w + 2 * bleed, aw) * need(h + 2 * bleed, ah)


def test_a_big_board_on_a4_is_a_grid_with_spreadsheet_labels():
    plan = plan_tiles(PAPERS_MM["a4"], (600, 420), 3, 10)
    # upright pages need 4 × 2 = 8, pages turned a quarter 3 × 3 = 9
    assert (plan.cols, plan.rows) == (4, 2) and not plan.rotated
    assert [t.label for t in plan.tiles] == ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2"]
    assert plan.tile_label(plan.tiles[5]) == "B2 of 4×2"
    wide = plan_tiles(PAPERS_MM["a4"], (500, 300), 3, 10)  # turned a quarter: 2 × 2 instead of 3 × 2
    assert (wide.cols, wide.rows, wide.rotated) == (2, 2, True)
    assert [column_letter(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]


def test_each_seam_has_matching_half_diamonds_on_both_pages():
    plan = plan_tiles(PAPERS_MM["a4"], (600, 420), 3, 10)
    by_label = {t.label: t for t in plan.tiles}

    def board_points(tile, point):
        out = []
        for d in alignment_marks(plan, tile):
            if d.point == point:
                out.append((round(d.x - plan.origin[0] + tile.x0, 6), round(d.y - plan.origin[1] + tile.y0, 6)))
        return sorted(out)

    left, right = by_label["A1"], by_label["B1"]
    a, b = board_points(left, "left"), board_points(right, "right")
    assert a and a == b, "the two halves of each diamond meet on the seam"
    assert all(x == pytest.approx(right.x0) for x, _ in a)
    top, bottom = by_label["B1"], by_label["B2"]
    assert board_points(top, "up") == board_points(bottom, "down") != []
    # a corner piece of the outer edge has no marks on its outer sides
    assert not board_points(left, "right") and not board_points(left, "down")
    # cut lines: the board's trim outside, the piece's own edge inside
    xs, ys = cut_lines(plan, right)
    assert xs[0] == pytest.approx(to_frame(plan, right, right.x0, 0)[0])
    assert ys[0] == pytest.approx(to_frame(plan, right, 0, 0)[1])


def test_a_page_too_small_for_the_overlap_is_an_error():
    with pytest.raises(CardgenError, match="no room for a piece wider than the 40 mm overlap"):
        plan_tiles((60, 60), (300, 200), 3, 40)


# --------------------------------------------------------------------------- boards: the pages
@pytest.fixture(scope="module")
def board_kit(tmp_path_factory):
    from click.testing import CliRunner

    from cardgen.cli import main

    out = tmp_path_factory.mktemp("board-kit")
    r = CliRunner().invoke(main, ["build", str(GAME), "--out", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return out / "vb"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_pages_carry_labels_glue_codes_and_marks(board_kit, paper):
    import pypdfium2 as pdfium

    manifest = json.loads((board_kit / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f["file"] == f"vb-en-{paper}-sheets.pdf")
    pages = [p for p in entry["pages"] if p["component"] == "board"]
    plan = plan_tiles(PAPERS_MM[paper], (300, 320), 3, 12)
    assert len(pages) == plan.pages == 4 and [p["tile"] for p in pages] == ["A1", "B1", "A2", "B2"]
    assert all(p["tiles"] == [2, 2] for p in pages)
    reader = PdfReader(board_kit / entry["file"])
    a1 = reader.pages[pages[0]["page"] - 1].extract_text()
    assert f"A1 of 2×2 · page 1/4 · {PAPER_NAMES[paper]} · 100%" in a1
    assert "B1" in a1 and "A2" in a1, "the glue strips name the pieces laid on them"
    b2 = reader.pages[pages[3]["page"] - 1].extract_text()
    assert "B2 of 2×2" in b2
    assert any("BOARD" in reader.pages[p["page"] - 1].extract_text() for p in pages), "the board art is on the pages"
    # the marks are printed: every half-diamond of page A1 is dark where the white board is
    pdf = pdfium.PdfDocument(board_kit / entry["file"])
    scale = 4  # px per pt
    img = pdf[pages[0]["page"] - 1].render(scale=scale).to_pil().convert("L")
    tile = plan.tiles[0]
    marks = alignment_marks(plan, tile)
    assert len(marks) >= 4
    px_per_mm = scale * 72 / 25.4
    for d in marks:
        dx, dy = {"left": (-0.8, 0), "right": (0.8, 0), "up": (0, -0.8), "down": (0, 0.8)}[d.point]
        fx, fy = d.x + dx, d.y + dy
        x, y = (PAPERS_MM[paper][0] - fy, fx) if plan.rotated else (fx, fy)  # frame → page
        assert img.getpixel((int(x * px_per_mm), int(y * px_per_mm))) < 80, (d, x, y)
    # crop marks run in the margin along each cut line (above and below the piece)
    xs, ys = cut_lines(plan, tile)
    oy = to_frame(plan, tile, tile.x0, tile.y0)[1]
    for fx in xs:
        for fy in (oy - 4.0, oy + tile.size[1] + 4.0):
            x, y = (PAPERS_MM[paper][0] - fy, fx) if plan.rotated else (fx, fy)
            px = min(img.getpixel((int(x * px_per_mm) + k, int(y * px_per_mm))) for k in (-1, 0, 1))
            assert px < 200, ("no crop mark at", fx, fy)
    # and the full-size board file has the board's own size with its bleed and boxes
    full = PdfReader(board_kit / "vb-en-board-fullsize.pdf")
    (page,) = full.pages
    assert float(page.mediabox.width) == pytest.approx(306 * 72 / 25.4, abs=0.01)
    assert float(page.trimbox.height) == pytest.approx(320 * 72 / 25.4, abs=0.01)


def test_the_board_kit_passes_validate_kit(cli, board_kit):
    r = cli("validate", GAME, "--kit", board_kit, "--games", "1")
    assert r.exit_code == 0, r.output + r.stderr
    manifest = json.loads((board_kit / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f["file"] == "vb-en-a4-sheets.pdf")
    entry["pages"] = [p for p in entry["pages"] if p.get("tile") != "B2"]
    for i, p in enumerate(entry["pages"], start=1):
        p["page"] = i
    broken = board_kit.parent / "broken"
    shutil.copytree(board_kit, broken)
    (broken / "manifest.json").write_text(json.dumps(manifest))
    r = cli("validate", GAME, "--kit", broken, "--games", "1")
    assert r.exit_code == 1
    assert "board 'board' has 3 page(s), not one for each piece of its [2, 2] grid" in r.output + r.stderr
