"""SVG gradients print as the SVG says (layout/svggradient.py, output/reportlab_compat.end_form):
the mini game's card 1 draws an SVG in the box (10, 20)–(53, 50) mm, and the print-shop
file's first page is read back as pixels with pypdfium2 and as PDF structure with pypdf.
What cannot be drawn is refused with one line naming the file, the element and the face."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import assert_user_error, edit_file, game_label
from PIL import Image
from pypdf import PdfReader

ART = (10, 20, 43, 30)  # x, y, w, h of the art on the card, mm from the trim's top-left
DPI = 150
RED, BLUE, PURPLE = (255, 0, 0), (0, 0, 255), (128, 0, 128)

LINEAR = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="100" height="50">
  <defs><linearGradient id="lg"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/>
  </linearGradient></defs>
  <rect x="0" y="0" width="100" height="50" {attrs}/>
</svg>"""


def _game(game_copy, svg: str, text: str | None = None) -> Path:
    root = game_copy("mini_game")
    (root / "assets").mkdir()
    (root / "assets" / "art.svg").write_text(svg, encoding="utf-8")
    x, y, w, h = ART
    edit_file(root / "templates" / "front.yaml.j2", "- {text:",
              f"- {{image: {{x: {x}, y: {y}, w: {w}, h: {h}, src: art.svg, fit: stretch}}}}\n- {{text:")
    if text is not None:
        edit_file(root / "game.yaml", "palette:", "icons:\n  art: {src: art.svg}\npalette:")
        edit_file(root / "templates" / "front.yaml.j2", "text: {{ card.id|q }}", f"text: {text}")
    return root


