"""Small inline SVG charts for the HTML report: bars with error bars, a row of an
interval chart (a dot, its interval and a reference line), a range row and a histogram.

Each function returns one ``<svg>`` element as text, sized in pixels, with a ``<title>``
per mark for the exact numbers; every text that comes from a game passes through
:func:`esc` (a game's names are untrusted data). The colours are the page's CSS classes
(``mark``, ``above``, ``below``, ``ref``…), so the charts follow its stylesheet."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

FONT = 11  # px, the charts' text


def esc(text: object) -> str:
    """Text made safe for HTML and SVG, quotes included."""
    return html.escape(str(text), quote=True)


def pct(x: float | None) -> str:
    """A proportion as a whole percentage ("42 %"), or a dash."""
    return "—" if x is None else f"{100 * x:.0f}\u00a0%"


def rate_text(rate: float | None, lo: float | None, hi: float | None) -> str:
    """A rate and its interval, in whole percentages: "42 % [29–56]"."""
    bound = lambda v: "—" if v is None else f"{100 * v:.0f}"  # noqa: E731
    return f"{pct(rate)} [{bound(lo)}–{bound(hi)}]"


def nice_top(x: float, step: float = 0.1) -> float:
    """The smallest multiple of ``step`` at or above ``x`` (at least one step)."""
    return max(step, math.ceil(round(x / step, 6)) * step)


def _f(x: float) -> str:
    return f"{x:.1f}"


def seat_bars(seats: Sequence[dict], fair: float | None, top: float, flags: Sequence[str] = ()) -> str:
    """One configuration's win rate per seat: a bar per seat, its 95 % interval as an error
    bar, the fair share as a dashed line, on a 0..``top`` scale shared by the grid."""
    n = len(seats)
    bar, gap, left, right, head, foot, height = 22, 10, 34, 8, 16, 18, 110
    width = left + n * (bar + gap) + right
    y = lambda v: head + height - height * min(v, top) / top  # noqa: E731
    out = [f'<svg class="chart seats" width="{width}" height="{head + height + foot}" role="img"'
           f' viewBox="0 0 {width} {head + height + foot}">']
    for k in range(3):  # the axis: 0, half, top
        v = top * k / 2
        out.append(f'<line class="grid" x1="{left - 3}" x2="{width - right}" y1="{_f(y(v))}" y2="{_f(y(v))}"/>')
        out.append(f'<text class="tick" x="{left - 5}" y="{_f(y(v) + 3.5)}" text-anchor="end">{100 * v:.0f}</text>')
    for i, s in enumerate(seats):
        x = left + gap / 2 + i * (bar + gap)
        rate = s.get("rate")
        flag = flags[i] if i < len(flags) else "fair"
        cls = flag if flag in ("above", "below") else "mark"
        lo, hi = (s.get("ci95") or [None, None])[:2]
        tip = f"seat {s.get('seat', i + 1)}: {rate_text(rate, lo, hi)}, {s.get('wins', 0)} wins"
        out.append(f'<g class="seat" data-seat="{esc(s.get("seat", i + 1))}"><title>{esc(tip)}</title>')
        if rate is not None:
            out.append(f'<rect class="{cls}" x="{_f(x)}" y="{_f(y(rate))}" width="{bar}"'
                       f' height="{_f(head + height - y(rate))}" rx="2"/>')
        if lo is not None and hi is not None:
            cx = x + bar / 2
            out.append(f'<path class="err" d="M{_f(cx)} {_f(y(lo))}V{_f(y(hi))}M{_f(cx - 5)} {_f(y(lo))}'
                       f'h10M{_f(cx - 5)} {_f(y(hi))}h10"/>')
        if rate is not None and n <= 6:
            out.append(f'<text class="val" x="{_f(x + bar / 2)}" y="{_f(min(y(rate), y(hi or rate)) - 3)}"'
                       f' text-anchor="middle">{100 * rate:.0f}</text>')
        out.append(f'<text class="tick" x="{_f(x + bar / 2)}" y="{head + height + 13}"'
                   f' text-anchor="middle">{esc(s.get("seat", i + 1))}</text></g>')
    if fair is not None:
        out.append(f'<line class="ref" x1="{left - 3}" x2="{width - right}" y1="{_f(y(fair))}"'
                   f' y2="{_f(y(fair))}"><title>fair share {esc(pct(fair))}</title></line>')
    out.append("</svg>")
    return "".join(out)


class Scale:
    """A horizontal scale from ``lo``..``hi`` onto a row ``width`` pixels wide."""

    def __init__(self, lo: float, hi: float, width: int = 380, pad: int = 8):
        self.lo, self.hi, self.width, self.pad = lo, hi, width, pad

    def x(self, v: float) -> float:
        v = min(max(v, self.lo), self.hi)
        return self.pad + (self.width - 2 * self.pad) * (v - self.lo) / ((self.hi - self.lo) or 1)

    def ticks(self) -> list[float]:
        """Round values across the scale, five to seven of them (1, 2, 2.5 or 5 times a power of ten apart)."""
        raw = (self.hi - self.lo) / 6
        if raw <= 0:
            return [self.lo]
        mag = 10 ** math.floor(math.log10(raw))
        step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw * (1 - 1e-9))
        k = math.ceil(self.lo / step - 1e-9)
        out = []
        while k * step <= self.hi + step * 1e-9:
            out.append(round(k * step, 12))
            k += 1
        return out


def axis(scale: Scale, label: object, fmt=lambda v: f"{v:g}") -> str:
    """The scale's tick labels above a column of rows, with what it measures."""
    h = 30
    out = [f'<svg class="chart axis" width="{scale.width}" height="{h}" viewBox="0 0 {scale.width} {h}">',
           f'<text class="axis-label" x="{scale.width / 2:.1f}" y="11" text-anchor="middle">{esc(label)}</text>']
    for v in scale.ticks():
        x = scale.x(v)
        anchor = "start" if x < 14 else "end" if x > scale.width - 14 else "middle"
        out.append(f'<text class="tick" x="{_f(x)}" y="25" text-anchor="{anchor}">{esc(fmt(v))}</text>'
                   f'<line class="grid" x1="{_f(x)}" x2="{_f(x)}" y1="27" y2="{h}"/>')
    out.append("</svg>")
    return "".join(out)


