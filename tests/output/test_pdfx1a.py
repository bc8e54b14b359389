"""Print-shop files as PDF/X-1a:2003 (``--pdfx 1a``), read back with pikepdf and rendered
with Ghostscript.

Every shipped kit and the demo game are built once (English, A4) with ``--pdfx 1a`` and
every print-shop file is read: the output intent with the CMYK profile embedded, the
X-1a keys of the Info dictionary, PDF 1.4, no RGB operator or image, no transparency
(opacities, soft masks, transparency groups), boxes on every page, fonts embedded, and a
clean preflight. The flattened pages, rendered in CMYK by Ghostscript, match the PDF/X-4
files, whose transparency Ghostscript composites itself."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from kitchecks import build
from PIL import Image

from cardgen.base.paths import shipped_profiles_dir
from cardgen.output.preflight import preflight

DEMO = str(Path(__file__).parents[1].parent / "docs" / "examples" / "demo")
GAMES = {"hapy": "hapy", "egypt": "egypt", "horus": "horus", "farao": "farao", "demo": DEMO}
PROFILE = shipped_profiles_dir() / "ISOcoated_v2_300_bas.icc"
GS = shutil.which("gs")
needs_gs = pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed")
ONE = ("--lang", "en", "--paper", "a4")


_DEMO_KITS: dict[tuple, Path] = {}


def _kit(shared_kit, game: str, *options: str) -> Path:
    """A kit's folder: the shipped games built once a session, the demo once a module."""
    if game != "demo":
        return shared_kit(GAMES[game], *ONE, *options).folder
    return _DEMO_KITS[options]


@pytest.fixture(scope="module")
def x1a(shared_kit, tmp_path_factory) -> dict[str, list[Path]]:
    """Each kit's print-shop files built with --pdfx 1a (once for this module), and the
    demo's PDF/X-4 files to compare with."""
    for options in ((), ("--pdfx", "1a")):
        out = tmp_path_factory.mktemp("demo")
        build(out, DEMO, *ONE, *options)
        _DEMO_KITS[options] = out / "lantern-reef"
    files = {game: sorted(_kit(shared_kit, game, "--pdfx", "1a").glob("*-printshop-*.pdf")) for game in GAMES}
    assert all(files.values()) and sum(map(len, files.values())) == 11, files
    return files


def _every(x1a) -> list[Path]:
    return [p for paths in x1a.values() for p in paths]


def _streams(pdf: pikepdf.Pdf):
    """Every content stream (pages, forms, tiling patterns) with its resources, once each."""
    seen: set = set()
    todo = [page.obj for page in pdf.pages]
    while todo:
        holder = todo.pop()
        if holder.objgen in seen:
            continue
        seen.add(holder.objgen)
        res = holder.get("/Resources") or {}
        yield holder, res
        todo += [x for x in (res.get("/XObject") or {}).values() if x.get("/Subtype") == "/Form"]
        todo += [p for p in (res.get("/Pattern") or {}).values() if int(p.get("/PatternType", 0)) == 1]


def test_every_print_shop_file_is_pdfx1a_with_the_profile_as_its_output_intent(x1a):
    for path in _every(x1a):
        with pikepdf.open(path) as pdf:
            assert pdf.pdf_version in ("1.3", "1.4"), path.name
            assert path.read_bytes().startswith(b"%PDF-1.4"), path.name
            (intent,) = pdf.Root.OutputIntents
            assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "FOGRA39"
            assert intent.DestOutputProfile.read_bytes() == PROFILE.read_bytes() and int(intent.DestOutputProfile.N) == 4
            info = pdf.docinfo
            assert str(info.GTS_PDFXVersion) == "PDF/X-1:2001", path.name
            assert str(info.GTS_PDFXConformance) == "PDF/X-1a:2003", path.name
            assert info.Trapped == "/False" and str(info.Title) and str(info.CreationDate).startswith("D:")
            assert len(bytes(pdf.trailer.ID[0])) == 16
            xmp = pdf.Root.Metadata.read_bytes().decode("utf-8")
            assert "<pdfx:GTS_PDFXConformance>PDF/X-1a:2003</pdfx:GTS_PDFXConformance>" in xmp
            assert "/Encrypt" not in pdf.trailer


def test_no_transparency_is_left_opacities_soft_masks_or_groups(x1a):
    for path in _every(x1a):
        with pikepdf.open(path) as pdf:
            for holder, res in _streams(pdf):
                group = holder.get("/Group")
                assert group is None or group.get("/S") != "/Transparency", path.name
                for state in (res.get("/ExtGState") or {}).values():
                    assert float(state.get("/ca", 1)) == 1 and float(state.get("/CA", 1)) == 1, path.name
                    assert state.get("/SMask", "/None") == "/None", path.name
                for x in (res.get("/XObject") or {}).values():
                    assert "/SMask" not in x, path.name


