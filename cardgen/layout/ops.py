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
import reprlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..base.errors import Collector
from .svgpath import PathError, parse_path

MIN_TEXT_PT = 6.0  # nothing printed smaller than this is legible

# Bounds on what a rendered layout may ask for: each far beyond any real card or board,
# and each keeping the checks and the drawing quick (a 10^12 pt text once had the
# fitter list every 0.25 pt step down to 6 pt).
MAX_NUMBER = 100_000  # any number: mm (100 m), degrees, factors
MAX_TEXT_PT = 400.0  # a text's size (14 cm capitals)
MAX_BOX_MM = 2_000.0  # a side of a text or flow box: the largest board
MAX_LINE_HEIGHT = 10.0  # times the size
MAX_LINES = 1_000  # max_lines of a text
MAX_COLUMNS = 12  # columns of a flow
MAX_TEXT_CHARS = 10_000  # characters of one text op
MAX_FLOW_CHARS = 20_000  # characters of one flow's blocks together
MAX_OPS = 20_000  # operations on one face or page, the contents of groups included
MAX_GROUP_DEPTH = 32  # groups inside groups
MAX_PAGES = 100  # pages one sheet template may render
MAX_CHOICES = 24  # layouts one template may offer (the first whose texts all fit is drawn)

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
CLIP = "a box [x, y, w, h] or SVG path data"

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
            "bold_font": STR,
            "italic_font": STR,
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
        {"translate": PAIR, "rotate": NUM, "scale": ANY_SCALE, "clip": CLIP, "clip_shape": STR,
         "clip_radius": NUM, "opacity": NUM},
    ),
    "flow": (
        _BOX,
        {
            "blocks": BLOCKS,
            "name": STR,
            "continues": STR,
            "font": STR,
            "bold_font": STR,
            "italic_font": STR,
            "heading_font": STR,
            "size": NUM,
            "min_size": NUM,
            "line_height": NUM,
            "color": COLOUR,
            "heading_color": COLOUR,
            "accent": COLOUR,
            "columns": NUM,
            "gap": NUM,
            "spread": BOOL,
        },
    ),
}

BLOCK_KINDS = ("h1", "h2", "p", "li", "num", "space")
CHOICES = {
    "align": ("left", "center", "right"),
    "valign": ("top", "middle", "bottom"),
    "fit": ("contain", "cover", "stretch"),
    "cap": ("butt", "round", "square"),
    "clip_shape": ("rect", "circle", "hex", "hex-flat", "rounded"),
}


@dataclass(frozen=True)
class Op:
    """One checked draw operation: its kind and its (already typed) arguments."""

    kind: str
    args: dict[str, Any]
    children: tuple[Op, ...] = ()


@dataclass(frozen=True)
class Bound:
    """The range of one argument, beyond its type: ``low < v`` (or ``<=``) and ``v <= high``."""

    low: float | None
    high: float
    low_open: bool = False  # the low end itself is refused (a box of width 0)
    whole: bool = False  # a count: 1, 2, 3 (2.0 too), never 0.5
    unit: str = ""

    def admits(self, v: float) -> bool:
        if self.whole and v != int(v):
            return False
        if self.low is not None and (v <= self.low if self.low_open else v < self.low):
            return False
        return v <= self.high

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        if self.whole:
            return f"a whole number from {self.low:g} to {self.high:,g}"
        if self.low is None:
            return f"at most {self.high:,g}{unit}"
        return f"{'more than' if self.low_open else 'at least'} {self.low:g} and at most {self.high:,g}{unit}"


_BOX_SIDE = Bound(0, MAX_BOX_MM, low_open=True, unit="mm")
_TEXT_PT = Bound(None, MAX_TEXT_PT, unit="pt")  # the low end: the legibility check below
_LINE_HEIGHT = Bound(0, MAX_LINE_HEIGHT, low_open=True)
BOUNDS: dict[tuple[str, str], Bound] = {
    **{(kind, key): _BOX_SIDE for kind in ("text", "flow") for key in ("w", "h")},
    **{(kind, key): _TEXT_PT for kind in ("text", "flow") for key in ("size", "min_size")},
    ("text", "line_height"): _LINE_HEIGHT,
    ("flow", "line_height"): _LINE_HEIGHT,
    ("text", "max_lines"): Bound(1, MAX_LINES, whole=True),
    ("flow", "columns"): Bound(1, MAX_COLUMNS, whole=True),
    ("flow", "gap"): Bound(0, MAX_BOX_MM, unit="mm"),
}

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict = 4, 10, 10, 6
_SHORT.maxstring = _SHORT.maxother = 60


