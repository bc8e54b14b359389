"""Rich text and icons in text ops (and flows), SVG art, and a flow's headings kept with
their text: the markup parser, the fitter counting icons, the exact messages of every
refusal, and built PDFs read back (fonts, text layer, pixels, vector operators)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import assert_user_error, edit_file, game_label
from textlayer import page_text

from cardgen.layout.flow import FlowFonts, layout_flow
from cardgen.layout.inline import Span, parse_inline, plain
from cardgen.layout.textfit import Run, fit_runs

# -- the markup -------------------------------------------------------------------------------------------


def test_markup_spans():
    assert parse_inline("gain **2** *now* {color=#aa3333}red{/color} :coin:!") == [
        Span("gain "), Span("2", bold=True), Span(" "), Span("now", italic=True), Span(" "),
        Span("red", colour="#aa3333"), Span(" "), Span("", icon="coin"), Span("!"),
    ]
    assert parse_inline("***both***") == [Span("both", bold=True, italic=True)]


def test_escapes_and_strays_stay_literal():
    assert plain(r"5 \* 3 = 15 \:coin\: \{color=x}") == "5 * 3 = 15 :coin: {color=x}"
    assert plain("a * b") == "a * b"  # a star without a partner is a star
    assert plain("10:30:00 and **open") == "10:30:00 and **open"  # no icon name starts with a digit
    assert plain("{/color}x") == "{/color}x"


# -- the fitter counts icons ------------------------------------------------------------------------------

def _width(run: Run, size: float) -> float:
    """A fake monospace measure: 0.5 mm per character at 10 pt; an icon is 3 characters wide."""
    return (3 if run.icon else len(run.text)) * size / 20


def test_icons_wrap_and_shrink_with_the_words():
    words = [Run("aaaa bbbb")]
    with_icons = [Run("aaaa "), Run("", icon="x"), Run(" bbbb "), Run("", icon="x")]
    plain_fit = fit_runs(_width, words, 5.0, 100, size=10, min_size=6)
    icon_fit = fit_runs(_width, with_icons, 5.0, 100, size=10, min_size=6, max_lines=2)
    assert plain_fit.size == 10 and plain_fit.lines == ("aaaa bbbb",)
    # 4 + 1 + 3 characters on a line: 8 × 0.05 × size <= 5 → size 12.5 is too big, 10 needs 4 mm... fits
    # the icons make each line 8 characters wide: at 10 pt that is 4 mm, two lines
    assert icon_fit.fits and len(icon_fit.runs) == 2
    assert [r.icon for r in icon_fit.runs[0]] == [None, "x"]
    tight = fit_runs(_width, with_icons, 3.0, 100, size=10, min_size=6, max_lines=2)
    assert tight.fits and tight.size == 7.5  # 8 characters × 0.05 × 7.5 = 3 mm: shrunk for the icons


# -- a flow keeps a heading with its text -----------------------------------------------------------------

def _flow_width(run: Run, size: float) -> float:
    return len(run.text) * size / 20


def test_a_heading_never_ends_a_column():
    fonts = FlowFonts(heading="H", bold="B", body="R")
    blocks = [("p", "x " * 40), ("h2", "Heading"), ("p", "word " * 18)]
    result = layout_flow(blocks, 0, 0, 45, 26, 10, columns=2, gap=5, line_height=1.25, fonts=fonts,
                         width=_flow_width, ascent=lambda f: 0.8, runs=lambda text, font: [Run(text, font)])
    assert result.fits
    heading = next(line for line in result.lines if line.text == "Heading")
    text = [line for line in result.lines if line.text.startswith("word")]
    assert text and all(line.x == heading.x for line in text), (heading, text)  # one column
    assert heading.x > 0  # moved to the second column with its paragraph


# -- a game that uses them --------------------------------------------------------------------------------

RED_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">'
           '<circle cx="5" cy="5" r="5" fill="#ff0000"/></svg>')


def _png(colour: tuple[int, int, int]) -> bytes:
    from PIL import Image

    saved = io.BytesIO()
    Image.new("RGB", (20, 20), colour).save(saved, "PNG")
    return saved.getvalue()


def _icon_game(root: Path, text: str, icons: str = "") -> None:
    (root / "assets").mkdir(exist_ok=True)
    (root / "assets" / "coin.svg").write_text(RED_SVG, encoding="utf-8")
    (root / "assets" / "gem.png").write_bytes(_png((0, 0, 255)))
    edit_file(root / "game.yaml", "palette:", "icons:\n  coin: {src: coin.svg}\n  gem: {src: gem.png}\n"
              "  star: {char: \"★\", color: \"#00a000\"}\n" + icons + "palette:")
    edit_file(root / "templates" / "front.yaml.j2", "text: {{ card.id|q }}, size: 12", f"text: {text}, size: 12")


def _build(cli, root: Path, out: Path):
    return cli("build", root, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")


def _fails(cli, root: Path, out: Path) -> list[str]:
    lines = assert_user_error(_build(cli, root, out))
    assert not (out / "mini").exists()
    return lines


def _face(root: Path) -> str:
    return f"{game_label(root, 'templates', 'front.yaml.j2')} [cards/card-1 front [en]]"


def test_an_unknown_icon_is_named(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    _icon_game(root, "'pay 1 :gold:'")
    lines = _fails(cli, root, tmp_path / "o")
    assert lines[0] == (f"{_face(root)}: unknown icon ':gold:' in 'pay 1 :gold:' (game.yaml icons: coin, gem, "
                        f"star; write \\: for a literal ':')")


def test_a_missing_glyph_names_the_fonts_that_have_it(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    _icon_game(root, '"eye \\U00013080"')
    lines = _fails(cli, root, tmp_path / "o")
    assert lines[0] == (f"{_face(root)}: font NotoSans-Regular has no glyph for '\U00013080' (U+13080) in "
                        f"'eye \U00013080'; it is in: NotoSansEgyptianHieroglyphs-Regular (use font: … or an icon)")


def test_symbols_fall_back_to_the_shipped_symbol_fonts(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    _icon_game(root, "'★ ⚡ ❄ ⚀ ⚅ → ⇒'")
    assert _build(cli, root, tmp_path / "o").exit_code == 0


@pytest.mark.parametrize("content, problem", [
    ("<svg xmlns='http://www.w3.org/2000/svg'><circle r='1'></svg>",
     "the SVG is not well-formed XML at line 1, column 61: Opening and ending tag mismatch: circle line 1 and svg"),
    ("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' viewBox='0 0 9 9'>"
     "<image xlink:href='http://example.com/a.png' width='9' height='9'/></svg>",
     "the SVG refers to 'http://example.com/a.png' (<image href>); an SVG may refer only to its own parts "
     "('#id') or embed a PNG or JPEG: cardgen opens no other file or URL"),
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'><rect width='9' height='9' "
     "style='fill:url(../secret.svg#p)'/></svg>",
     "the SVG refers to '../secret.svg#p' (a url() in its style); an SVG may refer only to its own parts "
     "('#id') or embed a PNG or JPEG: cardgen opens no other file or URL"),
    ("<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>"
     "<svg xmlns='http://www.w3.org/2000/svg'>&x;</svg>",
     "the SVG has a DOCTYPE; cardgen reads no DTD or entity (remove the <!DOCTYPE …> line)"),
    ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'><text>Hi</text></svg>",
     "the SVG holds text (<text>), which cardgen does not draw: convert the text to paths"),
    ("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' viewBox='0 0 9 9'>"
     "<defs><g id='a'><rect width='1' height='1'/>" + "<rect width='1' height='1'/>" * 9 + "</g>"
     + "".join(f"<g id='{chr(98 + i)}'>" + f"<use xlink:href='#{chr(97 + i)}'/>" * 10 + "</g>" for i in range(5))
     + "</defs><use xlink:href='#f'/></svg>",
     "the SVG has more than 20,000 elements once every <use> is expanded"),
])
def test_a_refused_svg_is_one_line_naming_the_file_and_the_face(game_copy, cli, tmp_path, content, problem):
    root = game_copy("mini_game")
    _icon_game(root, "'art'")
    (root / "assets" / "art.svg").write_text(content, encoding="utf-8")
    edit_file(root / "templates" / "front.yaml.j2", "- {text:", "- {image: {x: 5, y: 20, w: 20, h: 20, src: art.svg}}"
              "\n- {text:")
    lines = _fails(cli, root, tmp_path / "o")
    assert lines[0] == f"{game_label(root, 'assets', 'art.svg')}: {_face(root)}: {problem}"


def test_a_text_file_named_png_is_refused(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    _icon_game(root, "'pay :gem:'")
    (root / "assets" / "gem.png").write_text("not a picture\n", encoding="utf-8")
    lines = _fails(cli, root, tmp_path / "o")
    assert lines[0] == f"{game_label(root, 'assets', 'gem.png')}: {_face(root)}: the image cannot be read: " \
                       f"not a PNG or JPEG file"


def test_a_truncated_png_icon_is_refused(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    _icon_game(root, "'pay :gem:'")
    data = _png((0, 0, 255))
    (root / "assets" / "gem.png").write_bytes(data[: len(data) // 2])
    lines = _fails(cli, root, tmp_path / "o")
    assert lines[0].startswith(f"{game_label(root, 'assets', 'gem.png')}: {_face(root)}: the image cannot be read")


@pytest.fixture(scope="module")
def rich_kit(tmp_path_factory):
    """The mini game with icons, bold, italic and a colour span in its card text, and SVG art."""
    import shutil

    from click.testing import CliRunner

    from cardgen.cli import main

    base = tmp_path_factory.mktemp("rich")
    root = base / "mini_game"
    shutil.copytree(Path(__file__).parents[1] / "data" / "mini_game", root)
    _icon_game(root, "'Gain 2 :coin: **Bold** *Slanted* {color=#00a000}Green{/color} :gem: :star:'")
    edit_file(root / "templates" / "front.yaml.j2", "- {text:", "- {image: {x: 20, y: 40, w: 20, h: 20, src: coin.svg}}"
              "\n- {text:")
    out = base / "out"
    result = CliRunner().invoke(main, ["build", str(root), "--out", str(out), "--lang", "en", "--paper", "a4",
                                       "--jobs", "1"], catch_exceptions=True)
    assert result.exit_code == 0, result.output
    return next((out / "mini").glob("*cards*.pdf"))


def test_bold_and_italic_words_use_the_bold_and_italic_fonts(rich_kit):
    from pypdf import PdfReader

    fonts = set()
    reader = PdfReader(rich_kit)
    for page in reader.pages:
        for xobj in (page["/Resources"].get("/XObject") or {}).values():
            res = xobj.get_object().get("/Resources") or {}
            for font in (res.get("/Font") or {}).values():
                fonts.add(re.sub(r"^[A-Z]{6}\+", "", str(font.get_object()["/BaseFont"]).lstrip("/")))
    assert {"NotoSans-Regular", "NotoSans-Bold", "NotoSans-Italic", "NotoSansSymbols2-Regular"} <= fonts, fonts
    assert not fonts & {"Helvetica", "Times-Roman", "Courier"}


def test_the_text_layer_holds_the_words(rich_kit):
    text = page_text(rich_kit, 0)
    for word in ("Gain 2", "Bold", "Slanted", "Green", "★"):
        assert word in text, text


def _render(pdf: Path, scale: float = 4.0):
    doc = pdfium.PdfDocument(str(pdf))
    image = doc[0].render(scale=scale).to_pil().convert("RGB")
    doc.close()
    return image


def test_icons_are_drawn_inline(rich_kit):
    """Red (the SVG coin), blue (the PNG gem) and green (the star and the green word) pixels on the
    line of the card's text, left to right in the order of the text."""
    import numpy as np

    pixels = np.asarray(_render(rich_kit)).astype(int)
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    red = (r > 200) & (g < 60) & (b < 60)
    blue = (b > 200) & (r < 60) & (g < 60)
    green = (g > 120) & (r < 60) & (b < 60)
    assert red.sum() > 50 and blue.sum() > 50 and green.sum() > 20
    # on the first card (the top left one): the gem is one em (12 pt) tall, and the coin of the
    # text's first line the same size, a line above it (the text wraps after "Slanted")
    blue_rows, blue_cols = np.nonzero(blue)
    scale = 4.0  # pixels per pt
    first = (blue_rows < blue_rows.min() + 20 * scale) & (blue_cols < blue_cols.min() + 30 * scale)
    top, bottom, gem_left = blue_rows[first].min(), blue_rows[first].max(), blue_cols[first].min()
    assert abs((bottom - top + 1) - 12 * scale) <= 3
    leading = 12 * 1.2 * scale
    coin = red[int(top - leading - 4):int(bottom - leading + 4), max(0, int(gem_left - 30 * scale)):int(gem_left + 60 * scale)]
    rows = np.nonzero(coin.any(axis=1))[0]
    assert rows.size and abs((rows.max() - rows.min() + 1) - 12 * scale) <= 3, rows
    below_text = red[int(bottom + 10 * scale):, :]
    assert below_text.sum() > coin.sum()  # and the big SVG art lower on the card