def test_no_rgb_operator_colour_space_or_image_is_left(x1a):
    for path in _every(x1a):
        with pikepdf.open(path) as pdf:
            for holder, res in _streams(pdf):
                for ins in pikepdf.parse_content_stream(holder):
                    assert not isinstance(ins, pikepdf.ContentStreamInlineImage), path.name
                    assert str(ins.operator) not in ("rg", "RG"), path.name
                    if str(ins.operator) in ("cs", "CS"):
                        name = str(ins.operands[0])
                        named = (res.get("/ColorSpace") or {}).get(name)
                        assert name != "/DeviceRGB" and (named is None or "RGB" not in repr(named)), path.name
                for x in (res.get("/XObject") or {}).values():
                    if x.get("/Subtype") == "/Image":
                        assert x.get("/ColorSpace") in ("/DeviceCMYK", "/DeviceGray"), path.name
                for sh in (res.get("/Shading") or {}).values():
                    assert "RGB" not in repr(sh.get("/ColorSpace")), path.name


def test_every_page_has_its_trim_box_inside_its_bleed_box_and_fonts_embedded(x1a):
    for path in _every(x1a):
        with pikepdf.open(path) as pdf:
            for n, page in enumerate(pdf.pages, start=1):
                trim, bleed, media = ([float(v) for v in page.obj[k]] for k in ("/TrimBox", "/BleedBox", "/MediaBox"))
                assert bleed[0] <= trim[0] < trim[2] <= bleed[2] and bleed[1] <= trim[1] < trim[3] <= bleed[3], n
                assert media[0] <= bleed[0] and bleed[2] <= media[2] and media[1] <= bleed[1] and bleed[3] <= media[3]
                assert "/ArtBox" not in page.obj  # X-1a: a TrimBox or an ArtBox, not both
            for _, res in _streams(pdf):
                for font in (res.get("/Font") or {}).values():
                    descriptor = font.get("/FontDescriptor")
                    assert descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2",
                                                                                    "/FontFile3")), path.name


def test_the_preflight_finds_nothing_in_the_x1a_files_and_flags_transparency_in_a_file_claiming_x1a(x1a, shared_kit,
                                                                                                     tmp_path):
    for path in _every(x1a):
        problems = [f.text for f in preflight(path).findings if f.problem]
        assert problems == [], (path.name, problems[:3])
    live = _kit(shared_kit, "farao") / "farao-en-printshop-63x88mm.pdf"  # PDF/X-4: 76 translucent states
    claimed = tmp_path / "claimed.pdf"
    with pikepdf.open(live) as pdf:
        pdf.docinfo.GTS_PDFXVersion = "PDF/X-1:2001"
        pdf.docinfo.GTS_PDFXConformance = "PDF/X-1a:2003"
        pdf.save(claimed)
    found = [f"page {f.page}: {f.text}" for f in preflight(claimed).findings if f.problem]
    assert any("transparency left in a PDF/X-1a file: an opacity below 1" in line for line in found), found
    assert any("PDF 1.6: PDF/X-1a needs 1.3 or 1.4" in line for line in found), found


def _render(path: Path, page: int, tmp: Path) -> np.ndarray:
    target = tmp / f"{path.stem}-{path.parent.name}-{page}.tif"
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r150", f"-dFirstPage={page}",
                    f"-dLastPage={page}", f"-sOutputFile={target}", str(path)], capture_output=True, check=True)
    with Image.open(target) as picture:
        assert picture.mode == "CMYK"
        return np.asarray(picture).astype(int)


def _translucent_pages(path: Path) -> list[int]:
    with pikepdf.open(path) as pdf:
        pages = []
        for n, page in enumerate(pdf.pages, start=1):
            for _, res in _streams_of(page):
                if any(float(s.get("/ca", 1)) < 1 or float(s.get("/CA", 1)) < 1
                       for s in (res.get("/ExtGState") or {}).values()) or \
                        any("/SMask" in x for x in (res.get("/XObject") or {}).values()):
                    pages.append(n)
                    break
        return pages


def _streams_of(page):
    todo = [page.obj]
    while todo:
        holder = todo.pop()
        res = holder.get("/Resources") or {}
        yield holder, res
        todo += [x for x in (res.get("/XObject") or {}).values() if x.get("/Subtype") == "/Form"]


@needs_gs
def test_flattened_pages_print_the_inks_of_the_pdfx4_pages(x1a, shared_kit, tmp_path):
    """Ghostscript composites the X-4 file's transparency in CMYK as a RIP does; the
    X-1a page, opaque, must give the same inks at 150 ppi: at most 0.5 % of the pixels
    differ by more than 8 of 255 in any ink (pixels on an edge, where a stroke's outline
    as a clip and the stroke Ghostscript draws take a pixel on either side), and the mean
    difference is under 1 of 255."""
    compared = 0
    for game in ("farao", "horus", "demo"):
        live = _kit(shared_kit, game)
        for flat in x1a[game]:
            pages = _translucent_pages(live / flat.name)
            for page in pages[:3] + pages[-3:]:
                before, after = _render(live / flat.name, page, tmp_path), _render(flat, page, tmp_path)
                assert before.shape == after.shape
                diff = np.abs(before - after).max(axis=2)
                assert (diff > 8).mean() < 0.005, (flat.name, page, float((diff > 8).mean()))
                assert diff.mean() < 1, (flat.name, page, float(diff.mean()))
                compared += 1
    assert compared >= 20  # O, Farao!'s cards, Horus's tiles, every demo file with transparency
