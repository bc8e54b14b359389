"""Wrap text and shrink it until it fits a box.

Translations run 15-30 % longer than English, so every text box of every
language goes through fit_text before anything is drawn, and a box that does not
fit even at its minimum size becomes an error saying by how much.

Why not ReportLab's simpleSplit: it breaks at U+00A0 and U+202F, and French puts
those before ':' ';' '!' '?', so a colon could start a line. Here only an
ordinary space (U+0020, or a tab) and the position after a hyphen are breaks.

Lines are filled greedily, then a paragraph's last line is mended when it holds one
short word alone: a word of the line above comes down, or the text shrinks a step
(LONE_WORD_CHARS, LONE_WORD_SHARE, SHRINK_STEPS; docs/design/layout.md, "Text fitting").

`measure(text, size_pt) -> width_mm` is passed in, so tests can use a fake
monospace measure; the real one is
``lambda t, s: book.string_width_mm(font, t, s)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ..base.units import pt_to_mm

Measure = Callable[[str, float], float]

STEP_PT = 0.25
_EPS = 1e-9

# A paragraph's last line may be one word alone when that word has at least this many
# characters (an icon counts as one) or takes at least this share of the line: a shorter
# one gets a word of the line above for company, or the text shrinks (SHRINK_STEPS).
LONE_WORD_CHARS = 8
LONE_WORD_SHARE = 0.25
# How many grid steps below the largest size that fits the fitter may go to leave fewer
# lone short words, when pulling a word down cannot.
SHRINK_STEPS = 4

# A word ends after "-" when a letter follows and one precedes: "Nord-Ouest"
# breaks as "Nord-|Ouest", but "-5" and "--" stay whole.
_HYPHEN_BREAK = re.compile(r"(?<=[^\s-]-)(?=[^\s-])")


class Run(NamedTuple):
    """Text in one font and colour, or one icon (``icon`` set, ``text`` empty): what a
    line of a fitted text is made of. Plain text is one run per line."""

    text: str
    font: str = ""
    colour: str | None = None
    icon: str | None = None


RunWidth = Callable[[Run, float], float]  # (run, size_pt) -> mm
TextWidth = Callable[[str, str, float], float]  # (font, text, size_pt) -> mm: the same for text runs, quicker
Line = tuple[Run, ...]


@dataclass(frozen=True)
class FittedText:
    lines: tuple[str, ...]  # each line's words (icons left out), for messages and tests
    size: float        # pt chosen
    leading: float     # pt, = size * line_height
    fits: bool
    overflow: float    # how much too long, as a fraction (0.0 when it fits)
    runs: tuple[Line, ...] = field(default=(), compare=False)  # each line as the painter draws it
    paragraphs: tuple[int, ...] = field(default=(), compare=False)  # how many of the lines each paragraph took
    lone_words: int = field(default=0, compare=False)  # paragraphs left ending in a lone short word


def split_paragraphs(runs: list[Run]) -> list[list[Run]]:
    """Explicit newlines split paragraphs. Trailing newlines are dropped: YAML
    block scalars (`|`) end with one, and it must not cost a line of height."""
    paras: list[list[Run]] = [[]]
    for run in runs:
        if run.icon:
            paras[-1].append(run)
            continue
        text = run.text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
        for i, part in enumerate(text.split("\n")):
            if i:
                paras.append([])
            if part:
                paras[-1].append(Run(part, run.font, run.colour))
    while paras and not paras[-1]:
        paras.pop()  # trailing newlines
    if not any(r.icon or r.text.strip() for p in paras for r in p):
        return []  # nothing but spaces and newlines
    return paras


# A piece is what no line break may split: a word (several runs when its style changes
# inside it, or an icon is glued to it) and the space before it (None after a hyphen break).
Piece = tuple[Run | None, Line]


def _pieces(paragraph: list[Run], hyphens: bool = True) -> list[Piece]:
    """A paragraph's pieces: breaks only at an ordinary space (runs of spaces collapse
    to one) and, with ``hyphens``, after a hyphen; no-break spaces stay inside pieces."""
    out: list[Piece] = []
    word: list[Run] = []
    space: Run | None = None
    pending: Run | None = None  # the space seen since the last word, in its own font

    def end_word(sep: Run | None) -> None:
        nonlocal word, space
        if word:
            out.append((space if out else None, tuple(word)))
            word = []
        space = sep

    for run in paragraph:
        if run.icon:
            if pending is not None:
                end_word(pending)
                pending = None
            word.append(run)
            continue
        for j, chunk in enumerate(run.text.split(" ")):
            if j:
                pending = Run(" ", run.font, run.colour)
            if not chunk:
                continue
            if pending is not None:
                end_word(pending)
                pending = None
            for k, part in enumerate(_HYPHEN_BREAK.split(chunk) if hyphens else (chunk,)):
                if k:
                    end_word(None)
                word.append(Run(part, run.font, run.colour))
    end_word(None)
    return out


def _same_style(a: Run, b: Run) -> bool:
    return a[1:] == b[1:] and a[3] is None  # font, colour, and no icon


def line_width(width: RunWidth, line: Line, size: float) -> float:
    if len(line) == 1:
        return width(line[0], size)
    return sum(width(run, size) for run in line)


# What the breaker knows of a piece: whether a space comes before it, that space's width
# and the piece's width (mm). Widths add up: ReportLab draws without kerning.
Measured = tuple[bool, float, float]


def _greedy(pieces: list[Measured], limit: float,
            short: Callable[[int, float], bool] | None = None) -> tuple[list[int], list[float], bool]:
    """Greedy line breaking, the one place where a line break is decided: each piece (with
    the space before it) joins the current line while the line stays within ``limit``
    mm; else it starts a new line.

    Then the last line: when it holds one word (no space) that ``short(first piece,
    width)`` calls short, words of the line above come down until it holds two, if that
    line keeps a word and the new last line fits; the paragraph never gains a line.
    Returns the first piece of each line, each line's width, and whether a lone short
    word is left (nothing could come down)."""
    starts = [0]
    widths: list[float] = []
    w = pieces[0][2]
    for i in range(1, len(pieces)):
        _, space, piece = pieces[i]
        longer = w + space + piece
        if longer <= limit + _EPS:
            w = longer
        else:
            widths.append(w)
            starts.append(i)
            w = piece
    widths.append(w)
    last = starts[-1]
    if short is None or len(starts) < 2 or any(p[0] for p in pieces[last + 1:]) or not short(last, w):
        return starts, widths, False
    prev = starts[-2]
    tail = w  # the new last line: pieces start … end
    for start in range(last - 1, prev, -1):
        tail = pieces[start][2] + pieces[start + 1][1] + tail
        if not any(p[0] for p in pieces[start + 1:last + 1]):
            continue  # "Nord-" joins "Ouest" without a space: still one word, one more comes down
        if tail > limit + _EPS:
            break  # bringing more down only makes it longer
        starts[-1], widths[-1] = start, tail
        widths[-2] = pieces[prev][2] + sum(space + piece for _, space, piece in pieces[prev + 1:start])
        return starts, widths, False
    return starts, widths, True


def _one_style(pieces: list[Piece]) -> Run | None:
    """The style (a run) every piece and space of a paragraph shares, None when it mixes
    fonts, colours or icons: such a paragraph is broken as plain strings, quickly."""
    first = pieces[0][1][0]
    for sep, piece in pieces:
        if len(piece) != 1 or not _same_style(first, piece[0]) or (sep is not None and not _same_style(first, sep)):
            return None
    return first


def _break_lines(width: RunWidth, text_width: TextWidth, para: Paragraph, size: float,
                 width_mm: float) -> tuple[list[Line], list[float], bool]:
    """One paragraph's lines, each at most width_mm wide where a piece allows, their
    widths, and whether it ends in a lone short word that could not be given company
    (short: fewer than LONE_WORD_CHARS characters, an icon counting as one, and narrower
    than LONE_WORD_SHARE of the line)."""
    pieces, style, strings, whole = para
    if not pieces:
        return [()], [0.0], False          # a blank line the author asked for
    wide = LONE_WORD_SHARE * width_mm
    if style is not None:
        font, colour = style.font, style.colour
        w = text_width(font, whole, size)
        if w <= width_mm + _EPS:
            return [(Run(whole, font, colour),)], [w], False  # one line: nothing to decide
        space = text_width(font, " ", size)
        starts, widths, lone = _greedy(
            [(bool(sep), space if sep else 0.0, text_width(font, word, size)) for sep, word in strings], width_mm,
            lambda first, w: w < wide and sum(len(word) for _, word in strings[first:]) < LONE_WORD_CHARS)
        ends = starts[1:] + [len(strings)]
        texts = ["".join([strings[a][1]] + [sep + word for sep, word in strings[a + 1:b]])
                 for a, b in zip(starts, ends)]
        return [(Run(text, font, colour),) for text in texts], widths, lone
    starts, widths, lone = _greedy(
        [(sep is not None, width(sep, size) if sep is not None else 0.0, line_width(width, piece, size))
         for sep, piece in pieces], width_mm,
        lambda first, w: w < wide and sum(len(run.text) + (run.icon is not None)
                                          for _, piece in pieces[first:] for run in piece) < LONE_WORD_CHARS)
    return [_line_of(pieces, a, b) for a, b in zip(starts, starts[1:] + [len(pieces)])], widths, lone


def _line_of(pieces: list[Piece], a: int, b: int) -> Line:
    """Pieces a … b-1 as one line, adjacent runs of one font and colour joined into one: a
    line of plain text is one string, measured and drawn as a whole (as ReportLab would)."""
    out: list[Run] = []
    texts: list[str] = []
    current: Run | None = None
    for j in range(a, b):
        sep, piece = pieces[j]
        for run in ((sep,) + piece) if sep is not None and j > a else piece:
            if current is not None and _same_style(current, run):
                texts.append(run.text)
                continue
            if current is not None:
                out.append(current if len(texts) == 1 else Run("".join(texts), current.font, current.colour))
            current, texts = run, [run.text]
    if current is not None:
        out.append(current if len(texts) == 1 else Run("".join(texts), current.font, current.colour))
    return tuple(out)


def break_runs(width: RunWidth, runs: list[Run], size: float, width_mm: float,
               text_width: TextWidth | None = None, hyphens: bool = True) -> tuple[list[Line], bool]:
    """The lines of runs at ``size``, as the fitter breaks them (for flowed text, which
    does not break after hyphens), and whether a paragraph ends in a lone short word
    nothing could be pulled to."""
    widths: TextWidth = text_width or (lambda font, text, size: width(Run(text, font), size))
    paras = _prepared(tuple(runs), hyphens)
    lines: list[Line] = []
    lone = False
    for para in paras:
        found, _, left = _break_lines(width, widths, para, size, width_mm)
        lines += found
        lone = lone or left
    return lines, lone


# A paragraph ready for breaking at any size: its pieces, and when it is in one style,
# that style and its pieces as (space, word) strings.
# (The whole paragraph as one string too, in that case: most texts fit on one line.)
Paragraph = tuple[list[Piece], Run | None, list[tuple[str, str]], str]


@lru_cache(maxsize=4096)
def _prepared(runs: tuple[Run, ...], hyphens: bool) -> tuple[Paragraph, ...]:
    """A text's paragraphs, read once for every size a flow tries (not to be changed)."""
    return tuple(_paragraph(p, hyphens) for p in split_paragraphs(list(runs)))


