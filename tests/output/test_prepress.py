"""What a pre-press check reads from a built kit's files, beyond the page geometry:
each font subset tagged on its own (not every font's first subset AAAAAA+, which shop
software may merge), the ArtBox equal to the TrimBox where one is set, and the PDF
title in the file's own language."""

from __future__ import annotations

import pypdf
import pytest
from kitchecks import shows_text

from cardgen.impose.labels import sheet_words
from cardgen.load.game import load_game


@pytest.fixture(scope="module")
def kit(shared_kit):
    return shared_kit("horus").folder


def _font_names(reader: pypdf.PdfReader) -> set[str]:
    names = set()
    for page in reader.pages[:4]:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for ref in fonts.values():
            names.add(str(ref.get_object()["/BaseFont"]).lstrip("/"))
        for xo in page.get("/Resources", {}).get("/XObject", {}).values():
            for ref in xo.get_object().get("/Resources", {}).get("/Font", {}).values():
                names.add(str(ref.get_object()["/BaseFont"]).lstrip("/"))
    return names


def test_every_font_subset_has_its_own_tag(kit):
    checked = 0
    for path in sorted(kit.glob("*.pdf")):
        reader = pypdf.PdfReader(path)
        names = _font_names(reader)
        if not names:  # a file with no text (the print-shop file of plain round stones)
            assert not any(shows_text(page) for page in reader.pages[:4]), path.name
            continue
        checked += 1
        tags = [n.split("+")[0] for n in names if "+" in n]
        assert tags and len(set(tags)) == len(tags), (path.name, sorted(names))
        assert all(len(t) == 6 and t.isalpha() and t.isupper() for t in tags), (path.name, tags)
    assert checked >= 20, checked


def test_a_print_shop_page_has_a_trim_box_and_no_art_box(kit):
    """PDF/X gives a page a TrimBox or an ArtBox, never both (ISO 15930): the TrimBox."""
    for path in sorted(kit.glob("*-printshop-*.pdf")):
        for page in pypdf.PdfReader(path).pages[:6]:
            assert "/TrimBox" in page and "/ArtBox" not in page, path.name


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_the_title_is_in_the_files_language(kit, lang):
    words = sheet_words(load_game("horus").strings[lang])
    for path in sorted(kit.glob(f"horus-{lang}-*.pdf")):
        title = pypdf.PdfReader(path).metadata.title
        kind = next(k for k in ("printshop", "sheets", "cards") if k in path.name)
        assert title.startswith("Horus — " + words[f"file_{kind}"]), (path.name, title)
