"""The preflight of print-shop files (``cardgen.output.preflight``), in ``cardgen validate
--kit`` and after ``cardgen build``, proved against Ghostscript: its total ink per page
is the darkest pixel of Ghostscript's CMYK rendering (``tiff32nc``), and the place it
names for ink over the limit is where Ghostscript's pixels over the limit are."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from kitchecks import HAPY_EN_A4, build
from PIL import Image

from cardgen.output.preflight import preflight

DEMO = Path(__file__).parents[1].parent / "docs" / "examples" / "demo"
GS = shutil.which("gs")
needs_gs = pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed")
PPI = 127  # 5 pixels a millimetre


@pytest.fixture(scope="module")
def kits(tmp_path_factory, shared_kit):
    out = tmp_path_factory.mktemp("preflight")
    build(out, str(DEMO), "--lang", "en", "--paper", "a4")
    return {"hapy": shared_kit(*HAPY_EN_A4).folder, "demo": out / "lantern-reef"}


@pytest.fixture(scope="module")
def dark_flood(tmp_path_factory):
    """A copy of mini_game whose card fronts have a 400 % square (cmyk(100,100,100,100))
    at 10–30 mm across and 20–40 mm down the card: (kit folder, print-shop file)."""
    root = tmp_path_factory.mktemp("flood")
    game = root / "mini_game"
    shutil.copytree(Path(__file__).parents[1] / "data" / "mini_game", game)
    with (game / "templates" / "front.yaml.j2").open("a", encoding="utf-8") as template:
        template.write('- {rect: {x: 10, y: 20, w: 20, h: 20, fill: "cmyk(100,100,100,100)"}}\n')
    build(root / "out", str(game), "--lang", "en", "--paper", "a4")
    kit = root / "out" / "mini"
    return kit, kit / "mini-en-printshop-63x88mm.pdf"


def render_inks(path: Path, page: int, tmp: Path) -> np.ndarray:
    """Ghostscript's CMYK rendering of one page: the total ink of each pixel, percent."""
    target = tmp / f"{path.stem}-{page}.tif"
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{PPI}",
                    f"-dFirstPage={page}", f"-dLastPage={page}", f"-sOutputFile={target}", str(path)],
                   check=True, capture_output=True)
    with Image.open(target) as picture:
        assert picture.mode == "CMYK"
        return np.asarray(picture).astype(float).sum(axis=2) * 100 / 255


@needs_gs
def test_the_most_ink_of_each_page_is_the_darkest_pixel_ghostscript_renders(kits, tmp_path):
    checked = 0
    for folder in kits.values():
        for path in sorted(folder.glob("*-printshop-*.pdf")):
            found = preflight(path)
            for page in (1, 2, 3):
                darkest = render_inks(path, page, tmp_path).max()
                assert found.ink[page - 1].most == pytest.approx(darkest, abs=1.0), (path.name, page)
                checked += 1
    assert checked >= 15


@needs_gs
def test_ink_over_the_limit_is_named_by_page_face_and_place_where_ghostscript_finds_it(dark_flood, tmp_path):
    kit, path = dark_flood
    found = preflight(path)
    over = [f for f in found.findings if "total ink" in f.text]
    with pikepdf.open(path) as pdf:
        fronts = len(pdf.pages) // 2
    assert sorted(f.page for f in over) == list(range(1, 2 * fronts, 2))  # every front, no back
    text = over[0].text
    assert text.startswith("400 % total ink, over the 300 % limit, at x 10.0–30.0 mm, y 20.0–40.0 mm"), text
    inks = render_inks(path, 1, tmp_path)
    assert inks.max() == pytest.approx(400, abs=0.5)
    ys, xs = np.nonzero(inks > 300.5)
    with pikepdf.open(path) as pdf:
        trim = [float(v) for v in pdf.pages[0].obj.TrimBox]
        media = [float(v) for v in pdf.pages[0].obj.MediaBox]
    left_mm, top_mm = (trim[0] - media[0]) * 25.4 / 72, (media[3] - trim[3]) * 25.4 / 72
    px = 25.4 / PPI
    x0, x1 = xs.min() * px - left_mm, (xs.max() + 1) * px - left_mm
    y0, y1 = ys.min() * px - top_mm, (ys.max() + 1) * px - top_mm
    named = [float(v) for v in re.findall(r"(\d+\.\d)", text.split(" at ", 1)[1])[:4]]
    assert named == pytest.approx([x0, x1, y0, y1], abs=2 * px), (named, (x0, x1, y0, y1))