def _paragraph(runs: list[Run], hyphens: bool = True) -> Paragraph:
    pieces = _pieces(runs, hyphens)
    style = _one_style(pieces) if pieces else None
    strings = [(sep.text if sep else "", piece[0].text) for sep, piece in pieces] if style else []
    return pieces, style, strings, "".join(sep + word for sep, word in strings)


def _wrap_paragraphs(width: RunWidth, text_width: TextWidth, paragraphs: list[Paragraph], size: float,
                     width_mm: float) -> tuple[list[Line], float, tuple[int, ...], int]:
    """Every paragraph's lines, the widest line's width, how many lines each paragraph took,
    and how many end in a lone short word."""
    lines: list[Line] = []
    widest = 0.0
    counts: list[int] = []
    lone = 0
    for para in paragraphs:
        found, widths, left = _break_lines(width, text_width, para, size, width_mm)
        lines += found
        widest = max(widest, *widths)
        counts.append(len(found))
        lone += left
    return lines, widest, tuple(counts), lone


def _plain_width(measure: Measure) -> RunWidth:
    return lambda run, size: measure(run.text, size)


def _plain_text_width(measure: Measure) -> TextWidth:
    return lambda font, text, size: measure(text, size)


def line_text(line: Line) -> str:
    return "".join(run.text for run in line)


