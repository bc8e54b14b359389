"""The layout language: what a rendered template may contain, and its checks.

A face template renders to YAML: a list of draw operations, each a one-key mapping
``{rect: {x: 0, y: 0, w: 63, h: 88, fill: lapis}}``. Units are millimetres from the
top-left corner of the trim box, y growing downwards; font sizes are points. A sheet
template may instead render ``{pages: [[op, ...], [op, ...]]}`` for several pages.

This module only checks shape and types (every problem named with its op); the
drawing module trusts what passes here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import Collector

MIN_TEXT_PT = 6.0  # nothing printed smaller than this is legible

NUM = "number"
STR = "text"
COLOUR = "colour"
BOOL = "bool"
POINTS = "points"
OPS = "ops"
BLOCKS = "blocks"
PAIR = "pair"
ANY_SCALE = "scale"
BOX4 = "a box [x, y, w, h]"

_PAINT = {"fill": COLOUR, "stroke": COLOUR, "stroke_width": NUM, "opacity": NUM, "dash": POINTS, "cap": STR}
_BOX = {"x": NUM, "y": NUM, "w": NUM, "h": NUM}

SPECS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    # kind: (required, optional)
    "rect": (_BOX, {"r": NUM, **_PAINT}),
    "circle": ({"cx": NUM, "cy": NUM, "r": NUM}, _PAINT),
    "ellipse": ({"cx": NUM, "cy": NUM, "rx": NUM, "ry": NUM}, _PAINT),
    "line": ({"x1": NUM, "y1": NUM, "x2": NUM, "y2": NUM}, _PAINT),
    "polygon": ({"points": POINTS}, {"closed": BOOL, **_PAINT}),
    "path": ({"d": STR}, _PAINT),
    "text": (
        {**_BOX, "text": STR},
        {
            "font": STR,
            "size": NUM,
            "min_size": NUM,
            "line_height": NUM,
            "align": STR,
            "valign": STR,
            "color": COLOUR,
            "opacity": NUM,
            "max_lines": NUM,
        },
    ),
    "glyph": ({**_BOX, "char": STR}, {"font": STR, "color": COLOUR, "opacity": NUM, "align": STR, "weight": NUM}),
    "image": ({**_BOX, "src": STR}, {"fit": STR, "opacity": NUM}),
    "group": (
        {"ops": OPS},
        {"translate": PAIR, "rotate": NUM, "scale": ANY_SCALE, "clip": BOX4, "opacity": NUM},
    ),
    "flow": (
        {**_BOX, "blocks": BLOCKS},
        {
            "font": STR,
            "bold_font": STR,
            "heading_font": STR,
            "size": NUM,
            "min_size": NUM,
            "line_height": NUM,
            "color": COLOUR,
            "heading_color": COLOUR,
            "accent": COLOUR,
            "columns": NUM,
            "gap": NUM,
        },
    ),
}

BLOCK_KINDS = ("h1", "h2", "p", "li", "num", "space")
CHOICES = {
    "align": ("left", "center", "right"),
    "valign": ("top", "middle", "bottom"),
    "fit": ("contain", "cover", "stretch"),
    "cap": ("butt", "round", "square"),
}


@dataclass(frozen=True)
class Op:
    """One checked draw operation: its kind and its (already typed) arguments."""

    kind: str
    args: dict[str, Any]
    children: tuple[Op, ...] = ()


def _is_num(v: Any) -> bool:
    """A finite number (NaN or infinity would reach the PDF as garbage)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return math.isfinite(v) if isinstance(v, float) else abs(v) < 10**15


def _check_value(kind: str, key: str, want: str, value: Any, label: str, errors: Collector) -> Any:
    bad = False
    if want == NUM:
        bad = not _is_num(value)
    elif want in (STR, COLOUR):
        bad = not isinstance(value, str)
        if want == STR and isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
    elif want == BOOL:
        bad = not isinstance(value, bool)
    elif want == POINTS:
        bad = not isinstance(value, list) or not all(
            _is_num(v) or (isinstance(v, list) and len(v) == 2 and all(_is_num(c) for c in v)) for v in value
        )
    elif want == BOX4:
        bad = not (isinstance(value, list) and len(value) == 4 and all(_is_num(v) for v in value))
    elif want == PAIR:
        bad = not (isinstance(value, list) and len(value) == 2 and all(_is_num(v) for v in value))
    elif want == ANY_SCALE:
        bad = not (_is_num(value) or (isinstance(value, list) and len(value) == 2 and all(_is_num(v) for v in value)))
    if bad:
        errors.add(f"{label}: '{key}' of {kind} must be {want}, found {value!r}")
        return None
    if key in CHOICES and value not in CHOICES[key]:
        errors.add(f"{label}: '{key}' of {kind} must be one of {', '.join(CHOICES[key])}, found {value!r}")
        return None
    return value


