"""No sheet label or guide over a piece, on any sheet of any shape: rect cards, rounded
cards, round tokens, pointy-top and flat-top hexes, die-cut paths; A4 and Letter; fronts
and backs of long- and short-edge duplex, gutterfold (landscape) sheets and one-sided
sheets; full sheets and part-filled ones.

Checked on the geometry the imposition hands the writers (each placed piece's trim
outline and the art it shows around it, against each label line's box and each guide),
with Shapely, and read back from a built kit's PDF (the label's text against the pieces
the manifest places)."""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from click.testing import CliRunner
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from cardgen.cli import main
from cardgen.impose import impose_kit
from cardgen.impose.labels import line_box
from cardgen.impose.marks import EDGE_CLEARANCE, TICK_CLEAR, TICK_GAP
from cardgen.impose.outlines import CircleOutline, RectOutline
from cardgen.impose.pathgeom import area_of
from cardgen.impose.shapes import shape_for
from cardgen.impose.sheets import PiecesPage
from cardgen.load.game import load_game
from cardgen.model.components import Deck

SHAPES_GAME = Path(__file__).resolve().parents[2] / "docs" / "examples" / "shapes"
HEX = 2 / math.sqrt(3)
BANNER = "M 0 10 C 0 4 4 0 10 0 L 50 0 L 42 15 L 50 30 L 0 30 Z"

DECKS = {  # (shape, its settings, size, bleed)
    "poker cards": ("rect", {}, (63.0, 88.0), 3.0),
    "40 mm tiles": ("rect", {}, (40.0, 40.0), 3.0),
    "small tiles": ("rect", {}, (12.0, 12.0), 3.0),
    "rounded cards": ("rounded", {"corner_radius": 4.0}, (57.0, 87.0), 3.0),
    "small rounded": ("rounded", {"corner_radius": 3.0}, (25.0, 25.0), 2.0),
    "25 mm tokens": ("circle", {}, (25.0, 25.0), 2.0),
    "40 mm tokens": ("circle", {}, (40.0, 40.0), 3.0),
    "pointy hexes": ("hex", {"hex_top": "pointy"}, (40.0, 40.0 * HEX), 3.0),
    "small pointy hexes": ("hex", {"hex_top": "pointy"}, (30.0, 30.0 * HEX), 2.0),
    "flat hexes": ("hex", {"hex_top": "flat"}, (40.0 * HEX, 40.0), 3.0),
    "small flat hexes": ("hex", {"hex_top": "flat"}, (22.0 * HEX, 22.0), 2.0),
    "banners": ("path", {"outline": BANNER}, (50.0, 30.0), 2.0),
    "tall banners": ("path", {"outline": BANNER}, (30.0, 50.0), 2.0),
}
LAYOUTS = {  # (two-sided, duplex, layout)
    "duplex long": (True, "long", "duplex"),
    "duplex short": (True, "short", "duplex"),
    "gutterfold": (True, "long", "gutterfold"),
    "one-sided": (False, "long", "duplex"),
}


@dataclass(frozen=True)
class Options:
    papers: tuple[str, ...] = ("a4", "letter")
    duplex: str = "long"
    layout: str = "duplex"
    back_offset: tuple[float, float] = (0.0, 0.0)
    proof: bool = False


@dataclass
class Rendered:
    lang: str = "en"
    sheets: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)


def measure(text: str, size_pt: float) -> float:
    return len(text) * size_pt * 25.4 / 72 * 0.6  # a little wider than Noto Sans


def region(outline):
    if isinstance(outline, RectOutline):
        return box(outline.x, outline.y, outline.x + outline.w, outline.y + outline.h)
    if isinstance(outline, CircleOutline):
        return Point(outline.cx, outline.cy).buffer(outline.r, 32)
    return area_of(outline.segments)


@pytest.fixture(scope="module")
def shapes_game():
    return load_game(str(SHAPES_GAME))


def game_of(base, deck: str, two_sided: bool, count: int):
    shape, extra, size, bleed = DECKS[deck]
    template: Deck = base.decks[0]
    cards = (dataclasses.replace(template.cards[0], id="piece", quantity=count),)
    comp = dataclasses.replace(template, id="pieces", shape=shape, size=size, bleed=bleed, cards=cards,
                               back=template.back if two_sided else None, header=None, new_row_per=None, **extra)
    return dataclasses.replace(base, components=(comp,))


def problems(game, options) -> list[str]:
    """Every label line and guide that comes over a piece, or a label that says less
    than it should, on every pieces page the game imposes."""
    found = []
    shape = shape_for(game.decks[0])
    for sheets in impose_kit(game, options, Rendered(), measure):
        for file in sheets.files:
            pw, ph = file.size
            for page in (p for p in file.pages if isinstance(p, PiecesPage)):
                where = f"{sheets.paper} {file.layout} {page.side} {page.sheet}"
                trims = unary_union([region(shape.turned(f.side == "back", f.slot.rotation).outline(
                    f.slot.x, f.slot.y, *f.size)) for f in page.faces])
                art = unary_union([region(f.clip) for f in page.faces])
                for line in page.label:
                    left, top, right, bottom = line_box(line, measure)
                    band = box(left, top, right, bottom)
                    if min(left, top, pw - right, ph - bottom) < EDGE_CLEARANCE - 1e-6:
                        found.append(f"{where}: label {line.text!r} in the printer's band")
                    if band.distance(trims) < TICK_CLEAR - 1e-6:
                        found.append(f"{where}: label {line.text!r} {band.distance(trims):.2f} mm from a trim")
                    if not line.backed and band.intersection(art).area > 1e-6:
                        found.append(f"{where}: label {line.text!r} over a piece's art without its white band")
                said = " ".join(line.text for line in page.label).replace("·", " ").split()
                if said[:2] != ["Shape", "Kit"]:  # a word too long for its room may be cut short
                    found.append(f"{where}: the label says {said}")
                guides = (*page.marks, *page.cuts.ticks, *(t for g in page.cuts.traced for t in g.ticks),
                          *(page.fold.marks if page.fold else ()))
                for m in guides:
                    gap = LineString([(m.x1, m.y1), (m.x2, m.y2)]).distance(trims)
                    if gap < min(TICK_GAP, TICK_CLEAR) - 1e-6:
                        found.append(f"{where}: guide {m} {gap:.2f} mm from a trim")
    return found


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("deck", DECKS)
def test_no_label_or_guide_comes_over_a_piece(shapes_game, deck, layout):
    two_sided, duplex, how = LAYOUTS[layout]
    for count in (100,):  # full sheets and a part-filled last one
        game = game_of(shapes_game, deck, two_sided, count)
        found = problems(game, Options(duplex=duplex, layout=how))
        assert not found, f"{deck}, {count}, {layout}: {len(found)} problems, e.g.\n" + "\n".join(found[:8])