def test_validate_kit_fails_on_ink_over_the_limit_and_names_file_page_and_card(dark_flood, cli):
    kit, path = dark_flood
    r = cli("validate", str(kit.parent.parent / "mini_game"), "--kit", str(kit))
    assert r.exit_code == 1, r.output
    assert re.search(r"✗ .*mini-en-printshop-63x88mm\.pdf: page 1 \(card-1 front\): 400 % total ink, over the "
                     r"300 % limit, at x 10\.0–30\.0 mm, y 20\.0–40\.0 mm", r.output), r.output


def test_a_build_prints_its_preflight(kits, dark_flood, cli, tmp_path):
    game = dark_flood[0].parent.parent / "mini_game"
    r = cli("build", str(game), "--lang", "en", "--paper", "a4", "--out", tmp_path)
    assert r.exit_code == 0 and "Preflight" not in r.output  # asked for only
    r = cli("build", str(game), "--lang", "en", "--paper", "a4", "--out", tmp_path, "--preflight")
    assert r.exit_code == 0, r.output
    assert "Preflight of 1 print-shop file(s) (PDF/X-4): 5 problem(s)\n" in r.stdout
    assert "problem: mini-en-printshop-63x88mm.pdf: page 1 (card-1 front): 400 % total ink" in r.stderr
    r = cli("build", "hapy", "--lang", "en", "--paper", "a4", "--out", tmp_path, "--preflight")
    assert "Preflight of 1 print-shop file(s) (PDF/X-4): no problems\n" in r.stdout


def test_the_shipped_files_pass_and_the_demos_small_pearl_is_flagged(kits):
    assert preflight(kits["hapy"] / "hapy-en-printshop-63x88mm.pdf").findings == []
    low = []
    for path in sorted(kits["demo"].glob("*-printshop-*.pdf")):
        findings = preflight(path).findings
        assert all(not f.problem for f in findings), [f.text for f in findings if f.problem]
        low += [f.text for f in findings]
    assert low and all(t.startswith("image under 300 ppi: 96 × 96 px printed ") for t in low)
    ppis = {int(re.search(r"(\d+) ppi$", t).group(1)) for t in low}
    assert ppis == {122, 135, 152}  # pearl.png, 96 px, at 20, 18 and 16 mm


def test_rgb_missing_boxes_and_unembedded_fonts_are_named(kits, tmp_path):
    path = tmp_path / "broken.pdf"
    shutil.copyfile(kits["hapy"] / "hapy-en-printshop-63x88mm.pdf", path)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.pages[0].contents_add(pdf.make_stream(b"q 1 0 0 rg 0 0 10 10 re f Q"))
        del pdf.pages[1].obj["/TrimBox"]
        font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                    BaseFont=pikepdf.Name.Helvetica))
        pdf.pages[2].obj.Resources.Font = pikepdf.Dictionary(FH=font)
        pdf.pages[3].obj.ArtBox = pdf.pages[3].obj.TrimBox
        pdf.save(path)
    found = {(f.page, f.text) for f in preflight(path).findings}
    assert (1, "RGB left in a CMYK file: 'rg' colour operators") in found
    assert (2, "no TrimBox or BleedBox") in found
    assert (3, "font Helvetica is not embedded") in found
    assert (4, "both a TrimBox and an ArtBox (PDF/X allows one of the two)") in found
    assert len(found) == 4
