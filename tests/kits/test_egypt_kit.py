"""The Egypt kit: `cardgen build egypt` in every language and on both papers, read
back from the PDFs (page counts and sizes, every card's name in every language, the
seven hieroglyphs of the Hieroglyph cards, fonts embedded), checked by
`cardgen validate --kit`, plus the data's own promises (French typography, type
colours apart in greyscale, each sign the one its Gardiner number names)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from kitchecks import (
    assert_dutch_quotes,
    assert_fonts_embedded,
    assert_french_typography,
    assert_kit_validates,
    assert_numbers_keep_their_words,
    assert_reproducible,
    read_manifest,
)
from pypdf import PdfReader
from textlayer import char_boxes, find_text, page_text, text_runs

from cardgen.base.paths import shipped_fonts_dir
from cardgen.load.game import load_game
from cardgen.load.locales import optional_key
from cardgen.render.numberwords import roman
from cardgen.render.sandbox import luminance

LANGS = ("en", "fr", "nl")
PAPERS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
MM = 72 / 25.4
NAMES = {
    "en": ["Hieroglyph", "Slaves", "The Nile", "Temples", "Chariots", "Pharaohs", "Pyramid", "The Gods", "Ankh"],
    "fr": ["Hiéroglyphe", "Esclaves", "Le Nil", "Temples", "Chars", "Pharaons", "Pyramide", "Les Dieux", "Ânkh"],
    "nl": ["Hiëroglief", "Slaven", "De Nijl", "Tempels", "Strijdwagens", "Farao’s", "Piramide", "De Goden", "Ankh"],
}
SEVEN_SIGNS = {0x1313F, 0x13153, 0x13191, 0x1308B, 0x13079, 0x131A3, 0x131F3}  # GAME_FACTS "Hieroglyphs"


@pytest.fixture(scope="module")
def game():
    return load_game("egypt")


@pytest.fixture(scope="module")
def kit(shared_kit) -> Path:
    return shared_kit("egypt").folder


@pytest.fixture(scope="module")
def manifest(kit) -> dict:
    return read_manifest(kit)


def printshop_fronts(kit: Path, manifest: dict, lang: str) -> dict[str, str]:
    """card id → the text of its front page in the print-shop file, one run a line."""
    entry = next(f for f in manifest["files"] if f["file"] == f"egypt-{lang}-printshop-63x88mm.pdf")
    return {p["items"][0]["card"]: page_text(kit / entry["file"], p["page"] - 1)
            for p in entry["pages"] if p["side"] == "front" and p["component"] == "cards"}


# --------------------------------------------------------------------------- the files
def test_every_language_and_paper_has_its_files_with_the_right_page_counts(kit):
    for lang in LANGS:
        for paper, (pw, ph) in PAPERS.items():
            cards = PdfReader(kit / f"egypt-{lang}-{paper}-cards.pdf")
            # 63 cards, 9 a sheet: 7 fronts + 7 backs; 6 player aids: 1 front + 1 back
            assert len(cards.pages) == 16
            sheets = PdfReader(kit / f"egypt-{lang}-{paper}-sheets.pdf")
            assert len(sheets.pages) == 1  # the rules summary
            for page in (cards.pages[0], sheets.pages[0]):
                assert float(page.mediabox.width) == pytest.approx(pw, abs=0.01)
                assert float(page.mediabox.height) == pytest.approx(ph, abs=0.01)
        shop = PdfReader(kit / f"egypt-{lang}-printshop-63x88mm.pdf")
        assert len(shop.pages) == 2 * (63 + 6)
        page = shop.pages[0]
        assert float(page.mediabox.width) == pytest.approx(69 * MM, abs=0.01)  # 63 + 2 × 3 mm bleed
        assert float(page.trimbox.width) == pytest.approx(63 * MM, abs=0.01)
        assert float(page.trimbox.height) == pytest.approx(88 * MM, abs=0.01)
        assert float(page.bleedbox.height) == pytest.approx(94 * MM, abs=0.01)


def test_the_built_kit_passes_cardgen_validate_kit(kit):
    assert_kit_validates("egypt", kit)


def test_every_font_is_embedded(kit):
    assert_fonts_embedded(kit)


# --------------------------------------------------------------------------- what the cards say
@pytest.mark.parametrize("lang", LANGS)
def test_every_card_shows_its_name_in_every_language(kit, manifest, game, lang):
    fronts = printshop_fronts(kit, manifest, lang)
    assert len(fronts) == 63
    ids = [ty["id"] for ty in game.data["types"]]
    for card, text in fronts.items():
        tid, copy = card.rsplit("-", 1)
        name = NAMES[lang][ids.index(tid)]
        assert name == game.strings[lang][f"type.{tid}.name"]
        assert name in text, f"{lang} {card}: {name!r} not in {text!r}"
        ty = game.data["types"][ids.index(tid)]
        value = ty["value"]
        if value != "wild":
            assert re.search(rf"(^|\n){value}(\n|$)", text), f"{card}: its value {value} is not in the corners"
        caption = game.strings[lang][f"art.{tid}.{ty['variants'][int(copy) - 1]['key']}.name"]
        assert caption in text, f"{lang} {card}: caption {caption!r} missing"


def test_the_seven_hieroglyph_cards_carry_seven_different_hieroglyphs(kit, manifest, game):
    hier = next(ty for ty in game.data["types"] if ty["id"] == "hieroglyph")
    for lang in LANGS:
        fronts = printshop_fronts(kit, manifest, lang)
        seen = []
        for k in range(1, 8):
            text = fronts[f"hieroglyph-{k}"]
            sign = hier["variants"][k - 1]["glyph"]
            assert sign in text, f"hieroglyph-{k} [{lang}] does not show U+{ord(sign):05X}"
            signs = {ord(ch) for ch in text if 0x13000 <= ord(ch) <= 0x1342F} - {ord(hier["emblem"])}
            assert signs == {ord(sign)}, (k, signs)
            seen.append(ord(sign))
        assert set(seen) == SEVEN_SIGNS and len(seen) == 7


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_summary_and_the_aids_are_in_every_language(kit, manifest, game, lang):
    s = game.strings[lang]
    sheet = page_text(kit / f"egypt-{lang}-a4-sheets.pdf", 0)
    flat = re.sub(r"\s+", " ", sheet)
    for key in ("rules.title", "rules.turn_h", "rules.combos_h", "rules.choices_h", "combo.builders", "combo.priests"):
        assert s[key] in flat, (key, s[key])
    for key in ("rules.draw", "rules.control", "rules.dynasty", "rules.end"):
        lead = re.match(r"\*\*(.+?)\*\*", s[key]).group(1)  # the bold lead-in
        assert lead in flat
    for name in NAMES[lang]:
        assert name in flat, f"the legend lacks {name!r}"
    entry = next(f for f in manifest["files"] if f["file"] == f"egypt-{lang}-printshop-63x88mm.pdf")
    aid = [p for p in entry["pages"] if p["component"] == "aids"]
    assert len(aid) == 12  # six aids, front and back
    front = re.sub(r"\s+", " ", page_text(kit / entry["file"], aid[0]["page"] - 1))
    back = re.sub(r"\s+", " ", page_text(kit / entry["file"], aid[1]["page"] - 1))
    for key in ("aid.draw_h", "aid.control_h", "aid.dynasty_h", "aid.end_h"):
        assert s[key] in front
    assert "= 12" in back and "= 10" in back and s["combo.builders"] in back and s["combo.priests"] in back
    for name in NAMES[lang]:
        assert name in back


def test_the_build_is_reproducible(tmp_path):
    assert_reproducible(tmp_path, "egypt", "--lang", "nl", "--paper", "letter")


# --------------------------------------------------------------------------- the data's promises
def test_french_puts_a_no_break_space_before_double_punctuation_and_inside_guillemets(game):
    assert_french_typography(game.root / "locales" / "fr.yaml")


def test_every_language_has_every_string(game):
    def required(lang):  # a language's own plural forms beside "other" are its business (CLDR)
        return {k for k in game.strings[lang] if not optional_key(k, game.strings[lang])}
    assert required("en") == required("fr") == required("nl")


def test_the_nine_type_colours_stay_apart_in_greyscale(game):
    # the steps themselves (CIE L* 10 apart) are tests/output/test_greyscale.py's
    values = [ty["value"] for ty in game.data["types"] if ty["value"] != "wild"]
    by_value = [luminance(game.palette[ty["colour"]]) for ty in game.data["types"] if ty["value"] != "wild"]
    assert by_value == sorted(by_value, reverse=True) and values == sorted(values), "lighter for lower values"
    emblems = [ty["emblem"] for ty in game.data["types"]]
    assert len(set(emblems)) == 9, "every type has its own emblem too"


def test_every_sign_is_the_one_its_gardiner_number_names_and_is_in_the_font(game):
    cmap = TTFont(shipped_fonts_dir() / "NotoSansEgyptianHieroglyphs-Regular.ttf").getBestCmap()

    def unicode_name(code: str) -> str:
        m = re.fullmatch(r"([A-Z]+)(\d+)([A-Z]?)", code)
        return f"EGYPTIAN HIEROGLYPH {m.group(1)}{int(m.group(2)):03d}{m.group(3)}"

    for ty in game.data["types"]:
        assert unicodedata.name(ty["emblem"]) == unicode_name(ty["gardiner"]), ty["id"]
        for v in ty["variants"]:
            if "glyph" in v:
                assert unicodedata.name(v["glyph"]) == unicode_name(v["gardiner"]), (ty["id"], v)
                assert ord(v["glyph"]) in cmap
            else:
                assert "pyramid" in v, (ty["id"], v)  # drawn as a vector pyramid
    for sign in game.data["kemet"]:
        assert ord(sign) in cmap


# --------------------------------------------------------------------------- print review: legible, inside the frames
# The aids' and cards' papyrus panel has a double frame; its inner line is 3.2 + 1.1 mm
# in from the trim and 0.7 / 3 mm wide (templates/egypt/*.yaml.j2, sym.frame).
FRAME_INNER = 3.2 + 1.1 + 0.7 / 6
CLEAR = 1.5  # mm every printed character keeps from that line
BLEED = 3.0  # the print-shop pages carry the bleed: trim starts 3 mm in


def shop_pages(manifest: dict, lang: str, component: str, side: str) -> tuple[str, list[int]]:
    entry = next(f for f in manifest["files"] if f["file"] == f"egypt-{lang}-printshop-63x88mm.pdf")
    return entry["file"], [p["page"] - 1 for p in entry["pages"] if p["component"] == component and p["side"] == side]


def is_sign(text: str) -> bool:
    """A hieroglyph drawn as a figure (a glyph op), not words to read."""
    return all(0x13000 <= ord(c) < 0x13460 or c.isspace() for c in text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_aid_back_keeps_every_character_well_inside_its_inner_frame(kit, manifest, lang):
    """The print review found the 6 pt footer's descenders across the inner frame line and
    "= 12" / "= 10" against its right side."""
    name, pages = shop_pages(manifest, lang, "aids", "back")
    chars = char_boxes(kit / name, pages[0])
    lo, hi_x, hi_y = BLEED + FRAME_INNER + CLEAR, BLEED + 63 - FRAME_INNER - CLEAR, BLEED + 88 - FRAME_INNER - CLEAR
    outside = [(c, b) for c, b in chars if b and not (lo <= b.left and b.right <= hi_x and lo <= b.top and b.bottom <= hi_y)]
    assert not outside, f"{lang}: closer than {CLEAR} mm to the inner frame: {outside[:4]}"


def test_the_aid_back_spaces_its_bands_the_same_in_every_language(kit, manifest, game):
    """The meld rule takes the same room in every language, so the "Special melds" divider
    follows it at the same short distance (the review saw an empty gap above it in EN)."""
    gaps = {}
    for lang in LANGS:
        s = game.strings[lang]
        name, pages = shop_pages(manifest, lang, "aids", "back")
        runs = text_runs(kit / name, pages[0])
        last_type = max(i for i, r in enumerate(runs) if r.text == s["type.ankh.name"])
        heading = next(i for i, r in enumerate(runs) if r.text == s["aid.combos_h"])
        meld = runs[last_type + 1:heading]
        assert meld and s["aid.meld_h"].startswith(meld[0].text.split()[0])
        gaps[lang] = runs[heading].y - max(r.y for r in meld)
    assert max(gaps.values()) - min(gaps.values()) < 0.2, gaps
    assert max(gaps.values()) < 6.5, gaps  # one divider between, no empty line


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_on_the_aids_and_the_card_fronts_is_at_least_7_pt(kit, manifest, lang):
    """Print-and-play small print: 7 pt or more (the review found 6 and 6.5 pt on the aid
    back and in the cards' notes). Sizes read from the PDF's text layer."""
    small = set()
    for component, side in (("aids", "front"), ("aids", "back"), ("cards", "front")):
        name, pages = shop_pages(manifest, lang, component, side)
        for i in pages:
            small |= {(r.text, r.size) for r in text_runs(kit / name, i) if r.size < 7 - 0.01 and not is_sign(r.text)}
    assert not small, f"{lang}: under 7 pt: {sorted(small)[:8]}"


def test_each_hieroglyph_card_prints_its_sign_code_once(kit, manifest, game):
    fronts = printshop_fronts(kit, manifest, "en")
    hieroglyph = next(t for t in game.data["types"] if t["id"] == "hieroglyph")
    for n, v in enumerate(hieroglyph["variants"], 1):
        text = fronts[f"hieroglyph-{n}"]
        assert len(re.findall(rf"(?<![A-Za-z0-9]){re.escape(v['gardiner'])}(?![A-Za-z0-9])", text)) == 1, text


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_legend_keeps_each_special_meld_name_next_to_its_chips(kit, game, lang):
    """A short name ("Priests") sat 30 mm from its chips: each name now ends just before
    its first chip."""
    chars = char_boxes(kit / f"egypt-{lang}-a4-sheets.pdf", 0)
    _, legend, _ = find_text(chars, game.strings[lang]["rules.legend_h"])
    for key in ("combo.builders", "combo.priests"):
        start, end, name = find_text(chars, game.strings[lang][key], legend)
        chip = next(b for _, b in chars[end:] if b is not None)  # the first chip's value
        assert 0 < chip.left - name.right < 6, (key, name, chip)


# --------------------------------------------------------------------------- the words, for print
def test_numbers_stay_with_their_words(game):
    assert_numbers_keep_their_words({lang: game.strings[lang] for lang in game.languages})


def test_dutch_quotes_open_low_and_close_high(game):
    assert_dutch_quotes(game.strings["nl"])


def _relative_luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a #rrggbb colour."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_the_sign_codes_in_the_art_box_stand_out_from_the_stela(game):
    """The codes ("A9", "A35") were 7 pt light gold on pale gold: in the ink-saver and the
    full-colour cards alike, each code has a contrast of at least 4.5:1 (WCAG AA for small
    text) against the stela it is printed on, and is set in the bold face."""
    from cardgen.base.errors import Collector
    from cardgen.pipeline import BuildOptions, KitBuilder

    codes = {v["gardiner"] for ty in game.data["types"] for v in ty.get("variants", []) if v.get("gardiner")}
    seen = 0
    for ink_saver in (False, True):
        builder = KitBuilder(game, BuildOptions(langs=("en",), papers=("a4",), ink_saver=ink_saver))
        errors = Collector()
        kit = builder.render_lang("en", errors)
        assert errors.errors == []
        for (_comp, card), face in kit.fronts.items():
            ops = list(face.ops)
            for i, op in enumerate(ops):
                if op.kind != "text" or op.args["text"] not in codes:
                    continue
                stela = [o for o in ops[:i] if o.kind == "path" and o.args.get("fill") not in (None, "none")][-1]
                ink = game.palette.get(op.args["color"], op.args["color"])
                ground = game.palette.get(stela.args["fill"], stela.args["fill"])
                hi, lo = sorted((_relative_luminance(ink), _relative_luminance(ground)), reverse=True)
                ratio = (hi + 0.05) / (lo + 0.05)
                assert ratio >= 4.5, f"{card} (ink saver: {ink_saver}): {op.args['text']} {ink} on {ground}: {ratio:.1f}:1"
                assert builder.text.font(op.args["font"]) == builder.text.font("bold"), card
                seen += 1
    assert seen >= 20, seen


def test_french_dynasties_are_proper_ordinals_the_font_can_print(game):
    """"Ire dynastie" read as a word: French ordinals of roman numerals take a
    superscript ending (Iʳᵉ, XVIIIᵉ), which the notes' face has (checked with its cmap)."""
    fr = game.strings["fr"]
    forms = {"one": fr["card.dynasty.one"], "other": fr["card.dynasty.other"]}
    notes = [forms["one" if n == 1 else "other"].format(roman=roman(n)) for n in (1, 3, 4, 18, 19)]
    assert notes[0] == "I\u02b3\u1d49\u00a0dynastie" and notes[3] == "XVIII\u1d49\u00a0dynastie"
    for note in notes:
        assert not re.search(r"\b[IVXLC]+(re|er|e)\b", note), note
        assert re.search(r"\b[IVXLC]+(\u02b3\u1d49|\u1d49)\u00a0dynastie", note), note
    font = TTFont(shipped_fonts_dir() / "NotoSans-Regular.ttf")
    assert {0x02B3, 0x1D49} <= set(font.getBestCmap())
