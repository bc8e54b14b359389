"""Piece outlines (impose.shapes): each shape's clip, trim outline, cut guides and size
text, and outlines traced onto a pen."""

from __future__ import annotations

import pytest

from cardgen.impose.grid import bleed_sides, plan_sheet
from cardgen.impose.marks import bleed_ticks, circle_guides
from cardgen.impose.outlines import CircleOutline, RectOutline
from cardgen.impose.papers import PAPERS_MM
from cardgen.impose.shapes import SHAPES, Circle, Rect, shape_of

A4 = PAPERS_MM["a4"]


class Recorder:
    """A pen that records what is traced on it."""

    def __init__(self):
        self.calls = []

    def rect(self, x, y, w, h):
        self.calls.append(("rect", x, y, w, h))

    def circle(self, cx, cy, r):
        self.calls.append(("circle", cx, cy, r))


def test_shapes_are_found_by_the_name_a_component_gives():
    assert isinstance(shape_of("rect"), Rect) and isinstance(shape_of("circle"), Circle)
    assert sorted(SHAPES) == ["circle", "rect"]
    with pytest.raises(ValueError, match="unknown piece shape 'hexagon'"):
        shape_of("hexagon")


def test_only_round_pieces_need_their_own_bleed_and_mask_their_trim_box():
    assert shape_of("circle").own_bleed and not shape_of("rect").own_bleed
    assert shape_of("rect").fills_trim_box and not shape_of("circle").fills_trim_box


def test_outlines_trace_onto_a_pen_with_reportlab_argument_order():
    pen = Recorder()
    RectOutline.spanning(1, 2, 11, 7).trace(pen)
    CircleOutline(5, 6, 3).trace(pen)
    assert pen.calls == [("rect", 1, 2, 10, 5), ("circle", 5, 6, 3)]


def test_a_rect_outline_moves_in_by_its_inset_and_out_by_a_negative_one():
    rect = shape_of("rect")
    assert rect.outline(10, 20, 63, 88) == RectOutline(10, 20, 63, 88)
    assert rect.outline(10, 20, 63, 88, 3) == RectOutline(13, 23, 57, 82)
    assert rect.outline(10, 20, 63, 88, -3) == RectOutline(7, 17, 69, 94)


def test_a_circle_outline_is_the_trim_circle_moved_by_its_inset():
    circle = shape_of("circle")
    assert circle.outline(10, 20, 30, 30) == CircleOutline(25, 35, 15)
    assert circle.outline(10, 20, 30, 30, 2) == CircleOutline(25, 35, 13)
    assert circle.outline(10, 20, 30, 30, -3) == CircleOutline(25, 35, 18)


def test_proof_lines_are_the_trim_the_bleed_edge_and_the_safe_zone():
    lines = shape_of("rect").proof_lines(0, 0, 63, 88, 3, 4)
    assert (lines.trim, lines.bleed, lines.safe) == (RectOutline(0, 0, 63, 88), RectOutline(-3, -3, 69, 94),
                                                     RectOutline(4, 4, 55, 80))
    assert shape_of("circle").proof_lines(0, 0, 20, 20, 3, 2).bleed == CircleOutline(10, 10, 13)


def test_a_rect_clip_shows_the_bleed_each_side_allows():
    clip = shape_of("rect").clip(10, 20, 63, 88, (3, 0, 3, 0), apart=False)
    assert clip == RectOutline(7, 20, 69, 88)


def test_a_round_clip_shows_a_bleed_ring_only_when_pieces_stand_apart():
    circle = shape_of("circle")
    assert circle.clip(10, 20, 30, 30, (3, 3, 3, 3), apart=True) == CircleOutline(25, 35, 18)
    assert circle.clip(10, 20, 30, 30, (3, 3, 3, 3), apart=False) == CircleOutline(25, 35, 15)


def test_bleed_sides_drop_the_bleed_across_a_cut_line_shared_with_a_piece():
    butted = plan_sheet(A4, (63.0, 88.0), 3.0)
    assert butted.gutter == 0
    first, second = butted.slots[0], butted.slots[1]
    both = {(first.col, first.row), (second.col, second.row)}
    assert bleed_sides(butted, first, both) == (3, 3, 0, 3)
    assert bleed_sides(butted, second, both) == (0, 3, 3, 3)
    assert bleed_sides(butted, first, {(first.col, first.row)}) == (3, 3, 3, 3)
    apart = plan_sheet(A4, (40.0, 40.0), 3.0, own_bleed=True)
    assert apart.gutter > 0
    assert bleed_sides(apart, apart.slots[0], {(s.col, s.row) for s in apart.slots}) == (3, 3, 3, 3)


def test_rect_pieces_get_bleed_ticks_and_round_ones_traced_circles():
    plan = plan_sheet(A4, (20.0, 20.0), 3.0, own_bleed=True)
    slots = plan.slots[:3]
    rect = shape_of("rect").cut_guides(slots, plan.item, plan.bleed, apart=True)
    assert rect.ticks == bleed_ticks(slots, plan.item, plan.bleed) and rect.ticks and rect.traced == ()
    round_ = shape_of("circle").cut_guides(slots, plan.item, plan.bleed, apart=True)
    assert round_.ticks == () and round_.traced == circle_guides(slots, plan.item, plan.bleed)
    touching = shape_of("circle").cut_guides(slots, plan.item, plan.bleed, apart=False)
    assert touching.traced == circle_guides(slots, plan.item, 0.0)  # no bleed ring to tick outside of


def test_size_text_says_a_round_piece_is_round():
    assert shape_of("rect").size_text(63, 88) == "63×88 mm"
    assert shape_of("rect").size_text(63.5, 88) == "63.5×88 mm"
    assert shape_of("circle").size_text(20, 20) == "20 mm round"
