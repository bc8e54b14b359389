"""What a shop profile changes on the pages of a print-shop file: the order of fronts
and backs, the crop marks around each page's bleed, and which pieces get a die line.

The pages come from :meth:`~cardgen.output.kitwriter.KitWriter.write_printshop` in the
order a kit has always had them, each piece's front followed by its back; a profile
may ask for the back first (DriveThruCards: page 1 the back of card 1, page 2 its
front) or every front and then every back in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..impose.marks import Mark
from .shops import DEFAULT_CUTS, ShopProfile

MARK_GAP = 1.0  # mm between the bleed's edge and a crop mark, so a mark never touches the art
MARK_LENGTH = 5.0  # mm: a crop mark's length (print notes: about 6 mm, shorter where tight)
MARK_MARGIN = MARK_GAP + MARK_LENGTH
"""The paper added around the bleed on every side of a page with crop marks."""

P = TypeVar("P")


def ordered(pages: Sequence[P], sides: Sequence[str], order: str) -> list[P]:
    """``pages`` (each piece's front, then its back if it has one; ``sides`` says which
    each is) in the profile's ``order``: ``alternating`` as they are, ``back-first``
    each piece's back before its front, ``fronts-then-backs`` every front, then every
    back in the same order."""
    if order == "fronts-then-backs":
        return [p for p, s in zip(pages, sides) if s == "front"] + [p for p, s in zip(pages, sides) if s == "back"]
    out = list(pages)
    if order == "back-first":
        for i in range(1, len(out)):
            if sides[i] == "back" and sides[i - 1] == "front":
                out[i - 1], out[i] = out[i], out[i - 1]
    return out


def page_margin(shop: ShopProfile | None) -> float:
    """The paper around a page's bleed (mm): room for crop marks, none without them."""
    return MARK_MARGIN if shop is not None and shop.crop_marks else 0.0


def crop_marks(left: float, top: float, right: float, bottom: float, bleed: float) -> tuple[Mark, ...]:
    """Two hairlines at each corner of the trim box (left, top, right, bottom in mm),
    on the trim lines' extensions, starting ``MARK_GAP`` outside the bleed."""
    near, far = bleed + MARK_GAP, bleed + MARK_MARGIN
    marks = []
    for x, sx in ((left, -1), (right, 1)):
        for y, sy in ((top, -1), (bottom, 1)):
            marks.append(Mark(x + sx * near, y, x + sx * far, y))  # along the horizontal trim line
            marks.append(Mark(x, y + sy * near, x, y + sy * far))  # along the vertical one
    return tuple(marks)


def die_line(shop: ShopProfile | None, shape_name: str, default: bool) -> bool:
    """Whether a piece of this shape gets its CutContour: the profile's choice, or the
    shape's own default (die-cut shapes) without a profile."""
    if shop is None:
        return default
    return bool(shop.cut_lines.get(shape_name, DEFAULT_CUTS.get(shape_name, False)))