def test_svg_art_is_drawn_as_vectors(rich_kit):
    """The only image in the file is the PNG gem (20 × 20 pixels); the SVG coin, in the text and as
    art, is paths in the face's form: curves (c) filled (f)."""
    from pypdf import PdfReader

    raw = rich_kit.read_bytes()
    images = re.findall(rb"/Subtype\s*/Image[^>]*", raw)
    assert len(images) == 1 and b"/Width 20" in images[0], images
    reader = PdfReader(rich_kit)
    page = reader.pages[0]
    forms = [x.get_object() for x in (page["/Resources"].get("/XObject") or {}).values()]
    face = next(f for f in forms if b"BT" in f.get_data())
    ops = face.get_data()
    assert re.search(rb"\sc\s", ops) and re.search(rb"\sf\*?\s", ops)


def test_italic_words_without_an_italic_font_say_what_to_add(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    _icon_game(root, "'a *word*', font: NotoSerif-Regular")
    lines = _fails(cli, root, tmp_path / "o")
    assert lines[0] == (f"{_face(root)}: italic words in 'a *word*' need an italic font: NotoSerif-Regular has none "
                        f"beside it; give the op italic_font: … or game.yaml fonts: {{italic: …}}")


def test_an_icon_entry_needs_a_char_or_a_src(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    _icon_game(root, "'x'", icons="  both: {char: \"★\", src: b.svg}\n  big: {char: \"★\", scale: 9}\n")
    lines = _fails(cli, root, tmp_path / "o")
    assert lines == [
        f"{game_label(root)}:12:9: icon 'both' needs exactly one of 'char' (a character of a font) and 'src' "
        f"(an image in assets/)",
        f"{game_label(root)}:13:27: 'scale' in icon 'big' must be more than 0 and at most 5, found 9",
    ]


def test_markup_survives_placeholders_and_the_pseudo_language():
    from cardgen.model.pseudo import pseudo_text
    from cardgen.render.placeholders import fill_placeholders, parse_placeholders

    text = "{color=red}{n}{/color} :coin: **now**"
    assert fill_placeholders(parse_placeholders(text), {"n": 3}) == "{color=red}3{/color} :coin: **now**"
    pseudo = pseudo_text(r"Pay :coin: *or* {color=red}wait{/color} \: {n}")
    for kept in (":coin:", "*", "{color=red}", "{/color}", r"\:", "{n}"):
        assert kept in pseudo, pseudo


def test_export_png_draws_the_icons_and_the_svg(rich_kit, cli, tmp_path):
    """The PNG export goes through the same painter: the SVG coin is there, in red."""
    import numpy as np
    from PIL import Image

    root = rich_kit.parents[2] / "mini_game"
    result = cli("export", root, "--png", "--lang", "en", "--out", tmp_path / "png")
    assert result.exit_code == 0, result.output
    first = sorted((tmp_path / "png").rglob("*card-1*front*.png")) or sorted((tmp_path / "png").rglob("*.png"))
    pixels = np.asarray(Image.open(first[0]).convert("RGB")).astype(int)
    red = (pixels[..., 0] > 200) & (pixels[..., 1] < 60) & (pixels[..., 2] < 60)
    blue = (pixels[..., 2] > 200) & (pixels[..., 0] < 60) & (pixels[..., 1] < 60)
    assert red.sum() > 100 and blue.sum() > 10


def test_a_face_may_draw_only_so_many_svg_elements(game_copy, cli, tmp_path):
    """Each SVG is within its own limit, but a text that names it 101 times draws too much."""
    root = game_copy("mini_game")
    heavy = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'>"
             + "<rect width='1' height='1'/>" * 1_999 + "</svg>")
    _icon_game(root, "'" + " ".join([":coin:"] * 101) + "', min_size: 6", icons="")
    (root / "assets" / "coin.svg").write_text(heavy, encoding="utf-8")
    edit_file(root / "templates" / "front.yaml.j2", "h: 12,", "h: 70,")
    lines = _fails(cli, root, tmp_path / "o")
    assert lines[0] == (f"{_face(root)}: the SVG art and icons of this face draw 202,000 elements; a face may "
                        f"draw at most 200,000")
