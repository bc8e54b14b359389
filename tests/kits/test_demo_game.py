"""The demo game of the designer's features (docs/examples/demo, *Lantern Reef*) built as
a designer would print it, and its PDFs read back.

It holds cards from a CSV file and from a sheet of an XLSX workbook, hex tiles, rounded
and die-cut (path) pieces, a board, per-card fronts and backs, rich text with icons from
a PNG, an SVG and a glyph in two languages, SVG art and an ink-saver palette. Built on
A4 and Letter, long and short edge and gutterfold, its files are read back: the
print-shop file's TrimBox per outline, each back behind its front (manifest and
pixels), the icons in the text layer and in the raster, every font embedded."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pypdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from textlayer import char_boxes, find_text, text_runs

from cardgen.cli import main
from cardgen.impose.papers import PAPERS_MM
from cardgen.layout.textfit import Run, break_runs
from tests.conftest import edit_file

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "docs" / "examples" / "demo"
GAME = "lantern-reef"
SCALE = 8  # px per mm ≈ 203 dpi
MM = 72 / 25.4
HEX_H = round(100 / math.sqrt(3), 2)  # a 50 mm pointy hex's corner-to-corner height

DEEP, REEF, STORM, FOAM = (0x12, 0x3B, 0x5C), (0x1F, 0x73, 0x72), (0x2B, 0x2D, 0x42), (0xFB, 0xF7, 0xEE)
CORAL_WORDS, GOLD = (0xE0, 0x67, 0x4F), (0xE2, 0xA9, 0x3B)
BASE14 = {"Courier", "Helvetica", "Times-Roman", "Symbol", "ZapfDingbats", "Times", "Arial"}


def _build(out: Path, *options: str, folder: Path = DEMO) -> Path:
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(out), "--jobs", "1", *options])
    assert result.exit_code == 0, result.output
    return out / GAME


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, Path]:
    """The demo built four ways: long edge (both languages and papers, the print-shop
    file), short edge (French), gutterfold (English) and with the ink saver."""
    base = tmp_path_factory.mktemp("demo")
    return {
        "long": _build(base / "long"),
        "short": _build(base / "short", "--duplex", "short", "--lang", "fr"),
        "gutterfold": _build(base / "fold", "--layout", "gutterfold", "--lang", "en"),
        "ink": _build(base / "ink", "--ink-saver", "--lang", "en", "--paper", "a4"),
    }


def _entry(kit: Path, name: str) -> dict:
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    return next(f for f in manifest["files"] if f["file"] == name)


class Raster:
    """A page rendered at SCALE px/mm; colours read at mm from its top-left."""

    def __init__(self, pdf: Path, page: int, scale: float = SCALE):
        self.scale = scale
        doc = pdfium.PdfDocument(pdf)
        self.img = doc[page - 1].render(scale=scale * 25.4 / 72).to_pil().convert("RGB")
        doc.close()

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        return self.img.getpixel((round(x * self.scale), round(y * self.scale)))

    def region(self, left: float, top: float, right: float, bottom: float) -> list[tuple[int, int, int]]:
        s = self.scale
        crop = self.img.crop((round(left * s), round(top * s), round(right * s), round(bottom * s)))
        return [tuple(p) for p in np.asarray(crop).reshape(-1, 3).tolist()]


# the print-shop files, one per trim size and outline (crew, treasures, reef, pennants)
SHOP_FILES = ("printshop-63x88mm", "printshop-50x70mm-rounded", "printshop-50x57.7mm-hex",
              "printshop-44x26mm-diecut")


def _is(colour, want, tol=12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(colour, want))


def test_the_decks_come_from_the_csv_and_the_workbook(kits):
    entry = _entry(kits["long"], f"{GAME}-en-a4-cards.pdf")
    fronts: dict[str, list[str]] = {}
    for page in entry["pages"]:
        if page["side"] == "front":
            fronts.setdefault(page["component"], []).extend(i["card"] for i in page["items"])
    # crew.csv: copies 3 + 2 + 2 + 2; treasures.xlsx, sheet Treasures: quantity 4 + 3 + 2
    assert fronts["crew"] == ["diver"] * 3 + ["lantern"] * 2 + ["net"] * 2 + ["storm"] * 2
    assert fronts["treasures"] == ["scallop"] * 4 + ["starfish"] * 3 + ["coral"] * 2
    assert len(fronts["reef"]) == 12 and len(fronts["pennants"]) == 8
    names = sorted(p.name for p in kits["long"].glob("*.pdf"))
    assert names == sorted(f"{GAME}-{lang}-{what}.pdf" for lang in ("en", "fr") for what in (
        "a4-cards", "a4-sheets", "letter-cards", "letter-sheets", *SHOP_FILES, "tide-fullsize"))
    assert sorted(p.name for p in kits["gutterfold"].glob("*.pdf")) == sorted(
        f"{GAME}-en-{what}.pdf" for what in ("a4-cards-gutterfold", "a4-sheets", "letter-cards-gutterfold",
                                             "letter-sheets", *SHOP_FILES, "tide-fullsize"))


def test_the_print_shop_file_has_a_trim_box_per_outline_and_die_lines_for_shaped_pieces(kits):
    boxes: dict[tuple, int] = {}
    cut: dict[tuple, int] = {}
    for what in SHOP_FILES:  # one file per trim size and outline
        reader = pypdf.PdfReader(kits["long"] / f"{GAME}-en-{what}.pdf")
        for page in reader.pages:
            trim = tuple(round(float(v) / MM, 2) for v in page.trimbox)
            media = tuple(round(float(v) / MM, 2) for v in page.mediabox)
            boxes[(what, trim, media)] = boxes.get((what, trim, media), 0) + 1
            spaces = page["/Resources"].get("/ColorSpace", {})
            seps = [v.get_object() for v in spaces.values()]
            if any(s[0] == "/Separation" and s[1] == "/CutContour" for s in seps):
                cut[trim] = cut.get(trim, 0) + 1
    crew, treasure = (3.0, 3.0, 66.0, 91.0), (3.0, 3.0, 53.0, 73.0)
    hexes, pennant = (3.0, 3.0, 53.0, round(3 + HEX_H, 2)), (2.0, 2.0, 46.0, 28.0)
    crew_file, treasure_file, hex_file, pennant_file = SHOP_FILES
    assert boxes == {
        (crew_file, crew, (0.0, 0.0, 69.0, 94.0)): 18,  # 9 crew cards, front and back
        (treasure_file, treasure, (0.0, 0.0, 56.0, 76.0)): 18,  # rounded: 9 treasures
        (hex_file, hexes, (0.0, 0.0, 56.0, round(6 + HEX_H, 2))): 24,  # 12 reef hexes
        (pennant_file, pennant, (0.0, 0.0, 48.0, 30.0)): 16,  # 8 pennants cut along their path
    }
    assert cut == {treasure: 18, hexes: 24, pennant: 16}, "die-cut shapes carry a CutContour line"
    # each crew card's back page is its own back: the storms' is theirs
    entry = _entry(kits["long"], f"{GAME}-en-{crew_file}.pdf")
    backs = [(p["page"], p["items"][0]) for p in entry["pages"] if p["component"] == "crew" and p["side"] == "back"]
    assert len(backs) == 9
    for page, it in backs:
        want = STORM if it["card"] == "storm" else DEEP
        assert _is(Raster(kits["long"] / entry["file"], page, scale=2).at(it["x"] + it["w"] / 2, it["y"] + 6), want)


def _pairs(entry: dict) -> list[tuple[dict, dict]]:
    """(front page, back page) of a duplex file, as the manifest gives them."""
    pages = entry["pages"]
    out = []
    for front, back in zip(pages, pages[1:]):
        if front["side"] == "front" and back["side"] == "back" and front["component"] == back["component"]:
            out.append((front, back))
    return out


def _back_sample(component: str, card: str, it: dict) -> tuple[tuple[float, float], tuple[int, int, int]]:
    """A point of a piece's back (mm from the item's top-left, as drawn on the back page)
    and the colour its back template draws there: a storm's own back differs."""
    w, h = it["w"], it["h"]
    if component == "crew":
        return (w / 2, 6), STORM if card == "storm" else DEEP
    if component == "treasures":
        return (w / 2, 10), REEF
    if component == "reef":
        return (w / 2, h / 2 + 12), REEF  # inside the inner hex, below the pearl
    raise AssertionError(component)


