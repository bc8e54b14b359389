"""What a print review of the O, Farao! kit found, held as tests on the rendered layout
(the ops every face and sheet is drawn from, fitted as the build fits them) and on the
built PDFs: board badges on one line and clear of the path, the seams of the tiled
board between the number discs, a legend at one size, a Total cell per player, a die
net whose lines say what its legend says, corner discs inside the card frame, aids at
7 pt or more, numbers kept with their words, and no command line on the rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from kitchecks import read_manifest, render_kits
from textlayer import page_texts, text_runs

from cardgen.impose.papers import PAPERS_MM
from cardgen.impose.tiling import plan_tiles
from cardgen.load.game import load_game

LANGS = ("en", "fr", "nl")
PAPERS = ("a4", "letter")
NB = "\u00a0"


@pytest.fixture(scope="module")
def rendered():
    """(builder, {lang: LangKit}) for every language, both papers, no files written."""
    return render_kits(load_game("farao"), LANGS, PAPERS)


@pytest.fixture(scope="module")
def kit(shared_kit) -> Path:
    return shared_kit("farao").folder


def walk(ops):
    """Every op, groups opened, in drawing order (group transforms are not applied:
    the checks below only look at ops outside groups)."""
    for op in ops:
        yield op
        yield from walk(op.children)


def strings(builder, lang: str) -> dict[str, str]:
    return builder.game.strings[lang]


def bbox(op) -> tuple[float, float, float, float] | None:
    a = op.args
    if op.kind == "rect":
        return a["x"], a["y"], a["x"] + a["w"], a["y"] + a["h"]
    if op.kind == "circle":
        return a["cx"] - a["r"], a["cy"] - a["r"], a["cx"] + a["r"], a["cy"] + a["r"]
    if op.kind == "ellipse":
        return a["cx"] - a["rx"], a["cy"] - a["ry"], a["cx"] + a["rx"], a["cy"] + a["ry"]
    if op.kind == "polygon":
        xs = [p[0] for p in a["points"]]
        ys = [p[1] for p in a["points"]]
        return min(xs), min(ys), max(xs), max(ys)
    return None


def filled(op) -> bool:
    return op.kind in ("rect", "circle", "ellipse", "polygon") and op.args.get("fill") not in (None, "none")


# --------------------------------------------------------------------------- the board
def badge_ops(builder, kit, lang):
    s = strings(builder, lang)
    texts = {s["board.double"].format(n=3, rows=3), s["board.tall"].format(n=7, rows=3)}
    return [op for op in kit.boards["board"].ops if op.kind == "text" and op.args["text"] in texts]


@pytest.mark.parametrize("lang", LANGS)
def test_the_special_plateaus_badges_are_one_line_at_full_size(rendered, lang):
    builder, kits = rendered
    badges = badge_ops(builder, kits[lang], lang)
    assert len(badges) == 2
    for op in badges:
        fitted = builder.text.fit_op(op)
        assert fitted.fits and len(fitted.lines) == 1, (lang, fitted.lines)
        assert fitted.size == op.args["size"] == 10, (lang, op.args["text"], fitted.size)


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_of_the_track_shows_its_arrow(rendered, lang):
    """One arrowhead per step, and nothing drawn later (a badge, a stone) over the middle
    of any of them: the 7 → 8 arrow used to sit under the plateau-7 badge."""
    builder, kits = rendered
    ops = [op for op in kits[lang].boards["board"].ops]
    terracotta = builder.game.palette["terracotta"]
    heads = [i for i, op in enumerate(ops)
             if op.kind == "polygon" and op.args.get("fill") in ("terracotta", terracotta) and len(op.args["points"]) == 3]
    assert len(heads) == builder.game.data["board"]["plateaus"] - 1
    for i in heads:
        pts = ops[i].args["points"]
        cx, cy = sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3
        for later in ops[i + 1:]:
            box = bbox(later)
            if box and filled(later):
                assert not (box[0] < cx < box[2] and box[1] < cy < box[3]), \
                    f"[{lang}] arrowhead at ({cx:.1f}, {cy:.1f}) covered by {later.kind} {box}"


def test_the_seams_of_the_tiled_board_pass_between_the_number_discs(rendered):
    builder, kits = rendered
    board = builder.game.component("board")
    discs = [op.args for op in kits["en"].boards["board"].ops if op.kind == "circle" and op.args["r"] == 7.5]
    assert len(discs) == builder.game.data["board"]["plateaus"]
    for paper in PAPERS:
        plan = plan_tiles(PAPERS_MM[paper], board.size, board.bleed, board.overlap)
        assert plan.seams_x, paper
        for seam in plan.seams_x:
            for d in discs:
                assert abs(seam - d["cx"]) > d["r"] + 1, f"{paper}: the seam at x={seam} cuts the disc at {d['cx']}"
        for seam in plan.seams_y:
            for d in discs:
                assert abs(seam - d["cy"]) > d["r"] + 1, f"{paper}: the seam at y={seam} cuts the disc at {d['cy']}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_of_the_board_runs_across_a_seam_of_the_tiling(rendered, lang):
    """Every line of every text on the board (the caption, the badges, the title…), as
    fitted, ends 2 mm or more short of each seam of the A4 and Letter tilings, and so
    does each badge's pill."""
    builder, kits = rendered
    board = builder.game.component("board")
    ops = kits[lang].boards["board"].ops
    spans = []
    for op in ops:
        if op.kind != "text":
            continue
        a = op.args
        fitted = builder.text.fit_op(op)
        measure = builder.text.measure(builder.text.font(a.get("font")))
        for line in fitted.lines:
            lw = measure(line, fitted.size)
            x0 = {"left": a["x"], "center": a["x"] + (a["w"] - lw) / 2, "right": a["x"] + a["w"] - lw}[a.get("align", "left")]
            spans.append((line, x0, x0 + lw))
    for t in badge_ops(builder, kits[lang], lang):
        pill = next(op for op in ops if op.kind == "rect" and op.args.get("r") and op.args["x"] <= t.args["x"] <= op.args["x"] + op.args["w"]
                    and abs(op.args["y"] - t.args["y"]) < 0.01)
        spans.append(("badge " + t.args["text"], pill.args["x"], pill.args["x"] + pill.args["w"]))
    for paper in PAPERS:
        plan = plan_tiles(PAPERS_MM[paper], board.size, board.bleed, board.overlap)
        for seam in plan.seams_x:
            for line, x0, x1 in spans:
                assert x1 < seam - 2 or x0 > seam + 2, f"[{lang}] {paper}: {line!r} spans {x0:.1f}–{x1:.1f} across the seam at x={seam}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_pharaohs_caption_stays_inside_one_piece_of_the_tiled_board(rendered, lang):
    """The plateau-11 caption ran across the B1/C1 seam ("…door elka|ar") in EN and NL:
    every line of it, as fitted, must end 2 mm or more short of every seam of the A4
    and Letter tilings, and stay centred over the Pharaoh's plateau."""
    builder, kits = rendered
    board = builder.game.component("board")
    caption = strings(builder, lang)["board.last"]
    ops = [op for op in kits[lang].boards["board"].ops if op.kind == "text" and op.args["text"] == caption]
    assert len(ops) == 1
    op = ops[0]
    a = op.args
    fitted = builder.text.fit_op(op)
    assert fitted.fits and len(fitted.lines) <= 2, (lang, fitted.lines)
    measure = builder.text.measure(builder.text.font(a["font"]))
    centre = a["x"] + a["w"] / 2
    apex = [d for d in kits[lang].boards["board"].ops if d.kind == "circle" and d.args["r"] == 7.5][-1]
    assert abs(centre - (apex.args["cx"] - 10.5 + 35)) < 0.5  # over the plateau's middle
    spans = [(centre - measure(line, fitted.size) / 2, centre + measure(line, fitted.size) / 2) for line in fitted.lines]
    for paper in PAPERS:
        plan = plan_tiles(PAPERS_MM[paper], board.size, board.bleed, board.overlap)
        for seam in plan.seams_x:
            for x0, x1 in spans:
                assert x1 < seam - 2 or x0 > seam + 2, f"[{lang}] {paper}: {caption!r} spans {x0:.1f}–{x1:.1f} across the seam at x={seam}"


