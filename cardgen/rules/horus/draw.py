"""A debug picture of a Horus table (``cardgen validate horus --seed S --draw FILE.png``).

Each tile is a square in its type's colour with its letter (D, H, F, S for the
terrains; N Necropolis, T Temple; water is blue with waves, P the Step Pyramid, B a
Boat). A thick dark line separates tiles of different regions; tiles on an island
get a white inner frame. Kingdom Stones sit in the tile's corner as their player's
shape (1 circle, 2 square, 3 triangle, 4 star) with the seat number. Below the
table: the score, the islands and the region sizes, so a person sees what the
simulator saw.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from ...base.paths import shipped_fonts_dir
from .geometry import NBR, xy
from .spec import BOAT, NECRO, PYRAMID, RIVER, TEMPLE, WATER

CELL = 18  # pixels per half-cell: a tile is 36 px
MARGIN = 2 * CELL
TERRAIN_COLOURS = ("#e3c16f", "#a97c50", "#9ccc65", "#4e8f7c", "#c0a0d0", "#d08060")
KIND_COLOURS = {RIVER: "#3d7fd6", BOAT: "#3d7fd6", PYRAMID: "#3d7fd6", NECRO: "#5a5a5a", TEMPLE: "#2f8f5b"}
SEAT_FILL = ("#ffffff", "#2a62c9", "#111111", "#e0b020")
SEAT_INK = ("#111111", "#ffffff", "#ffffff", "#111111")


def _font(size: int):
    try:
        return ImageFont.truetype(str(shipped_fonts_dir() / "NotoSans-Bold.ttf"), size)
    except OSError:
        return ImageFont.load_default()


def _shape(d: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float) -> None:
    fill, ink = SEAT_FILL[seat % 4], "#000000"
    if seat % 4 == 0:
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=ink, width=2)
    elif seat % 4 == 1:
        d.rectangle([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=ink, width=2)
    elif seat % 4 == 2:
        d.polygon([(cx, cy - r * 1.15), (cx + r * 1.1, cy + r * 0.9), (cx - r * 1.1, cy + r * 0.9)], fill=fill,
                  outline="#ffffff")
    else:
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r * 1.2 if i % 2 == 0 else r * 0.55
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        d.polygon(pts, fill=fill, outline=ink)


def draw_board(s, path) -> None:
    """Write the table of state ``s`` as a PNG at ``path``."""
    g = s.g
    places = [xy(c) for c in s.pos]
    xs = [x for x, _ in places] or [0]
    ys = [y for _, y in places] or [0]
    x0, y0 = min(xs), min(ys)
    width = (max(xs) + 2 - x0) * CELL + 2 * MARGIN
    legend_lines = 4 + g.num_players
    height = (max(ys) + 2 - y0) * CELL + 2 * MARGIN + legend_lines * 22
    width = max(width, 560)
    img = Image.new("RGB", (width, height), "#f4efe4")
    d = ImageDraw.Draw(img)
    letter_font = _font(16)
    small = _font(11)
    text_font = _font(14)
    island_slots = {m for lid in s.islands() for m in s.land_members[lid]}

    def box(slot: int) -> tuple[int, int, int, int]:
        x, y = places[slot]
        left = MARGIN + (x - x0) * CELL
        top = MARGIN + (y - y0) * CELL
        return left, top, left + 2 * CELL, top + 2 * CELL

    for slot, kind in enumerate(s.kind):
        l, t, r, b = box(slot)
        colour = TERRAIN_COLOURS[kind] if kind < g.nterr else KIND_COLOURS[kind]
        d.rectangle([l, t, r, b], fill=colour, outline="#333333")
        if kind in WATER:
            for k in range(3):
                yy = t + 8 + k * 9
                d.line([(l + 5, yy), (l + 12, yy - 3), (l + 19, yy), (l + 26, yy - 3), (r - 4, yy)], fill="#bcd8f7",
                       width=2)
        if slot in island_slots:
            d.rectangle([l + 3, t + 3, r - 3, b - 3], outline="#ffffff", width=2)
        letter = {BOAT: "B", PYRAMID: "P", NECRO: "N", TEMPLE: "T", RIVER: ""}.get(kind)
        if letter is None:
            letter = g.terrains[kind][0].upper()
        if letter:
            ink = "#ffffff" if kind in (NECRO, TEMPLE, BOAT, PYRAMID) or kind == 3 else "#222222"
            d.text(((l + r) / 2, (t + b) / 2), letter, fill=ink, font=letter_font, anchor="mm")
    _region_borders(d, s, box)
    for slot, seat in s.stone_at.items():
        l, t, r, b = box(slot)
        cx, cy = r - 9, t + 9
        _shape(d, seat, cx, cy, 6)
        d.text((cx, cy + 1), str(seat + 1), fill=SEAT_INK[seat % 4], font=small, anchor="mm")
    # legend
    y = height - legend_lines * 22 - MARGIN // 2
    scores = s.scores()
    sizes = sorted((len(m) for m in s.reg_members.values()), reverse=True)
    d.text((MARGIN, y), f"turn {s.turn}, {len(s.kind)} tiles on the table, {len(s.stone_at)} stones,"
                        f" islands: {len(s.islands())}", fill="#222222", font=text_font)
    y += 22
    d.text((MARGIN, y), f"regions ({len(sizes)}): " + " ".join(map(str, sizes[:30])), fill="#222222", font=text_font)
    y += 22
    d.text((MARGIN, y), "stacks left: " + ", ".join(f"{sid} {len(st)}" for sid, st in zip(g.stack_ids, s.stacks)),
           fill="#222222", font=text_font)
    y += 22
    for p in range(g.num_players):
        _shape(d, p, MARGIN + 7, y + 9, 7)
        colour = g.colours[p] if p < len(g.colours) else str(p + 1)
        d.text((MARGIN + 22, y), f"seat {p + 1} ({colour}): {scores[p]} points", fill="#222222", font=text_font)
        y += 22
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    img.save(str(path))


def _region_borders(d: ImageDraw.ImageDraw, s: Any, box: Callable[[int], tuple[int, int, int, int]]) -> None:
    """A thick line where two touching tiles are not of one region."""
    for slot, c in enumerate(s.pos):
        l, t, r, b = box(slot)
        for dd in (NBR[1], NBR[0], NBR[2], NBR[7], NBR[6], NBR[8]):  # right and below, full and half edges
            o = s.at.get(c + dd)
            if o is None:
                continue
            if s.reg[slot] >= 0 and s.reg[slot] == s.reg[o]:
                continue
            ol, ot, orr, ob = box(o)
            if ol == r:  # a vertical shared edge
                d.line([(r, max(t, ot)), (r, min(b, ob))], fill="#111111", width=3)
            elif ot == b:
                d.line([(max(l, ol), b), (min(r, orr), b)], fill="#111111", width=3)