@pytest.mark.parametrize(("build", "lang"), [("long", "en"), ("short", "fr")])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_back_is_printed_behind_its_front(kits, build, lang, paper):
    kit = kits[build]
    name = f"{GAME}-{lang}-{paper}-cards{'-short-edge' if build == 'short' else ''}.pdf"
    entry = _entry(kit, name)
    assert entry["duplex"] == build
    pw, ph = PAPERS_MM[paper]
    pairs = _pairs(entry)
    assert {f["component"] for f, _ in pairs} == {"crew", "treasures", "reef", "pennants"}
    checked = 0
    for front, back in pairs:
        backs = {(i["card"], i["copy"]): i for i in back["items"]}
        assert sorted(backs) == sorted((i["card"], i["copy"]) for i in front["items"])
        raster = Raster(kit / name, back["page"], scale=4) if front["component"] != "pennants" else None
        for f in front["items"]:
            b = backs[(f["card"], f["copy"])]
            if build == "long":  # turned over left to right
                assert (b["x"], b["y"]) == pytest.approx((pw - f["x"] - f["w"], f["y"]), abs=0.01)
            else:  # turned over top to bottom
                assert (b["x"], b["y"]) == pytest.approx((f["x"], ph - f["y"] - f["h"]), abs=0.01)
            if raster is not None:
                (dx, dy), want = _back_sample(front["component"], f["card"], b)
                got = raster.at(b["x"] + dx, b["y"] + dy)
                assert _is(got, want), (name, back["page"], f["card"], got, want)
                checked += 1
    assert checked == 9 + 9 + 12


