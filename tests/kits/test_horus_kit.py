"""The Horus kit: `cardgen build horus` in every language and on both papers, read back
from the PDFs — pages and sizes of the four kinds of pieces (tiles, cards, round
tokens, aids), every piece printed as often as the data says, each tile's own back
behind it, River tiles that join their neighbours, every name in every language,
fonts embedded, a reproducible build — plus the data's promises (terrains apart in
greyscale, each sign the one its Gardiner number names, French typography)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
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
    render_kits,
)
from pypdf import PdfReader
from textlayer import char_boxes, find_text, page_text, page_texts, text_runs

from cardgen.base.paths import shipped_fonts_dir
from cardgen.load.game import load_game
from cardgen.render.sandbox import luminance

LANGS = ("en", "fr", "nl")
SETUP_PAGE = 3  # of a sheets file: the stones, the rules (two pages at their one size), the setup
PAPERS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
MM = 72 / 25.4
TERRAINS = {
    "en": ["Desert", "Hill", "Field", "Swamp"],
    "fr": ["Désert", "Colline", "Champ", "Marais"],
    "nl": ["Woestijn", "Heuvel", "Akker", "Moeras"],
}


@pytest.fixture(scope="module")
def game():
    return load_game("horus")


@pytest.fixture(scope="module")
def kit(shared_kit) -> Path:
    return shared_kit("horus").folder


@pytest.fixture(scope="module")
def manifest(kit) -> dict:
    return read_manifest(kit)


def shop_entry(manifest: dict, lang: str, component: str) -> dict:
    """The print-shop file of ``lang`` that holds ``component``."""
    return next(f for f in manifest["files"] if f["kind"] == "printshop" and f["lang"] == lang
                and component in f["printshop"]["components"])


def text_of(path: Path, page: int) -> str:
    """The text of a page (0-based) of a PDF, runs of white space as one space."""
    return re.sub(r"\s+", " ", page_text(path, page))


def render(path: Path, page: int, px_per_mm: float) -> np.ndarray:
    img = pdfium.PdfDocument(path)[page].render(scale=px_per_mm * 25.4 / 72).to_pil().convert("RGB")
    return np.asarray(img).astype(float)


def rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


# --------------------------------------------------------------------------- the files
def test_every_language_and_paper_has_its_files_with_the_right_page_counts(kit):
    for lang in LANGS:
        for paper, (pw, ph) in PAPERS.items():
            cards = PdfReader(kit / f"horus-{lang}-{paper}-cards.pdf")
            # tiles 28 a sheet on A4 (5 sheets: their bleed kept out of the printer's
            # band), 30 on Letter (4); 50 Horus cards and the 4 Nile cards 9 a sheet,
            # sharing the last (6); 4 aids (1) — each sheet front and back
            assert len(cards.pages) == 2 * ({"a4": 5, "letter": 4}[paper] + 6 + 1)
            sheets = PdfReader(kit / f"horus-{lang}-{paper}-sheets.pdf")
            assert len(sheets.pages) == 4  # the 80 stones on one sheet, the rules (two pages at their one size), the setup
            for page in (cards.pages[0], *sheets.pages):
                assert float(page.mediabox.width) == pytest.approx(pw, abs=0.01)
                assert float(page.mediabox.height) == pytest.approx(ph, abs=0.01)


def test_every_sheet_label_is_whole_even_on_short_rows(kit, game):
    """The grey line saying what a page is, spread over several short rows (tokens, tiles)
    when it does not fit one, is never cut short with an ellipsis."""
    for lang in LANGS:
        for paper in PAPERS:
            for kind in ("cards", "sheets"):
                for n, page in enumerate(page_texts(kit / f"horus-{lang}-{paper}-{kind}.pdf")):
                    text = re.sub(r"\s+", " ", page)
                    shown = {"a4": "A4", "letter": "Letter"}[paper]  # as the label names the paper
                    if f"{shown} · 100" not in text and f"{shown} 100" not in text:
                        continue  # a page without a sheet label (rules summary, setup)
                    assert "…" not in text, (lang, paper, kind, n, text)
    stones = text_of(kit / "horus-en-letter-sheets.pdf", 0)
    # spread over the short rows, each piece but the last ending on its separator's dot
    assert re.search(r"Horus · Kingdom Stones · 1/1 · Letter · 100%", stones), stones


def test_the_print_shop_files_are_one_per_trim_size_each_with_its_boxes(kit, manifest):
    """Four trim sizes, four files; the one-sided stones apart from the two-sided runs."""
    sizes = {"tiles": (40, 40), "horus-cards": (63, 88), "nile-cards": (63, 88), "stones": (16, 16),
             "aids": (95, 130)}
    for lang in LANGS:
        shops = {f["file"]: f for f in manifest["files"] if f["kind"] == "printshop" and f["lang"] == lang}
        assert {name: f["printshop"]["components"] for name, f in shops.items()} == {
            f"horus-{lang}-printshop-40x40mm.pdf": ["tiles"],
            f"horus-{lang}-printshop-63x88mm.pdf": ["horus-cards", "nile-cards"],
            f"horus-{lang}-printshop-16mm-round-one-sided.pdf": ["stones"],
            f"horus-{lang}-printshop-95x130mm.pdf": ["aids"]}
        counts = {name: len(PdfReader(kit / name).pages) for name in shops}
        assert counts == {f"horus-{lang}-printshop-40x40mm.pdf": 2 * 120,
                          f"horus-{lang}-printshop-63x88mm.pdf": 2 * (50 + 4),
                          f"horus-{lang}-printshop-16mm-round-one-sided.pdf": 80,  # fronts only
                          f"horus-{lang}-printshop-95x130mm.pdf": 2 * 4}
        for comp, (w, h) in sizes.items():
            entry = shop_entry(manifest, lang, comp)
            assert entry["printshop"]["trim"] == [w, h] and entry["printshop"]["two_sided"] == (comp != "stones")
            shop = PdfReader(kit / entry["file"])
            page = shop.pages[next(p["page"] - 1 for p in entry["pages"] if p["component"] == comp)]
            assert float(page.trimbox.width) == pytest.approx(w * MM, abs=0.01), comp
            assert float(page.trimbox.height) == pytest.approx(h * MM, abs=0.01), comp
            assert float(page.mediabox.width) == pytest.approx((w + 6) * MM, abs=0.01), comp


def test_every_piece_is_printed_as_often_as_the_data_says(manifest, game):
    data = game.data
    want = {"tiles": {t["id"]: t["count"] for t in data["tiles"]},
            "horus-cards": {f"horus-{c['id']}": c["count"] for c in data["horus_cards"]},
            "nile-cards": {"nile": data["nile_cards"]},
            "stones": {f"stone-{s['id']}": s["count"] for s in data["stone_colours"]},
            "aids": {f"aid-{s['id']}": 1 for s in data["stone_colours"]}}
    assert sum(want["tiles"].values()) == 120 and sum(want["horus-cards"].values()) == 50
    assert sum(want["stones"].values()) == 80
    for f in manifest["files"]:
        if f["kind"] == "printshop" or (f["kind"] in ("cards", "sheets") and f["paper"]):
            for side in ("front", "back"):
                got: dict[str, Counter] = {}
                for p in f["pages"]:
                    for item in p["items"]:
                        if item["side"] == side:
                            got.setdefault(item.get("component", p["component"]), Counter())[item["card"]] += 1
                for comp, counts in want.items():
                    held = comp in f["printshop"]["components"] if f["kind"] == "printshop" else \
                        (comp == "stones") == (f["kind"] == "sheets")
                    if side == "back" and comp == "stones" or not held:
                        assert comp not in got, (f["file"], side, comp)
                    else:
                        assert dict(got[comp]) == counts, (f["file"], side, comp)


def test_the_built_kit_passes_cardgen_validate_kit(kit):
    assert_kit_validates("horus", kit)


def test_each_colour_of_kingdom_stones_starts_rows_of_its_own(manifest, game):
    """`new_row_per: card` on the stones: no row mixes two colours, each colour's 20
    stones take rows of their own (9 + 9 + 2 at nine a row), in the data's order."""
    colours = [f"stone-{s['id']}" for s in game.data["stone_colours"]]
    pages = [p for f in manifest["files"] if f["kind"] == "sheets" and f["paper"] for p in f["pages"]
             if p["component"] == "stones"]
    assert pages
    for page in pages:
        rows: dict[int, set] = {}
        for item in page["items"]:
            rows.setdefault(item["row"], set()).add(item["card"])
        assert all(len(cards) == 1 for cards in rows.values()), rows
        order = [next(iter(rows[r])) for r in sorted(rows)]
        assert order == sorted(order, key=colours.index)  # colour after colour, as in the data
        per_row = [sum(1 for it in page["items"] if it["row"] == r) for r in sorted(rows)]
        assert per_row == [9, 9, 2] * 4, per_row  # A4 and Letter both hold the twelve rows on one sheet


