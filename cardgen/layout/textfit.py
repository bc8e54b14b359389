"""Wrap text and shrink it until it fits a box.

Translations run 15-30 % longer than English, so every text box of every
language goes through fit_text before anything is drawn, and a box that does not
fit even at its minimum size becomes an error saying by how much.

Why not ReportLab's simpleSplit: it breaks at U+00A0 and U+202F, and French puts
those before ':' ';' '!' '?', so a colon could start a line. Here only an
ordinary space (U+0020, or a tab) and the position after a hyphen are breaks.

`measure(text, size_pt) -> width_mm` is passed in, so tests can use a fake
monospace measure; the real one is
``lambda t, s: book.string_width_mm(font, t, s)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..units import pt_to_mm

Measure = Callable[[str, float], float]

STEP_PT = 0.25
_EPS = 1e-9

# A word ends after "-" when a letter follows and one precedes: "Nord-Ouest"
# breaks as "Nord-|Ouest", but "-5" and "--" stay whole.
_HYPHEN_BREAK = re.compile(r"(?<=[^\s-]-)(?=[^\s-])")


@dataclass(frozen=True)
class FittedText:
    lines: tuple[str, ...]
    size: float        # pt chosen
    leading: float     # pt, = size * line_height
    fits: bool
    overflow: float    # how much too long, as a fraction (0.0 when it fits)


def _paragraphs(text: str) -> list[str]:
    """Explicit newlines split paragraphs. Trailing newlines are dropped: YAML
    block scalars (`|`) end with one, and it must not cost a line of height."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = text.rstrip("\n")
    return text.split("\n") if text.strip() else []


def _pieces(paragraph: str) -> list[tuple[str, str]]:
    """(separator before, piece) pairs: separator is " " after a space break,
    "" after a hyphen break. No-break spaces stay inside pieces."""
    out: list[tuple[str, str]] = []
    for word in paragraph.split(" "):
        if not word:                      # runs of spaces collapse to one break
            continue
        for i, part in enumerate(_HYPHEN_BREAK.split(word)):
            out.append(("" if i else " ", part))
    return out


def _wrap_paragraphs(measure: Measure, paragraphs: list[list[tuple[str, str]]],
                     size: float, width_mm: float) -> list[str]:
    lines: list[str] = []
    for pieces in paragraphs:
        if not pieces:
            lines.append("")              # a blank line the author asked for
            continue
        line = pieces[0][1]
        for sep, piece in pieces[1:]:
            candidate = line + sep + piece
            if measure(candidate, size) <= width_mm + _EPS:
                line = candidate
            else:
                lines.append(line)
                line = piece
        lines.append(line)
    return lines


def wrap(measure: Measure, text: str, size: float, width_mm: float) -> list[str]:
    """Greedy line breaking at `size` pt into lines at most width_mm wide.

    A piece wider than the box on its own gets a line to itself and overflows;
    fit_text reports it.
    """
    paras = [_pieces(p) for p in _paragraphs(text)]
    return _wrap_paragraphs(measure, paras, size, width_mm)


def _height_mm(n_lines: int, size: float, leading: float) -> float:
    """Height of n lines: the first line counts as `size` (its ascent, roughly,
    plus its descent tucked under), each further line adds one leading.

    Simple and font-independent, so the same text fits the same way in every
    test; the drawing stage places the first baseline `size` below the top.
    """
    if n_lines == 0:
        return 0.0
    return pt_to_mm(size + (n_lines - 1) * leading)


def _try(measure: Measure, paras, size: float, width_mm: float, height_mm: float,
         line_height: float, max_lines: int | None) -> FittedText:
    lines = _wrap_paragraphs(measure, paras, size, width_mm)
    leading = size * line_height
    over = 0.0
    widest = max((measure(l, size) for l in lines), default=0.0)
    over = max(over, widest / width_mm - 1.0)
    over = max(over, _height_mm(len(lines), size, leading) / height_mm - 1.0)
    if max_lines is not None:
        over = max(over, len(lines) / max_lines - 1.0)
    fits = over <= _EPS
    return FittedText(tuple(lines), size, leading, fits, 0.0 if fits else over)


def fit_text(measure: Measure, text: str, width_mm: float, height_mm: float,
             size: float, min_size: float, line_height: float = 1.2,
             max_lines: int | None = None) -> FittedText:
    """The largest size on a 0.25 pt grid from `size` down to `min_size` at
    which text fits the box; else the min_size layout with fits=False.

    Overflow is the worst of: needed height / box height - 1, widest line /
    width - 1 (an unbreakable word), lines / max_lines - 1. Bisection assumes
    a smaller size never needs more room, true for any width that scales with
    the size.
    """
    if width_mm <= 0 or height_mm <= 0:
        raise ValueError(f"text box must have a positive size, got {width_mm} x {height_mm} mm")
    if min_size <= 0 or min_size > size:
        raise ValueError(f"need 0 < min_size <= size, got min_size={min_size}, size={size}")
    if max_lines is not None and max_lines < 1:
        raise ValueError(f"max_lines must be at least 1, got {max_lines}")

    paras = [_pieces(p) for p in _paragraphs(text)]

    def attempt(s: float) -> FittedText:
        return _try(measure, paras, s, width_mm, height_mm, line_height, max_lines)

    first = attempt(size)
    if first.fits:
        return first
    last = attempt(min_size)
    if not last.fits:
        return last
    # Grid: size - 0.25k above min_size (k = 1 … above), then min_size itself, as
    # positions 0 … above; computed per position, never listed (a huge size would
    # make millions of steps).
    above = int((size - min_size) / STEP_PT + _EPS)
    while above and size - above * STEP_PT <= min_size + _EPS:
        above -= 1

    def grid(i: int) -> float:
        return size - (i + 1) * STEP_PT if i < above else min_size

    # Invariant: grid(hi) fits; everything above grid(lo) (and `size`) does not.
    lo, hi, best = -1, above, last
    while hi - lo > 1:
        mid = (lo + hi) // 2
        r = attempt(grid(mid))
        if r.fits:
            hi, best = mid, r
        else:
            lo = mid
    return best