def shown(value: Any) -> str:
    """A value as an error message quotes it: cut short, however long or deep it is."""
    return _SHORT.repr(value)


def _is_num(v: Any) -> bool:
    """A finite number (NaN or infinity would reach the PDF as garbage)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return math.isfinite(v) if isinstance(v, float) else abs(v) < 10**15


def _numbers(value: Any) -> list[float]:
    """The numbers of a checked value: itself, or those of its list (of pairs)."""
    if isinstance(value, list):
        return [n for v in value for n in (v if isinstance(v, list) else [v])]
    return [value]


def _check_bounds(kind: str, key: str, value: Any, label: str, errors: Collector) -> bool:
    """The value within the argument's own Bound and its numbers within MAX_NUMBER, else an error."""
    bound = BOUNDS.get((kind, key))
    if bound is not None and not bound.admits(value):
        errors.add(f"{label}: '{key}' of {kind} must be {bound.describe()}, found {shown(value)}")
        return False
    if not all(abs(n) <= MAX_NUMBER for n in _numbers(value)):
        errors.add(f"{label}: '{key}' of {kind} holds a number beyond ±{MAX_NUMBER:,}, found {shown(value)}")
        return False
    if key == "dash" and value and (min(_numbers(value)) < 0 or sum(_numbers(value)) <= 0):
        errors.add(f"{label}: 'dash' of {kind} must be lengths of at least 0 adding up to more than 0 (mm), "
                   f"found {shown(value)}")  # the PDF has no dash pattern of length 0
        return False
    return True


def _n_numbers(value: Any, n: int) -> bool:
    """A list of ``n`` numbers."""
    return isinstance(value, list) and len(value) == n and all(_is_num(v) for v in value)


def _is_points(value: Any) -> bool:
    """A list of points, each a number or an ``[x, y]`` pair."""
    return isinstance(value, list) and all(_is_num(v) or _n_numbers(v, 2) for v in value)


# What a value of each argument type must look like (types with no shape here take anything).
_SHAPES: dict[str, Callable[[Any], bool]] = {
    NUM: _is_num,
    STR: lambda v: isinstance(v, str),
    COLOUR: lambda v: isinstance(v, str),
    BOOL: lambda v: isinstance(v, bool),
    POINTS: _is_points,
    BOX4: lambda v: _n_numbers(v, 4),
    CLIP: lambda v: _n_numbers(v, 4),  # or path data: a string, checked as such
    PAIR: lambda v: _n_numbers(v, 2),
    ANY_SCALE: lambda v: _is_num(v) or _n_numbers(v, 2),
}
_BOUNDED = (POINTS, BOX4, CLIP, PAIR, ANY_SCALE)  # every number in them within its bounds


def _check_value(kind: str, key: str, want: str, value: Any, label: str, errors: Collector) -> Any:
    """``value`` if it has the shape, bounds and choices of its argument type; else
    None, with the error added."""
    if want == STR and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)  # a number where text is wanted is its text
    if want == CLIP and isinstance(value, str):
        return _check_clip_path(kind, value, label, errors)
    shape = _SHAPES.get(want)
    if shape is not None and not shape(value):
        errors.add(f"{label}: '{key}' of {kind} must be {want}, found {shown(value)}")
        return None
    if want == NUM:  # the common case first: a plain number within MAX_NUMBER, no bound of its own
        if ((kind, key) in BOUNDS or not -MAX_NUMBER <= value <= MAX_NUMBER) \
                and not _check_bounds(kind, key, value, label, errors):
            return None
    elif want in _BOUNDED and not _check_bounds(kind, key, value, label, errors):
        return None
    if key in CHOICES and value not in CHOICES[key]:
        errors.add(f"{label}: '{key}' of {kind} must be one of {', '.join(CHOICES[key])}, found {shown(value)}")
        return None
    return value


def _check_clip_path(kind: str, value: str, label: str, errors: Collector) -> str | None:
    """A clip given as SVG path data: usable, and not empty."""
    try:
        if not parse_path(value):
            raise PathError("path data is empty")
    except PathError as exc:
        errors.add(f"{label}: 'clip' of {kind} is not usable path data: {exc}")
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


class _Tally:
    """What a face's ops have used so far, shared by the groups inside it."""

    def __init__(self, label: str):
        self.label = label  # the face's own label, for the errors about the whole face
        self.ops = 0
        self.full = False  # MAX_OPS reached (reported once)
        self.deep = False  # MAX_GROUP_DEPTH reached (reported once)