def test_flat_top_hexes_on_a4_keep_their_label_off_the_top_row():
    """The zig-zag top row of a flat-top honeycomb leaves the top margin no room: the
    label goes down the left margin, between the hexes' corners, off their bleed."""
    game = game_of(load_game(str(SHAPES_GAME)), "flat hexes", True, 28)
    (sheets,) = impose_kit(game, Options(papers=("a4",)), Rendered(), measure)
    page = sheets.files[0].pages[0]
    art = unary_union([region(f.clip) for f in page.faces])
    assert page.label and all(not line.upright and not line.backed for line in page.label)
    assert all(box(*line_box(line, measure)).distance(art) > 0 for line in page.label)


def test_a_block_with_no_room_round_it_prints_no_label_rather_than_one_over_its_pieces(shapes_game):
    # 3 × 67.9 mm rows on Letter's 215.9 mm: the bleed 4.1 mm from the long edges, and each
    # half of the sheet holds 3 columns of 43.9 mm with the bleed 4 mm from the short ones
    game = game_of(shapes_game, "poker cards", True, 9)
    game = dataclasses.replace(game, components=(dataclasses.replace(game.decks[0], size=(43.9, 67.9), bleed=2.0),))
    (sheets,) = impose_kit(game, Options(papers=("letter",), layout="gutterfold"), Rendered(), measure)
    (page,) = sheets.files[0].pages
    assert len(page.faces) == 18 and page.label == ()


def top_level_text_boxes(pdf: Path, index: int) -> list[tuple[str, Polygon]]:
    """The text objects drawn on the page itself (not in a face's form): its label lines,
    with their boxes in mm from the top-left corner."""
    doc = pdfium.PdfDocument(pdf)
    page = doc[index]
    height = page.get_height()
    out = []
    textpage = page.get_textpage()
    for obj in page.get_objects(max_depth=0, filter=(raw.FPDF_PAGEOBJ_TEXT,), textpage=textpage):
        left, bottom, right, top = obj.get_bounds()
        mm = 25.4 / 72
        out.append((obj.extract(), box(left * mm, (height - top) * mm, right * mm, (height - bottom) * mm)))
    textpage.close()
    doc.close()
    return out


@pytest.fixture(scope="module")
def flat_kit(tmp_path_factory) -> Path:
    """The shapes example with its terrain hexes flat-top and enough markers for whole sheets."""
    folder = tmp_path_factory.mktemp("flat") / "shapes"
    shutil.copytree(SHAPES_GAME, folder)
    yaml = (folder / "game.yaml").read_text(encoding="utf-8")
    yaml = yaml.replace("top: pointy ", "top: flat ").replace("{id: marker, quantity: 10}", "{id: marker, quantity: 90}")
    (folder / "game.yaml").write_text(yaml, encoding="utf-8")
    out = folder.parent / "out"
    for how in ((), ("--layout", "gutterfold")):
        result = CliRunner().invoke(main, ["build", str(folder), "--out", str(out / "-".join(how or ("duplex",))),
                                           *how])
        assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("layout", ["duplex", "--layout-gutterfold"])
def test_the_printed_labels_keep_off_every_piece(flat_kit, layout):
    folder = flat_kit / layout / "shape-kit"
    game = load_game(str(SHAPES_GAME.parent / "shapes"))
    flat = {d.id: dataclasses.replace(d, hex_top="flat") if d.id == "terrain" else d for d in game.decks}
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    checked = 0
    for entry in (f for f in manifest["files"] if f.get("paper") in ("a4", "letter")):
        for page in (p for p in entry["pages"] if p.get("items")):
            deck = flat[page["component"]]
            shape, bleed = shape_for(deck), deck.bleed
            trims, bleeds = [], []
            for item in page["items"]:
                turned = shape.turned(item["side"] == "back", item["rotation"])
                trims.append(region(turned.outline(item["x"], item["y"], item["w"], item["h"])))
                bleeds.append(region(turned.outline(item["x"], item["y"], item["w"], item["h"], -bleed)))
            texts = top_level_text_boxes(folder / entry["file"], page["page"] - 1)
            assert texts, f"{entry['file']} p{page['page']}: no label"
            for text, ink in texts:
                where = f"{entry['file']} p{page['page']} {text!r}"
                assert ink.distance(unary_union(trims)) >= TICK_CLEAR - 0.05, where
                assert not ink.intersects(unary_union(bleeds)), f"{where} over the pieces' bleed"
                checked += 1
    assert checked > 10
