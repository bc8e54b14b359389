"""The PDFs themselves, read back with pypdf (boxes, fonts, viewer preferences) and
pypdfium2 (the text, and the rasters of the duplex tests).

The Hâpy kit is built once per session in every language on both papers (shared with
test_hapy_sheets_look); a few variant builds (short-edge duplex, ink saver, a rebuild)
use English on A4 only.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import numpy as np
import pypdf
import pypdfium2 as pdfium
import pytest
import yaml
from kitchecks import HAPY_EVERY_LANGUAGE
from pypdf.generic import IndirectObject
from textlayer import page_text, page_texts

from cardgen.base.paths import shipped_games_dir
from cardgen.base.units import PT_PER_MM
from cardgen.impose.grid import plan_sheet
from cardgen.impose.papers import PAPERS_MM

LANGS = ("en", "fr", "nl")
PAPERS = ("a4", "letter")
PAGE_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
BASE14 = {
    "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Helvetica", "Helvetica-Bold",
    "Helvetica-Oblique", "Helvetica-BoldOblique", "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic",
    "Symbol", "ZapfDingbats",
}
FAMILY_GLYPHS = {
    "jackal": "\U000130E2", "cat": "\U000130E0", "crocodile": "\U0001318A",
    "falcon": "\U00013143", "hippopotamus": "\U000130EF", "bull": "\U000130D2",
}
MUMMY = "\U0001303E"


def _build(cli, out: Path, *args: str):
    result = cli("build", *args, "--out", out)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def kit(shared_kit):
    """hapy in en, fr, nl on A4 and Letter, languages in parallel: (folder, CLI stdout)."""
    built = shared_kit(*HAPY_EVERY_LANGUAGE)
    return built.folder, built.stdout


@pytest.fixture(scope="module")
def short_kit(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("short")
    _build(cli, out, "hapy", "--lang", "en", "--paper", "a4", "--duplex", "short")
    return out / "hapy"


@pytest.fixture(scope="module")
def ink_kit(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("ink")
    _build(cli, out, "hapy", "--lang", "en", "--paper", "a4", "--ink-saver")
    return out / "hapy"


_readers: dict[Path, pypdf.PdfReader] = {}


def reader(path: Path) -> pypdf.PdfReader:
    if path not in _readers:
        _readers[path] = pypdf.PdfReader(path)
    return _readers[path]


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def manifest_entry(folder: Path, name: str) -> dict:
    (entry,) = [e for e in manifest(folder)["files"] if e["file"] == name]
    return entry


def locale(lang: str) -> dict:
    return yaml.safe_load((shipped_games_dir() / "hapy" / "locales" / f"{lang}.yaml").read_text(encoding="utf-8"))


# -- files and page counts -----------------------------------------------------------------------------


def expected_files() -> set[str]:
    names = {f"hapy-{lang}-printshop-63x88mm.pdf" for lang in LANGS}
    names |= {f"hapy-{lang}-{paper}-{kind}.pdf" for lang in LANGS for paper in PAPERS for kind in ("cards", "sheets")}
    return names


def test_kit_files(kit):
    folder, stdout = kit
    assert {p.name for p in folder.glob("*.pdf")} == expected_files()
    assert (folder / "manifest.json").is_file()
    listed = re.findall(r"^\s+(\S+\.pdf)\s+\d+ pages?$", stdout, re.M)
    assert sorted(listed) == sorted(expected_files())


def test_cli_reports_cards_8_pages_and_printshop_72(kit):
    _, stdout = kit
    counts = dict((m[0], int(m[1])) for m in re.findall(r"^\s+(\S+\.pdf)\s+(\d+) pages?$", stdout, re.M))
    for lang in LANGS:
        assert counts[f"hapy-{lang}-printshop-63x88mm.pdf"] == 72
        for paper in PAPERS:
            assert counts[f"hapy-{lang}-{paper}-cards.pdf"] == 8  # 36 gods, 9 a sheet: 4 sheets × 2 sides


@pytest.mark.parametrize("lang", LANGS)
def test_printshop_has_72_pages(kit, lang):
    folder, _ = kit
    assert len(reader(folder / f"hapy-{lang}-printshop-63x88mm.pdf").pages) == 72  # 36 cards × front and back


@pytest.mark.parametrize("paper", PAPERS)
def test_cards_have_8_pages(kit, paper):
    folder, stdout = kit
    for lang in LANGS:
        name = f"hapy-{lang}-{paper}-cards.pdf"
        assert len(reader(folder / name).pages) == 8, name


def test_page_counts_match_manifest_and_cli(kit):
    folder, stdout = kit
    counts = dict((m[0], int(m[1])) for m in re.findall(r"^\s+(\S+\.pdf)\s+(\d+) pages?$", stdout, re.M))
    for name, n in counts.items():
        assert len(reader(folder / name).pages) == n, name
        assert len(manifest_entry(folder, name)["pages"]) == n, name


def test_cards_pages_alternate_front_and_back(kit):
    folder, _ = kit
    entry = manifest_entry(folder, "hapy-en-a4-cards.pdf")
    pages = entry["pages"]
    assert [p["side"] for p in pages] == ["front", "back"] * 4
    assert [p["page"] for p in pages] == list(range(1, 9))
    fronts = [i["card"] for p in pages if p["side"] == "front" for i in p["items"]]
    backs = [i["card"] for p in pages if p["side"] == "back" for i in p["items"]]
    gods = manifest(folder)["decks"]["gods"]["cards"]
    assert sorted(fronts) == sorted(backs) == sorted(gods) and len(fronts) == 36
    for front, back in zip(pages[::2], pages[1::2]):
        assert [i["card"] for i in front["items"]] == [i["card"] for i in back["items"]]


# -- page sizes and boxes ------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
def test_page_sizes(kit, paper):
    folder, _ = kit
    w, h = PAGE_PT[paper]
    for lang in LANGS:
        for kind in ("cards", "sheets"):
            for page in reader(folder / f"hapy-{lang}-{paper}-{kind}.pdf").pages:
                box = page.mediabox
                assert float(box.left) == 0 and float(box.bottom) == 0
                assert float(box.width) == pytest.approx(w, abs=0.01)
                assert float(box.height) == pytest.approx(h, abs=0.01)


def test_printshop_boxes(kit):
    folder, _ = kit
    bleed = 3 * PT_PER_MM
    w, h = 69 * PT_PER_MM, 94 * PT_PER_MM  # 63×88 trim + 3 mm bleed all round
    for lang in LANGS:
        for page in reader(folder / f"hapy-{lang}-printshop-63x88mm.pdf").pages:
            media = [float(v) for v in page.mediabox]
            assert media == pytest.approx([0, 0, w, h], abs=0.01)
            assert [float(v) for v in page.trimbox] == pytest.approx([bleed, bleed, w - bleed, h - bleed], abs=0.01)
            assert [float(v) for v in page.bleedbox] == pytest.approx(media, abs=0.01)
            assert "/TrimBox" in page and "/BleedBox" in page  # set explicitly, not inherited defaults
    trim = reader(folder / "hapy-en-printshop-63x88mm.pdf").pages[0].trimbox
    assert float(trim.width) / PT_PER_MM == pytest.approx(63, abs=0.01)
    assert float(trim.height) / PT_PER_MM == pytest.approx(88, abs=0.01)


# -- fonts ---------------------------------------------------------------------------------------------------


def _fonts_in(resources, seen_xobjects: set, found: list, via: str) -> None:
    if resources is None:
        return
    resources = resources.get_object()
    fonts = resources.get("/Font")
    if fonts is not None:
        for name, ref in fonts.get_object().items():
            found.append((via, name, ref.get_object()))
    xobjects = resources.get("/XObject")
    if xobjects is not None:
        for ref in xobjects.get_object().values():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            if key in seen_xobjects:
                continue
            seen_xobjects.add(key)
            xobj = ref.get_object()
            if xobj.get("/Subtype") == "/Form":
                _fonts_in(xobj.get("/Resources"), seen_xobjects, found, "form")


def all_fonts(path: Path) -> list[tuple[str, str, dict]]:
    found: list = []
    seen: set = set()
    for page in reader(path).pages:
        _fonts_in(page.get("/Resources"), seen, found, "page")
    return found


def _embedded(font: dict) -> bool:
    if font.get("/Subtype") == "/Type0":
        return all(_embedded(d.get_object()) for d in font["/DescendantFonts"])
    if font.get("/Subtype") == "/Type3":
        return True  # glyphs drawn by the file's own procedures
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:
        return False
    descriptor = descriptor.get_object()
    return any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


@pytest.mark.parametrize("kind", ["a4-cards", "letter-sheets", "printshop-63x88mm"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_font_embedded_no_base14(kit, lang, kind):
    folder, _ = kit
    fonts = all_fonts(folder / f"hapy-{lang}-{kind}.pdf")
    assert fonts, "no fonts found at all: the walk is broken"
    if kind != "letter-sheets":
        assert any(via == "form" for via, _, _ in fonts), "faces are forms: their fonts must be seen"
    names = set()
    for via, name, font in fonts:
        base = str(font.get("/BaseFont", ""))[1:]
        names.add(base.split("+", 1)[-1])
        assert base.split("+", 1)[-1] not in BASE14, (via, name, base)
        assert _embedded(font), (via, name, base)
    assert "NotoSansEgyptianHieroglyphs-Regular" in names


def test_no_base14_font_anywhere_in_the_file(kit):
    """Also fonts not reachable from a page (e.g. a default font ReportLab writes anyway)."""
    folder, _ = kit
    for name in ("hapy-en-a4-cards.pdf", "hapy-fr-letter-sheets.pdf", "hapy-nl-printshop-63x88mm.pdf"):
        raw = (folder / name).read_bytes()
        r = pypdf.PdfReader(folder / name)
        count = 0
        numbers = {num for table in r.xref.values() for num in table} | set(r.xref_objStm)
        assert len(numbers) > 20, "could not list the file's objects"
        for num in sorted(numbers):
            obj = r.get_object(num)
            if isinstance(obj, dict) and obj.get("/Type") == "/Font":
                count += 1
                base = str(obj.get("/BaseFont", ""))[1:].split("+", 1)[-1]
                assert base not in BASE14, (name, num, base)
                assert _embedded(obj), (name, num, base)
        assert count >= 4, (name, count)
        assert b"/Helvetica" not in raw


# -- text per language ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, present, absent",
    [
        ("en", ["Jackal", "Hippo", "Taweret"], ["Chacal", "Nijlpaard", "Taouret"]),
        ("fr", ["Taouret", "Chacal", "Hippopotame"], ["Jackal", "Nijlpaard"]),
        ("nl", ["Nijlpaard", "Jakhals"], ["Jackal", "Chacal", "Taouret"]),
    ],
)
def test_text_per_language(kit, lang, present, absent):
    folder, _ = kit
    text = "\n".join(page_texts(folder / f"hapy-{lang}-a4-cards.pdf"))
    for word in present:
        assert word in text, word
    for word in absent:
        assert word not in text, word


@pytest.mark.parametrize("lang", LANGS)
def test_every_god_and_animal_name_is_printed(kit, lang):
    folder, _ = kit
    strings = locale(lang)
    text = " ".join(" ".join(page_texts(folder / f"hapy-{lang}-letter-cards.pdf")).split())
    for fam, names in strings["family"].items():
        assert unicodedata.normalize("NFC", names["god"]) in text, (fam, names["god"])
        assert unicodedata.normalize("NFC", names["animal"]) in text, (fam, names["animal"])


@pytest.mark.parametrize("lang", LANGS)
def test_sheets_text_per_language(kit, lang):
    folder, _ = kit
    strings = locale(lang)
    text = " ".join(" ".join(page_texts(folder / f"hapy-{lang}-a4-sheets.pdf")).split())
    for key in ("title",):
        assert unicodedata.normalize("NFC", strings["rules"][key]) in text
        assert unicodedata.normalize("NFC", strings["setup"][key]) in text


def test_hieroglyphs_extract_as_their_code_points(kit):
    folder, _ = kit
    texts = page_texts(folder / "hapy-en-a4-cards.pdf")
    fronts, backs = "".join(texts[0:8:2]), "".join(texts[1:8:2])
    for fam, glyph in FAMILY_GLYPHS.items():
        assert fronts.count(glyph) == 6, fam  # one figure on each of the family's six cards
        assert glyph not in backs, fam
    assert backs.count(MUMMY) == 36 and MUMMY not in fronts
    everything = "".join(texts)
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in everything), "surrogates: the ToUnicode fix is not applied"
    assert "\U000130E2" in page_text(folder / "hapy-fr-printshop-63x88mm.pdf", 0)


# -- viewer preferences -------------------------------------------------------------------------------------


def viewer_prefs(path: Path) -> dict:
    prefs = reader(path).trailer["/Root"].get("/ViewerPreferences")
    return {k: str(v) for k, v in (prefs.get_object() if prefs is not None else {}).items()}


def test_viewer_preferences(kit, short_kit):
    folder, _ = kit
    cards = viewer_prefs(folder / "hapy-en-a4-cards.pdf")
    assert cards["/PrintScaling"] == "/None"
    assert cards["/Duplex"] == "/DuplexFlipLongEdge"
    assert viewer_prefs(short_kit / "hapy-en-a4-cards-short-edge.pdf")["/Duplex"] == "/DuplexFlipShortEdge"
    for name in ("hapy-en-a4-sheets.pdf", "hapy-en-printshop-63x88mm.pdf"):
        prefs = viewer_prefs(folder / name)
        assert prefs["/PrintScaling"] == "/None"
        assert prefs.get("/Duplex") not in ("/DuplexFlipLongEdge", "/DuplexFlipShortEdge"), name


# -- reproducibility ------------------------------------------------------------------------------------------


def test_rebuild_is_byte_identical(kit, cli, tmp_path):
    """Same inputs, same bytes — even built alone, in one process, rather than alongside other languages."""
    folder, _ = kit
    _build(cli, tmp_path, "hapy", "--lang", "en", "--paper", "a4", "--jobs", "1")
    for name in ("hapy-en-a4-cards.pdf", "hapy-en-a4-sheets.pdf", "hapy-en-printshop-63x88mm.pdf"):
        assert (tmp_path / "hapy" / name).read_bytes() == (folder / name).read_bytes(), name


# -- duplex and the manifest ------------------------------------------------------------------------------------


def _pairs(entry: dict):
    pages = entry["pages"]
    for front, back in zip(pages[::2], pages[1::2]):
        assert (front["side"], back["side"]) == ("front", "back")
        for f, b in zip(front["items"], back["items"]):
            assert (f["card"], f["copy"]) == (b["card"], b["copy"])
            yield f, b


def test_long_edge_back_positions_mirror_columns(kit):
    folder, _ = kit
    for paper in PAPERS:
        pw, _ = PAPERS_MM[paper]
        n = 0
        for f, b in _pairs(manifest_entry(folder, f"hapy-en-{paper}-cards.pdf")):
            assert b["x"] == pytest.approx(pw - f["x"] - f["w"], abs=0.001)
            assert b["y"] == pytest.approx(f["y"], abs=0.001)
            assert (f["rotation"], b["rotation"]) == (0, 0)
            n += 1
        assert n == 36


def test_short_edge_file_differs_and_rotates_backs(kit, short_kit):
    folder, _ = kit
    assert {p.name for p in short_kit.glob("*cards*.pdf")} == {"hapy-en-a4-cards-short-edge.pdf"}
    short = (short_kit / "hapy-en-a4-cards-short-edge.pdf").read_bytes()
    assert short != (folder / "hapy-en-a4-cards.pdf").read_bytes()
    entry = manifest_entry(short_kit, "hapy-en-a4-cards-short-edge.pdf")
    assert entry["duplex"] == "short"
    pw, ph = PAPERS_MM["a4"]
    n = 0
    for f, b in _pairs(entry):
        assert f["rotation"] == 0 and b["rotation"] == 180
        assert b["x"] == pytest.approx(f["x"], abs=0.001)
        assert b["y"] == pytest.approx(ph - f["y"] - f["h"], abs=0.001)
        n += 1
    assert n == 36


def test_ink_saver(kit, ink_kit):
    folder, _ = kit
    names = sorted(p.name for p in ink_kit.glob("*.pdf"))
    assert names == ["hapy-en-a4-cards-ink-saver.pdf", "hapy-en-a4-sheets-ink-saver.pdf",
                     "hapy-en-printshop-63x88mm-ink-saver.pdf"]
    for name in names:
        plain = folder / name.replace("-ink-saver", "")
        assert (ink_kit / name).read_bytes() != plain.read_bytes(), name
    # the point of it: much less ink on a front + back sheet (darkness = 255 - grey level)
    def ink_used(path: Path) -> float:
        return sum(float((255 - _raster(path, i, dpi=20)).mean()) for i in (0, 1))

    saver, full = ink_used(ink_kit / "hapy-en-a4-cards-ink-saver.pdf"), ink_used(folder / "hapy-en-a4-cards.pdf")
    assert saver < 0.6 * full, (saver, full)


# -- duplex registration, by raster ----------------------------------------------------------------------------

DPI = 50


def _raster(path: Path, index: int, dpi: int = DPI) -> np.ndarray:
    pdf = pdfium.PdfDocument(str(path))
    try:
        image = pdf[index].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        pdf.close()
    return np.asarray(image, dtype=np.int16)


@pytest.fixture(scope="module")
def duplex_kits(cli, tmp_path_factory):
    """tests/data/duplex_game built for both flips on both papers."""
    root = Path(__file__).parents[1] / "data" / "duplex_game"
    kits = {}
    for duplex in ("long", "short"):
        out = tmp_path_factory.mktemp(f"duplex-{duplex}")
        _build(cli, out, root, "--paper", "a4", "--paper", "letter", "--duplex", duplex)
        kits[duplex] = out / "duplex"
    return kits


def _block_mask(paper: str, shape: tuple[int, int]) -> np.ndarray:
    """The card grid's trim area (all slots, used or not), 1 mm inside, in pixels."""
    plan = plan_sheet(PAPERS_MM[paper], (63, 88), 3)
    x0 = min(s.x for s in plan.slots) + 1
    y0 = min(s.y for s in plan.slots) + 1
    x1 = max(s.x for s in plan.slots) + 63 - 1
    y1 = max(s.y for s in plan.slots) + 88 - 1
    px = lambda mm: int(round(mm / 25.4 * DPI))  # noqa: E731
    mask = np.zeros(shape, dtype=bool)
    mask[px(y0):px(y1), px(x0):px(x1)] = True
    return mask


