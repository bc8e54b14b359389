"""Imposition geometry: centring, margins, crop marks, duplex mirroring, pagination."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.base.errors import CardgenError
from cardgen.impose.duplex import back_slots
from cardgen.impose.grid import SheetPlan, Slot, paginate, plan_sheet
from cardgen.impose.marks import EDGE_CLEARANCE, MIN_MARK, TICK_CLEAR, TICK_INSET, Mark, bleed_ticks
from cardgen.impose.papers import PAPERS_MM

TOL = 1e-9
PAPERS = sorted(PAPERS_MM)
DEFAULT_MARGIN = inspect.signature(plan_sheet).parameters["min_margin"].default

# (item size, bleed) chosen so that one example uses each strategy on both papers.
POKER = ((63.0, 88.0), 3.0)  # butted 3x3 on both papers
TAROT = ((70.0, 120.0), 3.0)  # gutter on both papers
EXAMPLES = [POKER, TAROT, ((12.0, 12.0), 1.5), ((40.0, 40.0), 3.0), ((44.0, 68.0), 3.0)]


def plan(paper: str, item, bleed, **kw) -> SheetPlan:
    return plan_sheet(PAPERS_MM[paper], item, bleed, paper_name=paper, **kw)


def bleed_box(p: SheetPlan, s: Slot) -> tuple[float, float, float, float]:
    w, h = p.item
    return (s.x - p.bleed, s.y - p.bleed, s.x + w + p.bleed, s.y + h + p.bleed)


def trim_box(p: SheetPlan, s: Slot) -> tuple[float, float, float, float]:
    w, h = p.item
    return (s.x, s.y, s.x + w, s.y + h)


def overlaps_open(a, b) -> bool:
    """Interiors overlap (touching edges is fine: butted items share cut lines)."""
    return a[0] < b[2] - TOL and b[0] < a[2] - TOL and a[1] < b[3] - TOL and b[1] < a[3] - TOL


def segment_touches(m: Mark, r) -> bool:
    """An axis-aligned segment meets a closed rectangle (touching counts)."""
    lo_x, hi_x = sorted((m.x1, m.x2))
    lo_y, hi_y = sorted((m.y1, m.y2))
    return lo_x <= r[2] and r[0] <= hi_x and lo_y <= r[3] and r[1] <= hi_y


def block_trim(p: SheetPlan) -> tuple[float, float, float, float]:
    boxes = [trim_box(p, s) for s in p.slots]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def same_set(a, b) -> bool:
    """Every value of a is within TOL of one in b and vice versa."""
    return all(any(abs(x - y) <= TOL for y in b) for x in a) and all(
        any(abs(x - y) <= TOL for y in a) for x in b
    )


def check_invariants(p: SheetPlan, min_margin: float = DEFAULT_MARGIN, trim_margin: float | None = None) -> None:
    """Everything that must hold for any plan, whatever the sizes."""
    pw, ph = p.paper
    w, h = p.item
    assert p.per_sheet == p.cols * p.rows == len(p.slots) >= 1
    assert p.gutter in (0.0, 2 * p.bleed)
    # Row-major indices.
    for i, s in enumerate(p.slots):
        assert (s.index, s.col, s.row, s.rotation) == (i, i % p.cols, i // p.cols, 0)
    # Centred exactly.
    left, top, right, bottom = block_trim(p)
    assert left == pytest.approx(pw - right, abs=TOL)
    assert top == pytest.approx(ph - bottom, abs=TOL)
    # Printed area (every slot plus its bleed) inside the margins; or, only in a direction
    # where that costs a row or column, the trim inside trim_margin, the outer bleed
    # running into the printer's blank band.
    for lo, hi, length, n, size in ((left, right, pw, p.cols, w), (top, bottom, ph, p.rows, h)):
        if lo - p.bleed >= min_margin - TOL:
            assert hi + p.bleed <= length - min_margin + TOL
        else:
            assert trim_margin is not None and lo >= trim_margin - TOL
            assert best_count(length - 2 * min_margin, size, p.bleed, p.gutter) < n
    # Items never overlap; with a gutter their bleeds do not either.
    for i, a in enumerate(p.slots):
        for b in p.slots[i + 1 :]:
            assert not overlaps_open(trim_box(p, a), trim_box(p, b))
            if p.gutter:
                assert not overlaps_open(bleed_box(p, a), bleed_box(p, b))
    # Cut lines are exactly the trim edges.
    assert p.cut_xs == tuple(sorted(set(p.cut_xs)))
    assert p.cut_ys == tuple(sorted(set(p.cut_ys)))
    # (Within TOL: in a butted grid x0 + c*w + w and x0 + (c+1)*w may differ by an ulp.)
    assert same_set(p.cut_xs, [s.x for s in p.slots] + [s.x + w for s in p.slots])
    assert same_set(p.cut_ys, [s.y for s in p.slots] + [s.y + h for s in p.slots])
    for cuts in (p.cut_xs, p.cut_ys):  # no near-duplicate cut lines
        assert all(b - a > 1e-7 for a, b in zip(cuts, cuts[1:]))
    expected_x = p.cols + 1 if p.gutter == 0 else 2 * p.cols
    expected_y = p.rows + 1 if p.gutter == 0 else 2 * p.rows
    assert (len(p.cut_xs), len(p.cut_ys)) == (expected_x, expected_y)
    # Marks: on the paper, clear of the edge, never over any item's bleed.
    for m in p.marks:
        assert m.x1 == m.x2 or m.y1 == m.y2
        for v, lim in ((m.x1, pw), (m.x2, pw), (m.y1, ph), (m.y2, ph)):
            assert EDGE_CLEARANCE - TOL <= v <= lim - EDGE_CLEARANCE + TOL
        assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= 1.0 - TOL
        for s in p.slots:
            assert not segment_touches(m, bleed_box(p, s)), (m, s)


def expected_mark_sides(p: SheetPlan, gap: float = 1.0):
    """The cut lines that get a crop mark above/below and left/right: all of them where
    the margin beyond the bleed has room for a mark of MIN_MARK before the printer's
    blank band (EDGE_CLEARANCE), none where it has not (the bleed ticks show them)."""
    left, top, right, bottom = block_trim(p)
    room_y = top - p.bleed - gap - EDGE_CLEARANCE
    room_x = left - p.bleed - gap - EDGE_CLEARANCE
    pw, ph = p.paper
    xs = {x for x in p.cut_xs if EDGE_CLEARANCE - 1e-9 <= x <= pw - EDGE_CLEARANCE + 1e-9}
    ys = {y for y in p.cut_ys if EDGE_CLEARANCE - 1e-9 <= y <= ph - EDGE_CLEARANCE + 1e-9}
    return (xs if room_y + 1e-9 >= MIN_MARK else set(), ys if room_x + 1e-9 >= MIN_MARK else set())


def marks_by_side(p: SheetPlan):
    left, top, right, bottom = block_trim(p)
    above = {m.x1 for m in p.marks if m.x1 == m.x2 and max(m.y1, m.y2) < top}
    below = {m.x1 for m in p.marks if m.x1 == m.x2 and min(m.y1, m.y2) > bottom}
    lefts = {m.y1 for m in p.marks if m.y1 == m.y2 and max(m.x1, m.x2) < left}
    rights = {m.y1 for m in p.marks if m.y1 == m.y2 and min(m.x1, m.x2) > right}
    return above, below, lefts, rights


# --- the worked examples -------------------------------------------------------


def test_poker_cards_a4_butted_3x3():
    p = plan("a4", *POKER)
    assert (p.cols, p.rows, p.gutter) == (3, 3, 0.0)
    assert p.slots[0].x == pytest.approx((210 - 189) / 2)
    assert p.slots[0].y == pytest.approx((297 - 264) / 2)


def test_default_margin_is_4mm():
    assert DEFAULT_MARGIN == 4.0


def test_poker_cards_letter_butted_3x3_with_default_margin():
    # 3 rows are 264 mm of trim + 2 * 3 mm bleed = 270 mm; Letter's printable height
    # with the default 4 mm margins is 271.4 mm, so 3 rows fit.
    p = plan("letter", *POKER)
    assert (p.cols, p.rows, p.gutter) == (3, 3, 0.0)
    assert p.slots[0].x == pytest.approx((215.9 - 189) / 2)
    assert p.slots[0].y == pytest.approx((279.4 - 264) / 2)
    check_invariants(p)


def test_poker_cards_letter_butted_3x2_with_5mm_margin():
    # With 5 mm margins the printable height is 269.4 mm < 270 mm, so the rule
    # "bleed inside the margins" allows only 2 rows. The 3x3 grid needs a margin of
    # at most 4.7 mm (or bleed <= 2.7).
    p = plan("letter", *POKER, min_margin=5.0, trim_margin=None)
    assert (p.cols, p.rows, p.gutter) == (3, 2, 0.0)
    check_invariants(p, min_margin=5.0, trim_margin=None)
    p = plan("letter", *POKER, min_margin=4.7, trim_margin=None)
    assert (p.cols, p.rows, p.gutter) == (3, 3, 0.0)
    check_invariants(p, min_margin=4.7, trim_margin=None)
    assert plan("letter", (63.0, 88.0), 2.7, min_margin=5.0, trim_margin=None).rows == 3
    # letting the bleed run into the printer's band, 3 rows fit: the trim is 7.7 mm from the edges
    p = plan("letter", *POKER, min_margin=5.0, trim_margin=EDGE_CLEARANCE)
    assert (p.cols, p.rows, p.gutter) == (3, 3, 0.0)
    check_invariants(p, min_margin=5.0, trim_margin=EDGE_CLEARANCE)


def test_small_stickers_go_butted_because_gutters_cost_items():
    # With 1.5 mm bleed every 12 mm sticker costs 15 mm in a gutter grid.
    a4 = plan("a4", (12.0, 12.0), 1.5)
    assert (a4.cols, a4.rows, a4.gutter) == (16, 23, 0.0)
    letter = plan("letter", (12.0, 12.0), 1.5)
    assert (letter.cols, letter.rows, letter.gutter) == (17, 22, 0.0)
    letter = plan("letter", (12.0, 12.0), 1.5, min_margin=5.0, trim_margin=None)
    assert (letter.cols, letter.rows, letter.gutter) == (16, 22, 0.0)


def test_tarot_uses_gutter_when_it_costs_nothing():
    for paper in PAPERS:
        p = plan(paper, *TAROT)
        assert (p.cols, p.rows, p.gutter) == (2, 2, 6.0)


def test_forty_mm_tiles_on_a4_keep_their_bleed_out_of_the_printers_band():
    # 5 × 40 mm of trim is 200 mm: on 210 mm A4 the trim would lie on the edge of the band
    # a home printer leaves blank, the bleed and the guides in it 2 mm from the paper edge;
    # by default the bleed stays inside the 4 mm margin, so 4 columns fit
    p = plan("a4", (40.0, 40.0), 3.0)
    assert (p.cols, p.rows, p.gutter, p.per_sheet) == (4, 7, 0.0, 28)
    assert min(s.y for s in p.slots) == pytest.approx(8.5)
    check_invariants(p)
    # a caller may let the bleed run into the band (trim_margin): 5 columns, trim 5 mm in
    wide = plan("a4", (40.0, 40.0), 3.0, trim_margin=EDGE_CLEARANCE)
    assert (wide.cols, wide.per_sheet) == (5, 35)
    assert min(s.x for s in wide.slots) == pytest.approx(EDGE_CLEARANCE)
    check_invariants(wide, trim_margin=EDGE_CLEARANCE)
    # on Letter (215.9 mm) 5 columns fit with their bleed inside; 6 rows
    letter = plan("letter", (40.0, 40.0), 3.0)
    assert (letter.cols, letter.rows, letter.per_sheet) == (5, 6, 30)
    check_invariants(letter)


def test_the_trim_never_enters_the_printers_band():
    # 201 mm of trim would leave 4.5 mm each side on A4: not allowed, whatever the bleed
    assert plan("a4", (40.2, 40.0), 3.0).cols == 4
    assert plan("a4", (40.0, 40.0), 0.5).cols == 5  # little bleed: 5 × 40 + 2 × 0.5 fits inside 4 mm anyway


def test_gutter_chosen_on_tie_and_butted_only_when_it_wins():
    # Mini euro on Letter: gutter 4x3 = 12 = butted 4x3, so gutter; on A4 butted 4x4.
    assert plan("letter", (44.0, 68.0), 3.0).gutter == 6.0
    p = plan("a4", (44.0, 68.0), 3.0)
    assert (p.cols, p.rows, p.gutter) == (4, 4, 0.0)


# --- invariants on every example ----------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("item,bleed", EXAMPLES)
def test_invariants_on_examples(paper, item, bleed):
    check_invariants(plan(paper, item, bleed))


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("item,bleed", [POKER, TAROT])
def test_every_cut_line_has_marks_on_both_sides(paper, item, bleed):
    p = plan(paper, item, bleed)
    above, below, lefts, rights = marks_by_side(p)
    xs, ys = expected_mark_sides(p)
    assert above == below == xs
    assert lefts == rights == ys
    assert len(p.marks) == 2 * (len(xs) + len(ys))


def test_marks_start_beyond_bleed_and_gap():
    p = plan("a4", *POKER)
    left, top, right, bottom = block_trim(p)
    for m in p.marks:
        if m.x1 == m.x2:
            near = m.y1
            assert min(abs(near - top), abs(near - bottom)) == pytest.approx(3.0 + 1.0)
        else:
            near = m.x1
            assert min(abs(near - left), abs(near - right)) == pytest.approx(3.0 + 1.0)
        # 6 mm, or cut back to end at the printer's blank band
        far = (m.y2, 297 - m.y2) if m.x1 == m.x2 else (m.x2, 210 - m.x2)
        assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) == pytest.approx(6.0) or min(far) == pytest.approx(EDGE_CLEARANCE)
    assert p.marks


def test_marks_clipped_at_paper_edge_and_omitted_when_too_short():
    # An 80 mm piece with 1 mm bleed on 100 mm paper: its trim is 10 mm from every
    # edge, so the marks start 8 mm from it and are clipped to 3 mm at the 5 mm band.
    p = plan_sheet((100.0, 100.0), (80.0, 80.0), 1.0, min_margin=4.0)
    assert p.marks and all(abs(m.y2 - m.y1) + abs(m.x2 - m.x1) == pytest.approx(3.0) for m in p.marks)
    assert all(min(m.x2, m.y2, 100 - m.x2, 100 - m.y2) == pytest.approx(EDGE_CLEARANCE) for m in p.marks)
    check_invariants(p, min_margin=4.0)
    # Letter, poker cards: the block's trim 7.7 mm from top and bottom, the marks would
    # start 3.7 mm from the edge, inside the printer's band: omitted.
    assert not [m for m in plan("letter", *POKER, min_margin=4.7).marks if m.x1 == m.x2]
    # Margin 1 mm: omitted all round.
    tight = plan_sheet((100.0, 100.0), (96.0, 96.0), 1.0, min_margin=1.0)
    assert tight.marks == ()
    check_invariants(tight, min_margin=1.0)


# --- duplex ------------------------------------------------------------------


def mirror(p: SheetPlan, s: Slot, duplex: str) -> tuple[float, float]:
    pw, ph = p.paper
    w, h = p.item
    return (pw - s.x - w, s.y) if duplex == "long" else (s.x, ph - s.y - h)


def check_duplex(p: SheetPlan) -> None:
    for duplex, rotation in (("long", 0), ("short", 180)):
        backs = back_slots(p, duplex)
        assert len(backs) == len(p.slots)
        for front, back in zip(p.slots, backs):
            assert back.index == front.index
            assert back.rotation == rotation
            mx, my = mirror(p, back, duplex)
            # The mirrored back lands exactly on its own front ...
            assert abs(mx - front.x) <= TOL and abs(my - front.y) <= TOL
            # ... and exactly on the grid position named by its col/row.
            at = p.slots[back.row * p.cols + back.col]
            assert abs(back.x - at.x) <= TOL and abs(back.y - at.y) <= TOL
        if duplex == "long":
            assert all(b.row == f.row and b.col == p.cols - 1 - f.col
                       for f, b in zip(p.slots, backs))
        else:
            assert all(b.col == f.col and b.row == p.rows - 1 - f.row
                       for f, b in zip(p.slots, backs))


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("item,bleed", EXAMPLES)
def test_duplex_backs_mirror_onto_fronts(paper, item, bleed):
    check_duplex(plan(paper, item, bleed))


def test_long_edge_top_left_front_meets_top_right_back():
    p = plan("a4", *POKER)
    back = back_slots(p, "long")[0]
    assert (back.col, back.row) == (2, 0)
    back = back_slots(p, "short")[0]
    assert (back.col, back.row) == (0, 2)


def test_unknown_duplex():
    with pytest.raises(ValueError):
        back_slots(plan("a4", *POKER), "tumble")


# --- errors ------------------------------------------------------------------


def test_too_large_item_names_item_and_paper():
    with pytest.raises(CardgenError) as exc:
        plan_sheet(PAPERS_MM["letter"], (63.0, 288.0), 3.0, name="hapy card",
                   paper_name="letter")
    assert str(exc.value) == (
        "hapy card 63×288 mm (+3 mm bleed) does not fit on letter with 4 mm margins"
    )


def test_fits_exactly_at_the_margin():
    # Bleed inside: 200 - 2*4 = 192 = 186 + 2*3: exactly one item, no float loss.
    p = plan_sheet((200.0, 200.0), (186.0, 186.0), 3.0, trim_margin=None)
    assert p.per_sheet == 1
    with pytest.raises(CardgenError):
        plan_sheet((200.0, 200.0), (186.001, 186.0), 3.0, trim_margin=None)
    # Explicit 5 mm: 200 - 2*5 = 190 = 184 + 2*3.
    p = plan_sheet((200.0, 200.0), (184.0, 184.0), 3.0, min_margin=5.0, trim_margin=None)
    assert p.per_sheet == 1
    with pytest.raises(CardgenError):
        plan_sheet((200.0, 200.0), (184.001, 184.0), 3.0, min_margin=5.0, trim_margin=None)
    # Allowed to run the bleed into the printer's band: the trim fits up to 5 mm from the edges.
    p = plan_sheet((200.0, 200.0), (190.0, 190.0), 3.0, trim_margin=EDGE_CLEARANCE)
    assert p.per_sheet == 1 and p.slots[0].x == pytest.approx(5.0)
    with pytest.raises(CardgenError):
        plan_sheet((200.0, 200.0), (190.001, 190.0), 3.0, trim_margin=EDGE_CLEARANCE)
    with pytest.raises(CardgenError):  # by default the bleed stays inside
        plan_sheet((200.0, 200.0), (190.0, 190.0), 3.0)


def test_bad_inputs():
    with pytest.raises(CardgenError):
        plan_sheet((297.0, 210.0), (63.0, 88.0), 3.0)  # landscape
    with pytest.raises(CardgenError):
        plan_sheet((210.0, 297.0), (0.0, 88.0), 3.0)
    with pytest.raises(CardgenError):
        plan_sheet((210.0, 297.0), (63.0, 88.0), -1.0)


def test_zero_bleed_is_a_single_grid():
    p = plan("a4", (63.0, 88.0), 0.0)
    assert (p.cols, p.rows, p.gutter) == (3, 3, 0.0)
    check_invariants(p)


# --- pagination --------------------------------------------------------------


def test_paginate():
    assert paginate(0, 9) == []
    assert paginate(9, 9) == [range(0, 9)]
    assert paginate(20, 9) == [range(0, 9), range(9, 18), range(18, 20)]
    with pytest.raises(ValueError):
        paginate(5, 0)


@given(st.integers(0, 500), st.integers(1, 60))
def test_paginate_covers_every_item_once(n, per):
    pages = paginate(n, per)
    assert [i for r in pages for i in r] == list(range(n))
    assert all(1 <= len(r) <= per for r in pages)


# --- property test -----------------------------------------------------------


def best_count(avail: float, size: float, bleed: float, gutter: float) -> int:
    """Brute force: the largest n whose printed extent fits."""
    n = 0
    while (n + 1) * size + n * gutter + 2 * bleed <= avail + 1e-9:
        n += 1
    return n


sizes = st.floats(10, 200, allow_nan=False, allow_infinity=False)
bleeds = st.floats(0, 5, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PAPERS), sizes, sizes, bleeds)
def test_property_margins_overlap_marks_duplex(paper, w, h, bleed):
    pw, ph = PAPERS_MM[paper]
    aw, ah = pw - 2 * DEFAULT_MARGIN, ph - 2 * DEFAULT_MARGIN
    # the bleed inside the margin
    counts = {g: (best_count(aw, w, bleed, g), best_count(ah, h, bleed, g)) for g in (0.0, 2 * bleed)}
    best = max(c[0] * c[1] for c in counts.values())
    if best == 0:
        with pytest.raises(CardgenError, match="does not fit on"):
            plan(paper, (w, h), bleed)
        return
    p = plan(paper, (w, h), bleed)
    check_invariants(p)
    check_duplex(p)
    assert p.per_sheet == best
    assert (p.cols, p.rows) == counts[p.gutter]
    above, below, lefts, rights = marks_by_side(p)
    xs, ys = expected_mark_sides(p)
    assert above == below == xs
    assert lefts == rights == ys


# --- cut ticks in the outer bleed --------------------------------------------------------
def _inside(m: Mark, box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    return all(x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - 1e-9 <= y <= y1 + 1e-9
               for x, y in ((m.x1, m.y1), (m.x2, m.y2)))


@pytest.mark.parametrize("paper,item,bleed,gutter", [
    (PAPERS_MM["letter"], (63.0, 88.0), 3.0, False),  # 3×3 butted: margin marks within 4 mm of the edge
    (PAPERS_MM["a4"], (63.0, 88.0), 3.0, False),
    (PAPERS_MM["a4"], (40.0, 40.0), 3.0, True),  # own bleeds, gutters between
])
def test_bleed_ticks_lie_in_the_outer_bleed_on_every_cut_line_and_clear_of_the_printers_edge(paper, item, bleed,
                                                                                             gutter):
    plan = plan_sheet(paper, item, bleed, own_bleed=gutter)
    ticks = bleed_ticks(plan.slots, plan.item, plan.bleed)
    w, h = item
    left = min(s.x for s in plan.slots)
    top = min(s.y for s in plan.slots)
    right = max(s.x + w for s in plan.slots)
    bottom = max(s.y + h for s in plan.slots)
    # two a cut line: one at each end of it
    assert len(ticks) == 2 * (len(plan.cut_xs) + len(plan.cut_ys))
    for m in ticks:
        # in the bleed band around the block, never in the margin beyond it
        assert _inside(m, (left - bleed, top - bleed, right + bleed, bottom + bleed))
        # on a cut line
        assert (m.x1 == m.x2 and m.x1 in plan.cut_xs) or (m.y1 == m.y2 and m.y1 in plan.cut_ys)
        # never on a finished piece, even cut TICK_CLEAR off
        for s in plan.slots:
            x0, y0 = s.x - TICK_CLEAR + 1e-6, s.y - TICK_CLEAR + 1e-6
            box = (x0, y0, s.x + w + TICK_CLEAR - 1e-6, s.y + h + TICK_CLEAR - 1e-6)
            assert not any(box[0] < x < box[2] and box[1] < y < box[3] for x, y in ((m.x1, m.y1), (m.x2, m.y2)))
        # where a home printer prints: at least 4 mm (the plan's margin) + the inset from every edge
        for v, edge in ((m.x1, paper[0]), (m.x2, paper[0])):
            assert 4.0 + TICK_INSET - 1e-9 <= v <= edge - 4.0 - TICK_INSET + 1e-9
        for v, edge in ((m.y1, paper[1]), (m.y2, paper[1])):
            assert 4.0 + TICK_INSET - 1e-9 <= v <= edge - 4.0 - TICK_INSET + 1e-9
        assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= MIN_MARK


def test_no_bleed_ticks_where_the_bleed_is_too_narrow_to_hold_one():
    plan = plan_sheet(PAPERS_MM["a4"], (63.0, 88.0), 1.5)
    assert bleed_ticks(plan.slots, plan.item, plan.bleed) == ()


def test_bleed_ticks_follow_the_block_a_partly_filled_sheet_forms():
    plan = plan_sheet(PAPERS_MM["a4"], (63.0, 88.0), 3.0)
    first_row = tuple(s for s in plan.slots if s.row == 0)
    bottom = first_row[0].y + 88.0
    ticks = bleed_ticks(first_row, plan.item, plan.bleed)
    assert max(max(m.y1, m.y2) for m in ticks) <= bottom + 3.0
    assert not any(m.y1 == m.y2 and m.y1 > bottom + 1e-9 for m in ticks)  # no cut line below the row


@pytest.mark.parametrize("gutter", [False, True])
def test_a_partly_filled_sheet_gets_ticks_along_its_pieces_outline_not_on_blank_paper(gutter):
    plan = plan_sheet(PAPERS_MM["a4"], (63.0, 88.0), 3.0, own_bleed=gutter)
    taken = tuple(s for s in plan.slots if s.row == 0 or (s.row == 1 and s.col == 0))  # an L: 3 + 1
    ticks = bleed_ticks(taken, plan.item, plan.bleed)
    assert ticks
    for m in ticks:
        # in the bleed of a piece on the sheet: never where no piece is
        assert any(_inside(m, (s.x - 3.0, s.y - 3.0, s.x + 66.0, s.y + 91.0)) for s in taken), m
        # and never on a piece, even cut TICK_CLEAR off
        for s in taken:
            for x, y in ((m.x1, m.y1), (m.x2, m.y2)):
                assert not (s.x - TICK_CLEAR + 1e-6 < x < s.x + 63 + TICK_CLEAR - 1e-6
                            and s.y - TICK_CLEAR + 1e-6 < y < s.y + 88 + TICK_CLEAR - 1e-6), m
    # the pieces of the first row whose lower side is open get ticks below it, at their own edges
    lone = max((s for s in taken if s.row == 0), key=lambda s: s.col)  # no piece below it
    assert lone.col > 0
    below = [m for m in ticks if m.x1 == m.x2 and m.y1 > lone.y + 88]
    assert {round(m.x1, 6) for m in below} >= {round(lone.x, 6), round(lone.x + 63, 6)}


def test_gutterfold_ticks_leave_the_fold_alone():
    from cardgen.impose.duplex import plan_gutterfold

    fold = plan_gutterfold(PAPERS_MM["a4"], (63.0, 88.0), 3.0)
    ticks = bleed_ticks(fold.plan.slots + fold.backs, fold.plan.item, fold.plan.bleed)
    assert ticks
    # the fold lies in the shared bleed of a front and its back (one bleed each side): no
    # tick in it, though the trim edges on either side of it get theirs above and below
    assert not any(abs(m.x1 - fold.fold_x) < 3.0 - 1e-6 and abs(m.x2 - fold.fold_x) < 3.0 - 1e-6 for m in ticks)
    assert sum(1 for m in ticks if m.x1 == m.x2 and abs(abs(m.x1 - fold.fold_x) - 3.0) < 1e-6) >= 4


# --- the outer bleed in the printer's band -------------------------------------------------


def test_a_guide_on_a_cut_line_at_the_band_leans_its_ink_inside_and_a_slanted_one_stops_short():
    from cardgen.impose.marks import STROKE_REACH, clear_of_edges, stroke_line

    paper = PAPERS_MM["a4"]
    on_edge = Mark(5.0, 6.0, 5.0, 8.0)  # the outer cut line of five 40 mm tiles across A4
    right = Mark(205.0, 6.0, 205.0, 8.0)
    inside = Mark(45.0, 6.0, 45.0, 8.0)
    top = Mark(20.0, 5.1, 30.0, 5.1)
    out = clear_of_edges([on_edge, right, inside, top, Mark(4.9, 6.0, 4.9, 9.0)], paper)
    assert [m.lean for m in out] == [(1, 0), (-1, 0), (0, 0), (0, 1)]  # the one in the band is gone
    # drawn, each stroke's ink lies beside the line, its edge on it: clear of the band, and exact
    for width in (0.088, 0.353):
        x1, _, x2, _ = stroke_line(out[0], width)
        assert x1 - width / 2 == pytest.approx(5.0) and x1 == x2
        assert stroke_line(out[1], width)[0] + width / 2 == pytest.approx(205.0)
    assert stroke_line(out[2], 0.353)[:2] == (45.0, 6.0)
    # a slanted mark's square end would poke past its end: it stops STROKE_REACH short
    (slant,) = clear_of_edges([Mark(10.0, 10.0, 2.0, 2.0)], paper)
    assert min(slant.x2, slant.y2) == pytest.approx(EDGE_CLEARANCE + STROKE_REACH)


def test_the_label_of_a_sheet_whose_bleed_runs_into_the_band_lies_on_a_white_band_in_the_bleed():
    from cardgen.impose.labels import place_label

    def measure(text: str, size_pt: float) -> float:
        return len(text) * 1.1

    tiles = plan("a4", (40.0, 40.0), 3.0, trim_margin=EDGE_CLEARANCE)
    lines = place_label(tiles, "Horus · Tiles · front 1/4 · A4 · 100% · duplex long-edge", measure)
    top = min(s.y for s in tiles.slots)
    assert lines and all(line.upright and line.backed for line in lines)
    assert all(EDGE_CLEARANCE + 1.9 <= line.y <= top - 0.75 - 0.65 for line in lines)  # on the bleed, off the art
    cards = plan("a4", (63.0, 88.0), 3.0)  # room in the margin: no band
    assert not any(line.backed for line in place_label(cards, "Horus · Horus cards · front 1/6", measure))
    # a trim 7.7 mm from the top: the label's band would come within TICK_CLEAR of it, so none
    tight = plan_sheet((140.0, 279.4), (63.0, 88.0), 3.0)
    assert min(s.y for s in tight.slots) == pytest.approx(7.7)
    lines = place_label(tight, "Horus · Horus cards · front 1/6", measure)
    assert lines and lines[0].upright and not any(line.backed for line in lines)
