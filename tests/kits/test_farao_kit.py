"""The O, Farao! kit: `cardgen build farao` in every language and on both papers, with
and without the Jokers variant, read back from the PDFs (page counts and sizes, every
card's value or name in every language, the board's pieces on A4 and Letter, fonts
embedded), checked by `cardgen validate --kit`, plus the data's own promises (the
components' contract, French typography, stone colours apart in greyscale, each
numeral the one its Gardiner number names, the worked example's 27)."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fontTools.ttLib import TTFont
from kitchecks import (
    assert_fonts_embedded,
    assert_french_typography,
    assert_kit_validates,
    assert_reproducible,
    build_kit,
    read_manifest,
)
from pypdf import PdfReader
from textlayer import page_text

from cardgen.base.paths import shipped_fonts_dir
from cardgen.cli import main
from cardgen.impose.papers import PAPER_NAMES, PAPERS_MM
from cardgen.impose.tiling import plan_tiles
from cardgen.load.game import load_game
from cardgen.render.sandbox import luminance
from cardgen.toolwords import words as tool_words

LANGS = ("nl", "en", "fr")
PAPERS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
MM = 72 / 25.4
SPECIAL_NAMES = {
    "nl": {"thief": "Dief", "tax_collector": "Belastinginner", "pharaoh": "Farao", "end": "Eindkaart"},
    "en": {"thief": "Thief", "tax_collector": "Tax collector", "pharaoh": "Pharaoh", "end": "End card"},
    "fr": {"thief": "Voleur", "tax_collector": "Percepteur", "pharaoh": "Pharaon", "end": "Carte Fin"},
}


@pytest.fixture(scope="module")
def game():
    return load_game("farao")


def _build(out: Path, *args: str) -> Path:
    return build_kit(out, "farao", *args)


@pytest.fixture(scope="module")
def kit(shared_kit) -> Path:
    return shared_kit("farao").folder


@pytest.fixture(scope="module")
def manifest(kit) -> dict:
    return read_manifest(kit)


def text_of(path: Path, page: int) -> str:
    """The text of a page (0-based) of a PDF, one run a line."""
    return page_text(path, page)


def flat(text: str) -> str:
    """Runs of white space (no-break spaces included) as one space, for comparing text."""
    return re.sub(r"\s+", " ", text)


def printshop_fronts(kit: Path, lang: str) -> dict[str, list[str]]:
    """card id → the texts of its fronts in the print-shop file."""
    doc = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    entry = next(f for f in doc["files"] if f["file"] == f"farao-{lang}-printshop-63x88mm.pdf")
    out: dict[str, list[str]] = {}
    for p in entry["pages"]:
        if p["side"] == "front" and p["component"] == "cards":
            out.setdefault(p["items"][0]["card"], []).append(text_of(kit / entry["file"], p["page"] - 1))
    return out


# --------------------------------------------------------------------------- the deck and the contract
def test_the_deck_has_the_90_cards_of_the_box_with_the_jokers_off_by_default(game):
    cards = {k.id: k.quantity for k in game.component("cards").cards}
    assert cards == {"build-1": 13, "build-2": 12, "build-3": 11, "build-4": 10, "build-5": 9, "build-6": 8,
                     "build-7": 6, "build-8": 4, "build-9": 3, "thief": 5, "tax_collector": 2, "pharaoh": 3,
                     "end": 1}
    assert sum(cards.values()) == 87 and sum(v for k, v in cards.items() if k.startswith("build-")) == 76
    with_jokers = load_game("farao", ["jokers"])
    jokers = [k for k in with_jokers.component("cards").cards if k.variant]
    assert [(k.id, k.quantity, k.variant) for k in jokers] == [("joker", 3, "jokers")]
    assert with_jokers.component("cards").count == 90
    assert game.known_variants == ("jokers",)


def test_the_components_follow_the_contract_with_the_rules_engine(game):
    raw = yaml.safe_load((game.root / "game.yaml").read_text(encoding="utf-8"))
    (deck,) = [c for c in raw["components"] if c["id"] == "cards"]
    assert deck["kind"] == "deck"
    entries = {tuple(e["for_each"]): e for e in deck["cards"]}
    assert entries[("b",)] == {"id": "build-{b.value}", "for_each": {"b": "building"}, "quantity": "{b.count}"}
    assert entries[("s",)] == {"id": "{s.id}", "for_each": {"s": "specials"}, "quantity": "{s.count}"}
    assert entries[("v",)]["id"] == "{v.id}" and entries[("v",)]["quantity"] == "{v.count}"
    assert entries[("v",)]["variant"] == "{v.variant}"
    assert game.component("board").kind == "board"
    assert raw["data"]["house_rules"] == {
        "cash_optional": True, "min_rows_to_cash": 1, "trade": "one_for_one", "thief_takes": "any",
        "steal": "compulsory", "tax_take": "compulsory", "one_attack_per_turn": True, "pharaoh_blocks_each": True, "final_cash": "all", "joker": "wild_in_row"}
    assert raw["data"]["board"] == {"plateaus": 11, "double_from": 3, "tall_only_from": 7, "tall_rows": 3}


# --------------------------------------------------------------------------- the files
def test_every_language_and_paper_has_its_files_with_the_right_page_counts(kit, game):
    for lang in LANGS:
        for paper, (pw, ph) in PAPERS.items():
            cards = PdfReader(kit / f"farao-{lang}-{paper}-cards.pdf")
            # 87 cards, 9 a sheet: 10 fronts + 10 backs; 4 player aids: 1 front + 1 back
            assert len(cards.pages) == 22
            tiles = plan_tiles(PAPERS_MM[paper], (400, 250), 3, 10)
            sheets = PdfReader(kit / f"farao-{lang}-{paper}-sheets.pdf")
            # the rules (two pages at their one size), scoring, crafts, the board's pieces
            assert len(sheets.pages) == 4 + tiles.pages
            for page in (cards.pages[0], sheets.pages[0], sheets.pages[-1]):
                assert float(page.mediabox.width) == pytest.approx(pw, abs=0.01)
                assert float(page.mediabox.height) == pytest.approx(ph, abs=0.01)
        shop = PdfReader(kit / f"farao-{lang}-printshop-63x88mm.pdf")
        assert len(shop.pages) == 2 * (87 + 4)
        assert float(shop.pages[0].trimbox.width) == pytest.approx(63 * MM, abs=0.01)
        assert float(shop.pages[0].bleedbox.height) == pytest.approx(94 * MM, abs=0.01)
        board = PdfReader(kit / f"farao-{lang}-board-fullsize.pdf")
        assert float(board.pages[0].mediabox.width) == pytest.approx(406 * MM, abs=0.01)
        assert float(board.pages[0].trimbox.height) == pytest.approx(250 * MM, abs=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_is_tiled_with_assembly_labels_on_a4_and_letter(kit, manifest, paper):
    plan = plan_tiles(PAPERS_MM[paper], (400, 250), 3, 10)
    assert plan.pages >= 2
    for lang in LANGS:
        entry = next(f for f in manifest["files"] if f["file"] == f"farao-{lang}-{paper}-sheets.pdf")
        pages = [p for p in entry["pages"] if p["component"] == "board"]
        assert [p["tile"] for p in pages] == [t.label for t in plan.tiles]
        words = tool_words("sheet", lang)
        for p, t in zip(pages, plan.tiles):
            text = text_of(kit / entry["file"], p["page"] - 1)
            assert f"{plan.tile_label(t, words['of'])} · {words['page']} {t.index + 1}/{plan.pages} · {PAPER_NAMES[paper]}" \
                in text
    # the board says what the special plateaus do, in every language
    game = load_game("farao")
    for lang in LANGS:
        full = re.sub(r"\s+", " ", text_of(kit / f"farao-{lang}-board-fullsize.pdf", 0))
        s = game.strings[lang]
        assert flat(s["board.double"]) in full
        assert flat(s["board.tall"].format(rows=3)) in full
        for n in range(1, 12):
            assert re.search(rf"(^|\s){n}(\s|$)", full), f"plateau {n} missing [{lang}]"


def test_the_jokers_variant_adds_three_cards_and_is_recorded(tmp_path):
    # two languages in two worker processes: each reloads the game with the variant
    kit = _build(tmp_path, "--variant", "jokers", "--lang", "en", "--lang", "nl", "--paper", "a4", "--jobs", "2")
    doc = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    assert doc["variants"] == ["jokers"] and doc["decks"]["cards"]["cards"]["joker"] == 3
    assert len(PdfReader(kit / "farao-en-printshop-63x88mm.pdf").pages) == 2 * (90 + 4)
    jokers = printshop_fronts(kit, "en")["joker"]
    assert len(jokers) == 3 and "Joker" in jokers[0] and "Variant: Jokers" in jokers[0]
    assert len(PdfReader(kit / "farao-nl-printshop-63x88mm.pdf").pages) == 2 * (90 + 4)
    r = CliRunner().invoke(main, ["validate", "farao", "--variant", "jokers", "--games", "1", "--kit", str(kit),
                                  "--lang", "en", "--lang", "nl"])
    assert r.exit_code == 0, r.output


def test_the_built_kit_passes_cardgen_validate_kit(kit):
    assert_kit_validates("farao", kit)


def test_every_font_is_embedded(kit):
    assert_fonts_embedded(kit, pages=8)


# --------------------------------------------------------------------------- what the cards say
@pytest.mark.parametrize("lang", LANGS)
def test_every_card_shows_its_value_or_name_in_every_language(kit, game, lang):
    fronts = printshop_fronts(kit, lang)
    assert sum(len(v) for v in fronts.values()) == 87
    for b in game.data["building"]:
        text = fronts[f"build-{b['value']}"][0]
        v = str(b["value"])
        # big in both top corners, three times across the band, twice upside down below
        assert len(re.findall(rf"(^|\s){v}(?=\s|$)", text)) >= 7, (lang, v, text)
        assert b["numeral"] in text, "the Egyptian numeral is drawn (and extractable)"
        assert game.strings[lang]["card.building"] in text
    for sid, name in SPECIAL_NAMES[lang].items():
        text = re.sub(r"\s+", " ", fronts[sid][0])
        assert name == game.strings[lang][f"special.{sid}.name"]
        assert name in text, (lang, sid, text)
        assert flat(game.strings[lang][f"special.{sid}.does"]) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_sheets_and_aids_are_in_every_language(kit, manifest, game, lang):
    s = game.strings[lang]
    sheets = kit / f"farao-{lang}-a4-sheets.pdf"
    pages = next(f for f in manifest["files"] if f["file"] == sheets.name)["pages"]

    def text_of_component(component: str) -> str:  # the rules may take one page or two
        return re.sub(r"\s+", " ", " ".join(text_of(sheets, p["page"] - 1) for p in pages
                                              if p["component"] == component))
    rules = text_of_component("rules")
    for key in ("rules.title", "rules.turn_h", "rules.board_h", "rules.choices_h", "rules.variant_h"):
        assert flat(s[key]) in rules, key
    for k in range(1, 7):
        assert flat(re.match(r"\*\*(.+?)\*\*", s[f"rules.step{k}"]).group(1)) in rules
    hr = game.data["house_rules"]
    for key in ("cash_optional", "min_rows_to_cash", "trade", "thief_takes", "steal", "tax_take",
                "one_attack_per_turn", "pharaoh_blocks_each", "final_cash"):
        assert flat(s[f"choice.{key}.{str(hr[key]).lower()}"])[:40] in rules, key
    scoring = text_of_component("scoring")
    assert "(2 + 3 + 4) × 3 = 27" in scoring.replace("\u00a0", " ")
    assert flat(s["pad.title"]) in scoring and flat(s["pad.player"].format(n=4)) in scoring
    crafts = text_of_component("crafts")
    assert flat(s["crafts.any_die"]) in crafts and flat(s["crafts.standee_h"]) in crafts
    entry = next(f for f in manifest["files"] if f["file"] == f"farao-{lang}-printshop-63x88mm.pdf")
    aid = [p for p in entry["pages"] if p["component"] == "aids"]
    assert len(aid) == 8  # four aids, front and back
    front = re.sub(r"\s+", " ", text_of(kit / entry["file"], aid[0]["page"] - 1))
    back = re.sub(r"\s+", " ", text_of(kit / entry["file"], aid[1]["page"] - 1))
    for k in range(1, 7):
        assert flat(s[f"aid.step{k}_h"]) in front
    assert "(2 + 3 + 4) × 3 = 27" in back and flat(s["value.title"]) in back


def test_the_build_is_reproducible(tmp_path):
    assert_reproducible(tmp_path, "farao", "--lang", "fr", "--paper", "letter")


# --------------------------------------------------------------------------- the data's promises
def test_french_puts_a_no_break_space_before_double_punctuation(game):
    assert_french_typography(game.root / "locales" / "fr.yaml", keep=("O, Farao!",))


def test_every_language_has_every_string(game):
    keys = {lang: set(game.strings[lang]) for lang in LANGS}
    assert keys["en"] == keys["fr"] == keys["nl"]


def test_the_stone_colours_step_darker_with_the_value_and_stay_apart_in_greyscale(game):
    lum = [luminance(game.palette[b["colour"]]) for b in game.data["building"]]
    assert lum == sorted(lum, reverse=True), "darker for higher values"
    # the steps themselves (CIE L* 10 apart) are tests/output/test_greyscale.py's


def test_every_sign_is_the_one_its_gardiner_number_names_and_is_in_the_font(game):
    cmap = TTFont(shipped_fonts_dir() / "NotoSansEgyptianHieroglyphs-Regular.ttf").getBestCmap()

    def unicode_name(code: str) -> str:
        m = re.fullmatch(r"([A-Z]+)(\d+)([A-Z]?)", code)
        return f"EGYPTIAN HIEROGLYPH {m.group(1)}{int(m.group(2)):03d}{m.group(3)}"

    for b in game.data["building"]:
        assert unicodedata.name(b["numeral"]) == unicode_name(b["gardiner"]), b
        assert ord(b["numeral"]) in cmap
    assert [ord(b["numeral"]) - 0x133FA for b in game.data["building"]] == list(range(9)), "Z15 … Z15H are 1 … 9"
    for s in list(game.data["specials"]) + list(game.data["variant_cards"]):
        assert unicodedata.name(s["glyph"]) == unicode_name(s["gardiner"]), s
        assert ord(s["glyph"]) in cmap


def test_the_worked_example_is_worth_27(game):
    rows = game.data["example_pyramid"]
    assert [list(r) for r in rows] == [[3, 2], [2, 3], [1, 4]]
    counts, values = [r[0] for r in rows], [r[1] for r in rows]
    assert counts == sorted(counts, reverse=True) and len(set(counts)) == len(counts), "fewer cards each row up"
    assert all(b - a == 1 for a, b in zip(values, values[1:])), "each row one higher"
    assert sum(set(values)) * len(rows) == 27
