"""A print-shop file drawn in inks from the start: the painter with an output profile
writes every screen colour and every SVG as CMYK, so the PDF/X pass has no content
stream left to rewrite, and the screen files still draw the same art in RGB."""

from __future__ import annotations

import zlib
from pathlib import Path

import pikepdf
from reportlab.lib.colors import CMYKColor, Color
from reportlab.pdfgen.canvas import Canvas

from cardgen.layout.images import open_picture
from cardgen.layout.ops import Op
from cardgen.output.cmyk import OutputProfile
from cardgen.output.inkcolours import ink_colour, ink_drawing
from cardgen.output.painter import Painter
from cardgen.output.pdfx import Rewriter

GRADIENT_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10">
  <defs><linearGradient id="sky"><stop offset="0" stop-color="#1e90ff"/><stop offset="1" stop-color="#ffd700"/>
  </linearGradient></defs>
  <rect x="0" y="0" width="10" height="10" fill="url(#sky)"/>
  <circle cx="15" cy="5" r="4" fill="#c0392b" stroke="#000000" stroke-width="0.5"/>
</svg>"""


def _colours(drawing) -> list[Color]:
    """Every fill, stroke and gradient stop of a drawing."""
    found, todo = [], [drawing]
    while todo:
        node = todo.pop()
        found += [c for c in (getattr(node, "fillColor", None), getattr(node, "strokeColor", None))
                  if isinstance(c, Color)]
        gradient = getattr(node, "gradient", None)
        found += list(getattr(gradient, "colours", ()))
        todo.extend(getattr(node, "contents", []))
    return found


def _page_stream(pdf_bytes: bytes) -> bytes:
    with pikepdf.open(__import__("io").BytesIO(pdf_bytes)) as pdf:
        return pdf.pages[0].Contents.read_bytes()


def test_a_screen_colour_is_drawn_as_the_profiles_inks_and_pure_black_as_black_ink(tmp_path):
    profile = OutputProfile.load()
    c = Canvas(str(tmp_path / "x.pdf"), invariant=1)
    painter = Painter(c, None, {"sea": "#1e5aa8"}, profile=profile)  # type: ignore[arg-type]
    painter.draw((Op("rect", {"x": 0, "y": 0, "w": 10, "h": 10, "fill": "sea"}),
                  Op("rect", {"x": 0, "y": 20, "w": 10, "h": 10, "fill": "#000000"})))
    c.showPage()
    stream = _page_stream(c.getpdfdata())
    assert b" rg" not in stream and b" RG" not in stream
    sea = [round(v, 4) for v in profile.rgb(0x1E / 255, 0x5A / 255, 0xA8 / 255)]
    drawn = [[float(v) for v in line.split()[:4]] for line in stream.splitlines() if line.endswith(b" k")]
    assert drawn[0] == sea
    assert drawn[1] == [0, 0, 0, 1]


def test_without_a_profile_the_painter_draws_screen_colours_as_before(tmp_path):
    c = Canvas(str(tmp_path / "x.pdf"), invariant=1)
    Painter(c, None, {}).draw((Op("rect", {"x": 0, "y": 0, "w": 10, "h": 10, "fill": "#1e5aa8"}),))  # type: ignore[arg-type]
    c.showPage()
    assert b" rg" in _page_stream(c.getpdfdata())


def test_an_ink_colour_stays_as_written():
    ink = CMYKColor(0.6, 0.4, 0.4, 1.0)
    assert ink_colour(ink, OutputProfile.load()) is ink


def test_an_svg_is_drawn_in_inks_and_its_screen_drawing_is_left_rgb(tmp_path: Path):
    path = tmp_path / "art.svg"
    path.write_text(GRADIENT_SVG, encoding="utf-8")
    drawing = open_picture(path).drawing
    inked = ink_drawing(drawing, OutputProfile.load())
    screen, printed = _colours(drawing), _colours(inked)
    assert len(printed) == len(screen) >= 4  # two stops, a fill, a stroke
    assert all(isinstance(c, CMYKColor) for c in printed)
    assert not any(isinstance(c, CMYKColor) for c in screen)
    black = [c for c in printed if (c.cyan, c.magenta, c.yellow, c.black) == (0, 0, 0, 1)]
    assert black  # the circle's #000000 stroke: black ink alone


def test_a_form_drawn_in_inks_is_not_parsed_by_the_pdfx_pass(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a stream without colour operators was parsed")

    monkeypatch.setattr(pikepdf, "parse_content_stream", refuse)
    pdf = pikepdf.new()
    pdf.add_blank_page()
    page = pdf.pages[0]
    face = b"0.7 0.1 0 0.2 k 0 0 10 10 re f 0 0 0 1 K 1 w 0 0 m 10 10 l S"
    form = pdf.make_stream(b"")
    form.write(zlib.compress(face), filter=pikepdf.Name.FlateDecode)
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 10, 10]
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F1=form))
    page.obj.Contents = pdf.make_stream(b"q /F1 Do Q")
    Rewriter(pdf, OutputProfile.load()).run()
    assert page.obj.Resources.XObject.F1.read_bytes() == face


def test_a_kits_print_shop_faces_reach_the_pdfx_pass_in_inks(tmp_path, monkeypatch):
    """The demo game (SVG art, PNG images, die-cut shapes): no face form is parsed by
    the PDF/X pass, as none holds a colour operator to rewrite."""
    from kitchecks import build

    parsed: list[str] = []
    parse = pikepdf.parse_content_stream

    def recording(holder, *args, **kwargs):
        parsed.append(str(holder.get("/Subtype", "/Page")))
        return parse(holder, *args, **kwargs)

    monkeypatch.setattr(pikepdf, "parse_content_stream", recording)
    demo = Path(__file__).parents[2] / "docs" / "examples" / "demo"
    build(tmp_path, str(demo), "--lang", "en", "--paper", "a4")
    assert len(list((tmp_path / "lantern-reef").glob("*-printshop-*.pdf"))) == 4
    assert "/Form" not in parsed