def wrap(measure: Measure, text: str, size: float, width_mm: float) -> list[str]:
    """Greedy line breaking at `size` pt into lines at most width_mm wide.

    A piece wider than the box on its own gets a line to itself and overflows;
    fit_text reports it.
    """
    paras = [_paragraph(p) for p in split_paragraphs([Run(text)])]
    lines = _wrap_paragraphs(_plain_width(measure), _plain_text_width(measure), paras, size, width_mm)[0]
    return [line_text(line) for line in lines]


def _height_mm(n_lines: int, size: float, leading: float) -> float:
    """Height of n lines: the first line counts as `size` (its ascent, roughly,
    plus its descent tucked under), each further line adds one leading.

    Simple and font-independent, so the same text fits the same way in every
    test; the drawing stage places the first baseline `size` below the top.
    """
    if n_lines == 0:
        return 0.0
    return pt_to_mm(size + (n_lines - 1) * leading)


def _try(width: RunWidth, text_width: TextWidth, paras: list[Paragraph], size: float, width_mm: float,
         height_mm: float, line_height: float, max_lines: int | None) -> FittedText:
    lines, widest, counts, lone = _wrap_paragraphs(width, text_width, paras, size, width_mm)
    leading = size * line_height
    over = 0.0
    over = max(over, widest / width_mm - 1.0)
    over = max(over, _height_mm(len(lines), size, leading) / height_mm - 1.0)
    if max_lines is not None:
        over = max(over, len(lines) / max_lines - 1.0)
    fits = over <= _EPS
    return FittedText(tuple(line_text(l) for l in lines), size, leading, fits, 0.0 if fits else over, tuple(lines),
                      counts, lone)


