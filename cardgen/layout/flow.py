"""Flowed text for sheets: headings, paragraphs, bullets and numbered steps laid out
in one or more balanced columns, with the inline markup of every text (**bold**,
*italic*, colour spans, icons: :mod:`.inline`), shrunk together until they fit. A
heading stays in the column of the block that follows it.

Used by the ``flow`` layout op (rules summaries, player aids, setup steps). Like
text boxes, it breaks lines only at ordinary spaces, never at the no-break spaces
French puts before ``: ; ! ?``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..units import PT_PER_MM
from .textfit import Run

# Relative sizes and spacing of blocks (multiples of the body size).
BLOCK_SCALE = {"h1": 1.45, "h2": 1.15, "p": 1.0, "li": 1.0, "num": 1.0, "space": 1.0}
SPACE_BEFORE = {"h1": 1.4, "h2": 1.1, "p": 0.55, "li": 0.3, "num": 0.3, "space": 1.0}
HEADINGS = ("h1", "h2")
STEP_PT = 0.25
# The op argument, set by :mod:`.chain` and never written in a template, that says how
# many steps were numbered before a continued flow's first block.
NUMBER_FROM = "number_from"
SPREAD_MAX = 2.2  # with ``spread``, the most a gap between blocks grows: times the body size (a heading's twice)


@dataclass(frozen=True)
class FlowLine:
    """One run of text in one font at one place (several per line when styles mix), or
    one icon (``icon`` set, ``text`` empty)."""

    font: str
    size: float  # pt
    x: float
    baseline: float
    text: str
    colour: str | None
    icon: str | None = None


@dataclass(frozen=True)
class FlowResult:
    lines: tuple[FlowLine, ...]
    size: float
    fits: bool
    overflow: float


@dataclass(frozen=True)
class FlowFonts:
    heading: str  # h1
    bold: str  # h2 and **spans**
    body: str
    italic: str | None = None  # *spans* (None: the flow has no italic font)


Width = Callable[[Run, float], float]  # (run, size_pt) -> mm
Runs = Callable[[str, str], list[Run]]  # (a block's text, its font) -> its runs (the markup read)


def _same_kind(a: Run, b: Run) -> bool:
    return a.icon is None and b.icon is None and (a.font, a.colour) == (b.font, b.colour)


def _wrap_runs(width: Width, tokens: list[tuple[bool, Run]], size: float, max_w: float) -> list[list[tuple[float, Run]]]:
    """Greedy line filling of (space_before, word run) tokens → lines of (x, run) segments.
    A token with no space before it (an icon against its word, across a no-break space,
    or a word whose style changes inside it) goes to the next line with the one before."""
    groups: list[list[Run]] = []
    spaced: list[bool] = []
    for space, word in tokens:
        if groups and not space:
            groups[-1].append(word)
        else:
            groups.append([word])
            spaced.append(space)
    lines: list[list[tuple[float, Run]]] = []
    line: list[tuple[float, Run]] = []
    x = 0.0
    for space, group in zip(spaced, groups):
        widths = [width(word, size) for word in group]
        # the space is the words' own: a symbol font's space before a character icon is wide
        gap_font = next((r.font for r in (line[-1][1], group[0]) if r.icon is None), group[0].font) \
            if line else group[0].font
        gap = width(Run(" ", gap_font), size) if (space and line) else 0.0
        if line and x + gap + sum(widths) > max_w + 1e-6:
            lines.append(line)
            line, x, gap = [], 0.0, 0.0
        for word, w in zip(group, widths):
            if line and _same_kind(line[-1][1], word):
                sx, srun = line[-1]
                line[-1] = (sx, Run(srun.text + (" " if gap else "") + word.text, srun.font, srun.colour))
            else:
                line.append((x + gap, word))
            x += gap + w
            gap = 0.0
    if line:
        lines.append(line)
    return lines


def _tokens(runs: list[Run]) -> list[tuple[bool, Run]]:
    tokens: list[tuple[bool, Run]] = []
    pending_space = False
    for run in runs:
        if run.icon:
            tokens.append((pending_space, run))
            pending_space = False
            continue
        for i, part in enumerate(run.text.replace("\n", " ").split(" ")):
            if i > 0:
                pending_space = True
            if part:
                tokens.append((pending_space, Run(part, run.font, run.colour)))
                pending_space = False
    return tokens


@dataclass
class _Item:
    kind: str
    height: float  # mm, text only
    before: float  # mm of space when not first in a column
    segments: list[tuple[float, float, Run, str | None]]  # (dx, dy baseline, run, colour)


def _items(blocks, fonts: FlowFonts, size: float, col_w: float, line_height: float, width: Width,
           ascent: Callable[[str], float], runs: Runs, heading_colour, accent,
           first_number: int = 0) -> tuple[list[_Item], float]:
    items: list[_Item] = []
    overflow = 0.0
    number = first_number  # steps already numbered before these blocks (a continued flow)
    for kind, text in blocks:
        s = size * BLOCK_SCALE[kind]
        s_mm = s / PT_PER_MM
        lead = s_mm * line_height
        before = SPACE_BEFORE[kind] * size / PT_PER_MM
        if kind == "space":
            items.append(_Item(kind, 0.0, before, []))
            continue
        body = {"h1": fonts.heading, "h2": fonts.bold}.get(kind, fonts.body)
        colour = heading_colour if kind in HEADINGS else None
        if kind in HEADINGS:
            number = 0
        marker, indent = None, 0.0
        if kind == "li":
            marker, indent = "•", s_mm * 1.1
        elif kind == "num":
            number += 1
            marker, indent = f"{number}.", width(Run("00.", body), s)
        lines = _wrap_runs(width, _tokens(runs(text, body)), s, col_w - indent) or [[(0.0, Run("", body))]]
        first_base = s_mm * ascent(body)
        segs: list[tuple[float, float, Run, str | None]] = []
        if marker:
            segs.append((0.0, first_base, Run(marker, body), accent or colour))
        for i, line in enumerate(lines):
            line_w = 0.0
            for x, run in line:
                segs.append((indent + x, first_base + i * lead, run, run.colour or colour))
                line_w = x + width(run, s)
            if line_w > col_w - indent + 1e-6:
                overflow = max(overflow, line_w / (col_w - indent) - 1)
        height = s_mm + (len(lines) - 1) * lead
        if kind in HEADINGS:
            height += s_mm * 0.12
        items.append(_Item(kind, height, before, segs))
    return items, overflow


def _kept_with(items: list[_Item], i: int) -> float:
    """The room the blocks after heading ``i`` need in its column: the headings right
    below it and the first block of text, whole (a block never splits across columns),
    so a column never ends with a heading whose text is in the next one."""
    need = 0.0
    for nxt in items[i + 1:]:
        if nxt.kind == "space":
            break
        need += nxt.before + nxt.height
        if nxt.kind not in HEADINGS:
            break
    return need


def _place(items: list[_Item], columns: int, col_h: float) -> list[tuple[int, float]] | None:
    """Greedy column filling at a column height; keeps a heading with the next block."""
    placed: list[tuple[int, float]] = []
    col, y = 0, 0.0
    for i, item in enumerate(items):
        space = item.before if y > 0 else 0.0
        kept = _kept_with(items, i) if item.kind in HEADINGS else 0.0
        need = space + item.height + kept
        if y > 0 and y + need > col_h + 1e-6:
            col, y, space = col + 1, 0.0, 0.0
            if item.kind == "space":
                placed.append((col, 0.0))
                continue
        if col >= columns or space + item.height > col_h + 1e-6:
            return None
        if kept and y == 0 and item.height + kept > col_h + 1e-6:
            return None  # the heading and its text do not fit one column: smaller, or not at all
        placed.append((col, y + space))
        y += space + item.height
    return placed


def _spread(items: list[_Item], placed: list[tuple[int, float]], h: float, most: float) -> list[tuple[int, float]]:
    """Each column's blocks moved apart so that the column reaches the foot of the box: the
    room left is shared between the gaps (the gap above a heading twice, the gap below one
    not at all), each gap growing by at most ``most`` mm (above a heading twice that); what
    is left beyond stays at the foot."""
    out = list(placed)
    for col in {c for c, _ in placed}:
        idx = [i for i, (c, _) in enumerate(placed) if c == col]
        foot = max(placed[i][1] + items[i].height for i in idx)
        weights = {i: (2.0 if items[i].kind in HEADINGS else 1.0) for i in idx[1:]
                   if items[i].kind != "space" and items[i - 1].kind not in HEADINGS}  # a heading stays on its text
        if not weights or h - foot <= 0:
            continue
        unit = min((h - foot) / sum(weights.values()), most)
        shift = 0.0
        for i in idx:
            shift += weights.get(i, 0.0) * unit
            out[i] = (col, placed[i][1] + shift)
    return out


def layout_flow(blocks, x: float, y: float, w: float, h: float, size: float, columns: int, gap: float,
                line_height: float, fonts: FlowFonts, width: Width, ascent: Callable[[str], float],
                runs: Runs, heading_colour=None, accent=None, first_number: int = 0,
                spread: bool = False) -> FlowResult:
    """Lay out blocks at one body size, balancing columns; fits=False when they overflow.
    ``first_number``: the numbered steps before these blocks, when they continue a flow;
    ``spread``: the room left at the foot of each column shared out between its blocks."""
    col_w = (w - gap * (columns - 1)) / columns
    items, overflow = _items(blocks, fonts, size, col_w, line_height, width, ascent, runs, heading_colour, accent,
                             first_number)
    total = sum(i.height + i.before for i in items)
    placed = _place(items, columns, h)
    if placed is None:
        return FlowResult((), size, False, max(overflow, total / (columns * h) - 1, 0.01))
    if columns > 1:  # shortest column height that still fits: balanced columns
        lo, hi = total / columns * 0.5, h
        for _ in range(20):
            mid = (lo + hi) / 2
            if _place(items, columns, mid) is None:
                lo = mid
            else:
                hi = mid
        placed = _place(items, columns, hi) or placed
    if spread:
        placed = _spread(items, placed, h, size / PT_PER_MM * SPREAD_MAX)
    col_w_gap = col_w + gap
    lines = []
    for item, (col, top) in zip(items, placed):
        for dx, dy, run, colour in item.segments:
            lines.append(FlowLine(run.font, size * BLOCK_SCALE[item.kind], x + col * col_w_gap + dx, y + top + dy,
                                  run.text, colour, run.icon))
    return FlowResult(tuple(lines), size, overflow <= 1e-9, overflow)


def fit_flow(blocks, x: float, y: float, w: float, h: float, size: float, min_size: float, **kw) -> FlowResult:
    """The largest size on a 0.25 pt grid (from ``size`` down to ``min_size``) that fits."""
    result = layout_flow(blocks, x, y, w, h, size, **kw)
    if result.fits:
        return result
    steps = int(round((size - min_size) / STEP_PT))
    lo, hi = 0, steps  # bisection on the grid: index 0 = size, steps = min_size
    best = None
    last = layout_flow(blocks, x, y, w, h, min_size, **kw)
    if not last.fits:
        return last
    best = last
    while hi - lo > 1:
        mid = (lo + hi) // 2
        r = layout_flow(blocks, x, y, w, h, size - mid * STEP_PT, **kw)
        if r.fits:
            hi, best = mid, r
        else:
            lo = mid
    return best
