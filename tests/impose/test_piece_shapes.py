"""Hex, rounded and path pieces (impose.shapes, impose.honeycomb, impose.pathgeom), and
group clipping: the sheet plans, the outlines, and the built example kit
(docs/examples/shapes) read back as pixels (pypdfium2) and as PDF objects (pypdf)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

from cardgen.base.errors import CardgenError, Collector
from cardgen.impose.grid import Slot, plan_sheet
from cardgen.impose.honeycomb import HoneycombPlan, hex_box, plan_honeycomb
from cardgen.impose.outlines import PathOutline
from cardgen.impose.papers import PAPERS_MM
from cardgen.impose.shapes import CutPath, Hex, Rounded, normalised_path
from cardgen.layout.ops import parse_ops
from cardgen.load.game import load_game
from tests.conftest import edit_file, game_label

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "shapes"
A4 = PAPERS_MM["a4"]
SCALE = 8  # px per mm ≈ 203 dpi
BANNER = "M 0 10 C 0 4 4 0 10 0 L 50 0 L 42 15 L 50 30 L 0 30 Z"

FOREST, SEA, CLAY, PAPER, SAND = (0x2F, 0x6B, 0x3A), (0x2D, 0x5C, 0x9E), (0xC4, 0x62, 0x2D), (0xF7, 0xF1, 0xE3), \
    (0xD9, 0xB6, 0x5F)
WHITE = (255, 255, 255)


# --- sheet plans -------------------------------------------------------------------------

def test_hexes_pack_in_offset_rows_and_beat_a_rectangle_each():
    plan = plan_honeycomb(A4, 40, True, 3)
    w, h = hex_box(40, True)
    assert (w, round(h, 3)) == (40, 46.188)
    assert len(plan.slots) == 28  # 7 rows of 4, every other row half a hex to the right
    boxed = plan_sheet(A4, (w, h), 3, own_bleed=True)  # a rectangle with its own bleed each
    # rectangles touching: cut lines through the corners' art, which hexes cannot have
    butted = plan_sheet(A4, (w, h), 3)
    assert (boxed.per_sheet, butted.per_sheet) == (20, 24)
    rows: dict[float, list[float]] = {}
    for s in plan.slots:
        rows.setdefault(round(s.y, 6), []).append(s.x)
    ys = sorted(rows)
    r = 40 / math.sqrt(3)
    assert all(b - a == pytest.approx(1.5 * r) for a, b in zip(ys, ys[1:]))  # rows 1.5 R apart
    assert rows[ys[1]][0] - rows[ys[0]][0] == pytest.approx(20)  # shifted by half a hex
    assert all(b - a == pytest.approx(40) for xs in rows.values() for a, b in zip(xs, xs[1:]))  # edges shared
    left = min(s.x for s in plan.slots) - 3
    right = max(s.x for s in plan.slots) + w + 3
    assert left == pytest.approx(A4[0] - right)  # centred, one bleed round the block, inside the margin
    assert left >= 4 and plan.marks == ()


def test_flat_top_hexes_pack_in_offset_columns():
    plan = plan_honeycomb(A4, 30, False, 2)
    w, h = hex_box(30, False)
    assert w > h == 30
    cols: dict[float, list[float]] = {}
    for s in plan.slots:
        cols.setdefault(round(s.x, 6), []).append(s.y)
    xs = sorted(cols)
    assert xs[1] - xs[0] == pytest.approx(1.5 * 30 / math.sqrt(3))
    assert cols[xs[1]][0] - cols[xs[0]][0] == pytest.approx(15)
    assert len(plan.slots) > plan_sheet(A4, (w, h), 2, own_bleed=True).per_sheet


def test_a_hex_shows_bleed_only_on_edges_without_a_neighbour():
    plan = plan_honeycomb(A4, 40, True, 3)
    shape = Hex(pointy=True)
    middle = next(s for s in plan.slots if s.row == 2 and 1 < s.col < plan.cols - 3)
    inner = shape.placed_clip(plan, middle, {(s.col, s.row) for s in plan.slots}, (3, 3, 3, 3))
    assert isinstance(inner, PathOutline)
    assert inner.bbox() == pytest.approx(shape.outline(middle.x, middle.y, 40, plan.item[1]).bbox())  # no bleed
    corner = plan.slots[0]
    clip = shape.placed_clip(plan, corner, {(s.col, s.row) for s in plan.slots}, (3, 3, 3, 3))
    left, top, right, _ = clip.bbox()
    assert left == pytest.approx(corner.x - 3)  # its left edge has no neighbour: bleed
    assert right == pytest.approx(corner.x + 40)  # its right edge is shared: none


def test_hex_cut_guides_trace_every_hex_and_tick_only_the_outer_corners():
    plan = plan_honeycomb(A4, 40, True, 3)
    guides = Hex(True).cut_guides(plan.slots, plan.item, 3, False)
    assert len(guides.traced) == len(plan.slots)
    assert guides.ticks
    hexes = [Hex(True).outline(s.x, s.y, *plan.item) for s in plan.slots]
    for m in guides.ticks:  # each tick stays outside every hex, in the block's outer bleed
        for x, y in ((m.x1, m.y1), (m.x2, m.y2)):
            assert all(not _inside(h.points(), x, y) for h in hexes)


def _inside(poly, x, y) -> bool:
    """Point in polygon (even-odd)."""
    n, hit = len(poly), False
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_a_rounded_outline_offsets_its_radius_with_it():
    shape = Rounded(4)
    trim = shape.outline(10, 10, 57, 87)
    bleed = shape.outline(10, 10, 57, 87, -3)
    assert trim.bbox() == pytest.approx((10, 10, 67, 97))
    assert bleed.bbox() == pytest.approx((7, 7, 70, 100))
    assert bleed.segments[0][1:] == pytest.approx((7 + 7, 7))  # its corners' radius is 4 + 3


def test_a_path_outline_is_stretched_to_its_size_and_offset_along_itself():
    segs = normalised_path("M 0 0 L 100 0 L 50 60 Z", (40, 30))
    shape = CutPath(segs)
    assert shape.trim_bounds(40, 30) == pytest.approx((0, 0, 40, 30))
    left, top, right, bottom = shape.outline(0, 0, 40, 30, -2).bbox()
    assert (left, top, right) == pytest.approx((-2, -2, 42), abs=0.01)
    assert bottom == pytest.approx(32, abs=0.05)  # round join at the tip: 2 mm beyond it
    safe = shape.outline(0, 0, 40, 30, 3).bbox()
    assert safe[0] > 3 and safe[3] < 30


def test_a_path_back_is_the_mirror_of_its_front_and_a_turned_one_is_turned():
    shape = CutPath(normalised_path(BANNER, (50, 30)))
    back = shape.turned(True, 0)
    turned = shape.turned(True, 180)
    notch = (42, 15)
    assert notch in shape.outline(0, 0, 50, 30).points()
    assert (8, 15) in back.outline(0, 0, 50, 30).points()
    assert (42, 15) in turned.outline(0, 0, 50, 30).points()  # mirrored twice over x, once over y
    assert (0, 30 - 10) in turned.outline(0, 0, 50, 30).points()  # the rounded corner: bottom left
    assert shape.turned(False, 0) is shape and shape.turned(True, 0) is back


# --- loading: settings and their errors -------------------------------------------------

@pytest.fixture
def example(tmp_path) -> Path:
    dst = tmp_path / "shapes"
    shutil.copytree(EXAMPLE, dst)
    return dst


def _error(folder: Path) -> str:
    with pytest.raises(CardgenError) as exc:
        load_game(folder)
    return str(exc.value)


def test_the_example_loads_each_shape_with_its_settings(example):
    game = load_game(example)
    terrain, markers, quests, banners = (game.component(c) for c in ("terrain", "markers", "quests", "banners"))
    assert (terrain.shape, terrain.hex_top) == ("hex", "pointy")
    assert terrain.size == pytest.approx((40, 80 / math.sqrt(3)))
    assert markers.size == pytest.approx((44 / math.sqrt(3), 22))
    assert (quests.shape, quests.corner_radius) == ("rounded", 4)
    assert (banners.shape, banners.outline) == ("path", BANNER)


def _line(folder: Path, text: str) -> int:
    return next(n for n, t in enumerate((folder / "game.yaml").read_text().splitlines(), 1) if text in t)


def test_a_hex_size_is_one_number_and_the_message_says_it_is_flat_to_flat(example, cli):
    edit_file(example / "game.yaml", "size: 40 ", "size: [40, 46] ")
    r = cli("build", example, "--out", example / "out")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert (f"{game_label(example)}:{_line(example, 'size: [40, 46]')}:11: 'size' in component 'terrain' (shape "
            f"hex) must be the hex's flat-to-flat width in mm, one number from 5 to 600 such as 50, found "
            f"a list") in r.output
    assert not (example / "out").exists()


def test_a_zero_size_hex_is_refused(example):
    edit_file(example / "game.yaml", "size: 40 ", "size: 0 ")
    assert "'size' in component 'terrain' (shape hex) must be the hex's flat-to-flat width in mm" in _error(example)


def test_a_radius_larger_than_half_the_side_is_refused_at_its_line(example):
    edit_file(example / "game.yaml", "radius: 4 ", "radius: 29 ")
    msg = _error(example)
    assert f"game.yaml:{_line(example, 'radius: 29')}:" in msg
    assert "'radius' in component 'quests' (29 mm) is larger than half the piece's shorter side (28.5 mm of " \
           "57×87 mm)" in msg


def test_bad_path_data_is_one_line_at_its_line(example):
    edit_file(example / "game.yaml", BANNER, "M 0 0 L 50 0 X 3")
    msg = _error(example)
    assert f"game.yaml:{_line(example, 'X 3')}:" in msg
    assert "'outline' in component 'banners': unexpected characters in path data: 'X'" in msg


def test_a_path_that_crosses_itself_or_encloses_nothing_is_refused(example):
    edit_file(example / "game.yaml", BANNER, "M 0 0 L 50 30 L 50 0 L 0 30 Z")
    assert "'outline' in component 'banners' crosses itself" in _error(example)
    edit_file(example / "game.yaml", "M 0 0 L 50 30 L 50 0 L 0 30 Z", "M 0 0 L 50 30")
    assert "'outline' in component 'banners' encloses no area" in _error(example)


def test_a_shape_setting_on_another_shape_is_refused(example):
    edit_file(example / "game.yaml", "shape: rounded", "shape: rect")
    assert "'radius' in component 'quests' is for shape rounded, but the shape is rect" in _error(example)


def test_a_rounded_deck_needs_a_radius_and_a_path_deck_an_outline(example):
    edit_file(example / "game.yaml", "radius: 4 ", "")
    edit_file(example / "game.yaml", f'outline: "{BANNER}"', "")
    msg = _error(example)
    assert "component 'quests' has shape rounded, so it needs 'radius'" in msg
    assert "component 'banners' has shape path, so it needs 'outline'" in msg


def test_group_clip_takes_path_data_or_a_fitted_shape_and_says_what_is_wrong():
    errors = Collector()
    ops = parse_ops([{"group": {"clip": "M 0 0 L 10 0 L 5 8 Z", "ops": []}},
                     {"group": {"clip": [0, 0, 20, 10], "clip_shape": "rounded", "clip_radius": 3, "ops": []}}],
                    "t.yaml.j2", errors)
    assert not errors.errors and len(ops) == 2
    for bad, said in (({"clip": "M 0 0 Q 1"}, "'clip' of group is not usable path data: command Q needs 4 numbers"),
                      ({"clip_shape": "hex"}, "'clip_shape' of group needs 'clip' to be a box"),
                      ({"clip": [0, 0, 20, 10], "clip_shape": "rounded", "clip_radius": 6},
                       "'clip_radius' of group (clip_shape rounded) must be from 0 to half the clip box's shorter "
                       "side (5 mm), found 6"),
                      ({"clip": [0, 0, 20, 10], "clip_shape": "star"}, "'clip_shape' of group must be one of")):
        errors = Collector()
        parse_ops([{"group": {**bad, "ops": []}}], "t.yaml.j2", errors)
        assert len(errors.errors) == 1 and said in str(errors.errors[0]), errors.errors


# --- the built example: pixels and PDF objects ---------------------------------------------

@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    from click.testing import CliRunner

    from cardgen.cli import main

    out = tmp_path_factory.mktemp("shapes")
    r = CliRunner().invoke(main, ["build", str(EXAMPLE), "--out", str(out), "--paper", "a4", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return out / "shape-kit"


def _pages(kit: Path, kind: str = "cards"):
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    entry = next(f for f in manifest["files"] if f["kind"] == kind)
    return kit / entry["file"], entry["pages"]


class Raster:
    def __init__(self, pdf: Path, page: int):
        self.page = pdfium.PdfDocument(pdf)[page - 1]
        self.img = self.page.render(scale=SCALE * 25.4 / 72).to_pil().convert("RGB")

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        return self.img.getpixel((round(x * SCALE), round(y * SCALE)))


def _is(colour, want, tol=10) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(colour, want))


def _item(page, **match):
    return next(i for i in page["items"] if all(i[k] == v for k, v in match.items()))


def test_built_hexes_pack_in_a_honeycomb_with_bleed_along_the_outline_and_no_crop_marks(kit):
    pdf, pages = _pages(kit)
    page = pages[0]
    assert (page["component"], page["side"], len(page["items"])) == ("terrain", "front", 28)
    items = page["items"]
    xs_by_row: dict[int, list[float]] = {}
    for it in items:
        xs_by_row.setdefault(it["row"], []).append(it["x"])
    assert min(xs_by_row[1]) - min(xs_by_row[0]) == pytest.approx(20, abs=0.01)  # offset rows
    ras = Raster(pdf, 1)
    f, r = 40, 40 / math.sqrt(3)
    first = _item(page, slot=0)
    cx, cy = first["x"] + f / 2, first["y"] + r
    assert _is(ras.at(cx, cy - 20), FOREST)  # the art (its outer band)
    # beyond its upper-left edge (no neighbour there) along the edge's normal: bleed, then paper
    nx, ny = math.cos(math.radians(-120)), math.sin(math.radians(-120))
    assert _is(ras.at(cx + nx * (f / 2 + 1.5), cy + ny * (f / 2 + 1.5)), FOREST)
    assert ras.at(cx + nx * (f / 2 + 4), cy + ny * (f / 2 + 4)) == WHITE
    # the bleed square's corner, outside the bleed hexagon: paper, not art
    assert ras.at(first["x"] - 2, first["y"] - 2) == WHITE
    # across a shared edge the neighbour's art continues: no paper between them
    second = _item(page, slot=1)
    assert second["x"] - first["x"] == pytest.approx(f)
    for dx in (-0.6, 0.6):
        assert _is(ras.at(first["x"] + f + dx, cy), FOREST)
    # no straight crop mark anywhere above or below the block (where a grid's would run)
    top = min(i["y"] for i in items) - 3
    bottom = max(i["y"] for i in items) + 2 * r + 3
    left, right = min(i["x"] for i in items), max(i["x"] for i in items) + f
    for y in (top - 0.5, top - 2, top - 4, bottom + 0.5, bottom + 2, bottom + 4):
        assert all(ras.at(left + k * 0.25, y) == WHITE for k in range(int((right - left) / 0.25)))
    # a tick in the bleed at the top corner of the first hex: a grey hairline on the green art
    tick = ras.at(cx, cy - r - 1.8)
    assert max(tick) - min(tick) < 12 and sum(tick) < 450, tick
    assert _is(ras.at(cx + 1, cy - r - 1.8), FOREST)


def test_built_hex_backs_mirror_the_fronts(kit):
    _, pages = _pages(kit)
    front, back = pages[0], pages[1]
    assert back["side"] == "back"
    for f in front["items"][:6]:
        b = _item(back, card=f["card"], copy=f["copy"])
        assert b["x"] == pytest.approx(A4[0] - f["x"] - f["w"], abs=0.002) and b["y"] == f["y"]


def test_rounded_pieces_bleed_round_their_corners(kit):
    pdf, pages = _pages(kit)
    n, page = next((n, p) for n, p in enumerate(pages, 1) if p["component"] == "quests" and p["side"] == "front")
    ras = Raster(pdf, n)
    it = page["items"][0]
    x, y = it["x"], it["y"]
    d = 4 - 4 / math.sqrt(2)  # the trim corner's arc is this far in from the box corner along the diagonal
    assert _is(ras.at(x + d - 1.2, y + d - 1.2), PAPER)  # just outside the rounded trim: bleed art
    assert _is(ras.at(x - 1.5, y + 20), PAPER)  # beside a straight edge: bleed art
    assert ras.at(x - 2.5, y - 2.5) == WHITE  # a square bleed would have art here: the round one has not
    # the star window: a group clipped to path data shows its art inside the star only
    sx, sy = x + it["w"] / 2 - 15, y + 14
    assert _is(ras.at(sx + 15, sy + 6), SEA) and _is(ras.at(sx + 15, sy + 20), SAND)
    assert _is(ras.at(sx + 2, sy + 2), PAPER) and _is(ras.at(sx + 28, sy + 27), PAPER)


def test_a_rounded_clip_group_cuts_the_corners_on_the_backs(kit):
    pdf, pages = _pages(kit)
    n, page = next((n, p) for n, p in enumerate(pages, 1) if p["component"] == "quests" and p["side"] == "back")
    ras = Raster(pdf, n)
    it = page["items"][0]
    assert _is(ras.at(it["x"] + 8.3, it["y"] + 8.3), FOREST)  # cut off by the clip's 3 mm corner
    assert _is(ras.at(it["x"] + 9.5, it["y"] + 12), SAND)


def test_path_pieces_bleed_along_their_outline_and_backs_show_it_mirrored(kit):
    pdf, pages = _pages(kit)
    nf, front = next((n, p) for n, p in enumerate(pages, 1) if p["component"] == "banners" and p["side"] == "front")
    nb, back = nf + 1, pages[nf]
    assert back["component"] == "banners" and back["side"] == "back"
    fr, br = Raster(pdf, nf), Raster(pdf, nb)
    f0 = _item(front, slot=0)
    b0 = _item(back, card=f0["card"], copy=f0["copy"])
    x, y = f0["x"], f0["y"]
    assert _is(fr.at(x + 20, y + 15), CLAY)
    assert _is(fr.at(x + 46, y + 15), WHITE)  # the notch, on the right of the front: paper
    assert _is(fr.at(x + 41.2, y + 15), CLAY)  # … with bleed along its edge
    assert _is(fr.at(x + 3, y + 15), CLAY)
    assert _is(fr.at(x - 1, y + 15), CLAY) and fr.at(x - 3, y + 15) == WHITE  # 2 mm bleed along the left edge
    assert fr.at(x - 1.5, y - 1.5) == WHITE  # outside the rounded corner's bleed
    bx, by = b0["x"], b0["y"]
    assert bx == pytest.approx(A4[0] - x - 50, abs=0.002)
    assert _is(br.at(bx + 4, by + 15), WHITE)  # the back's notch is on its left
    assert _is(br.at(bx + 47, by + 15), SEA)
    assert br.at(bx + 51.5, by - 1.5) == WHITE  # and its rounded corner top right


def test_the_print_shop_file_has_the_outline_box_as_trim_box_and_a_cut_contour(kit):
    mm = 72 / 25.4
    boxes = {}
    shops = sorted(kit.glob("shape-kit-en-printshop-*.pdf"))
    assert [p.name for p in shops] == [
        "shape-kit-en-printshop-25.4x22mm-hex-one-sided.pdf", "shape-kit-en-printshop-40x46.2mm-hex.pdf",
        "shape-kit-en-printshop-50x30mm-diecut.pdf", "shape-kit-en-printshop-57x87mm-rounded.pdf"]
    for page in (page for path in shops for page in pypdf.PdfReader(path).pages):
        trim = tuple(round(float(v) / mm, 2) for v in page.trimbox)
        media = tuple(round(float(v) / mm, 2) for v in page.mediabox)
        boxes.setdefault((trim, media), 0)
        boxes[(trim, media)] += 1
        spaces = page["/Resources"]["/ColorSpace"]
        sep = next(v.get_object() for v in spaces.values())
        assert sep[0] == "/Separation" and sep[1] == "/CutContour"
        content = page.get_contents().get_data().decode("latin-1")
        assert "/CutContour CS" in content or "CutContour" in json.dumps(list(spaces))
    h = round(80 / math.sqrt(3), 2)
    assert boxes[((3.0, 3.0, 43.0, round(3 + h, 2)), (0.0, 0.0, 46.0, round(6 + h, 2)))] == 60  # 30 hexes, 2 sides
    assert boxes[((2.0, 2.0, 52.0, 32.0), (0.0, 0.0, 54.0, 34.0))] == 8  # 4 banners, 2 sides
    assert boxes[((3.0, 3.0, 60.0, 90.0), (0.0, 0.0, 63.0, 93.0))] == 6
    # the die line of a banner's back is mirrored: its notch on the left
    banners = kit / "shape-kit-en-printshop-50x30mm-diecut.pdf"
    front, back = Raster(banners, 1), Raster(banners, 2)
    assert front.at(2 + 47, 2 + 15) == WHITE and not _is(front.at(2 + 3, 2 + 15), WHITE)
    assert back.at(2 + 3, 2 + 15) == WHITE and not _is(back.at(2 + 47, 2 + 15), WHITE)


def test_one_sided_flat_hexes_honeycomb_on_the_sheets_file(kit):
    pdf, pages = _pages(kit, "sheets")
    page = next(p for p in pages if p["component"] == "markers")
    items = page["items"]
    assert len(items) == 10
    cols: dict[float, list[float]] = {}
    for it in items:
        cols.setdefault(round(it["x"], 2), []).append(it["y"])
    xs = sorted(cols)
    assert len(xs) > 1 and abs(cols[xs[1]][0] - cols[xs[0]][0]) == pytest.approx(11, abs=0.01)
    ras = Raster(pdf, page["page"])
    it = items[0]
    assert _is(ras.at(it["x"] + it["w"] / 2, it["y"] + 3), CLAY)


@pytest.mark.parametrize("how", [("--layout", "gutterfold"), ("--duplex", "short")])
def test_every_shape_builds_in_gutterfold_and_short_edge(tmp_path, cli, how):
    r = cli("build", EXAMPLE, "--out", tmp_path, "--paper", "letter", "--jobs", "1", *how)
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "shape-kit" / "manifest.json").read_text(encoding="utf-8"))
    cards = next(f for f in manifest["files"] if f["kind"] == "cards")
    placed = {(p["component"], i["side"]) for p in cards["pages"] for i in p["items"]}
    assert {("banners", "front"), ("banners", "back"), ("terrain", "back")} <= placed


def test_a_short_edge_back_of_a_path_piece_is_its_outline_turned_over_top_to_bottom():
    shape = CutPath(normalised_path(BANNER, (50, 30)))
    slot = Slot(0, 0, 0, 10, 20, 180)
    clip = shape.turned(True, slot.rotation).placed_clip(
        plan_sheet(A4, (50, 30), 2, own_bleed=True), slot, {(0, 0)}, (2, 2, 2, 2))
    # turned over the short edge, the page's view is the front flipped top to bottom: the
    # notch stays on the right, the rounded corner goes to the bottom left
    assert _inside(clip.points(), 10 + 20, 20 + 15)
    assert not _inside(clip.points(), 10 + 47, 20 + 15)
    assert _inside(clip.points(), 10 + 0.5, 20 + 0.5) and not _inside(clip.points(), 10 - 1.5, 20 + 31.5)
    assert isinstance(plan_honeycomb(A4, 40, True, 3), HoneycombPlan)


@pytest.mark.parametrize("pointy", [True, False])
def test_the_honeycomb_lattice_names_exactly_the_hexes_across_each_edge(pointy):
    plan = plan_honeycomb(A4, 30, pointy, 2)
    steps = ({(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)} if pointy
             else {(1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1)})
    for a in plan.slots[:40]:
        for b in plan.slots:
            touching = math.hypot(a.x - b.x, a.y - b.y) == pytest.approx(30)
            assert touching == ((b.col - a.col, b.row - a.row) in steps), (a, b)


def test_an_outline_longer_than_any_die_needs_is_refused(example):
    edit_file(example / "game.yaml", BANNER, "M 0 0 " + "L 1 1 " * 4000 + "L 0 5 Z")
    assert "'outline' in component 'banners' is 24,013 characters long; at most 20,000" in _error(example)