# --------------------------------------------------------------------------- the rules sheet
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("paper", PAPERS)
def test_the_legend_labels_are_one_line_each_at_one_size(rendered, lang, paper):
    builder, kits = rendered
    s = strings(builder, lang)
    shorts = {s[f"special.{sp['id']}.short"] for sp in builder.game.data["specials"]}
    page = kits[lang].sheets[("rules", paper)][0]  # the legend is on page one
    labels = [op for op in walk(page.ops) if op.kind == "text"
              and (re.fullmatch(r".*×\d+", op.args["text"]) or op.args["text"] in shorts)]
    assert len(labels) >= len(builder.game.data["building"]) + len(shorts)
    fitted = [builder.text.fit_op(op) for op in labels]
    assert all(f.fits and len(f.lines) == 1 for f in fitted), [f.lines for f in fitted]
    assert {f.size for f in fitted} == {8}, sorted({(op.args["text"], f.size) for op, f in zip(labels, fitted)})
    shown = " ".join(op.args["text"] for op in labels)
    for name in shorts:
        assert name in shown


def test_the_tax_collectors_short_label_names_the_collector(rendered):
    builder, _ = rendered
    for lang in LANGS:
        s = strings(builder, lang)
        assert s["special.tax_collector.short"] == s["special.tax_collector.name"], lang


