"""What a print review of the Hâpy sheets found, kept from coming back: the setup
drawings must be buildable (no card hidden without a sign), the four exploration
layouts share one card size and follow layouts.yaml, the setup pages wear the same
header band as the rules page, the sticker sheet says what it is and what to do, and the French speaks to the reader as "vous"
throughout, with numbers kept on the line of their words in every language.

The sheets are rendered to layout ops (no PDF written): fast, and exact."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
import yaml
from kitchecks import HAPY_EVERY_LANGUAGE

from cardgen.base.errors import Collector
from cardgen.base.paths import shipped_games_dir
from cardgen.impose.kitplan import deck_blocks, plan_decks
from cardgen.load.game import load_game
from cardgen.pipeline import BuildOptions, KitBuilder

LANGS = ("en", "fr", "nl")
PAPERS = ("a4", "letter")
RATIO = 88 / 63  # the God cards' height over width
EXPLORATION = ("mastaba", "temple", "tomb", "giza")


@pytest.fixture(scope="module")
def game():
    return load_game("hapy")


@pytest.fixture(scope="module")
def sheets(game):
    """(lang, paper) → {component id: [page ops, …]} for every sheet of the kit."""
    builder = KitBuilder(game, BuildOptions(langs=LANGS, papers=PAPERS))
    out = {}
    for lang in LANGS:
        errors = Collector()
        kit = builder.render_lang(lang, errors)
        assert errors.errors == [], [str(e) for e in errors.errors]
        for (comp, paper), faces in kit.sheets.items():
            out.setdefault((lang, paper), {})[comp] = [face.ops for face in faces]
        for (comp, paper), faces in kit.headers.items():
            out.setdefault((lang, paper), {})[comp + " header"] = [face.ops for face in faces]
            deck = next(c for c in game.components if c.id == comp)
            out[(lang, paper)][comp + " blocks"] = deck_blocks(deck, plan_decks(game, PAPERS)[paper][comp])
    return out


def card_rects(ops, page_h: float, margin: float = 12.0):
    """The drawn cards of a setup page, in drawing order: rounded rects of the cards'
    proportions above the legend band. Returns (solid, dashed): dashed ones are the
    outlines the sheet draws over hidden cards."""
    solid, dashed = [], []
    for op in ops:
        a = op.args
        if op.kind != "rect" or not a.get("r") or a["w"] <= 0:
            continue
        if abs(a["h"] / a["w"] - RATIO) > 0.01 or a["y"] >= page_h - margin - 13.5:
            continue
        box = (a["x"], a["y"], a["w"], a["h"])
        (dashed if a.get("dash") else solid).append(box)
    return solid, dashed


def _inside(px, py, box, slack: float) -> bool:
    x, y, w, h = box
    return x - slack < px < x + w + slack and y - slack < py < y + h + slack


def covered_completely(i: int, rects) -> bool:
    """Every point of a 5 × 5 grid inside card ``i`` lies under a card drawn after it.
    The drawings leave a hairline between neighbouring cards (4 % of a card's width):
    a card showing only through those seams counts as covered."""
    x, y, w, h = rects[i]
    slack = 0.05 * w
    later = [r for r in rects[i + 1:] if r[0] < x + w and x < r[0] + r[2] and r[1] < y + h and y < r[1] + r[3]]
    return all(any(_inside(x + w * fx, y + h * fy, r, slack) for r in later)
               for fx in (0.1, 0.3, 0.5, 0.7, 0.9) for fy in (0.1, 0.3, 0.5, 0.7, 0.9))


def page_h(paper: str) -> float:
    return {"a4": 297.0, "letter": 279.4}[paper]


# --------------------------------------------------------------------------- drawings
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_no_card_of_a_setup_drawing_is_hidden_without_its_outline(sheets, lang, paper):
    """A card buried under later ones (the Tomb's centre card) is outlined on top, so a
    player rebuilding the layout from the drawing knows it is there."""
    for n, ops in enumerate(sheets[(lang, paper)]["setup"], start=1):
        solid, dashed = card_rects(ops, page_h(paper))
        assert solid, f"page {n}: no cards drawn"
        for i, box in enumerate(solid):
            if covered_completely(i, solid):
                assert any(all(abs(a - b) < 0.01 for a, b in zip(box, d)) for d in dashed), \
                    f"setup page {n} [{lang}, {paper}]: the card at {box[:2]} is covered completely and not outlined"


def _layout_positions(layout) -> list[tuple[float, float]]:
    return [(x, row["y"]) for row in layout["rows"] for x in row["x"]]


def _matches(rects, positions) -> bool:
    """The rects are the layout's cards in laying order, at one scale and offset."""
    xs, ys = [p[0] for p in positions], [p[1] for p in positions]
    rx, ry = [r[0] for r in rects], [r[1] for r in rects]
    if len(rects) != len(positions) or max(xs) == min(xs) or max(ys) == min(ys):
        return False
    ux = (max(rx) - min(rx)) / (max(xs) - min(xs))
    uy = (max(ry) - min(ry)) / (max(ys) - min(ys))
    if abs(uy / ux - RATIO) > 0.01:
        return False
    return all(abs((r[0] - min(rx)) / ux - (p[0] - min(xs))) < 0.01 and abs((r[1] - min(ry)) / uy - (p[1] - min(ys))) < 0.01
               for r, p in zip(rects, positions))


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_four_exploration_layouts_share_one_card_size_and_follow_the_data(sheets, game, lang, paper):
    ops = sheets[(lang, paper)]["setup"][1]
    solid, _ = card_rects(ops, page_h(paper))
    by_width = defaultdict(list)
    for box in solid:
        by_width[round(box[2], 3)].append(box)
    main = [w for w, boxes in by_width.items() if len(boxes) == 36 * len(EXPLORATION)]
    assert main, f"no card size shared by the four layouts' {36 * len(EXPLORATION)} cards: " \
                 f"{sorted((w, len(b)) for w, b in by_width.items())}"
    cards = by_width[main[0]]
    layouts = game.data["layouts"]
    found = set()
    for k in range(len(EXPLORATION)):
        chunk = cards[36 * k: 36 * (k + 1)]
        name = next((n for n in EXPLORATION if _matches(chunk, _layout_positions(layouts[n]))), None)
        assert name, f"drawing {k + 1} matches none of the layouts in layouts.yaml"
        found.add(name)
        assert min(b[0] for b in chunk) >= 12 - 1e-6 and max(b[0] + b[2] for b in chunk) <= {"a4": 210, "letter": 215.9}[paper] - 12 + 1e-6
    assert found == set(EXPLORATION)


@pytest.mark.parametrize("paper", PAPERS)
def test_a_layout_with_a_hidden_card_is_also_shown_step_by_step(sheets, paper):
    """The Tomb's centre card is hidden in the finished drawing: a smaller step-by-step
    build shows it on its own (a card of a smaller size, not covered by anything)."""
    ops = sheets[("en", paper)]["setup"][1]
    solid, _ = card_rects(ops, page_h(paper))
    widths = defaultdict(list)
    for i, box in enumerate(solid):
        widths[round(box[2], 3)].append(i)
    main = max(widths, key=lambda w: len(widths[w]))
    small = [i for w, idx in widths.items() if w < main for i in idx]
    assert small, "no step-by-step panels"
    alone = [i for i in small
             if not any(j != i and solid[j][0] < solid[i][0] + solid[i][2] and solid[i][0] < solid[j][0] + solid[j][2]
                        and solid[j][1] < solid[i][1] + solid[i][3] and solid[i][1] < solid[j][1] + solid[j][3]
                        for j in range(len(solid)))]
    assert alone, "the first step (one card alone) is missing"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_step_strip_numbers_its_hidden_cards_and_keys_its_faded_ones(sheets, game, lang, paper):
    """Every dashed outline, in the strip as in the large drawing, carries its step's
    number in a disc at its centre; over the panel of step k the discs of steps 1 … k-1
    come first, faded, as the cards of those steps are in the panel: the key to them."""
    ops = sheets[(lang, paper)]["setup"][1]
    terracotta = game.palette["terracotta"]
    discs = [op for op in ops if op.kind == "circle" and op.args.get("stroke") == "#ffffff"]
    numbers = {}
    for op in ops:
        if op.kind == "text" and op.args["text"].isdigit():
            numbers[(round(op.args["x"] + op.args["w"] / 2, 2), round(op.args["y"] + op.args["h"] / 2, 2))] = int(op.args["text"])
    def number(disc):
        return numbers.get((round(disc.args["cx"], 2), round(disc.args["cy"], 2)))
    _, dashed = card_rects(ops, page_h(paper))
    small = [d for d in dashed if d[2] < max(x[2] for x in dashed) - 0.01]
    assert small, "no hidden card in the step strip"
    for x, y, w, h in dashed:
        assert any(abs(d.args["cx"] - (x + w / 2)) < 0.01 and abs(d.args["cy"] - (y + h / 2)) < 0.01 and number(d)
                   for d in discs), f"[{lang}, {paper}] the dashed outline at ({x:.1f}, {y:.1f}) has no step number"
    # the rows of step discs over the panels: one row per step, each ending on its step
    rows = defaultdict(list)
    for d in discs:
        if number(d) is not None and d.args["cy"] < min(y for _, y, _, _ in small):
            rows[round(d.args["cy"], 2)].append(d)
    row = max(rows.values(), key=len)  # the strip's row (the large drawing has one disc per hidden card)
    row.sort(key=lambda d: d.args["cx"])
    full = [d for d in row if d.args["fill"] in ("terracotta", terracotta)]
    steps = [number(d) for d in full]
    assert steps == list(range(1, len(steps) + 1)) and len(steps) >= 3, steps
    for k, cur in enumerate(full, start=1):
        before = [d for d in row if d.args["cx"] < cur.args["cx"] and d.args["fill"] not in ("terracotta", terracotta)]
        before = [d for d in before if not full[:k - 1] or d.args["cx"] > full[k - 2].args["cx"]]
        assert [number(d) for d in before] == list(range(1, k)), (lang, paper, k, [number(d) for d in before])


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_setup_pages_open_with_the_header_band_of_the_rules_page(sheets, lang, paper):
    width = {"a4": 210, "letter": 215.9}[paper]
    pages = sheets[(lang, paper)]
    for comp in ("rules", "setup"):
        for n, ops in enumerate(pages[comp], start=1):
            # the band: a panel inside the printable area, 5 mm from the paper's edges
            assert ops[0].kind == "group" and ops[0].args["clip_shape"] == "rounded", f"{comp} page {n}"
            band = ops[0].children[0]
            assert band.kind == "rect" and band.args["x"] == 5 and band.args["y"] == 5, f"{comp} page {n}"
            assert band.args["w"] == pytest.approx(width - 10) and 15 <= band.args["h"] <= 35, f"{comp} page {n}"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_sticker_sheet_has_a_title_and_a_one_line_instruction_above_the_stickers(sheets, lang, paper):
    strings = dict(_strings(lang))
    pages = sheets[(lang, paper)]
    assert "stickers header" in pages, "the sticker sheet has no header"
    (ops,), (block,) = pages["stickers header"], pages["stickers blocks"]
    texts = {op.args["text"]: op.args for op in ops if op.kind == "text"}
    assert strings["component.stickers"] in texts
    how = texts[strings["stickers.how"]]
    assert how.get("max_lines") == 1
    clear = block[1] - 12  # crop marks and the page label run up to 12 mm above the stickers
    assert all(a["y"] + a["h"] <= clear for a in texts.values()), "header text runs into the stickers' marks"
    for fam in ("jackal", "cat", "crocodile", "falcon", "hippopotamus", "bull"):
        assert strings[f"family.{fam}.god"] in texts  # which symbol is which family


# --------------------------------------------------------------------------- balance
MAX_BLANK_MM = 25  # the tallest band of empty paper allowed across a rules or setup page


@pytest.fixture(scope="module")
def built(shared_kit):
    return shared_kit(*HAPY_EVERY_LANGUAGE).folder


def longest_blank_band(path, page: int, top_mm: float, margin_mm: float = 12.0) -> float:
    """The tallest run of page rows, in mm, with nothing printed between the side margins
    (below ``top_mm``, above the bottom margin), read from a 72 dpi raster."""
    import pypdfium2 as pdfium

    img = pdfium.PdfDocument(path)[page].render(scale=1).to_pil().convert("L")
    px, (w, h) = img.load(), img.size
    x0, x1 = round(margin_mm * MM_PX), w - round(margin_mm * MM_PX)
    run = best = 0
    for y in range(round(top_mm * MM_PX), h - round(margin_mm * MM_PX)):
        run = run + 1 if all(px[x, y] > 240 for x in range(x0, x1, 2)) else 0
        best = max(best, run)
    return best / MM_PX


MM_PX = 72 / 25.4


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_no_page_leaves_a_wide_band_of_empty_paper(built, lang, paper):
    """The review found 60 mm empty above the rules' legend and the setup pyramid's last
    quarter empty: the rules flow at the size that fills their columns, the pyramid
    page shares its spare height out."""
    path = built / f"hapy-{lang}-{paper}-sheets.pdf"
    for page, what in enumerate(("rules", "setup pyramid", "exploration layouts")):
        blank = longest_blank_band(path, page, top_mm=40)
        assert blank < MAX_BLANK_MM, f"{what} [{lang}, {paper}]: {blank:.0f} mm of empty paper"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_sticker_sheet_fills_the_paper_above_and_below_the_stickers(built, lang, paper):
    """The imposition centres the stickers on the paper: the review found 42 mm of white
    under the header band and the bottom 45 % of the page empty. The key is centred
    above them and the families' cards with their stickers below, so no band of empty
    paper below the header band is much taller than a sticker row's marks and gaps."""
    path = built / f"hapy-{lang}-{paper}-sheets.pdf"
    blank = longest_blank_band(path, 3, top_mm=26)
    assert blank < 38, f"sticker sheet [{lang}, {paper}]: {blank:.0f} mm of empty paper"


# --------------------------------------------------------------------------- wording
def _strings(lang: str):
    doc = yaml.safe_load((shipped_games_dir() / "hapy" / "locales" / f"{lang}.yaml").read_text(encoding="utf-8"))

    def walk(node, key=""):
        if isinstance(node, dict):
            for k, v in node.items():
                yield from walk(v, f"{key}.{k}" if key else str(k))
        else:
            yield key, str(node)

    return list(walk(doc))


TU = re.compile(r"\b(tu|te|ta|ton|tes|toi)\b"  # tutoiement pronouns and possessives
                r"|(?:^|[.!?:]\s+|\*\*)(Choisis|Sois|Prends|Pose|Garde|Retrouve|Commence|Ajoute|Passe|Nomme|Mélange)\b"
                r"|\b\w*[^z\W]-(la|le|les|lui|toi)\b",  # ajoute-la, pose-les (not ajoutez-la)
                re.IGNORECASE)


def test_french_hapy_strings_say_vous_never_tu():
    strings = _strings("fr")
    bad = [(key, m.group(0)) for key, text in strings for m in TU.finditer(text)]
    assert not bad, f"tutoiement in the French Hâpy strings: {bad}"
    assert any(re.search(r"\bvous\b", text, re.IGNORECASE) for _, text in strings)


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_stay_with_their_words(lang):
    """A number and the word it counts are joined by a no-break space (U+00A0), so a
    line never ends on "36" with "cards" on the next."""
    bad = [(key, m.group(0)) for key, text in _strings(lang)
           for m in re.finditer(r"\d [^\W\d_]+|\b(?:n°|number|nummer) \d", text)]
    assert not bad, f"{lang}: plain spaces after numbers: {bad}"