def fit_text(measure: Measure, text: str, width_mm: float, height_mm: float,
             size: float, min_size: float, line_height: float = 1.2,
             max_lines: int | None = None) -> FittedText:
    """fit_runs for a plain string, measured by ``measure(text, size_pt) -> mm``."""
    return fit_runs(_plain_width(measure), [Run(text)], width_mm, height_mm, size, min_size, line_height, max_lines,
                    text_width=_plain_text_width(measure))


def fit_runs(width: RunWidth, runs: list[Run], width_mm: float, height_mm: float,
             size: float, min_size: float, line_height: float = 1.2,
             max_lines: int | None = None, text_width: TextWidth | None = None) -> FittedText:
    """The largest size on a 0.25 pt grid from `size` down to `min_size` at
    which the runs (words, styled words, icons: each measured by ``width``) fit the box; else the min_size layout with fits=False.

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

    paras = [_paragraph(p) for p in split_paragraphs(runs)]
    widths: TextWidth = text_width or (lambda font, text, size: width(Run(text, font), size))

    def attempt(s: float) -> FittedText:
        return _try(width, widths, paras, s, width_mm, height_mm, line_height, max_lines)

    first = attempt(size)
    if first.fits:
        return _fewer_lone_words(first, attempt, min_size)
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
    return _fewer_lone_words(best, attempt, min_size)


def _fewer_lone_words(best: FittedText, attempt: Callable[[float], FittedText], min_size: float) -> FittedText:
    """``best`` (the largest size that fits), or when a paragraph there still ends in a lone
    short word, the first size up to SHRINK_STEPS grid steps smaller (never below
    min_size) that fits with fewer of them."""
    for k in range(1, SHRINK_STEPS + 1 if best.lone_words else 0):
        smaller = best.size - k * STEP_PT
        if smaller < min_size - _EPS:
            break
        r = attempt(smaller)
        if r.fits and r.lone_words < best.lone_words:
            return r
    return best
