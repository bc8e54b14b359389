"""Transparency flattened for PDF/X-1a on small hand-made pages: the composite inks,
the op painted again over several colours, and the op that cannot be flattened."""

from __future__ import annotations

import pikepdf
import pytest
from conftest import assert_user_error
from pikepdf import Dictionary, Name

from cardgen.output.flatten import Flattener, NotFlattenable, blend


def _page(content: bytes, states: dict[str, float]) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(100, 100))
    page = pdf.pages[0]
    page.obj.Resources = Dictionary(ExtGState=Dictionary({f"/{k}": Dictionary(ca=v, CA=v) for k, v in states.items()}))
    page.obj.Contents = pdf.make_stream(content)
    return pdf


def _fills(pdf: pikepdf.Pdf) -> list[tuple[float, ...]]:
    return [tuple(round(float(v), 4) for v in i.operands) for i in pikepdf.parse_content_stream(pdf.pages[0].obj)
            if str(i.operator) == "k"]


def _opacities(pdf: pikepdf.Pdf) -> list[float]:
    return [float(s.get(k, 1)) for s in pdf.pages[0].obj.Resources.ExtGState.values() for k in ("/ca", "/CA")]


def test_a_translucent_fill_over_one_flat_colour_is_painted_in_the_cmyk_composite():
    pdf = _page(b"0.2 0 0.4 0.1 k 0 0 100 100 re f q /H gs 0 0.8 0 0 k 10 10 20 20 re f Q", {"H": 0.5})
    Flattener(pdf, "test.pdf").run()
    assert (0.1, 0.4, 0.2, 0.05) in _fills(pdf)  # half magenta over the flood, ink by ink
    assert min(_opacities(pdf)) == 1


def test_a_translucent_fill_over_paper_is_its_colour_times_its_opacity():
    pdf = _page(b"q /H gs 0 0.8 0.6 0 k 10 10 20 20 re f Q", {"H": 0.25})
    Flattener(pdf, "test.pdf").run()
    assert (0.0, 0.2, 0.15, 0.0) in _fills(pdf)


def test_a_translucent_fill_across_two_colours_paints_both_again_composited_inside_its_clip():
    left, right, top = (0.9, 0.0, 0.0, 0.0), (0.0, 0.0, 0.9, 0.1), (0.0, 1.0, 0.0, 0.0)
    pdf = _page(b"0.9 0 0 0 k 0 0 50 100 re f 0 0 0.9 0.1 k 50 0 50 100 re f "
                b"q /H gs 0 1 0 0 k 40 40 20 20 re f Q", {"H": 0.4})
    Flattener(pdf, "test.pdf").run()
    fills = _fills(pdf)
    assert blend(top, 0.4, left) in fills and blend(top, 0.4, right) in fills
    ops = [str(i.operator) for i in pikepdf.parse_content_stream(pdf.pages[0].obj)]
    assert "W" in ops  # the op's own rectangle clips the repainting
    assert min(_opacities(pdf)) == 1


def test_translucent_text_over_two_colours_is_refused_with_its_page_face_and_place():
    pdf = _page(b"0.9 0 0 0 k 0 0 50 100 re f 0 0 0.9 0 k 50 0 50 100 re f "
                b"q /H gs 0 0 0 1 k BT /F1 12 Tf 40 50 Td (Hello) Tj ET Q", {"H": 0.5})
    pdf.pages[0].obj.Resources.Font = Dictionary(F1=Dictionary(Type=Name.Font, Subtype=Name.Type1,
                                                               BaseFont=Name.Helvetica))
    with pytest.raises(NotFlattenable) as exc:
        Flattener(pdf, "deck.pdf", ["anubis front"]).run()
    assert str(exc.value).startswith("deck.pdf: page 1 (anubis front): translucent text (opacity 0.5)")
    assert "cannot be flattened exactly for PDF/X-1a" in str(exc.value)