def test_every_font_is_embedded(kit):
    assert_fonts_embedded(kit)


# --------------------------------------------------------------------------- the tiles
def test_each_tile_has_its_own_back_behind_it(kit, manifest, game):
    """The back printed after each tile's front is its back colour (tan, purple,
    silver) or, for the double-sided River tiles, the Necropolis face."""
    entry = shop_entry(manifest, "en", "tiles")
    path = kit / entry["file"]
    pal = game.palette
    candidates = {"tan": pal["tan"], "purple": pal["purple"], "silver": pal["silver"],
                  "necropolis": pal["necropolis"], "river": pal["river"]}
    first_back = {}
    for p in entry["pages"]:
        item = p["items"][0]
        if p["component"] == "tiles" and p["side"] == "back" and item["card"] not in first_back:
            first_back[item["card"]] = p["page"] - 1
    for tile in game.data["tiles"]:
        img = render(path, first_back[tile["id"]], 2)
        mean = img.reshape(-1, 3).mean(axis=0)
        nearest = min(candidates, key=lambda k: np.linalg.norm(rgb(candidates[k]) - mean))
        assert nearest == tile["back"], (tile["id"], nearest, mean)


def test_river_tiles_join_edge_to_edge_offset_by_half_and_turned(kit, manifest):
    """The water repeats every 10 mm from the corner and weaves so that a quarter
    turn changes nothing: the strip just past the right edge (the bleed, i.e. what a
    right-hand neighbour starts with) is the tile's own left strip, the lower half is
    the upper half, and the turned tile is the tile."""
    entry = shop_entry(manifest, "en", "tiles")
    page = next(p["page"] - 1 for p in entry["pages"]
                if p["component"] == "tiles" and p["side"] == "front" and p["items"][0]["card"] == "river-bag")
    k = 10  # px per mm
    img = render(kit / entry["file"], page, k)
    b = 3 * k
    tile = img[b:b + 40 * k, b:b + 40 * k]
    assert tile.shape[:2] == (400, 400)
    away = np.r_[0:170, 230:400]  # rows or columns away from the middle-of-edge marks
    left = img[b + away, b + 4:b + 26]                 # 0.4–2.6 mm inside the left edge
    beyond = img[b + away, b + 404:b + 426]            # 0.4–2.6 mm past the right edge
    assert np.abs(left - beyond).mean() < 3
    upper = tile[20:180][:, away]
    lower = tile[220:380][:, away]                     # half a tile further down
    assert np.abs(upper - lower).mean() < 3
    assert np.abs(tile - np.rot90(tile)).mean() < 3
    assert tile.std() > 10  # and it is a pattern, not a flat fill


