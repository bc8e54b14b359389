"""The words cardgen prints in sheet labels follow the kit's language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from kitchecks import build_kit
from pypdf import PdfReader

from cardgen.base.paths import shipped_games_dir, shipped_locales_dir
from cardgen.impose.labels import WORDS, sheet_words, shifted
from cardgen.load.game import load_game
from cardgen.toolwords import words as tool_words


def test_every_shipped_language_file_has_every_sheet_word():
    langs = sorted(p.stem for p in shipped_locales_dir().glob("*.yaml"))
    assert {"en", "fr", "nl", "de"} <= set(langs)
    for lang in langs:
        doc = yaml.safe_load((shipped_locales_dir() / f"{lang}.yaml").read_text(encoding="utf-8"))
        assert set(doc["sheet"]) == set(WORDS), lang


def test_a_language_without_a_file_falls_back_to_english():
    assert dict(tool_words("sheet", "xx")) == dict(tool_words("sheet", "en"))
    assert tool_words("sheet", "en")["front"] == "front"


def test_a_games_own_locale_strings_win(tmp_path):
    game = tmp_path / "mini"
    shutil.copytree(Path(__file__).parents[1] / "data" / "mini_game", game)
    fr = game / "locales" / "fr.yaml"
    fr.write_text(fr.read_text(encoding="utf-8") + "sheet:\n  front: face\n  back: '  '\n", encoding="utf-8")
    words = sheet_words(load_game(game).strings["fr"])
    assert words["front"] == "face"
    assert words["back"] == "verso"  # a blank string is no translation: cardgen's French word


def test_the_back_offset_is_written_with_the_languages_decimal_sign():
    # a minus sign (the en dash: the font has no U+2212), and the pair with its unit as one unit (no-break spaces)
    assert shifted(tool_words("sheet", "en"), 1.5, -0.5) == "backs shifted 1.5,\u00a0\u20130.5\u00a0mm"
    assert shifted(tool_words("sheet", "fr"), 1.5, -0.5) == "versos décalés de 1,5\u00a0/\u00a0\u20130,5\u00a0mm"


@pytest.fixture(scope="module")
def hapy_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("words")
    return build_kit(out, "hapy", "--lang", "fr", "--lang", "nl", "--lang", "de", "--paper", "a4", "--duplex", "long",
                     "--back-offset", "0.5,0")


@pytest.mark.parametrize("lang", ["fr", "nl", "de"])
def test_card_sheets_are_labelled_in_their_language(hapy_kit, lang):
    words = tool_words("sheet", lang)
    reader = PdfReader(hapy_kit / f"hapy-{lang}-a4-cards.pdf")
    front, back = (" ".join(reader.pages[i].extract_text().split()) for i in (0, 1))  # a label may wrap
    assert f"· {words['front']} 1/" in front and f"· {words['back']} 1/" in back
    assert words["duplex_long"] in front
    assert " ".join(shifted(words, 0.5, 0).split()) in back  # the text's spaces, no-break ones too, as one
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
    # a key only the French file has is French's own business (i18n status lists it as unused)
    strings = load_game(str(game)).strings
    assert "own_key" not in strings["en"]
    assert sheet_words(strings["fr"])["front"] == "devant"
    assert strings["en"]["sheet.front"] == "front"  # cardgen's own word, not French's