def parse_ops(doc: Any, label: str, errors: Collector, *, _tally: _Tally | None = None, _depth: int = 1
              ) -> tuple[Op, ...]:
    """Check a list of op mappings; ``label`` says which template/card/language."""
    tally = _tally or _Tally(label)
    if doc is None:
        return ()
    if not isinstance(doc, list):
        errors.add(f"{label}: a layout must be a list of draw operations, found {type(doc).__name__}")
        return ()
    ops = []
    for i, item in enumerate(doc):
        if tally.deep:  # said for the face; the rest is not walked
            break
        tally.ops += 1
        if tally.ops > MAX_OPS:
            if not tally.full:
                tally.full = True
                errors.add(f"{tally.label}: more than {MAX_OPS:,} operations on one face (groups' contents included)")
            break
        op = _parse_op(item, f"{label}: op {i + 1}", errors, tally, _depth)
        if op is not None:
            ops.append(op)
    return tuple(ops)


def _parse_op(item: Any, where: str, errors: Collector, tally: _Tally, depth: int) -> Op | None:
    """One op mapping checked; None when anything about it is wrong (an op with a wrong
    argument is reported, never measured or drawn)."""
    before = len(errors.errors)
    if not (isinstance(item, dict) and len(item) == 1):
        errors.add(f"{where}: each operation is a one-key mapping such as {{rect: {{...}}}}, found {shown(item)}")
        return None
    (kind, args), = item.items()
    if kind not in SPECS:
        errors.add(f"{where}: unknown operation {shown(kind)} (known: {', '.join(sorted(SPECS))})")
        return None
    if not isinstance(args, dict):
        errors.add(f"{where}: '{kind}' needs a mapping of arguments")
        return None
    _check_keys(kind, args, where, errors)
    checked, children = _check_args(kind, args, where, errors, tally, depth)
    _check_lengths(kind, checked, where, errors)
    if kind == "group":
        _check_clip(checked, where, errors)
    elif kind == "flow":
        _check_flow_text(args, where, errors)
    if kind in ("text", "flow"):
        _check_legible(checked, where, errors)
    return Op(kind, checked, children) if len(errors.errors) == before else None


def _check_keys(kind: str, args: dict[str, Any], where: str, errors: Collector) -> None:
    """Every key of an op known to it, every key it needs given."""
    required, optional = SPECS[kind]
    for key in args:
        if key not in required and key not in optional:
            allowed = ", ".join(sorted({*required, *optional}))
            errors.add(f"{where}: unknown key {shown(key)} in {kind} (allowed: {allowed})")
    for key in required:
        if key not in args:
            errors.add(f"{where}: {kind} is missing '{key}'")


def _check_args(kind: str, args: dict[str, Any], where: str, errors: Collector, tally: _Tally, depth: int
                ) -> tuple[dict[str, Any], tuple[Op, ...]]:
    """The op's arguments checked by type, and the ops of a group inside it."""
    required, optional = SPECS[kind]
    checked: dict[str, Any] = {}
    children: tuple[Op, ...] = ()
    for key, value in args.items():
        want = required.get(key) or optional.get(key)
        if want is None:
            continue
        if want == OPS:
            if depth > MAX_GROUP_DEPTH:  # this group would be one more than MAX_GROUP_DEPTH
                if not tally.deep:  # said once for the face, however many groups go deeper
                    tally.deep = True
                    errors.add(f"{tally.label}: groups nested more than {MAX_GROUP_DEPTH} deep")
                break
            children = parse_ops(value, f"{where} (group)", errors, _tally=tally, _depth=depth + 1)
        elif want == BLOCKS:
            checked[key] = _parse_blocks(value, where, errors)
        else:
            checked[key] = _check_value(kind, key, want, value, where, errors)
    return checked, children


def _check_legible(checked: dict[str, Any], where: str, errors: Collector) -> None:
    """No text set smaller than MIN_TEXT_PT, by its size or its smallest fitted size."""
    size = checked.get("size") or 9.0
    min_size = checked.get("min_size") or min(size, MIN_TEXT_PT)
    if min_size < MIN_TEXT_PT or size < MIN_TEXT_PT:
        errors.add(f"{where}: text smaller than {MIN_TEXT_PT:g} pt is not legible (size {size}, min_size {min_size})")


# What a flow that continues another may set: its box and columns (the rest is the first flow's).
CONTINUED_KEYS = frozenset({*_BOX, "continues", "columns", "gap"})