def test_terrains_stay_apart_in_greyscale_and_each_has_its_sign_and_pattern(game):
    faces = game.data["faces"]
    lum = sorted(luminance(game.palette[faces[t]["colour"]]) for t in game.data["terrains"])
    assert min(b - a for a, b in zip(lum, lum[1:])) >= 0.1, lum
    assert len({faces[t]["glyph"] for t in game.data["terrains"]}) == 4
    assert len({faces[t]["pattern"] for t in game.data["terrains"]}) == 4
    backs = [luminance(game.palette[b["colour"]]) for b in game.data["backs"].values()]
    assert len({b["glyph"] for b in game.data["backs"].values()}) == 3  # the backs apart without colour
    assert min(abs(a - b) for i, a in enumerate(backs) for b in backs[i + 1:]) >= 0.09


def test_every_sign_is_the_one_its_gardiner_number_names_and_is_in_the_font(game):
    cmap = TTFont(shipped_fonts_dir() / "NotoSansEgyptianHieroglyphs-Regular.ttf").getBestCmap()

    def unicode_name(code: str) -> str:
        m = re.fullmatch(r"([A-Z]+)(\d+)([A-Z]?)", code)
        return f"EGYPTIAN HIEROGLYPH {m.group(1)}{int(m.group(2)):03d}{m.group(3)}"

    for group in (game.data["faces"], game.data["backs"]):
        for key, f in group.items():
            assert unicodedata.name(f["glyph"]) == unicode_name(f["gardiner"]), key
            assert ord(f["glyph"]) in cmap, key