def _build(cli, root: Path, out: Path) -> Path:
    """The print-shop file (its structure), and the first front drawn in RGB beside it
    (``export --png``, the face as drawn before the print-shop file's CMYK conversion)."""
    result = cli("build", root, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    result = cli("export", root, "--png", "--lang", "en", "--dpi", DPI, "--out", out / "png")
    assert result.exit_code == 0, result.output
    return out / "mini" / "mini-en-printshop-63x88mm.pdf"


def _page(pdf: Path) -> tuple[np.ndarray, float, float]:
    """The first front as RGB pixels, and the trim's top-left corner in pixels (the PNG
    has the bleed of the print-shop page)."""
    page = PdfReader(pdf).pages[0]
    top = float(page.mediabox.top) - float(page.trimbox.top)
    left = float(page.trimbox.left) - float(page.mediabox.left)
    (face,) = sorted((pdf.parent.parent / "png").rglob("*card-1*front*.png"))
    pixels = np.asarray(Image.open(face).convert("RGB")).astype(int)
    return pixels, left * DPI / 72, top * DPI / 72


def _art(pdf: Path) -> np.ndarray:
    """The pixels of the art box, a little inside its edges."""
    pixels, x0, y0 = _page(pdf)
    px = DPI / 25.4
    x, y, w, h = ART
    return pixels[round(y0 + (y + 0.5) * px):round(y0 + (y + h - 0.5) * px),
                  round(x0 + (x + 0.5) * px):round(x0 + (x + w - 0.5) * px)]


def _near(pixel, colour, tolerance: int = 30) -> bool:
    return all(abs(int(a) - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def _colour_at(art: np.ndarray, fx: float, fy: float) -> tuple[int, ...]:
    h, w, _ = art.shape
    return tuple(art[min(h - 1, int(fy * h)), min(w - 1, int(fx * w))])


def test_a_linear_gradient_runs_from_its_first_colour_to_its_last(game_copy, cli, tmp_path):
    art = _art(_build(cli, _game(game_copy, LINEAR.format(attrs='fill="url(#lg)"')), tmp_path / "o"))
    row = art[art.shape[0] // 2]
    assert _near(row[0], RED) and _near(row[-1], BLUE), (row[0], row[-1])
    assert _near(row[len(row) // 2], PURPLE), row[len(row) // 2]
    assert (np.diff(row[:, 0]) <= 1).all() and (np.diff(row[:, 2]) >= -1).all()  # red fades, blue grows
    assert (abs(art - art[:1]) <= 2).all()  # the same down every column: a horizontal gradient


def test_the_face_that_paints_a_gradient_holds_the_shading(game_copy, cli, tmp_path):
    """Every '/ShN sh' of a page or form names a shading of that page's or form's own resources
    (ReportLab left a form's out, and viewers painted the gradient black)."""
    pdf = _build(cli, _game(game_copy, LINEAR.format(attrs='fill="url(#lg)"')), tmp_path / "o")
    painted = []
    todo = [PdfReader(pdf).pages[0]]
    while todo:
        obj = todo.pop()
        data = obj.get_contents().get_data() if hasattr(obj, "get_contents") else obj.get_data()
        resources = obj.get("/Resources") or {}
        for name in re.findall(rb"/(\w+)\s+sh\b", data):
            shading = (resources.get("/Shading") or {}).get("/" + name.decode())
            assert shading is not None, f"/{name.decode()} sh with no /Shading resource of that name"
            assert shading.get_object()["/ShadingType"] == 2  # axial
            painted.append(name)
        todo.extend(x.get_object() for x in (resources.get("/XObject") or {}).values())
    assert painted


def test_a_radial_gradient_is_an_ellipse_in_a_box_that_is_not_square(game_copy, cli, tmp_path):
    svg = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="100" height="50">
      <radialGradient id="rg" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#ff0000"/>
      <stop offset="1" stop-color="#0000ff"/></radialGradient>
      <rect width="100" height="50" fill="url(#rg)"/></svg>"""
    art = _art(_build(cli, _game(game_copy, svg), tmp_path / "o"))
    assert _near(_colour_at(art, 0.5, 0.5), RED, 12)
    assert _near(_colour_at(art, 0.02, 0.02), BLUE) and _near(_colour_at(art, 0.98, 0.98), BLUE)
    # halfway to the box's edge is halfway through the colours, across and down alike
    across, down = _colour_at(art, 0.75, 0.5), _colour_at(art, 0.5, 0.75)
    assert _near(across, PURPLE) and _near(down, PURPLE), (across, down)
    assert _near(across, down, 12), (across, down)


def test_gradient_transform_turns_the_gradient(game_copy, cli, tmp_path):
    svg = LINEAR.format(attrs='fill="url(#lg)"').replace('<linearGradient id="lg">',
                                                        '<linearGradient id="lg" gradientTransform="rotate(90 .5 .5)">')
    art = _art(_build(cli, _game(game_copy, svg), tmp_path / "o"))
    assert _near(_colour_at(art, 0.5, 0.0), RED) and _near(_colour_at(art, 0.5, 0.99), BLUE)
    assert _near(_colour_at(art, 0.02, 0.5), _colour_at(art, 0.98, 0.5), 6)  # the same across a row


def test_a_gradient_follows_its_shapes_transform_and_fill_opacity(game_copy, cli, tmp_path):
    """The rect is moved to the right half; its gradient, in the rect's own space, moves
    with it; at fill-opacity 0.5 the white card shows through."""
    svg = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="100" height="50">
      <rect width="50" height="50" transform="translate(50 0)" fill="url(#later)" fill-opacity="0.5"/>
      <linearGradient id="later" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="50" y2="0">
      <stop offset="0" style="stop-color:#ff0000"/><stop offset="1" class="end"/></linearGradient>
      <style>.end { stop-color: #0000ff }</style></svg>"""
    art = _art(_build(cli, _game(game_copy, svg), tmp_path / "o"))
    assert _near(_colour_at(art, 0.25, 0.5), (255, 255, 255), 3)  # the left half is empty
    assert _near(_colour_at(art, 0.51, 0.5), (255, 128, 128)), _colour_at(art, 0.51, 0.5)
    assert _near(_colour_at(art, 0.99, 0.5), (128, 128, 255)), _colour_at(art, 0.99, 0.5)


def test_percentages_in_user_space_are_of_the_svgs_width(game_copy, cli, tmp_path):
    svg = LINEAR.format(attrs='fill="url(#lg)"').replace(
        '<linearGradient id="lg">', '<linearGradient id="lg" gradientUnits="userSpaceOnUse" x1="0%" x2="50%">')
    art = _art(_build(cli, _game(game_copy, svg), tmp_path / "o"))
    assert _near(_colour_at(art, 0.25, 0.5), PURPLE) and _near(_colour_at(art, 0.75, 0.5), BLUE, 3)


def test_a_hard_edge_between_two_stops_at_one_offset(game_copy, cli, tmp_path):
    svg = LINEAR.format(attrs='fill="url(#lg)"').replace(
        '<stop offset="1" stop-color="#0000ff"/>',
        '<stop offset="0.5" stop-color="#ff0000"/><stop offset="0.5" stop-color="#0000ff"/>'
        '<stop offset="1" stop-color="#0000ff"/>')
    art = _art(_build(cli, _game(game_copy, svg), tmp_path / "o"))
    assert _near(_colour_at(art, 0.45, 0.5), RED, 3) and _near(_colour_at(art, 0.55, 0.5), BLUE, 3)


def test_a_gradient_icon_in_text_and_the_png_export(game_copy, cli, tmp_path):
    """Icons are drawn by the same code as art; `export --png` rasterises the same PDF."""

    root = _game(game_copy, LINEAR.format(attrs='fill="url(#lg)"'), text="':art:'")
    pixels, x0, y0 = _page(_build(cli, root, tmp_path / "o"))
    px = DPI / 25.4
    text_box = pixels[round(y0 + 5 * px):round(y0 + 17 * px), round(x0 + 5 * px):round(x0 + 58 * px)]
    reddish = (text_box[..., 0] > 180) & (text_box[..., 2] < 90)
    bluish = (text_box[..., 2] > 180) & (text_box[..., 0] < 90)
    black = text_box.max(axis=-1) < 60
    assert reddish.sum() > 5 and bluish.sum() > 5 and black.sum() == 0, (reddish.sum(), bluish.sum(), black.sum())

    result = cli("export", root, "--png", "--lang", "en", "--out", tmp_path / "png")
    assert result.exit_code == 0, result.output
    (face,) = sorted((tmp_path / "png").rglob("*card-1*front*.png"))
    image = np.asarray(Image.open(face).convert("RGB")).astype(int)
    coloured = (image[..., 1] < 60) & (image[..., 0] + image[..., 2] > 200)  # red to blue, no green
    row = image[np.argmax(coloured.sum(axis=1))]
    columns = np.nonzero(coloured[np.argmax(coloured.sum(axis=1))])[0]
    assert columns.size > image.shape[1] // 2  # the art is 43 of the card's 63 mm
    left, right = columns.min() + 2, columns.max() - 2
    assert _near(row[left], RED) and _near(row[right], BLUE) and _near(row[(left + right) // 2], PURPLE)


GRADIENT = ('<linearGradient id="g"{extra}><stop offset="0" stop-color="#ff0000"/>'
            '<stop offset="1" stop-color="#0000ff"{stop}/></linearGradient>')


def _svg(shape: str, extra: str = "", stop: str = "", defs: str = "") -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
            + GRADIENT.format(extra=extra, stop=stop) + defs + shape + "</svg>")


@pytest.mark.parametrize("svg, problem", ids=["stroke", "stroke-in-css", "pattern", "fallback", "no-such-id", "reflect",
                                               "focal-point", "stop-opacity", "not-a-number"], argvalues=[
    (_svg('<rect id="r" width="9" height="9" fill="none" stroke="url(#g)"/>'),
     "the SVG's <rect id=\"r\"> at line 1 strokes with 'url(#g)'; cardgen draws gradients in fills only (turn the "
     "stroke into a filled path: \"Stroke to Path\" in Inkscape)"),
    (_svg('<rect width="9" height="9" class="c"/>', defs="<style>.c { stroke: url(#g) }</style>"),
     "the SVG's <style> at line 1 strokes with 'url(#g)'; cardgen draws gradients in fills only (turn the stroke "
     "into a filled path: \"Stroke to Path\" in Inkscape)"),
    (_svg('<rect width="9" height="9" style="fill:url(#p)"/>', defs='<pattern id="p"/>'),
     "the SVG's <rect> at line 1 fills with a <pattern>; cardgen draws fills of colours and of <linearGradient> "
     "and <radialGradient> only"),
    (_svg('<rect width="9" height="9" fill="url(#g) red"/>'),
     "the SVG's <rect> at line 1 fills with 'url(#g) red'; a fill may be a colour or url(#id) of a gradient, "
     "with nothing after it"),
    (_svg('<rect width="9" height="9" fill="url(#nothing)"/>'),
     "the SVG's <rect> at line 1 fills with 'url(#nothing)', but the SVG has no element with that id"),
    (_svg('<rect width="9" height="9" fill="url(#g)"/>', extra=' spreadMethod="reflect"'),
     "the SVG's <linearGradient id=\"g\"> at line 1 has spreadMethod=\"reflect\"; cardgen draws only \"pad\" "
     "(the end colours carry on past the ends)"),
    (_svg('<rect width="9" height="9" fill="url(#rg)"/>',
          defs='<radialGradient id="rg" href="#g" cx="0.5" fx="0.2"/>'),
     "the SVG's <radialGradient id=\"rg\"> at line 1 has a focal point (fx) away from its centre (cx); cardgen "
     "draws radial gradients centred on their centre only"),
    (_svg('<rect width="9" height="9" fill="url(#g)"/>', stop=' stop-opacity="0.5"'),
     "the SVG's <stop> at line 1 in <linearGradient id=\"g\"> at line 1 is partly transparent (stop-opacity or a "
     "colour with alpha); cardgen draws gradients of opaque colours only"),
    (_svg('<rect width="9" height="9" fill="url(#g)"/>', extra=' x2="nan"'),
     "the SVG's <linearGradient id=\"g\"> at line 1 has x2=\"nan\", which is not a length"),
])
def test_what_cannot_be_drawn_is_refused_in_one_line(game_copy, cli, tmp_path, svg, problem):
    root = _game(game_copy, svg)
    out = tmp_path / "o"
    lines = assert_user_error(cli("build", root, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1"))
    face = f"{game_label(root, 'templates', 'front.yaml.j2')} [cards/card-1 front [en]]"
    assert lines[0] == f"{game_label(root, 'assets', 'art.svg')}: {face}: {problem}"
    assert not (out / "mini").exists()


def test_the_svglib_hooks_cardgen_replaces_are_still_svglibs():
    """GradientRenderer overrides these by name; should svglib rename one, its own (which
    loses transforms, clips and gradientTransform) would draw instead, without a word."""
    from svglib.svglib import SvgRenderer

    for name in ("_resolve_gradient", "_apply_gradient_fill", "renderGradient", "renderStyle"):
        assert callable(vars(SvgRenderer).get(name)), name