def test_gutterfold_puts_each_back_across_the_fold(kits):
    kit = kits["gutterfold"]
    for paper in ("a4", "letter"):
        name = f"{GAME}-en-{paper}-cards-gutterfold.pdf"
        entry = _entry(kit, name)
        width = max(PAPERS_MM[paper])
        seen = set()
        for page in entry["pages"]:
            raster = Raster(kit / name, page["page"], scale=4)
            fronts = [i for i in page["items"] if i["side"] == "front"]
            backs = {(i["card"], i["copy"]): i for i in page["items"] if i["side"] == "back"}
            for f in fronts:
                b = backs.pop((f["card"], f["copy"]))
                assert (b["x"], b["y"]) == pytest.approx((width - f["x"] - f["w"], f["y"]), abs=0.01)
                if page["component"] == "crew":
                    (dx, dy), want = _back_sample("crew", f["card"], b)
                    assert _is(raster.at(b["x"] + dx, b["y"] + dy), want), (name, page["page"], f["card"])
                seen.add(page["component"])
            assert not backs
        assert seen == {"crew", "treasures", "reef", "pennants"}


def _page_of(kit: Path, name: str, component: str, side: str = "front") -> tuple[int, dict]:
    entry = _entry(kit, name)
    page = next(p for p in entry["pages"] if p["component"] == component and p["side"] == side)
    return page["page"], page


def test_rich_text_and_icons_are_in_the_text_layer(kits):
    pdf = kits["long"] / f"{GAME}-fr-a4-cards.pdf"
    n, _ = _page_of(kits["long"], pdf.name, "crew")
    runs = text_runs(pdf, n - 1)
    fonts = {r.text: r.font for r in runs}
    assert fonts["Plongée :"] == "NotoSans-Bold"  # **bold** (the text layer reads the no-break space as a space)
    assert fonts["gardez-le"] == "NotoSans-Italic"  # *italic*
    assert fonts["d’un pas"] == "NotoSans-Regular"  # a colour span: its own run
    n, _ = _page_of(kits["long"], pdf.name, "treasures")
    stars = [r for r in text_runs(pdf, n - 1) if r.text == "★"]
    assert len(stars) == 9 and {r.font for r in stars} == {"NotoSansSymbols2-Regular"}  # the glyph icon
    rules = kits["long"] / f"{GAME}-en-letter-sheets.pdf"
    text = "\n".join(r.text for r in text_runs(rules, 1))
    assert "How to play" in text and text.count("★") == 5  # goal, end, and the worth of three treasures