def _check_flow_text(args: dict[str, Any], where: str, errors: Collector) -> None:
    """A flow holds its own ``blocks`` or takes up the text of another (``continues``), not both."""
    if "continues" not in args:
        if "blocks" not in args:
            errors.add(f"{where}: flow is missing 'blocks' (or 'continues', to take up another flow's text)")
        return
    extra = sorted(k for k in args if k not in CONTINUED_KEYS)
    if extra:
        errors.add(f"{where}: a flow that continues another takes its text, fonts and size from that flow; "
                   f"leave out {', '.join(repr(k) for k in extra)} (it may set {', '.join(sorted(CONTINUED_KEYS))})")


def _check_clip(checked: dict[str, Any], where: str, errors: Collector) -> None:
    """A group's ``clip_shape`` fits a shape into its ``clip`` box, so it needs a box;
    ``clip_radius`` is a rounded clip's corner radius, at most half the box's side."""
    shape, clip, radius = checked.get("clip_shape"), checked.get("clip"), checked.get("clip_radius")
    if shape is not None and not isinstance(clip, list):
        errors.add(f"{where}: 'clip_shape' of group needs 'clip' to be a box [x, y, w, h] to fit the shape into")
    elif radius is not None and shape != "rounded":
        errors.add(f"{where}: 'clip_radius' of group is for clip_shape rounded")
    elif shape == "rounded" and isinstance(clip, list):
        half = min(abs(clip[2]), abs(clip[3])) / 2
        if radius is None or not 0 <= radius <= half + 1e-9:
            errors.add(f"{where}: 'clip_radius' of group (clip_shape rounded) must be from 0 to half the clip "
                       f"box's shorter side ({half:g} mm), found {shown(radius)}")


def _check_lengths(kind: str, checked: dict[str, Any], where: str, errors: Collector) -> None:
    """A text op's text, a flow's blocks: no longer than MAX_TEXT_CHARS / MAX_FLOW_CHARS."""
    if kind == "text" and isinstance(checked.get("text"), str) and len(checked["text"]) > MAX_TEXT_CHARS:
        errors.add(f"{where}: the text of a text op may be at most {MAX_TEXT_CHARS:,} characters, "
                   f"found {len(checked['text']):,}")
    elif kind == "flow" and checked.get("blocks"):
        chars = sum(len(text) for _, text in checked["blocks"])
        if chars > MAX_FLOW_CHARS:
            errors.add(f"{where}: the blocks of a flow may hold at most {MAX_FLOW_CHARS:,} characters, found {chars:,}")


def leaf_ops(ops: tuple[Op, ...]) -> Iterator[Op]:
    """Every op that draws, depth first, groups opened (a group's clip and transform left out)."""
    for op in ops:
        if op.kind == "group":
            yield from leaf_ops(op.children)
        else:
            yield op


def _wrapped_list(doc: dict, key: str, label: str, errors: Collector, what: str, most: int,
                  too_many: str) -> list[Any]:
    """The non-empty, bounded list a rendered template wraps under ``key`` (``pages``,
    ``choices``); [] with an error when it is not one."""
    items = doc[key]
    if not isinstance(items, list) or not items:
        errors.add(f"{label}: '{key}' must be a non-empty list of {what}")
        return []
    if len(items) > most:
        errors.add(f"{label}: {too_many} at most {most} {key}, found {len(items):,}")
        return []
    return items


def layout_choices(doc: Any, label: str, errors: Collector) -> list[Any]:
    """A rendered template's layouts: ``{choices: [layout, layout, ...]}`` offers several,
    tried in turn (the first whose texts all fit is drawn); anything else is one."""
    if not (isinstance(doc, dict) and set(doc) == {"choices"}):
        return [doc]
    return _wrapped_list(doc, "choices", label, errors, "layouts", MAX_CHOICES, "a template may offer")


def parse_layout(doc: Any, label: str, errors: Collector, allow_pages: bool = False) -> list[tuple[Op, ...]]:
    """A rendered template → its pages (one page for a card face)."""
    if isinstance(doc, dict) and set(doc) == {"pages"}:
        if not allow_pages:
            errors.add(f"{label}: a card face has one page; 'pages' is for sheet templates")
            return []
        pages = _wrapped_list(doc, "pages", label, errors, "op lists", MAX_PAGES, "a sheet template may render")
        return [parse_ops(p, f"{label} page {n + 1}", errors) for n, p in enumerate(pages)]
    return [parse_ops(doc, label, errors)]