def _mismatch(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> float:
    """Share of the masked pixels whose grey levels differ by more than a quarter."""
    return float((np.abs(a - b)[mask] > 64).mean())


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_duplex_back_lines_up_with_front(duplex_kits, duplex, paper):
    name = f"duplex-en-{paper}-cards{'-short-edge' if duplex == 'short' else ''}.pdf"
    path = duplex_kits[duplex] / name
    front, back = _raster(path, 0), _raster(path, 1)
    assert front.shape == back.shape
    mask = _block_mask(paper, front.shape)
    assert (front[mask] < 128).mean() > 0.05, "the front shows its marks"
    # turn the sheet over the way the printer does
    turned = back[:, ::-1] if duplex == "long" else back[::-1, :]
    assert _mismatch(front, turned, mask) < 0.005
    # and the comparison has teeth: the unturned back, or the wrong flip, does not line up
    assert _mismatch(front, back, mask) > 0.02
    wrong = back[::-1, :] if duplex == "long" else back[:, ::-1]
    assert _mismatch(front, wrong, mask) > 0.02


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_duplex_manifest_positions(duplex_kits, duplex):
    for paper in PAPERS:
        pw, ph = PAPERS_MM[paper]
        name = f"duplex-en-{paper}-cards{'-short-edge' if duplex == 'short' else ''}.pdf"
        pairs = list(_pairs(manifest_entry(duplex_kits[duplex], name)))
        assert [f["card"] for f, _ in pairs] == [f"card-{n}" for n in range(1, 6)]
        for f, b in pairs:
            if duplex == "long":
                assert b["x"] == pytest.approx(pw - f["x"] - f["w"], abs=0.001)
                assert b["y"] == pytest.approx(f["y"], abs=0.001)
                assert b["rotation"] == 0
            else:
                assert b["x"] == pytest.approx(f["x"], abs=0.001)
                assert b["y"] == pytest.approx(ph - f["y"] - f["h"], abs=0.001)
                assert b["rotation"] == 180