def test_an_image_with_a_soft_mask_over_a_flat_colour_becomes_opaque_pixels_composited_onto_it():
    pdf = _page(b"0 0 0 0.5 k 0 0 100 100 re f q 20 0 0 20 10 10 cm /Im Do Q", {})
    mask = pdf.make_stream(bytes([255, 0, 128, 255]), Type=Name.XObject, Subtype=Name.Image, Width=2, Height=2,
                           ColorSpace=Name.DeviceGray, BitsPerComponent=8)
    image = pdf.make_stream(bytes([255, 0, 0, 0] * 4), Type=Name.XObject, Subtype=Name.Image, Width=2, Height=2,
                            ColorSpace=Name.DeviceCMYK, BitsPerComponent=8, SMask=mask)
    pdf.pages[0].obj.Resources.XObject = Dictionary(Im=image)
    Flattener(pdf, "test.pdf").run()
    placed = [x for x in pdf.pages[0].obj.Resources.XObject.values()]
    assert len(placed) == 1 and "/SMask" not in placed[0]
    pixels = placed[0].read_bytes()
    assert pixels[0:4] == bytes([255, 0, 0, 0])  # fully opaque: cyan
    assert pixels[8:12] == bytes([128, 0, 0, 64])  # half: half cyan over half black
    ops = [str(i.operator) for i in pikepdf.parse_content_stream(pdf.pages[0].obj)]
    assert "W*" in ops  # the pixel it does not show stays unpainted (a clip along its edges)


def test_the_stroke_of_a_filled_and_stroked_path_composites_beside_its_fill_not_over_it():
    """PDF paints B's fill and stroke as a knockout pair: the stroke shows what lay
    under the path, never the path's own fill."""
    pdf = _page(b"q /H gs 0 1 0 0 k 1 0 0 0 K 10 w 20 20 60 60 re B Q", {"H": 0.5})
    Flattener(pdf, "test.pdf").run()
    strokes = [tuple(round(float(v), 4) for v in i.operands) for i in pikepdf.parse_content_stream(pdf.pages[0].obj)
               if str(i.operator) == "K"]
    assert (0.0, 0.5, 0.0, 0.0) in _fills(pdf)
    assert (0.5, 0.0, 0.0, 0.0) in strokes  # over paper: half cyan, no magenta of the fill


def test_a_build_with_an_op_it_cannot_flatten_names_it_and_writes_nothing(game_copy, cli):
    game = game_copy("mini_game")
    with (game / "templates" / "front.yaml.j2").open("a", encoding="utf-8") as template:
        template.write('- {rect: {x: 0, y: 20, w: 30, h: 20, fill: "#1f4e8c"}}\n'
                       '- {text: {x: 5, y: 25, w: 40, h: 10, text: "Half", size: 12, color: ink, opacity: 0.5}}\n')
    out = game.parent / "out"
    r = cli("build", game, "--out", out, "--paper", "a4", "--lang", "en", "--pdfx", "1a")
    errors = assert_user_error(r)
    assert len(errors) == 1, errors
    assert "-printshop-" in errors[0] and ": page 1 (" in errors[0] and " front) (in mm on the face): " in errors[0]
    assert "translucent text (opacity 0.5) at x 5." in errors[0]
    assert errors[0].endswith("cannot be flattened exactly for PDF/X-1a (it lies over several colours); draw it "
                              "opaque, or build with --pdfx 4")
    assert not out.exists() or not any(out.rglob("*.pdf"))
    assert cli("build", game, "--out", out, "--paper", "a4").exit_code == 0  # PDF/X-4 keeps it live


def test_an_unknown_pdfx_standard_is_a_usage_error(cli, scenario):
    r = cli("build", scenario("mini_game"), "--pdfx", "3")
    assert r.exit_code == 2 and "'3' is not one of '4', '1a'" in r.output


def test_a_pdfx1a_build_with_preflight_says_so_and_finds_nothing(game_copy, cli):
    game = game_copy("mini_game")
    with (game / "templates" / "front.yaml.j2").open("a", encoding="utf-8") as template:
        template.write('- {rect: {x: 0, y: 20, w: 30, h: 20, fill: "#1f4e8c", opacity: 0.5}}\n')
    r = cli("build", game, "--out", game.parent / "out", "--paper", "a4", "--lang", "en", "--pdfx", "1a", "--preflight")
    assert r.exit_code == 0, r.output
    assert "Preflight of 1 print-shop file(s) (PDF/X-1a): no problems" in r.stdout