# --------------------------------------------------------------------------- cards, stones, aids
@pytest.mark.parametrize("lang", LANGS)
def test_every_horus_card_names_its_tile_and_its_size(kit, manifest, game, lang):
    entry = shop_entry(manifest, lang, "horus-cards")
    shop = kit / entry["file"]
    s = game.strings[lang]
    fronts = {p["items"][0]["card"]: text_of(shop, p["page"] - 1)
              for p in entry["pages"] if p["component"] == "horus-cards" and p["side"] == "front"}
    assert len(fronts) == 30
    for c in game.data["horus_cards"]:
        text = fronts[f"horus-{c['id']}"]
        assert s[f"tile.{c['tile']}"] in text, (c, text)
        if c["tile"] != "any":
            assert s[f"tile.{c['tile']}"] == TERRAINS[lang][game.data["terrains"].index(c["tile"])]
        corner = "?" if c["size"] == "any" else str(c["size"])
        assert text.count(corner) >= 4, (c, text)  # the four corners
    nile = next(text_of(shop, p["page"] - 1) for p in entry["pages"]
                if p["component"] == "nile-cards" and p["side"] == "front")
    assert s["nile.title"] in nile and s["nile.once"] in nile


def test_any_stack_cards_show_a_black_question_mark(kit, manifest):
    entry = shop_entry(manifest, "en", "horus-cards")
    page = next(p["page"] - 1 for p in entry["pages"]
                if p["component"] == "horus-cards" and p["items"][0]["card"] == "horus-any-3")
    img = render(kit / entry["file"], page, 4)
    middle = img[(3 + 30) * 4:(3 + 45) * 4, (3 + 27) * 4:(3 + 36) * 4]
    # black ink in the middle of the card: 100 % K in the CMYK print-shop file, which a screen shows as (35, 34, 34)
    assert (middle.sum(axis=2) < 120).mean() > 0.2


def test_the_stones_have_four_colours_and_four_shapes(game):
    stones = game.data["stone_colours"]
    assert len({s["shape"] for s in stones}) == 4
    lum = sorted(luminance(game.palette[s["colour"]]) for s in stones)
    assert min(b - a for a, b in zip(lum, lum[1:])) >= 0.1, lum
    assert game.component("stones").shape == "circle" and game.component("stones").size == (16, 16)


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_summary_and_the_aids_are_in_every_language(kit, manifest, game, lang):
    s = game.strings[lang]
    flat = text_of(kit / f"horus-{lang}-a4-sheets.pdf", 1) + " " + text_of(kit / f"horus-{lang}-a4-sheets.pdf", 2)
    for key in ("rules.title", "rules.turn_h", "rules.river_h", "rules.score_h", "rules.bag_h", "rules.legend_h"):
        assert re.sub(r"\s+", " ", s[key]) in flat, (key, s[key])
    for name in TERRAINS[lang] + [s["tile.river"], s["tile.necropolis"]]:
        assert name in flat
    setup = text_of(kit / f"horus-{lang}-letter-sheets.pdf", SETUP_PAGE)
    for key in ("setup.title", "setup.stacks_h", "setup.table_h", "setup.player_h", "setup.steps_h"):
        assert re.sub(r"\s+", " ", s[key]) in setup, (key, s[key])
    bag = sum(t["count"] for t in game.data["tiles"] if t["where"] == "bag")
    assert bag == 69 and re.sub(r"\s+", " ", s["setup.bag"].format(n=bag)) in setup  # counted from the data
    entry = shop_entry(manifest, lang, "aids")
    aid = [p for p in entry["pages"] if p["component"] == "aids"]
    assert len(aid) == 8  # one per player colour, front and back
    front = text_of(kit / entry["file"], aid[0]["page"] - 1)
    back = text_of(kit / entry["file"], aid[1]["page"] - 1)
    for n in range(1, 6):
        assert s[f"aid.a{n}_h"] in front
    assert s["aid.place_h"] in back and s["aid.score_h"] in back  # (no double punctuation in these)
    assert str(game.data["temple_cap"]) in back