def _parse_blocks(value: Any, label: str, errors: Collector) -> list[tuple[str, str]] | None:
    if not isinstance(value, list):
        errors.add(f"{label}: 'blocks' of flow must be a list of {{h1|h2|p|li|num|space: text}}")
        return None
    out = []
    for i, block in enumerate(value):
        if not (isinstance(block, dict) and len(block) == 1):
            errors.add(f"{label}: flow block {i + 1} must be one of {{{'|'.join(BLOCK_KINDS)}: text}}")
            continue
        (bkind, text), = block.items()
        if bkind not in BLOCK_KINDS:
            errors.add(f"{label}: flow block {i + 1} has unknown kind '{bkind}' (allowed: {', '.join(BLOCK_KINDS)})")
            continue
        out.append((bkind, "" if text is None else str(text)))
    return out


def parse_ops(doc: Any, label: str, errors: Collector) -> tuple[Op, ...]:
    """Check a list of op mappings; ``label`` says which template/card/language."""
    if doc is None:
        return ()
    if not isinstance(doc, list):
        errors.add(f"{label}: a layout must be a list of draw operations, found {type(doc).__name__}")
        return ()
    ops = []
    for i, item in enumerate(doc):
        before = len(errors.errors)
        where = f"{label}: op {i + 1}"
        if not (isinstance(item, dict) and len(item) == 1):
            errors.add(f"{where}: each operation is a one-key mapping such as {{rect: {{...}}}}, found {item!r:.60}")
            continue
        (kind, args), = item.items()
        if kind not in SPECS:
            errors.add(f"{where}: unknown operation '{kind}' (known: {', '.join(sorted(SPECS))})")
            continue
        if not isinstance(args, dict):
            errors.add(f"{where}: '{kind}' needs a mapping of arguments")
            continue
        required, optional = SPECS[kind]
        checked: dict[str, Any] = {}
        for key in args:
            if key not in required and key not in optional:
                allowed = ", ".join(sorted({*required, *optional}))
                errors.add(f"{where}: unknown key '{key}' in {kind} (allowed: {allowed})")
        for key in required:
            if key not in args:
                errors.add(f"{where}: {kind} is missing '{key}'")
        children: tuple[Op, ...] = ()
        for key, value in args.items():
            want = required.get(key) or optional.get(key)
            if want is None:
                continue
            if want == OPS:
                children = parse_ops(value, f"{where} (group)", errors)
            elif want == BLOCKS:
                checked[key] = _parse_blocks(value, where, errors)
            else:
                checked[key] = _check_value(kind, key, want, value, where, errors)
        if kind in ("text", "flow"):
            size = checked.get("size") or 9.0
            min_size = checked.get("min_size") or min(size, MIN_TEXT_PT)
            if min_size < MIN_TEXT_PT or size < MIN_TEXT_PT:
                errors.add(f"{where}: text smaller than {MIN_TEXT_PT:g} pt is not legible (size {size}, min_size {min_size})")
        if len(errors.errors) == before:  # an op with a wrong argument is reported, never measured or drawn
            ops.append(Op(kind, checked, children))
    return tuple(ops)


def parse_layout(doc: Any, label: str, errors: Collector, allow_pages: bool = False) -> list[tuple[Op, ...]]:
    """A rendered template → its pages (one page for a card face)."""
    if isinstance(doc, dict) and set(doc) == {"pages"}:
        if not allow_pages:
            errors.add(f"{label}: a card face has one page; 'pages' is for sheet templates")
            return []
        pages = doc["pages"]
        if not isinstance(pages, list) or not pages:
            errors.add(f"{label}: 'pages' must be a non-empty list of op lists")
            return []
        return [parse_ops(p, f"{label} page {n + 1}", errors) for n, p in enumerate(pages)]
    return [parse_ops(doc, label, errors)]
