"""Round pieces: a deck may say `shape: circle` (default `rect`). Its pieces are laid
out with their own bleed, clipped round to their bleed circle, and get circular cut
guides (the trim circle, and four ticks in the corners of each cell pointing at the
centre) besides the straight crop marks; templates see `shape`. Checked from the
loader to the printed page (raster), for any game, not only Horus."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.base.errors import CardgenError
from cardgen.impose.grid import plan_sheet
from cardgen.impose.marks import TICK_GAP, circle_guides
from cardgen.impose.outlines import CircleOutline
from cardgen.load.game import load_game
from tests.conftest import edit_file, game_label

A4 = (210.0, 297.0)

TOKENS = """
  - id: tokens
    kind: deck
    name: component.cards
    shape: circle
    size: [20, 20]
    bleed: 3
    front: token.yaml.j2
    cards:
      - id: "token-{n}"
        for_each:
          n: {range: [1, 5]}
"""

# fills its whole bleed square, so any rounding comes from the writer; writes its shape
TOKEN_TEMPLATE = """\
- {rect: {x: {{ -bleed }}, y: {{ -bleed }}, w: {{ w + 2 * bleed }}, h: {{ h + 2 * bleed }}, fill: "#2d5c9e"}}
- {text: {x: 4, y: 7, w: {{ w - 8 }}, h: 6, text: {{ shape|q }}, size: 7, color: "#ffffff"}}
"""


def with_tokens(game_copy, shape_line: str = "shape: circle", size: str = "[20, 20]") -> Path:
    folder = game_copy("mini_game")
    text = TOKENS.replace("shape: circle", shape_line).replace("[20, 20]", size)
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text(encoding="utf-8") + text, encoding="utf-8")
    (folder / "templates" / "token.yaml.j2").write_text(TOKEN_TEMPLATE, encoding="utf-8")
    return folder


# --------------------------------------------------------------------------- the data
def test_shape_defaults_to_rect_and_circle_is_kept(game_copy):
    game = load_game(with_tokens(game_copy))
    assert game.component("cards").shape == "rect"
    assert game.component("tokens").shape == "circle"


def test_an_unknown_shape_is_a_one_line_error_at_its_line(game_copy, cli):
    folder = with_tokens(game_copy, "shape: hexagon")
    r = cli("build", folder, "--out", folder / "out")
    assert r.exit_code == 1
    line = next(n for n, t in enumerate((folder / "game.yaml").read_text().splitlines(), 1) if "hexagon" in t)
    assert f"{game_label(folder)}:{line}:12: 'shape' in component 'tokens' must be one of rect, circle, hex, " \
           f"rounded, path, found 'hexagon'" in r.output
    assert "Traceback" not in r.output


def test_a_round_piece_needs_a_square_size(game_copy):
    folder = with_tokens(game_copy, size="[20, 24]")
    with pytest.raises(CardgenError) as exc:
        load_game(folder)
    assert "component 'tokens' has shape circle, so its size must be [diameter, diameter], found [20, 24]" \
        in str(exc.value)


def test_a_quantity_may_name_a_count_under_data(game_copy):
    folder = game_copy("mini_game")
    edit_file(folder / "game.yaml", "components:", "data:\n  jokers: 3\ncomponents:")
    edit_file(folder / "game.yaml", "quantity: 2", 'quantity: "{jokers}"')
    assert load_game(folder).component("cards").cards[-1].quantity == 3


# --------------------------------------------------------------------------- the geometry
def test_round_pieces_always_keep_their_own_bleed():
    # 16 mm tokens: a butted grid would hold more, so rect pieces are butted …
    assert plan_sheet(A4, (16, 16), 3).gutter == 0
    # … but round ones keep a gutter of two bleeds, so each has its bleed ring
    plan = plan_sheet(A4, (16, 16), 3, own_bleed=True)
    assert plan.gutter == 6 and plan.per_sheet == 9 * 13


def test_circle_guides_ring_the_trim_and_tick_the_corners_outside_the_bleed():
    plan = plan_sheet(A4, (16, 16), 3, own_bleed=True)
    guides = circle_guides(plan.slots[:2], (16, 16), 3)
    g, circle = guides[0], guides[0].outline
    s = plan.slots[0]
    assert isinstance(circle, CircleOutline)
    assert (circle.cx, circle.cy, circle.r) == pytest.approx((s.x + 8, s.y + 8, 8))
    assert len(g.ticks) == 4
    for t in g.ticks:
        near = math.hypot(t.x1 - circle.cx, t.y1 - circle.cy)
        far = math.hypot(t.x2 - circle.cx, t.y2 - circle.cy)
        assert near == pytest.approx(8 + 3 + TICK_GAP)          # outside the bleed ring
        assert far > near + 1                                   # long enough to use
        # inside the piece's own bleed square: never on a neighbour's art
        assert s.x - 3 < t.x2 < s.x + 19 and s.y - 3 < t.y2 < s.y + 19
        # on a diagonal, pointing at the centre
        assert abs(abs(t.x2 - circle.cx) - abs(t.y2 - circle.cy)) < 1e-9
    right = guides[1].outline
    assert (right.cx, right.cy, right.r) == pytest.approx((circle.cx + 16 + 6, circle.cy, 8))


# --------------------------------------------------------------------------- the print
SCALE = 8  # px per mm ≈ 203 dpi


def token_page(folder, cli):
    """Build the token game on A4; the manifest's page of tokens, its text, and the page
    rendered at SCALE px per mm."""
    out = folder / "out"
    r = cli("build", folder, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert r.exit_code == 0, r.output
    kit = out / "mini"
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    entry = next(f for f in manifest["files"] if f["kind"] == "sheets")
    page = next(p for p in entry["pages"] if p["component"] == "tokens")
    pdf_page = pdfium.PdfDocument(kit / entry["file"])[page["page"] - 1]
    img = pdf_page.render(scale=SCALE * 25.4 / 72).to_pil().convert("RGB")
    return page, pdf_page.get_textpage().get_text_range(), img


def test_a_built_round_token_is_clipped_round_ringed_and_knows_its_shape(game_copy, cli):
    page, text, img = token_page(with_tokens(game_copy), cli)
    item = page["items"][0]
    assert "circle" in text  # the template saw `shape`
    scale = SCALE

    def px(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return img.getpixel((round(x_mm * scale), round(y_mm * scale)))

    cx, cy, r_mm = item["x"] + 10, item["y"] + 10, 10
    assert px(cx, cy - 5) == pytest.approx((0x2d, 0x5c, 0x9e), abs=8)  # the art
    # inside the bleed ring, past the trim: still art (the bleed)
    assert px(cx + 11.5, cy) == pytest.approx((0x2d, 0x5c, 0x9e), abs=8)
    # the corner of the bleed square is outside the bleed circle: clipped to paper white
    assert px(item["x"] - 2.5, item["y"] - 2.5) == (255, 255, 255)
    # the trim circle: a dark hairline (halo in white) somewhere on the circle at 45°
    d = math.sqrt(0.5)
    ring = [px(cx + (r_mm + k / scale) * d, cy - (r_mm + k / scale) * d) for k in (-1, 0, 1)]
    assert any(max(p) - min(p) < 12 and sum(p) < 400 for p in ring), ring  # grey on blue art
    # a tick in the corner: dark pixels on the diagonal beyond the bleed ring
    tick = [px(cx - t * d, cy - t * d) for t in (r_mm + 3 + TICK_GAP + 0.6, r_mm + 3 + TICK_GAP + 1.2)]
    assert all(sum(p) < 400 for p in tick), tick


def test_rect_pieces_are_not_rounded(game_copy, cli):
    page, text, img = token_page(with_tokens(game_copy, "shape: rect"), cli)
    assert "rect" in text
    scale = SCALE
    # the outermost piece's top-left trim corner keeps its art (a butted block's outer bleed)
    item = min(page["items"], key=lambda i: (i["y"], i["x"]))
    assert img.getpixel((round((item["x"] + 0.4) * scale), round((item["y"] + 0.4) * scale))) == \
        pytest.approx((0x2d, 0x5c, 0x9e), abs=8)


def test_round_pieces_with_backs_build_in_duplex_and_gutterfold(game_copy, cli):
    folder = with_tokens(game_copy)
    edit_file(folder / "game.yaml", "    front: token.yaml.j2\n", "    front: token.yaml.j2\n    back: token.yaml.j2\n")
    for layout in ("duplex", "gutterfold"):
        out = folder / f"out-{layout}"
        r = cli("build", folder, "--out", out, "--lang", "en", "--paper", "letter", "--layout", layout, "--jobs", "1")
        assert r.exit_code == 0, r.output
        manifest = json.loads((out / "mini" / "manifest.json").read_text(encoding="utf-8"))
        items = [i for f in manifest["files"] if f["kind"] == "cards" for p in f["pages"]
                 if p["component"] == "tokens" for i in p["items"]]
        assert sorted((i["card"], i["side"]) for i in items) == sorted(
            (f"token-{n}", side) for n in range(1, 6) for side in ("front", "back")), layout


def test_images_of_round_pieces_are_round_and_the_preview_packs_mixed_sizes(game_copy, tmp_path):
    from PIL import Image

    from cardgen.export import face_images, preview

    game = load_game(with_tokens(game_copy))
    faces = face_images(game, "en", 100, trim_only=True, component="tokens")
    img = faces[0].image
    assert img.getpixel((1, 1)) == (255, 255, 255)  # outside the trim circle: paper
    assert img.getpixel((img.width // 2, 3)) == pytest.approx((0x2d, 0x5c, 0x9e), abs=8)
    # 63×88 cards and 20 mm tokens on one contact sheet, without big holes
    out = preview(game, "en", tmp_path / "p.png")
    sheet = Image.open(out)
    every = face_images(game, "en", 60, trim_only=True, distinct=True)
    area = sum(f.image.width * f.image.height for f in every)
    assert area / (sheet.width * sheet.height) > 0.3, sheet.size


def test_cardgen_list_says_a_deck_is_round(game_copy, cli):
    folder = with_tokens(game_copy)
    result = cli("list", "--data", folder)
    assert re.search(r"^\s+tokens\s+5 × 20 mm round one-sided\s+Cards$", result.stdout, re.M), result.stdout
    assert re.search(r"^\s+cards\s+5 × 63×88 mm two-sided\s+Cards$", result.stdout, re.M), result.stdout