def test_the_build_is_reproducible(tmp_path):
    assert_reproducible(tmp_path, "horus", "--lang", "fr", "--paper", "letter")


# --------------------------------------------------------------------------- the words
def test_french_puts_a_no_break_space_before_double_punctuation_and_inside_guillemets(game):
    assert_french_typography(game.root / "locales" / "fr.yaml")


def test_every_language_has_every_string(game):
    keys = {lang: set(game.strings[lang]) for lang in LANGS}
    assert keys["en"] == keys["fr"] == keys["nl"]


# --------------------------------------------------------------------------- print review: layout of the sheets
@pytest.mark.parametrize("lang", LANGS)
def test_the_fan_of_horus_cards_stands_clear_above_its_centred_caption(kit, game, lang):
    """The fan's lowest corners touched "5 Horus cards in hand" and the caption sat 3 mm
    off the fan's middle. Read from the page: the caption's ink box (text layer), and
    every non-white pixel in a window above it that is centred on the caption and
    reaches to the right margin: the fan must lie wholly inside it (so it is centred
    too) and end 1 mm or more above the caption."""
    path = kit / f"horus-{lang}-a4-sheets.pdf"
    chars = char_boxes(path, SETUP_PAGE)
    _, _, caption = find_text(chars, game.strings[lang]["setup.hand"].format(n=game.data["hand_size"]))
    centre = (caption.left + caption.right) / 2
    half = 210 - 12 - centre  # A4, 12 mm margin
    px = 8
    img = render(path, SETUP_PAGE, px)
    top = caption.top - 34  # under the section's heading rule, above the fan
    window = img[int(top * px):int(caption.top * px), int((centre - half) * px):int((centre + half) * px)]
    ink = np.argwhere((window < 235).any(axis=2))
    assert len(ink), "no fan above the caption"
    rows, cols = ink[:, 0], ink[:, 1]
    assert rows.min() > 0, "the fan reaches up out of the window: it starts under the heading rule"
    assert cols.min() > 0 and cols.max() < window.shape[1] - 1, \
        f"{lang}: the fan is not centred on its caption: ink from {cols.min() / px:.1f} to {cols.max() / px:.1f} mm of {window.shape[1] / px:.1f}"
    gap = (window.shape[0] - 1 - rows.max()) / px
    assert gap >= 1.0, f"{lang}: the fan ends {gap:.2f} mm above its caption"


@pytest.mark.parametrize("lang", LANGS)
def test_the_legend_names_every_face_at_one_size(kit, game, lang):
    """Long names ("Temple d’Horus", "Pyramide à degrés") were shrunk to 7.3 and 6 pt
    beside 8 pt neighbours; now they take a second line instead."""
    s = game.strings[lang]
    runs = text_runs(kit / f"horus-{lang}-a4-sheets.pdf", 1)
    texts = [r.text for r in runs]
    first = texts.index(s["rules.legend_h"]) + 1
    labels = [r for r in runs[first:texts.index(s["rules.back_tan_h"])] if not any(0x13000 <= ord(c) < 0x13460 for c in r.text)]
    words = " ".join(r.text for r in labels).split()
    names = [s["tile." + k] for k in ("desert", "hill", "field", "swamp", "river", "necropolis", "temple", "step_pyramid", "boat")]
    assert words == " ".join(names).split()
    assert {r.size for r in labels} == {8.0}, sorted({(r.text, r.size) for r in labels})


