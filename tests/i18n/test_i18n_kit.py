"""Translations in built kits: plural forms by CLDR's rules, the German Hâpy kit read
back page by page, the pseudo-language, and a build that falls back to the source."""

from __future__ import annotations

import pytest
import yaml
from kitchecks import build_kit
from pypdf import PdfReader

from cardgen.base.paths import shipped_games_dir
from cardgen.load.game import load_game
from cardgen.render.numberwords import count_helpers


def _helpers(table: dict[str, str], lang: str):
    def t(key: str, **values):
        return table[key].format(**values)
    return count_helpers(table, lang, lang, t)


@pytest.mark.parametrize(("lang", "forms", "expected"), [
    ("en", {"c.one": "{n} card", "c.other": "{n} cards"}, ["0 cards", "1 card", "2 cards", "1,000 cards"]),
    # French: 0 and 1 take the singular, and large round numbers CLDR's "many"
    ("fr", {"c.one": "{n} carte", "c.many": "{n} de cartes", "c.other": "{n} cartes"},
     ["0 carte", "1 carte", "2 cartes", "1\u202f000 cartes"]),
    ("nl", {"c.one": "{n} kaart", "c.other": "{n} kaarten"}, ["0 kaarten", "1 kaart", "2 kaarten", "1.000 kaarten"]),
])
def test_plural_forms_follow_each_languages_rules(lang, forms, expected):
    plural = _helpers(forms, lang)["plural"]
    assert [plural("c", n) for n in (0, 1, 2, 1000)] == expected
    if lang == "fr":
        assert plural("c", 1_000_000) == "1\u202f000\u202f000 de cartes"


def test_ordinals_follow_each_languages_rules():
    en = _helpers({"r.one": "{n}st", "r.two": "{n}nd", "r.few": "{n}rd", "r.other": "{n}th"}, "en")["ordinal"]
    assert [en("r", n) for n in (1, 2, 3, 4, 11, 21, 22)] == ["1st", "2nd", "3rd", "4th", "11th", "21st", "22nd"]
    fr = _helpers({"r.one": "{n}ʳᵉ", "r.other": "{n}ᵉ"}, "fr")["ordinal"]
    assert [fr("r", n) for n in (1, 2)] == ["1ʳᵉ", "2ᵉ"]
    dyn = _helpers({"d.one": "{roman}ʳᵉ dynastie", "d.other": "{roman}ᵉ dynastie"}, "fr")["ordinal"]
    assert [dyn("d", n) for n in (1, 4, 18, 19)] == ["Iʳᵉ dynastie", "IVᵉ dynastie", "XVIIIᵉ dynastie",
                                                      "XIXᵉ dynastie"]
    nl = _helpers({"r.other": "{n}e"}, "nl")["ordinal"]
    assert [nl("r", n) for n in (1, 8)] == ["1e", "8e"]


def test_a_language_needs_only_the_other_plural_form():
    game = load_game("horus")
    assert game.strings["fr"]["card.region.one"] == "Région de {n}\u00a0tuile"
    assert "card.region_one" not in game.strings["en"]


@pytest.fixture(scope="module")
def german_hapy(tmp_path_factory):
    return build_kit(tmp_path_factory.mktemp("de"), "hapy", "--lang", "de", "--paper", "a4")


def test_hapy_speaks_german():
    game = load_game("hapy")
    assert game.languages == ("en", "fr", "nl", "de")
    assert game.strings["de"]["family.hippopotamus.animal"] == "Nilpferd"


def test_the_german_hapy_kit_reads_back_in_german(german_hapy):
    names = sorted(p.name for p in german_hapy.glob("*.pdf"))
    assert names == ["hapy-de-a4-cards.pdf", "hapy-de-a4-sheets.pdf", "hapy-de-printshop-63x88mm.pdf"]
    sheets = [" ".join(page.extract_text().split()) for page in PdfReader(german_hapy / "hapy-de-a4-sheets.pdf").pages]
    assert len(sheets) == 4
    assert "So wird gespielt" in sheets[0] and "Götterseite" in sheets[0] and "Uhrzeigersinn" in sheets[0]
    assert "Die Pyramide aufbauen" in sheets[1] and "Mumienseite oben" in sheets[1]
    assert "Symbolaufkleber" in sheets[3] and "Nilpferde" in sheets[3]
    cards = [" ".join(page.extract_text().split()) for page in PdfReader(german_hapy / "hapy-de-a4-cards.pdf").pages]
    assert "Schakal" in cards[0] and "Vorderseite 1/" in cards[0] and "Rückseite 1/" in cards[1]
    every = " ".join(sheets + cards)
    for english in ("How to play", "God side up", "front", "duplex long"):
        assert english not in every, english
    assert "\ufffd" not in every  # every glyph came through, the German letters too
    assert all(c in every for c in "äöüß"), [c for c in "äöüß" if c not in every]


def test_the_german_strings_have_the_fonts_glyphs():
    from fontTools.ttLib import TTFont

    from cardgen.base.paths import shipped_fonts_dir

    game = load_game("hapy")
    chars = {c for text in game.strings["de"].values() for c in text}
    for role in ("text", "bold", "italic", "title"):
        cmap = TTFont(shipped_fonts_dir() / f"{game.fonts[role]}.ttf").getBestCmap()
        assert not [c for c in chars if ord(c) not in cmap and not c.isspace()], role


def test_the_pseudo_language_builds_accented_longer_and_bracketed(tmp_path):
    kit = build_kit(tmp_path, "hapy", "--lang", "pseudo", "--paper", "a4")
    text = " ".join(PdfReader(kit / "hapy-pseudo-a4-sheets.pdf").pages[0].extract_text().split())
    assert "[Höw tö pláý" in text
    assert "How to play" not in text


def test_a_build_may_fall_back_to_the_source_text_marked_in_the_proof(tmp_path, cli):
    game = tmp_path / "hapy"
    import shutil

    shutil.copytree(shipped_games_dir() / "hapy", game)
    de = game / "locales" / "de.yaml"
    doc = yaml.safe_load(de.read_text(encoding="utf-8"))
    doc["rules"]["title"] = ""
    de.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    r = cli("build", game, "--lang", "de", "--paper", "a4", "--out", tmp_path / "out", "--jobs", "1")
    assert r.exit_code == 1 and "missing 1 translation(s): rules.title" in r.stderr
    r = cli("build", game, "--lang", "de", "--paper", "a4", "--out", tmp_path / "out", "--jobs", "1",
            "--allow-fallback", "--proof")
    assert r.exit_code == 0, r.output
    sheets = PdfReader(tmp_path / "out" / "hapy" / "hapy-de-a4-sheets-proof.pdf")
    first = sheets.pages[0]
    assert "How to play" in first.extract_text() and "Götterseite" in first.extract_text()
    content = first.get_contents().get_data().decode("latin-1")
    forms = "".join(x.get_object().get_data().decode("latin-1") for x in
                    first["/Resources"].get("/XObject", {}).values()) if "/XObject" in first["/Resources"] else ""
    assert ".878431 .439216 0 RG" in content + forms  # the orange outline (#e07000) round the English title