def test_icons_are_drawn_beside_their_words(kits):
    """Each icon is painted in the gap the line leaves for it, between the words around
    it: the PNG pearl, the SVG shell and the gold glyph star; the colour span's words
    are coral."""
    pdf = kits["long"] / f"{GAME}-en-a4-cards.pdf"
    n, _ = _page_of(kits["long"], pdf.name, "crew")
    chars, raster = char_boxes(pdf, n - 1), Raster(pdf, n)

    def gap(before: str, after: str) -> list[tuple[int, int, int]]:
        _, end, _ = find_text(chars, before)
        start, _, _ = find_text(chars, after, end)
        left, right = chars[end - 1][1], chars[start][1]
        assert left is not None and right is not None and right.left > left.right + 1, "no room for the icon"
        return raster.region(left.right + 0.2, left.top, right.left - 0.2, left.bottom)

    pearl = gap("Dive: take 2", "from the tile")  # the PNG pearl (lavender grey)
    assert sum(1 for r, g, b in pearl if b > r + 8 and 120 < r < 235) > 20
    shell = gap("or take 1", ".")  # the SVG shell (coral and red)
    assert sum(1 for r, g, b in shell if r > 170 and g < 150) > 20
    _, _, words = find_text(chars, "one step")
    span = raster.region(words.left, words.top, words.right, words.bottom)
    assert sum(1 for p in span if _is(p, CORAL_WORDS, 40)) > 20
    n, _ = _page_of(kits["long"], pdf.name, "treasures")
    chars, raster = char_boxes(pdf, n - 1), Raster(pdf, n)
    _, _, star = find_text(chars, "★")
    assert sum(1 for p in raster.region(star.left, star.top, star.right, star.bottom) if _is(p, GOLD, 30)) > 20


def test_svg_opacity_is_drawn(kits):
    """The scallop's highlight is an ellipse at opacity 0.35 in the SVG; an image op's
    own opacity (0.45 on the board) fades the whole picture."""
    kit = kits["long"]
    name = f"{GAME}-en-a4-cards.pdf"
    n, page = _page_of(kit, name, "treasures")
    it = next(i for i in page["items"] if i["card"] == "scallop")
    raster = Raster(kit / name, n)
    # the art is 36 mm square at (7, 5); the highlight's centre is (38, 44) of its 100 units
    got = raster.at(it["x"] + 7 + 0.36 * 38, it["y"] + 5 + 0.36 * 44)
    assert _is(got, (245, 179, 159), 14), got  # 35 % white over the shell's #f08a6c
    board = kit / f"{GAME}-en-tide-fullsize.pdf"
    trim = pypdf.PdfReader(board).pages[0].trimbox
    media = pypdf.PdfReader(board).pages[0].mediabox
    left, top = float(trim[0]) / MM, (float(media[3]) - float(trim[3])) / MM
    slot = 180 / 4 - 50 * 3 / 4  # the first treasure slot's left edge (see tide.yaml.j2)
    got = Raster(board, 1).at(left + slot + 9 + 0.32 * 50, top + 58 + 0.32 * 60)
    assert _is(got, (125, 125, 111), 14), got  # the shell at 45 % over the slot's reef colour