def test_the_rules_page_has_the_title_the_other_games_use(kit, game):
    """"How to play" in every kit (Horus said "Rules summary")."""
    for other in ("egypt", "hapy", "farao"):
        theirs = load_game(other).strings
        for lang in LANGS:
            assert game.strings[lang]["rules.title"] == theirs[lang]["rules.title"], (other, lang)
    for lang in LANGS:
        assert game.strings[lang]["rules.title"] in text_of(kit / f"horus-{lang}-a4-sheets.pdf", 1)


@pytest.mark.parametrize("lang", LANGS)
def test_the_setup_headings_are_in_the_rules_headings_font(kit, game, lang):
    """Section headings in the blue sans on both sheets (the setup sheet used the display
    serif of the titles)."""
    s = game.strings[lang]
    path = kit / f"horus-{lang}-a4-sheets.pdf"
    font = {r.text: r.font for r in text_runs(path, 1)}[s["rules.goal_h"]]
    setup = {r.text: r.font for r in text_runs(path, SETUP_PAGE)}
    for key in ("setup.stacks_h", "setup.table_h", "setup.player_h", "setup.steps_h"):
        assert setup[s[key]] == font, (key, setup[s[key]], font)


def test_dutch_writes_river_necropolis_one_way(kit, manifest):
    """"Rivier/Necropolis" everywhere (the setup sheet made "Rivier / Necropolis")."""
    pages = [re.sub(r"\s+", " ", page) for page in page_texts(kit / "horus-nl-a4-sheets.pdf")]
    entry = shop_entry(manifest, "nl", "aids")
    pages += [text_of(kit / entry["file"], p["page"] - 1) for p in entry["pages"] if p["component"] == "aids"][:2]
    spellings = Counter(m.group(0) for page in pages for m in re.finditer(r"Rivier\s*/\s*Necropolis", page))
    assert set(spellings) == {"Rivier/Necropolis"}, spellings


# --------------------------------------------------------------------------- the words, for print
def test_numbers_stay_with_their_words(game):
    assert_numbers_keep_their_words({lang: game.strings[lang] for lang in game.languages})


def test_dutch_quotes_open_low_and_close_high_as_in_egypt(game):
    assert_dutch_quotes(game.strings["nl"])


# --------------------------------------------------------------------------- the laid-out sheets
@pytest.fixture(scope="module")
def rendered(game):
    """(builder, {lang: LangKit}) for every language and both papers, no files written."""
    return render_kits(game, LANGS, PAPERS)