def interval_row(scale: Scale, value: float | None, lo: float | None, hi: float | None, ref: float | None,
                 tip: str, flag: str = "fair", expected: float | None = None, height: int = 18) -> str:
    """One row of an interval chart: the value as a dot, its interval as a whisker, the
    reference (fair share, base rate) as a dashed line and an expected value as a tick."""
    cls = flag if flag in ("above", "below") else "mark"
    mid = height / 2
    out = [f'<svg class="chart row" width="{scale.width}" height="{height}" viewBox="0 0 {scale.width} {height}">'
           f'<title>{esc(tip)}</title>']
    for v in scale.ticks():
        out.append(f'<line class="grid" x1="{_f(scale.x(v))}" x2="{_f(scale.x(v))}" y1="0" y2="{height}"/>')
    if ref is not None:
        out.append(f'<line class="ref" x1="{_f(scale.x(ref))}" x2="{_f(scale.x(ref))}" y1="0" y2="{height}"/>')
    if expected is not None:
        out.append(f'<line class="expected" x1="{_f(scale.x(expected))}" x2="{_f(scale.x(expected))}"'
                   f' y1="{mid - 6}" y2="{mid + 6}"/>')
    if lo is not None and hi is not None:
        a, b = scale.x(lo), scale.x(hi)
        out.append(f'<path class="err {cls}" d="M{_f(a)} {mid}H{_f(b)}M{_f(a)} {mid - 4}v8M{_f(b)} {mid - 4}v8"/>')
    if value is not None:
        out.append(f'<circle class="{cls}" cx="{_f(scale.x(value))}" cy="{mid}" r="4.5"/>')
    out.append("</svg>")
    return "".join(out)


def range_row(scale: Scale, low: float, median: float, p95: float, high: float, tip: str, height: int = 18) -> str:
    """One row of a length chart: the shortest to the longest game as a line, the median
    to the 95th percentile as a bar, the median as a dot."""
    mid = height / 2
    return (f'<svg class="chart row" width="{scale.width}" height="{height}" viewBox="0 0 {scale.width} {height}">'
            f'<title>{esc(tip)}</title>'
            + "".join(f'<line class="grid" x1="{_f(scale.x(v))}" x2="{_f(scale.x(v))}" y1="0" y2="{height}"/>'
                      for v in scale.ticks())
            + f'<line class="err" x1="{_f(scale.x(low))}" x2="{_f(scale.x(high))}" y1="{mid}" y2="{mid}"/>'
            f'<rect class="mark soft" x="{_f(scale.x(median))}" y="{mid - 4}"'
            f' width="{_f(max(1.0, scale.x(p95) - scale.x(median)))}" height="8" rx="2"/>'
            f'<circle class="mark" cx="{_f(scale.x(median))}" cy="{mid}" r="4.5"/></svg>')


def histogram(bins: Sequence[Sequence[float]], width: int = 150, height: int = 34, what: str = "") -> str:
    """A small histogram of ``[low, high, count]`` bins, each bin's numbers in its title."""
    bins = [b for b in bins if len(b) >= 3]
    if not bins:
        return ""
    most = max(b[2] for b in bins) or 1
    w = width / len(bins)
    out = [f'<svg class="chart hist" width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    for k, (low, high, count) in enumerate(b[:3] for b in bins):
        h = (height - 2) * count / most
        span = f"{low:g}" if low == high else f"{low:.4g}–{high:.4g}"
        out.append(f'<rect class="mark" x="{_f(k * w + 0.5)}" y="{_f(height - h)}" width="{_f(max(w - 1, 0.5))}"'
                   f' height="{_f(h)}"><title>{esc(what)}{esc(span)}: {count:g}</title></rect>')
    out.append(f'<line class="grid" x1="0" x2="{width}" y1="{height - 0.5}" y2="{height - 0.5}"/></svg>')
    return "".join(out)
