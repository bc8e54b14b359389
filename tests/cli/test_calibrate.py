"""The duplex calibration sheet: geometry, the sign convention, and the PDF itself.

The raster tests render both pages with pypdfium2 at 152.4 dpi (exactly 6 px per mm),
turn the back over the way the printer flips the sheet, and measure where the marks
really are. The convention under test: the ladder mark labelled d sits where the 0 mark
lands when the back page's content is moved by +d mm (x to the right, y down, in the back
page's own coordinates) — which is what ``back-offset`` will make the build do.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdf
import pypdfium2 as pdfium
import pytest

from cardgen.calibrate.sheet import (
    STEPS,
    back_point,
    calibration_geometry,
    calibration_pdf,
)
from cardgen.calibrate.text import TEXT as CALIBRATION_TEXT
from cardgen.impose.duplex import back_slots
from cardgen.impose.grid import plan_sheet
from cardgen.impose.papers import PAPER_NAMES, PAPERS_MM

PX_PER_MM = 6
DPI = PX_PER_MM * 25.4
PAGE_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
CASES = [(p, d) for p in ("a4", "letter") for d in ("long", "short")]
BASE14 = {"Helvetica", "Times-Roman", "Courier", "Symbol", "ZapfDingbats"}


@pytest.fixture(autouse=True)
def isolated_config(tmp_path, monkeypatch):
    """Never read or write the real user's settings."""
    monkeypatch.setenv("CARDGEN_CONFIG", str(tmp_path / "user" / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> dict[tuple[str, str], Path]:
    out = tmp_path_factory.mktemp("calibration")
    return {(p, d): calibration_pdf(out / f"cal-{p}-{d}.pdf", p, d) for p, d in CASES}


@pytest.fixture(scope="module")
def rasters(sheets) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    result = {}
    for key, path in sheets.items():
        pdf = pdfium.PdfDocument(str(path))
        try:
            pages = tuple(np.asarray(pdf[i].render(scale=DPI / 72).to_pil().convert("L"), dtype=np.int16)
                          for i in range(2))
        finally:
            pdf.close()
        result[key] = pages
    return result


# -- raster helpers ------------------------------------------------------------------------------------------


def turn_over(back: np.ndarray, duplex: str) -> np.ndarray:
    """The back page as it lies behind the front (front coordinates)."""
    return back[:, ::-1] if duplex == "long" else back[::-1, :]


def shifted(img: np.ndarray, dx_mm: float, dy_mm: float) -> np.ndarray:
    """The image with its content moved by (dx, dy) mm (x right, y down), white fill."""
    dx, dy = round(dx_mm * PX_PER_MM), round(dy_mm * PX_PER_MM)
    assert (dx, dy) == (dx_mm * PX_PER_MM, dy_mm * PX_PER_MM), "whole pixels only"
    out = np.full_like(img, 255)
    h, w = img.shape
    out[max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] = img[max(-dy, 0):h + min(-dy, 0),
                                                                     max(-dx, 0):w + min(-dx, 0)]
    return out


def centroid(img: np.ndarray, x0: float, x1: float, y0: float, y1: float, axis: str) -> float:
    """Ink centroid (mm) along ``axis`` of the dark pixels in the window [x0, x1] × [y0, y1] mm."""
    c0, c1 = int(x0 * PX_PER_MM), int(np.ceil(x1 * PX_PER_MM))
    r0, r1 = int(y0 * PX_PER_MM), int(np.ceil(y1 * PX_PER_MM))
    ink = np.clip(255 - img[r0:r1, c0:c1], 0, 255).astype(float)
    ink[ink < 96] = 0  # ignore anti-aliasing haze and light greys
    assert ink.sum() > 0, f"no ink in window x {x0:.1f}–{x1:.1f}, y {y0:.1f}–{y1:.1f} mm"
    if axis == "x":
        profile, start = ink.sum(axis=0), c0
    else:
        profile, start = ink.sum(axis=1), r0
    return float(((np.arange(profile.size) + start + 0.5) * profile).sum() / profile.sum() / PX_PER_MM)


def reference_lines(front: np.ndarray, g) -> tuple[float, float]:
    """(x of the X line, y of the Y line) measured on the front raster, mm."""
    y0, y1 = g.x_reference_span
    xr = centroid(front, g.x_reference - 3, g.x_reference + 3, y0 + 1, y1 - 1, "x")
    x0, x1 = g.y_reference_span
    yr = centroid(front, x0 + 1, x1 - 1, g.y_reference - 2, g.y_reference + 2, "y")
    return xr, yr


def rungs_behind(turned: np.ndarray, g, moved: tuple[float, float] = (0.0, 0.0)
                 ) -> tuple[dict[float, float], dict[float, float]]:
    """Measured front-coordinate x of each X mark and y of each Y mark, on a turned-over back
    whose content was ``moved`` (back-page mm) before printing (the search windows follow)."""
    mx, my = (-moved[0], moved[1]) if g.duplex == "long" else (moved[0], -moved[1])
    xs, ys = {}, {}
    for r in g.x_rungs:
        _, fy = back_point(r.x, r.y, g.paper, g.duplex)
        xs[r.offset] = centroid(turned, g.x_reference - 4 + mx, g.x_reference + 4 + mx,
                                fy - 1.5 + my, fy + 1.5 + my, "x")
    for r in g.y_rungs:
        fx, _ = back_point(r.x, r.y, g.paper, g.duplex)
        ys[r.offset] = centroid(turned, fx - 1.5 + mx, fx + 1.5 + mx,
                                g.y_reference - 4 + my, g.y_reference + 4 + my, "y")
    return xs, ys


def rungs_on_back(back: np.ndarray, g) -> tuple[dict[float, float], dict[float, float]]:
    """Measured back-page x of each X mark and y of each Y mark (the back as the PDF shows it)."""
    xs, ys = {}, {}
    zx, zy = g.rung("x", 0), g.rung("y", 0)
    for r in g.x_rungs:
        xs[r.offset] = centroid(back, zx.x - 4, zx.x + 4, r.y - 1.5, r.y + 1.5, "x")
    for r in g.y_rungs:
        ys[r.offset] = centroid(back, r.x - 1.5, r.x + 1.5, zy.y - 4, zy.y + 4, "y")
    return xs, ys


TOL = 2 / PX_PER_MM  # two pixels


# -- geometry ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper,duplex", CASES)
def test_geometry_follows_the_convention(paper, duplex):
    g = calibration_geometry(paper, duplex)
    assert [r.offset for r in g.x_rungs] == list(STEPS) == [r.offset for r in g.y_rungs]
    assert STEPS[0] == -3.0 and STEPS[-1] == 3.0 and 0.0 in STEPS
    for r in g.x_rungs:  # the X mark for d: behind the X line, moved +d along the back page's x
        bx, _ = back_point(g.x_reference, 0, g.paper, duplex)
        assert r.x == pytest.approx(bx + r.offset)
    for r in g.y_rungs:
        _, by = back_point(0, g.y_reference, g.paper, duplex)
        assert r.y == pytest.approx(by + r.offset)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_point_mirrors_like_card_backs(duplex):
    """The calibration's idea of "behind" is impose.back_slots' idea: slot centres map onto slot centres."""
    for paper in ("a4", "letter"):
        plan = plan_sheet(PAPERS_MM[paper], (63, 88), 3)
        w, h = plan.item
        for front, back in zip(plan.slots, back_slots(plan, duplex)):
            assert back_point(front.x + w / 2, front.y + h / 2, plan.paper, duplex) == \
                pytest.approx((back.x + w / 2, back.y + h / 2))
            assert back.rotation == (0 if duplex == "long" else 180)
    assert back_point(*back_point(12.0, 34.0, (210, 297), duplex), (210, 297), duplex) == (12.0, 34.0)


# -- raster: the printed sheet -------------------------------------------------------------------------------


@pytest.mark.parametrize("paper,duplex", CASES)
def test_zero_marks_sit_on_the_front_lines(rasters, paper, duplex):
    front, back = rasters[(paper, duplex)]
    g = calibration_geometry(paper, duplex)
    assert front.shape == back.shape
    xr, yr = reference_lines(front, g)
    assert xr == pytest.approx(g.x_reference, abs=TOL) and yr == pytest.approx(g.y_reference, abs=TOL)
    xs, ys = rungs_behind(turn_over(back, duplex), g)
    assert xs[0.0] == pytest.approx(xr, abs=TOL), "X zero mark is not behind the X line"
    assert ys[0.0] == pytest.approx(yr, abs=TOL), "Y zero mark is not behind the Y line"
    # Seen from the front, a back-page move of +d is mirrored along the flip's axis:
    # long edge: x reversed, y kept; short edge: x kept, y reversed.
    sx, sy = (-1, 1) if duplex == "long" else (1, -1)
    assert xs[1.0] - xr == pytest.approx(sx * 1.0, abs=TOL)
    assert ys[1.0] - yr == pytest.approx(sy * 1.0, abs=TOL)
    for d in STEPS:
        assert xs[d] - xr == pytest.approx(sx * d, abs=TOL), d
        assert ys[d] - yr == pytest.approx(sy * d, abs=TOL), d


@pytest.mark.parametrize("paper,duplex", CASES)
def test_plus_d_mark_is_d_mm_right_and_down_on_the_back_page(rasters, paper, duplex):
    """The convention itself, on page 2 as the PDF shows it: mark d = mark 0 moved by (+d, +d)."""
    _, back = rasters[(paper, duplex)]
    g = calibration_geometry(paper, duplex)
    xs, ys = rungs_on_back(back, g)
    assert xs[0.0] == pytest.approx(g.rung("x", 0).x, abs=TOL)
    assert ys[0.0] == pytest.approx(g.rung("y", 0).y, abs=TOL)
    assert xs[1.0] - xs[0.0] == pytest.approx(1.0, abs=TOL)  # to the right
    assert ys[1.0] - ys[0.0] == pytest.approx(1.0, abs=TOL)  # down
    assert xs[-2.5] - xs[0.0] == pytest.approx(-2.5, abs=TOL)
    assert ys[-2.5] - ys[0.0] == pytest.approx(-2.5, abs=TOL)


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("error", [(-1.0, 1.5), (0.5, -2.0), (2.5, 0.0)])
def test_reading_a_misregistered_print_gives_the_offset_that_fixes_it(rasters, duplex, error):
    """A printer that moves the back page's content by ``error`` (back-page mm) is read as
    X,Y = −error; moving the back page by +X,+Y (what back-offset does) puts 0 on the lines."""
    front, back = rasters[("a4", duplex)]
    g = calibration_geometry("a4", duplex)
    xr, yr = reference_lines(front, g)
    printed = shifted(back, *error)
    xs, ys = rungs_behind(turn_over(printed, duplex), g, moved=error)
    read_x = min(xs, key=lambda d: abs(xs[d] - xr))
    read_y = min(ys, key=lambda d: abs(ys[d] - yr))
    assert (read_x, read_y) == (-error[0] + 0.0, -error[1] + 0.0)
    assert abs(xs[read_x] - xr) <= TOL and abs(ys[read_y] - yr) <= TOL
    # apply the offset the way the build will, then print with the same error
    corrected = shifted(shifted(back, read_x, read_y), *error)
    xs, ys = rungs_behind(turn_over(corrected, duplex), g, moved=(error[0] + read_x, error[1] + read_y))
    assert xs[0.0] == pytest.approx(xr, abs=TOL) and ys[0.0] == pytest.approx(yr, abs=TOL)


@pytest.mark.parametrize("paper,duplex", CASES)
def test_slant_lines_and_target_line_up(rasters, paper, duplex):
    front, back = rasters[(paper, duplex)]
    g = calibration_geometry(paper, duplex)
    turned = turn_over(back, duplex)
    ph = g.paper[1]
    for x in g.edge_lines:
        for y in (20.0, ph / 2, ph - 20.0):  # same place at the top, middle and bottom
            f = centroid(front, x - 3, x + 3, y - 2, y + 2, "x")
            b = centroid(turned, x - 3, x + 3, y - 2, y + 2, "x")
            assert f == pytest.approx(x, abs=TOL) and b == pytest.approx(x, abs=TOL)
    tx, ty = g.target  # the back's crosshair: its horizontal bar at the target's centre line
    bar = centroid(turned, tx + 13, tx + 15.5, ty - 3, ty + 3, "y")
    assert bar == pytest.approx(ty, abs=TOL)


# -- the PDF -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper,duplex", CASES)
def test_pages_sizes_and_viewer_preferences(sheets, paper, duplex):
    reader = pypdf.PdfReader(sheets[(paper, duplex)])
    assert len(reader.pages) == 2
    for page in reader.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(PAGE_PT[paper], abs=0.01)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == ("/DuplexFlipLongEdge" if duplex == "long" else "/DuplexFlipShortEdge")


@pytest.mark.parametrize("paper,duplex", CASES)
def test_fonts_are_shipped_and_embedded(sheets, paper, duplex):
    reader = pypdf.PdfReader(sheets[(paper, duplex)])
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            base = str(font["/BaseFont"])
            names.add(base.split("+")[-1])
            assert base.lstrip("/") not in BASE14
            descendants = font.get("/DescendantFonts")
            desc = (descendants[0].get_object() if descendants else font)["/FontDescriptor"].get_object()
            assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")), base
    assert names == {"NotoSans-Regular", "NotoSans-Bold"}, names


def _text_sizes(page) -> list[tuple[str, float]]:
    """(text, size in pt as printed) for every text run on the page."""
    runs = []

    def det(m) -> float:
        return float(m[0]) * float(m[3]) - float(m[1]) * float(m[2])

    def visit(text, cm, tm, font, size):
        if text.strip():  # the printed size scales with the square root of the matrices' area factor
            runs.append((text.strip(), size * abs(det(tm) * det(cm)) ** 0.5))

    page.extract_text(visitor_text=visit)
    return runs


@pytest.mark.parametrize("paper,duplex", [("a4", "long"), ("letter", "short")])
def test_text_is_readable_and_says_what_to_do(sheets, paper, duplex):
    reader = pypdf.PdfReader(sheets[(paper, duplex)])
    front, back = (reader.pages[i].extract_text() for i in range(2))
    flip = "long" if duplex == "long" else "short"
    for needle in ("100 %", "Fit to page", f"flip on the {flip} edge", "cardgen config set back-offset X,Y",
                   "Slant check", "X line", "Y line", PAPER_NAMES[paper]):
        assert needle in front, needle
    for needle in ("BACK", "cardgen config set back-offset X,Y", "+0.5", "\u20133.0", "+3.0"):
        assert needle in back, needle
    for page in reader.pages:
        sizes = [s for _, s in _text_sizes(page)]
        assert sizes and min(sizes) >= 6.99, min(sizes)


def test_reproducible_bytes(tmp_path):
    out = tmp_path / "out"
    a = calibration_pdf(out / "a" / "one.pdf", "letter", "short").read_bytes()
    b = calibration_pdf(out / "b" / "two.pdf", "letter", "short").read_bytes()
    assert a == b
    assert calibration_pdf(out / "c.pdf", "letter", "long").read_bytes() != a
    assert sorted(p.name for p in out.iterdir()) == ["a", "b", "c.pdf"]  # no temporary files left
    assert [p.name for p in (out / "a").iterdir()] == ["one.pdf"]


# -- command line --------------------------------------------------------------------------------------------


def test_cli_default_path(cli, isolated_config):
    result = cli("calibrate")
    assert result.exit_code == 0, result.output
    out = isolated_config / "output" / "calibration-a4-long.pdf"
    assert out.is_file()
    assert "output/calibration-a4-long.pdf" in result.stdout
    assert "100 %" in result.stdout and "long edge" in result.stdout


def test_cli_options_and_out(cli, tmp_path):
    out = tmp_path / "x" / "cal.pdf"
    result = cli("calibrate", "--paper", "letter", "--duplex", "short", "--out", out)
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(out)
    assert float(reader.pages[0].mediabox.width) == pytest.approx(612.0, abs=0.01)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"


def test_cli_uses_paper_and_duplex_settings(cli, isolated_config):
    (isolated_config / "cardgen.cfg").write_text("paper = letter\nduplex = short\n", encoding="utf-8")
    result = cli("calibrate")
    assert result.exit_code == 0, result.output
    assert (isolated_config / "output" / "calibration-letter-short.pdf").is_file()
    result = cli("calibrate", "--duplex", "long")  # an option beats a setting
    assert (isolated_config / "output" / "calibration-letter-long.pdf").is_file()


def test_cli_bad_settings_file_is_a_user_error(cli, isolated_config):
    from conftest import assert_user_error

    (isolated_config / "cardgen.cfg").write_text("paper = a3\n", encoding="utf-8")
    assert assert_user_error(cli("calibrate")) == ["cardgen.cfg:1: paper must be a4 or letter, not 'a3'"]
    assert cli("calibrate", "--paper", "a4", "--duplex", "long").exit_code == 0  # settings not needed


def test_cli_usage_errors_exit_2(cli):
    assert cli("calibrate", "--paper", "a3").exit_code == 2
    assert cli("calibrate", "--duplex", "sideways").exit_code == 2


# -- languages -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["fr", "nl"])
@pytest.mark.parametrize("paper,duplex", [("a4", "long"), ("letter", "short")])
def test_the_sheet_speaks_french_and_dutch_and_keeps_its_measurements(tmp_path, lang, paper, duplex):
    t = CALIBRATION_TEXT[lang]
    reader = pypdf.PdfReader(calibration_pdf(tmp_path / "cal.pdf", paper, duplex, lang))
    front, back = (" ".join(reader.pages[i].extract_text().split()) for i in range(2))  # lines may wrap
    for key in ("title", "x_line", "y_line", "step5", "step6"):
        assert " ".join(t[key].split()) in front, key
    assert t["flip_" + duplex] in front
    for key in ("title", "type", "mark_x", "mark_y"):
        assert " ".join(t[key].split()) in back, key
    for page_text in (front, back):
        assert "cardgen config set back-offset X,Y" in page_text  # the command is the command in any language
        assert "Printer calibration" not in page_text and "shine through" not in page_text
    for needle in ("+0.5", "\u20133.0", "+3.0"):  # the ladders read as the command takes them
        assert needle in back, needle
    for page in reader.pages:
        sizes = [s for _, s in _text_sizes(page)]
        assert sizes and min(sizes) >= 6.99, min(sizes)


def test_french_never_starts_a_line_with_its_colon(tmp_path):
    reader = pypdf.PdfReader(calibration_pdf(tmp_path / "cal.pdf", "a4", "long", "fr"))
    for page in reader.pages:
        for line in page.extract_text().splitlines():
            assert not line.lstrip().startswith((":", ";", "?", "!", "\u00bb")), line


def test_every_language_has_every_text():
    assert all(set(CALIBRATION_TEXT[lang]) == set(CALIBRATION_TEXT["en"]) for lang in CALIBRATION_TEXT)


def test_cli_lang_names_the_default_file(cli, isolated_config):
    result = cli("calibrate", "--lang", "nl")
    assert result.exit_code == 0, result.output
    out = isolated_config / "output" / "calibration-a4-long-nl.pdf"
    assert "Printerkalibratie" in pypdf.PdfReader(out).pages[0].extract_text()