@pytest.mark.parametrize("lang", LANGS)
def test_the_captions_of_one_setup_row_share_one_size(rendered, lang):
    """The review found "De zak: 69 tegels…" at 8.3 pt and "Le départ (dos argenté)…"
    at 8.8 pt beside captions at 9.5 pt: the texts that start on one line of the setup
    page (a row of captions, of labels or of counts) are printed at one size."""
    builder, kits = rendered
    for paper in PAPERS:
        (page,) = kits[lang].sheets[("setup", paper)]
        rows: dict[float, list] = {}
        for op in page.ops:
            if op.kind == "text":
                rows.setdefault(round(op.args["y"], 1), []).append(op)
        shared = [ops for ops in rows.values() if len(ops) >= 3]
        assert len(shared) >= 4, (lang, paper, len(shared))  # labels, counts, the middle row, the player row
        for ops in shared:
            sizes = {(op.args["text"][:24], builder.text.fit_op(op).size) for op in ops}
            assert len({s for _, s in sizes}) == 1, f"[{lang}, {paper}] one row, several sizes: {sorted(sizes)}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_legend_names_the_kingdom_stones_over_their_discs(rendered, game, lang):
    """The legend drew four coloured discs with no name: a caption with the stones' name
    and count sits just above them, unshrunk, like the backs' names beside them."""
    builder, kits = rendered
    name = game.strings[lang]["component.stones"]
    colours = {game.palette[c["colour"]] for c in game.data["stone_colours"]} | {c["colour"] for c in game.data["stone_colours"]}
    for paper in PAPERS:
        page = kits[lang].sheets[("rules", paper)][0]  # the legend: page one, in one group
        (legend,) = [op for op in page.ops if op.kind == "group"
                     and any(c.kind == "text" and c.args["text"].startswith(name) for c in op.children)]
        discs = [op.args for op in legend.children if op.kind == "circle" and op.args.get("fill") in colours]
        assert len(discs) == len(game.data["stone_colours"]), (lang, paper)
        captions = [op for op in legend.children if op.kind == "text" and op.args["text"].startswith(name)]
        assert len(captions) == 1, (lang, paper, [op.args["text"] for op in captions])
        a = captions[0].args
        assert "4\u00a0×\u00a020" in a["text"]
        fitted = builder.text.fit_op(captions[0])
        assert len(fitted.lines) == 1 and fitted.size == a["size"], (lang, paper, fitted)
        top = min(d["cy"] - d["r"] for d in discs)
        assert 0 <= top - (a["y"] + a["h"]) < 3, (lang, paper, "the caption is not just above the discs")
        assert a["x"] <= min(d["cx"] - d["r"] for d in discs) + 0.5


def test_french_wording_of_the_tagline_and_the_quadrupled_score(game):
    """Review nits: no comma before "et" in the tagline; "quadruplé(e) si les deux" said
    in full (on an island and against the Temple) in the aid and the rules."""
    fr = game.strings["fr"]
    assert ", et " not in fr["game.tagline"]
    texts = [v for v in fr.values() if "quadrupl" in v]
    assert len(texts) >= 2
    for text in texts:
        assert "si les deux" not in text and "à la fois sur une île et contre le Temple" in text, text


# --------------------------------------------------------------------------- issue 20: the double-faced stack
@pytest.mark.parametrize("lang", LANGS)
def test_each_setup_stack_shows_the_underside_of_its_own_tiles(kit, game, lang):
    """The River / Necropolis tiles are double-faced, but the setup sheet drew all five
    stacks on purple backs. Read from the page: in the 5 mm strip beside and under
    each stack's top tile (above its name), the stacks of purple-backed tiles show
    purple and the River / Necropolis stack shows its grey Necropolis face, no purple."""
    path = kit / f"horus-{lang}-a4-sheets.pdf"
    chars = char_boxes(path, SETUP_PAGE)
    s = game.strings[lang]
    purple = rgb(game.palette["purple"])
    grey = rgb(game.palette[game.data["faces"]["necropolis"]["colour"]])
    px = 8
    img = render(path, SETUP_PAGE, px)
    for stack in game.data["stacks"]:
        name = s["tile.river_necropolis"] if stack == "river" else s[f"tile.{stack}"]
        _, _, label = find_text(chars, name)
        centre = (label.left + label.right) / 2
        # the layers peek out 1.2–3.6 mm right of and below the 25 mm top tile
        strip = img[int((label.top - 8) * px):int((label.top - 4.5) * px),
                    int((centre - 14) * px):int((centre + 16) * px)]

        def near(c, strip=strip):
            return (np.abs(strip - c).sum(axis=2) < 30).mean()
        under = next(t["back"] for t in game.data["tiles"] if t["where"] == stack)
        if under in game.data["backs"]:
            assert near(purple) > 0.05 and near(grey) < 0.01, (lang, stack)
        else:
            assert near(purple) < 0.01 and near(grey) > 0.05, (lang, stack, near(purple), near(grey))


def test_the_necropolis_grey_is_far_from_the_purple_back_in_lightness(game):
    """A family sorting tiles by back colour must not take the 16 Necropolis faces for
    purple backs: CIE L* at least 10 apart (it was 0.4)."""
    from greyscale import lightness
    necropolis = game.palette[game.data["faces"]["necropolis"]["colour"]]
    assert abs(lightness(necropolis) - lightness(game.palette["purple"])) >= 10