def test_every_font_is_embedded_and_none_is_a_base_14_font(kits):
    def fonts(node, seen: set[int]) -> list:
        out = []
        resources = node.get("/Resources")
        if resources is None:
            return out
        resources = resources.get_object()
        out.extend(f.get_object() for f in resources.get("/Font", {}).values())
        for x in resources.get("/XObject", {}).values():
            if x.idnum not in seen and x.get_object().get("/Subtype") == "/Form":
                seen.add(x.idnum)
                out.extend(fonts(x.get_object(), seen))
        return out

    checked = set()
    for kit in kits.values():
        for path in sorted(kit.glob("*.pdf")):
            reader = pypdf.PdfReader(path)
            seen: set[int] = set()
            for page in reader.pages:
                for font in fonts(page, seen):
                    base = str(font.get("/BaseFont", "")).lstrip("/").split("+")[-1]
                    assert base.split("-")[0] not in BASE14, f"{path.name}: a base-14 font {base}"
                    desc = font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                    desc = desc.get_object()
                    assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")), \
                        f"{path.name}: font {base} is not embedded"
                    checked.add(base)
    assert {"NotoSans-Regular", "NotoSans-Bold", "NotoSans-Italic", "NotoSerifDisplay-Bold",
            "NotoSansSymbols2-Regular"} <= checked


def test_the_ink_saver_palette_lightens_the_floods_without_a_template_reading_it(kits):
    kit = kits["ink"]
    name = f"{GAME}-en-a4-cards-ink-saver.pdf"
    entry = _entry(kit, name)
    front, back = _pairs(entry)[0]
    raster = Raster(kit / name, back["page"], scale=4)
    diver = next(i for i in back["items"] if i["card"] == "diver")
    assert _is(raster.at(diver["x"] + diver["w"] / 2, diver["y"] + 6), (0xDC, 0xE8, 0xF1))  # deep → pale blue
    storm = next(i for i in back["items"] if i["card"] == "storm")
    assert _is(raster.at(storm["x"] + storm["w"] / 2, storm["y"] + 6), (0xE4, 0xE4, 0xEC))


def test_a_flow_never_leaves_an_icon_without_the_word_it_is_glued_to():
    """'or 2\u00a0:shell:' (a no-break space) goes to the next line whole, and no line
    starts with an icon: the breaker that flows and text boxes share."""
    width = lambda run, size: 6.0 if run.icon else len(run.text) * 2.0  # noqa: E731
    runs = [Run("pay or 2\u00a0"), Run("", icon="shell"), Run(" now")]
    lines, _ = break_runs(width, runs, 10, 20, hyphens=False)
    words = ["".join(run.text or f":{run.icon}:" for run in line).strip() for line in lines]
    assert words[0] == "pay or"
    assert words[1].startswith("2\u00a0:shell:")
    assert all(line[0].icon is None for line in lines)


def test_the_ink_saver_palette_recolours_colour_spans_and_icons(tmp_path):
    """A colour span's words and a glyph icon's colour are palette names like any other:
    the ink-saver palette swaps them too, in a text op and in a flow."""
    folder = tmp_path / "reef"
    shutil.copytree(DEMO, folder)
    edit_file(folder / "game.yaml", '  deep: "#dce8f1"\n', '  deep: "#dce8f1"\n  coral: "#00ff00"\n  gold: "#0000ff"\n')
    kit = _build(tmp_path / "out", "--ink-saver", "--lang", "en", "--paper", "a4", folder=folder)
    for name, component, needle in ((f"{GAME}-en-a4-cards-ink-saver.pdf", "crew", "one step"),
                                    (f"{GAME}-en-a4-cards-ink-saver.pdf", "treasures", "★"),
                                    (f"{GAME}-en-a4-sheets-ink-saver.pdf", "rules", "Storm")):
        n, _ = _page_of(kit, name, component, "front" if component != "rules" else "sheet")
        _, _, box = find_text(char_boxes(kit / name, n - 1), needle)
        ink = Raster(kit / name, n).region(box.left, box.top, box.right, box.bottom)
        want = (0, 0, 255) if needle == "★" else (0, 255, 0)
        assert sum(1 for p in ink if _is(p, want, 30)) > 20, (needle, sorted(set(ink))[:5])


def test_validate_kit_finds_every_piece_with_its_back(kits):
    result = CliRunner().invoke(main, ["validate", str(DEMO), "--kit", str(kits["long"])])
    assert result.exit_code == 0, result.output
    assert "(crew ×9, treasures ×9, reef ×12, pennants ×8)" in result.output
