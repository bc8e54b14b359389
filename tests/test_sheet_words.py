"""The words cardgen prints in sheet labels follow the kit's language."""

from __future__ import annotations

import shutil

import pytest
import yaml
from kitchecks import build_kit
from pypdf import PdfReader

from cardgen.impose.labels import BUILT_IN, WORDS, sheet_words, shifted
from cardgen.load.game import load_game
from cardgen.paths import shipped_games_dir


def test_every_built_in_language_has_every_word():
    for lang, words in BUILT_IN.items():
        assert set(words) == set(WORDS), lang


def test_a_language_without_built_in_words_falls_back_to_english():
    assert sheet_words("de") == BUILT_IN["en"]


def test_a_games_own_locale_strings_win():
    words = sheet_words("de", {"sheet.front": "Vorderseite", "sheet.back": "  ", "other": "x"})
    assert words["front"] == "Vorderseite"
    assert words["back"] == "back"  # a blank string is no translation


def test_the_back_offset_is_written_with_the_languages_decimal_sign():
    assert shifted(sheet_words("en"), 1.5, -0.5) == "backs shifted 1.5, -0.5 mm"
    assert shifted(sheet_words("fr"), 1.5, -0.5) == "versos décalés de 1,5 / -0,5 mm"


@pytest.fixture(scope="module")
def hapy_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("words")
    return build_kit(out, "hapy", "--lang", "fr", "--lang", "nl", "--paper", "a4", "--duplex", "long",
                     "--back-offset", "0.5,0")


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_french_and_dutch_card_sheets_are_labelled_in_their_language(hapy_kit, lang):
    words = sheet_words(lang)
    reader = PdfReader(hapy_kit / f"hapy-{lang}-a4-cards.pdf")
    front, back = (" ".join(reader.pages[i].extract_text().split()) for i in (0, 1))  # a label may wrap
    assert f"· {words['front']} 1/" in front and f"· {words['back']} 1/" in back
    assert words["duplex_long"] in front
    assert shifted(words, 0.5, 0) in back
    for english in ("front", "back", "duplex", "shifted"):
        assert english not in front + back, english


def test_a_locale_may_set_the_label_words_without_the_other_languages(tmp_path):
    game = tmp_path / "hapy"
    shutil.copytree(shipped_games_dir() / "hapy", game)
    fr = game / "locales" / "fr.yaml"
    doc = yaml.safe_load(fr.read_text(encoding="utf-8"))
    doc["sheet"] = {"front": "devant"}
    doc["own_key"] = "only in French"
    fr.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    with pytest.raises(Exception) as err:  # a game's own key must still be in every language
        load_game(str(game))
    assert "own_key" in str(err.value) and "sheet.front" not in str(err.value)
    del doc["own_key"]
    fr.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    strings = load_game(str(game)).strings
    assert sheet_words("fr", strings["fr"])["front"] == "devant"
    assert "sheet.front" not in strings["en"]
