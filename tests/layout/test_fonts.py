"""Font lookup, registration, coverage, geometry, and the ToUnicode fix."""

import shutil

import pytest
from reportlab.pdfbase import pdfmetrics, ttfonts

from cardgen.base.errors import CardgenError, Where
from cardgen.base.paths import shipped_fonts_dir
from cardgen.layout.fonts import FontBook
from cardgen.layout.textfit import fit_text
from cardgen.output.reportlab_compat import install_tounicode_fix

SANS = "NotoSans-Regular"
GLYPHS = "NotoSansEgyptianHieroglyphs-Regular"
FALCON = "\U00013143"
EYE = "\U00013080"


@pytest.fixture(scope="module")
def book():
    return FontBook([shipped_fonts_dir()])


def test_shipped_fonts_present():
    names = {p.stem for p in shipped_fonts_dir().glob("*.ttf")}
    assert {SANS, "NotoSans-Bold", "NotoSans-Italic", "NotoSerifDisplay-Bold",
            "NotoSerif-Regular", "NotoSerif-Bold", GLYPHS} <= names
    assert (shipped_fonts_dir() / "OFL.txt").is_file()


def test_resolve_unknown_font(tmp_path):
    b = FontBook([tmp_path / "game_fonts", shipped_fonts_dir()])
    with pytest.raises(CardgenError) as exc:
        b.resolve("Papyrus-Bold", Where("templates/x/front.yaml.j2", 12, 5))
    msg = str(exc.value)
    assert msg.startswith("templates/x/front.yaml.j2:12:5: unknown font 'Papyrus-Bold' (looked in: ")
    assert "game_fonts" in msg and "fonts" in msg


def test_resolve_refuses_otf(tmp_path):
    (tmp_path / "Fancy.otf").write_bytes(b"OTTO")
    b = FontBook([tmp_path])
    with pytest.raises(CardgenError) as exc:
        b.resolve("Fancy")
    assert ".otf" in str(exc.value) and "ReportLab cannot embed" in str(exc.value)


def test_resolve_rejects_paths(book):
    with pytest.raises(CardgenError):
        book.resolve("../fonts/NotoSans-Regular")


def test_resolve_first_folder_wins(tmp_path):
    shutil.copy(shipped_fonts_dir() / "NotoSerif-Regular.ttf", tmp_path / "NotoSans-Regular.ttf")
    b = FontBook([tmp_path, shipped_fonts_dir()])
    assert b.resolve(SANS) == (tmp_path / "NotoSans-Regular.ttf").resolve()
    # a different file with the same stem gets its own ReportLab name
    shipped = FontBook([shipped_fonts_dir()]).register(SANS)
    assert b.register(SANS) != shipped


def test_register_idempotent(book):
    name = book.register("NotoSans-Bold")
    assert name == "cg-NotoSans-Bold"
    font = pdfmetrics.getFont(name)
    assert book.register("NotoSans-Bold") == name
    assert FontBook([shipped_fonts_dir()]).register("NotoSans-Bold") == name
    assert pdfmetrics.getFont(name) is font          # not registered again


def test_register_broken_ttf(tmp_path):
    (tmp_path / "Broken.ttf").write_bytes(b"not a font at all")
    with pytest.raises(CardgenError) as exc:
        FontBook([tmp_path]).register("Broken", Where("game.yaml", 3))
    assert str(exc.value).startswith("game.yaml:3: font 'Broken'")


def test_missing_chars(book):
    assert book.missing_chars(SANS, f"Hâpy {FALCON} Taouret") == [FALCON]
    assert book.missing_chars(SANS, "Hâpy Taouret ça ë\n\tœ «\u00a0Farao\u202f! »\u2009") == []
    assert book.missing_chars(GLYPHS, FALCON + EYE + FALCON) == []
    assert book.missing_chars(GLYPHS, "ab" + FALCON + "a") == ["a", "b"]


def test_glyph_box(book):
    x0, y0, x1, y1 = book.glyph_box(GLYPHS, FALCON)
    assert x0 < x1 and y0 < y1
    assert -0.5 < x0 and x1 < 2 and -0.5 < y0 and y1 < 2
    assert book.glyph_box(GLYPHS, FALCON) == (x0, y0, x1, y1)
    assert book.glyph_box(SANS, " ") == (0.0, 0.0, 0.0, 0.0)
    with pytest.raises(CardgenError):
        book.glyph_box(SANS, FALCON)


def test_ascent_descent(book):
    asc, desc = book.ascent_descent(SANS)
    assert 0.6 < asc < 1.5 and -0.6 < desc < 0


def test_string_width(book):
    w = book.string_width_mm(SANS, "Hâpy", 10)
    assert 5 < w < 15
    assert book.string_width_mm(SANS, "Hâpy", 20) == pytest.approx(2 * w)
    assert book.string_width_mm(SANS, "", 10) == 0


def test_fit_with_real_font(book):
    """The fitter with a real font's widths (its speed is measured in bench/textfit.py)."""
    def measure(t, s):
        return book.string_width_mm(SANS, t, s)
    text = ("Le faucon Horus plane au-dessus du Nil\u202f; chaque joueur pioche deux "
            "cartes et en défausse une\u00a0! ") * 2
    for i in range(5):
        r = fit_text(measure, text, 50 + i, 25, size=9, min_size=6)
        assert r.fits and 6 <= r.size <= 9


def test_tounicode_fix_installed_and_idempotent():
    install_tounicode_fix()
    install_tounicode_fix()
    cmap = ttfonts.makeToUnicodeCMap("X", [0x20, 0xE2, 0x13143])
    assert "<00> <0020>" in cmap and "<01> <00E2>" in cmap
    assert "<02> <D80CDD43>" in cmap


def test_astral_text_extracts_from_pdf(tmp_path, book):
    pypdf = pytest.importorskip("pypdf")
    from reportlab.pdfgen.canvas import Canvas

    install_tounicode_fix()  # as every cardgen canvas does (output.canvas.new_canvas)
    sans, glyphs = book.register(SANS), book.register(GLYPHS)
    out = tmp_path / "t.pdf"
    c = Canvas(str(out), invariant=1, initialFontName=sans)
    c.setFont(glyphs, 40)
    c.drawString(72, 700, FALCON + "\U000130E2")
    c.setFont(sans, 12)
    c.drawString(72, 650, "Hâpy")
    c.showPage()
    c.save()

    reader = pypdf.PdfReader(str(out))
    text = reader.pages[0].extract_text()
    assert FALCON + "\U000130E2" in text
    assert "Hâpy" in text
    fonts = reader.pages[0]["/Resources"]["/Font"]
    for f in fonts.values():
        f = f.get_object()
        assert f["/BaseFont"] != "/Helvetica"