def test_the_end_card_has_one_name_in_rules_legend_and_card(rendered):
    builder, _ = rendered
    for lang in LANGS:
        s = strings(builder, lang)
        name = s["special.end.name"]
        assert s["special.end.short"] == name
        for key in ("rules.goal", "rules.setup", "rules.last", "rules.end", "board.last"):
            assert name.lower() in s[key].lower(), (lang, key, name)
        # and no other name for it in anything the players read
        others = {"en": ("Game end",), "fr": ("Fin de partie",), "nl": ("Speleinde",)}[lang]
        for key, text in s.items():
            for other in others:
                assert other not in text, (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_the_printed_rules_have_no_command_line_and_the_variant_heading_is_one_line(rendered, kit, lang):
    builder, kits = rendered
    s = strings(builder, lang)
    for key, text in s.items():
        if key.startswith(("rules.", "choice.", "aid.", "value.", "pad.", "crafts.", "board.", "special.")):
            assert "cardgen" not in text and "--variant" not in text, (lang, key)
    text = "\n".join(page_texts(kit / f"farao-{lang}-a4-sheets.pdf"))
    assert "cardgen" not in text and "--variant" not in text
    # the heading: one line in its column (on whichever page the rules reach it)
    flows = [op for page in kits[lang].sheets[("rules", "a4")] for op in page.ops if op.kind == "flow"]
    heading = s["rules.variant_h"]
    lines = [l.text for flow in flows for l in builder.text.flow_op(flow).lines]
    assert heading in lines, (heading, [l for l in lines if l and l in heading])


# --------------------------------------------------------------------------- the score pad
@pytest.mark.parametrize("paper", PAPERS)
def test_the_score_pads_total_row_has_a_cell_per_player(rendered, paper):
    builder, kits = rendered
    s = strings(builder, "en")
    (page,) = kits["en"].sheets[("scoring", paper)]
    ops = list(page.ops)
    (label,) = [op for op in ops if op.kind == "text" and op.args["text"] == s["pad.total"]]
    top, bottom = label.args["y"], label.args["y"] + label.args["h"]
    (row,) = [i for i, op in enumerate(ops) if op.kind == "rect" and op.args.get("fill") not in (None, "none")
              and abs(op.args["y"] - top) < 0.01 and abs(op.args["h"] - label.args["h"]) < 0.01]
    dividers = {round(op.args["x1"], 2) for op in ops[row + 1:]
                if op.kind == "line" and op.args["x1"] == op.args["x2"]
                and min(op.args["y1"], op.args["y2"]) <= top + 0.01 and max(op.args["y1"], op.args["y2"]) >= bottom - 0.01}
    players = builder.game.players[1]
    assert len(dividers) == players, "a line before each player's column, drawn over the Total row"


# --------------------------------------------------------------------------- the die net
def segments(op):
    a = op.args
    if op.kind == "line":
        return [((a["x1"], a["y1"]), (a["x2"], a["y2"]))]
    if op.kind == "rect":
        x, y, w, h = a["x"], a["y"], a["w"], a["h"]
        pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        return list(zip(pts, pts[1:] + pts[:1]))
    if op.kind == "polygon":
        pts = [tuple(p) for p in a["points"]]
        return list(zip(pts, pts[1:] + (pts[:1] if a.get("closed", True) else [])))
    return []


def overlaps(s, t, eps=0.01) -> bool:
    """Two segments on one line sharing more than a point."""
    (ax, ay), (bx, by) = s
    (cx, cy), (dx, dy) = t
    def cross(px, py):
        return (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    if abs(cross(cx, cy)) > eps or abs(cross(dx, dy)) > eps:
        return False
    if abs(bx - ax) >= abs(by - ay):
        lo, hi = sorted((ax, bx))
        lo2, hi2 = sorted((cx, dx))
    else:
        lo, hi = sorted((ay, by))
        lo2, hi2 = sorted((cy, dy))
    return min(hi, hi2) - max(lo, lo2) > eps


@pytest.mark.parametrize("paper", PAPERS)
def test_the_die_net_is_cut_on_solid_lines_and_folded_on_dashed_ones(rendered, paper):
    builder, kits = rendered
    (page,) = kits["en"].sheets[("crafts", paper)]
    ops = list(page.ops)
    faces = [op for op in ops if op.kind == "rect" and op.args.get("fill") == "#ffffff" and op.args["w"] == op.args["h"] == 25]
    assert len(faces) == 6
    x0 = min(f.args["x"] for f in faces) - 7
    y0 = min(f.args["y"] for f in faces) - 7
    x1 = max(f.args["x"] + 25 for f in faces) + 7
    y1 = max(f.args["y"] + 25 for f in faces) + 7

    def inside(seg):
        return all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in seg)

    stroked = [op for op in ops if op.args.get("stroke") not in (None, "none") and segments(op)]
    folds = [s for op in stroked if op.args.get("dash") for s in segments(op) if inside(s)]
    cuts = [s for op in stroked if not op.args.get("dash") for s in segments(op) if inside(s)]
    # 5 folds between the six faces and one where each of the 7 glue tabs meets its face
    assert len(folds) == 12, len(folds)
    for c in cuts:
        for f in folds:
            assert not overlaps(c, f), f"a solid (cut) line {c} runs along the fold {f}"
    # every edge of every face is drawn, as a cut or as a fold
    for face in faces:
        for edge in segments(face):
            assert any(overlaps(edge, s) for s in folds + cuts), edge


# --------------------------------------------------------------------------- the cards
def test_the_card_corner_discs_stay_inside_the_inner_frame(rendered):
    builder, kits = rendered
    comp = builder.game.component("cards")
    w, h = comp.size
    for (cid, card), face in kits["en"].fronts.items():
        if cid != "cards":
            continue
        ops = list(face.ops)
        frame = [op.args for op in ops if op.kind == "rect" and op.args.get("stroke") not in (None, "none")
                 and op.args.get("fill") in (None, "none") and op.args["w"] < w - 6]
        inner = min(frame, key=lambda a: a["w"])  # the double frame's inner line
        for op in ops:
            if op.kind == "circle" and op.args["cy"] < 20 and op.args.get("stroke"):
                a = op.args
                reach = a["r"] + a.get("stroke_width", 0) / 2
                margin = inner.get("stroke_width", 0) / 2 + 0.5
                assert a["cx"] - reach >= inner["x"] + margin, (card, a)
                assert a["cy"] - reach >= inner["y"] + margin, (card, a)
                assert a["cx"] + reach <= inner["x"] + inner["w"] - margin, (card, a)


@pytest.mark.parametrize("lang", LANGS)
def test_the_worked_sum_sets_its_operators_in_the_bold_sans(rendered, lang):
    """The display face's + × = are hairlines beside its heavy digits: in the worked sum
    of the scoring sheet and of the aid's back the operators are in the bold sans, the
    numbers in the display face, the pieces in order left to right without touching."""
    builder, kits = rendered
    faces = [kits[lang].sheets[("scoring", paper)][0] for paper in PAPERS] + [kits[lang].backs[("aids", "aid")]]
    for face in faces:
        ops = [op for op in face.ops if op.kind == "text" and op.args["text"] in ("+", "×", "=")]
        assert [op.args["text"] for op in ops] == ["+", "+", "×", "="], [op.args["text"] for op in ops]
        assert {builder.text.font(op.args["font"]) for op in ops} == {builder.text.font("bold")}
        row = [op for op in face.ops if op.kind == "text" and op.args["y"] == ops[0].args["y"]]
        assert "".join(op.args["text"] for op in row) == "(2+3+4)×3=27"
        assert builder.text.font(row[0].args["font"]) == builder.text.font("title")
        inks = []
        for op in row:
            a = op.args
            fitted = builder.text.fit_op(op)
            assert fitted.lines == (a["text"],) and fitted.size == a["size"]
            width = builder.text.measure(builder.text.font(a["font"]))(a["text"], fitted.size)
            inks.append((a["x"] + (a["w"] - width) / 2, a["x"] + (a["w"] + width) / 2))
        for (_l0, r0), (l1, _r1) in zip(inks, inks[1:]):
            assert r0 <= l1 + 0.01, (lang, inks)


@pytest.mark.parametrize("lang", LANGS)
def test_the_crafts_page_draws_the_boards_pieces_across_its_foot(rendered, lang):
    """The bottom third of the crafts page was empty: the board's pieces, as the A4 and
    Letter tilings cut them, are drawn across its foot, and both instruction flows end
    above them at a legible size."""
    builder, kits = rendered
    board = builder.game.component("board")
    for paper in PAPERS:
        plan = plan_tiles(PAPERS_MM[paper], board.size, board.bleed, board.overlap)
        (page,) = kits[lang].sheets[("crafts", paper)]
        h = PAPERS_MM[paper][1]
        labels = [op for op in page.ops if op.kind == "text" and re.fullmatch(r"[A-Z]+\d+", op.args["text"])]
        assert [op.args["text"] for op in labels] == [t.label for t in plan.tiles], paper
        assert all(op.args["y"] + op.args["h"] > h - 10 - 5 for op in labels), "the pieces are not at the foot of the page"
        assert all(op.args["y"] > h * 2 / 3 for op in labels)
        for flow in (op for op in page.ops if op.kind == "flow"):
            result = builder.text.flow_op(flow)
            assert result.fits and result.size >= 8, (lang, paper, result.size)
            assert flow.args["y"] + flow.args["h"] < min(op.args["y"] for op in labels), (lang, paper)


# --------------------------------------------------------------------------- the aids
@pytest.mark.parametrize("lang", LANGS)
def test_every_text_on_the_player_aids_is_at_least_7_pt(kit, lang):
    doc = read_manifest(kit)
    entry = next(f for f in doc["files"] if f["file"] == f"farao-{lang}-printshop-63x88mm.pdf")
    pages = [p["page"] for p in entry["pages"] if p["component"] == "aids"][:2]  # a front and its back
    assert len(pages) == 2
    for n in pages:
        runs = text_runs(kit / entry["file"], n - 1)  # sizes as printed, the face's placing scale applied
        assert runs
        small = [(r.size, r.text) for r in runs if r.size < 7 - 0.01]
        assert not small, f"[{lang}] page {n}: {small}"


def _visual_lines(builder, ops):
    """The lines as drawn, text ops and flows alike, each as (text, next line's text)."""
    out = []
    for op in ops:
        if op.kind == "text":
            lines = list(builder.text.fit_op(op).lines)
        elif op.kind == "flow":
            rows: dict[tuple[float, bool], list] = {}
            mid = op.args["x"] + op.args["w"] / 2
            cols = int(op.args.get("columns") or 1)
            for l in builder.text.flow_op(op).lines:
                rows.setdefault((l.x >= mid if cols > 1 else False, round(l.baseline, 2)), []).append(l)
            lines = [" ".join(x.text for x in sorted(v, key=lambda x: x.x)) for _, v in sorted(rows.items())]
        else:
            continue
        out.extend(zip(lines, lines[1:]))
    return out


NUMBER_END = re.compile(r"(^|\s)\d+\+?$")
NUMBER_START = re.compile(r"^\d+\+?(\s|$)")
LONE_NUMBER_START = re.compile(r"^\d+\+?([,;:!?)]|\.?$)")  # a number that ends its phrase (not "1. Cash")
LABEL_END = re.compile(r"(?i)(plateau|number|nummer|n°|step|stap|étape)$")  # words a number belongs to
WORD_END = re.compile(r"[^\W\d_]$")
WORD_START = re.compile(r"^[^\W\d_]")


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_stay_with_their_words_on_the_aids_and_the_rules(rendered, lang):
    """"Tax collector: 1 / card" and "plateau / 7" were split at the end of a line. A
    number may start a line with the word it counts ("exactly / 7 cards"), never alone
    ("to / 7.") nor away from the word it belongs to ("plateau / 7")."""
    builder, kits = rendered
    faces = [kits[lang].fronts[("aids", "aid")], kits[lang].backs[("aids", "aid")]]
    faces += [f for paper in PAPERS for comp in ("rules", "scoring", "crafts") for f in kits[lang].sheets[(comp, paper)]]
    faces += [kits[lang].boards["board"]]
    for face in faces:
        for line, nxt in _visual_lines(builder, face.ops):
            line, nxt = line.strip(), nxt.strip()
            assert not (NUMBER_END.search(line) and WORD_START.search(nxt)), (lang, line, nxt)
            assert not (WORD_END.search(line) and (LONE_NUMBER_START.search(nxt)
                                                   or (LABEL_END.search(line) and NUMBER_START.search(nxt)))), \
                (lang, line, nxt)


@pytest.mark.parametrize("lang", LANGS)
def test_the_aid_fronts_last_lines_keep_clear_of_the_inner_frame(rendered, lang):
    """The plateau lines at the foot of the aid front were 1.8 mm above the frame's inner
    line (issue 20, nits; their line boxes 1.4 mm): now their ink is about 3 mm above it,
    their line boxes, descenders included, 2.5 mm or more."""
    builder, kits = rendered
    w, h = builder.game.component("aids").size
    ops = list(kits[lang].fronts[("aids", "aid")].ops)
    frame = [op.args for op in ops if op.kind == "rect" and op.args.get("stroke") not in (None, "none")
             and op.args.get("fill") in (None, "none")]
    inner = min(frame, key=lambda a: a["w"])  # the double frame's inner line
    foot = max((op for op in ops if op.kind == "text"), key=lambda op: op.args["y"])
    fitted = builder.text.fit_op(foot)
    mm = 25.4 / 72
    lines_h = fitted.size * mm + (len(fitted.lines) - 1) * fitted.leading * mm
    text_bottom = foot.args["y"] + (foot.args["h"] + lines_h) / 2  # valign middle
    assert inner["y"] + inner["h"] - text_bottom >= 2.5, (lang, inner, text_bottom)
