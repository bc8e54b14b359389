"""What every layout op and op key means, and the reference page made from it.

The op table (``SPECS``, ``BLOCK_KINDS``, ``CHOICES``) says which ops and keys the
layout checker accepts and what type each value has; this module says what they do.
The documentation's layout reference is rendered from both by
:func:`reference_markdown`, so it lists exactly the keys the checker accepts, and
``tests/docs/test_docs.py`` fails when an op or a key has no description here.
"""

from __future__ import annotations

from typing import NamedTuple

from .ops import (
    ANY_SCALE,
    BLOCK_KINDS,
    BLOCKS,
    BOOL,
    BOX4,
    CHOICES,
    CLIP,
    COLOUR,
    MIN_TEXT_PT,
    NUM,
    OPS,
    PAIR,
    POINTS,
    SPECS,
    STR,
)


class Key(NamedTuple):
    """What one op key does, and the value the drawing uses when the key is left out."""

    text: str
    default: str | None = None


# The value kinds of the op table, in words.
VALUE_KINDS: dict[str, str] = {
    NUM: "number",
    STR: "text",
    COLOUR: "colour",
    BOOL: "`true` or `false`",
    POINTS: "list of numbers",
    OPS: "list of ops",
    BLOCKS: "list of blocks",
    PAIR: "`[x, y]`",
    ANY_SCALE: "number or `[sx, sy]`",
    BOX4: "`[x, y, w, h]`",
    CLIP: "`[x, y, w, h]` or SVG path data",
}

OPS_TEXT: dict[str, str] = {
    "rect": "A rectangle, filled, outlined or both, with square or rounded corners. "
            "`x`, `y` is its top-left corner.",
    "circle": "A circle around the centre `cx`, `cy`.",
    "ellipse": "An ellipse around the centre `cx`, `cy`, with a horizontal and a vertical radius.",
    "line": "A straight line between two points. A line has no inside: it is drawn with its "
            "`stroke`, in black when none is given.",
    "polygon": "A shape through a list of points, closed back to the first point unless "
               "`closed: false` leaves it open (a zigzag, a tick).",
    "path": "A shape written as SVG path data: `M L H V C S Q T Z`, upper case for absolute "
            "and lower case for relative coordinates, in millimetres. Arcs (`A`) are not read: "
            "use `circle` or `ellipse`, or curves. The inside is filled by the even-odd rule, "
            "so a shape drawn inside another cuts a hole in it.",
    "text": "A box of text. The text is wrapped at spaces and after a hyphen between two "
            "letters, never at a no-break space, and a new line in the text starts a new line. "
            "When it does not fit the box at `size`, it is shrunk in steps of 0.25 pt down to "
            "`min_size`; when it does not fit even then, the build stops with an error naming "
            "the card, face and language and saying how much too long the text is. Every "
            "language is fitted. The text may hold inline markup: `**bold**`, `*italic*`, "
            "`{color=red}`…`{/color}` and icons such as `:coin:` (see "
            "[rich text and icons](rich-text.md)); icons wrap and shrink with the words. A "
            "character the font lacks is drawn from the shipped symbol fonts when they have it, "
            "else the build stops naming the fonts that do. A paragraph does not end in a lone "
            "short word where the box allows (see [text fitting](layout.md#text-fitting)).",
    "glyph": "One character drawn as a figure: scaled, keeping its proportions, so that its "
             "visible ink (not the font's em box) fills the box, and centred on that ink. "
             "Made for hieroglyphs and symbols drawn large.",
    "image": "A picture from the game's `assets/` folder, placed in the box: a PNG or JPEG (at most "
             "50,000,000 pixels), or an SVG, drawn as vectors (see [SVG art](svg-art.md)). Every "
             "image is opened and checked before anything is written.",
    "group": "Ops drawn together in a coordinate space of their own: moved by `translate`, "
             "then turned by `rotate`, then scaled by `scale`, then cut to `clip`. The ops "
             "inside use the group's coordinates. A group's `opacity` fades everything in it.",
    "flow": "Flowed text for rules summaries and player aids: headings, paragraphs, bullets "
            "and numbered steps, laid out in one or more balanced columns and shrunk together, "
            "in steps of 0.25 pt from `size` down to `min_size`, until they fit the box (an "
            "error when they do not). A block's text takes the inline markup of every text "
            "(`**bold**`, `*italic*`, colour spans, icons: see [rich text and icons](rich-text.md)). "
            "A block is never split between columns, and a heading stays in the column of the "
            "whole block after it (and of the headings right below it). Lines break at spaces "
            "only, and a block does not end in a lone short word where the box allows (see "
            "[text fitting](layout.md#text-fitting)). A flow with a `name` can "
            "run on into further boxes, on the same page or on later pages of a sheet: each a "
            "`flow` with `continues` and its own box (see [several pages](templates.md#several-pages)).",
}

# Keys that mean the same in every op that takes them (an op's own entry below wins).
SHARED_KEYS: dict[str, Key] = {
    "x": Key("Left edge of the box, mm from the left of the trim (negative values reach into the bleed)."),
    "y": Key("Top edge of the box, mm from the top of the trim; y grows downwards."),
    "w": Key("Width of the box, mm."),
    "h": Key("Height of the box, mm."),
    "fill": Key("Colour of the inside. An op with neither `fill` nor `stroke` draws nothing.", "none"),
    "stroke": Key("Colour of the outline.", "none"),
    "stroke_width": Key("Width of the outline, mm.", "0.3"),
    "opacity": Key("From 0 (invisible) to 1 (opaque). Inside a group, multiplied by the group's opacity.", "1"),
    "dash": Key("Dash pattern of the outline: lengths in mm, dash and gap in turn, e.g. `[1.5, 1]`.",
                "solid"),
    "cap": Key("How the ends of the outline (and of each dash) look.", "`butt`"),
    "font": Key("A font role from `fonts:` in `game.yaml` (`title`, `text`, `bold`…) or the name of a "
                "font file without `.ttf` (`NotoSans-Bold`).", "the `text` role"),
    "color": Key("Colour of the text.", "black"),
    "size": Key("Font size in points.", "9"),
    "min_size": Key(f"The smallest size, in points, the text may shrink to. Never below {MIN_TEXT_PT:g} pt.",
                    "`size` (no shrinking)"),
}

KEYS: dict[str, dict[str, Key]] = {
    "rect": {
        "r": Key("Corner radius, mm; 0 gives square corners.", "0"),
    },
    "circle": {
        "cx": Key("Centre, mm from the left of the trim."),
        "cy": Key("Centre, mm from the top of the trim."),
        "r": Key("Radius, mm."),
    },
    "ellipse": {
        "cx": Key("Centre, mm from the left of the trim."),
        "cy": Key("Centre, mm from the top of the trim."),
        "rx": Key("Horizontal radius, mm."),
        "ry": Key("Vertical radius, mm."),
    },
    "line": {
        "x1": Key("Start point, mm from the left."),
        "y1": Key("Start point, mm from the top."),
        "x2": Key("End point, mm from the left."),
        "y2": Key("End point, mm from the top."),
        "stroke": Key("Colour of the line.", "black"),
        "fill": Key("Accepted and ignored: a line has no inside.", "none"),
    },
    "polygon": {
        "points": Key("The corners, mm: either `[x1, y1, x2, y2, …]` or `[[x1, y1], [x2, y2], …]`."),
        "closed": Key("Whether the last point joins the first; `false` draws an open line through the points.",
                      "`true`"),
    },
    "path": {
        "d": Key("SVG path data, in mm: `M5 0.5 L9.5 9 L0.5 9 Z` is a triangle."),
    },
    "text": {
        "text": Key("The text. Write it through the `q` filter, so that any character of a translation "
                    "is safe in YAML; a number is printed as it is written."),
        "line_height": Key("Distance from one line to the next, as a multiple of the size.", "1.2"),
        "align": Key("Where each line sits across the box.", "`left`"),
        "valign": Key("Where the block of lines sits up and down the box.", "`top`"),
        "max_lines": Key("The most lines the text may take; it shrinks further (or fails) rather than "
                         "take more.", "no limit"),
        "bold_font": Key("Font of `**bold**` words.",
                         "`font` with `-Bold` for its style (`NotoSans-Regular` → `NotoSans-Bold`) when "
                         "that font exists, else the `bold` role"),
        "italic_font": Key("Font of `*italic*` words (`***both***` take the `-BoldItalic` font, "
                           "else `bold_font`).",
                           "`font` with `-Italic` for its style when that font exists, else the `italic` role"),
    },
    "glyph": {
        "char": Key("Exactly one character, e.g. `\"\\U000130E0\"` (a hieroglyph) or `\"★\"`."),
        "font": Key("The font to draw it with: a role from `fonts:` (`glyphs`) or a font file name. "
                    "The character must be in it.", "the `text` role"),
        "color": Key("Colour of the figure.", "black"),
        "align": Key("Where the ink sits across the box; up and down it is always centred.", "`center`"),
        "weight": Key("Emboldens the figure by an outline of this many mm drawn round its ink "
                      "(a thin hieroglyph reads better at 0.2–0.4).", "0"),
    },
    "image": {
        "src": Key("The file name inside the game's `assets/` folder (no `..`, no absolute path)."),
        "fit": Key("`contain`: the whole picture inside the box, proportions kept; `cover`: the box "
                   "filled, proportions kept, the overflow cut off; `stretch`: the picture stretched to "
                   "the box.", "`contain`"),
    },
    "group": {
        "ops": Key("The ops inside the group, a list like a template's own, in the group's coordinates."),
        "translate": Key("Moves the group's origin to this point, mm: `[dx, dy]`.", "`[0, 0]`"),
        "rotate": Key("Turns the group round its origin, in degrees; positive turns clockwise on the page.",
                      "0"),
        "scale": Key("Scales the group: one factor, or `[sx, sy]` for each direction.", "1"),
        "clip": Key("Draws only what falls inside this box `[x, y, w, h]`, or inside this SVG path data "
                    "(`M L H V C S Q T Z`, as the `path` op reads it), in the group's coordinates.",
                    "no clipping"),
        "clip_shape": Key("Fits a shape into the `clip` box: `rect`, `circle` (an ellipse filling the box), "
                          "`hex` (pointy-top, its flat-to-flat width the box's width), `hex-flat` (flat-top, "
                          "flat-to-flat the box's height) or `rounded` (with `clip_radius`).", "`rect`"),
        "clip_radius": Key("The corner radius of a `rounded` clip, mm, at most half the box's shorter side.",
                           "none"),
        "opacity": Key("Fades everything in the group: multiplied into the opacity of each op inside and "
                       "of nested groups (where two faded ops overlap, the overlap shows a little darker "
                       "than one flat layer would).", "1"),
    },
    "flow": {
        "blocks": Key("The blocks, in reading order, each a one-key mapping such as `{h2: Setup}` or "
                      "`{num: \"**Draw** a card.\"}`; the kinds are listed below the table. Needed "
                      "unless the flow `continues` another."),
        "name": Key("Names the flow so that later flows can continue it: its blocks fill this box, then "
                    "each continuing box in drawing order, at the largest size from `size` down to "
                    "`min_size` at which they all fit.", "none"),
        "continues": Key("Makes this flow a further box of the flow of that `name`, drawn earlier on this "
                         "page or on an earlier page: it takes up the blocks that did not fit there, with that "
                         "flow's fonts, colours and size, and may set only its box, `columns` and `gap`. A page "
                         "holding a continuing box that the text does not reach is left out of the sheet.",
                         "none"),
        "font": Key("Font of paragraphs, bullets and steps: a role or a font file name.", "the `text` role"),
        "bold_font": Key("Font of `h2` headings and of `**bold**` words.",
                         "the `bold` role if the game has one, else `font`"),
        "italic_font": Key("Font of `*italic*` words.",
                           "`font` with `-Italic` for its style when that font exists, else the `italic` role"),
        "heading_font": Key("Font of `h1` headings.", "the `title` role if the game has one, else `font`"),
        "size": Key("Body size in points; `h1` is 1.45 times it and `h2` 1.15 times.", "9"),
        "line_height": Key("Distance from one line to the next, as a multiple of the size.", "1.25"),
        "color": Key("Colour of the body text.", "black"),
        "heading_color": Key("Colour of `h1` and `h2` headings.", "`color`"),
        "accent": Key("Colour of the bullets and of the step numbers.", "`color`"),
        "columns": Key("How many columns the blocks are spread over, balanced to even heights.", "1"),
        "gap": Key("Space between columns, mm.", "6"),
        "spread": Key("Shares the room left at the foot of each column out between its blocks, so the "
                      "columns reach the foot of the box: each gap grows by at most 2.2 times the body size "
                      "(a heading's gap twice that), the rest stays at the foot. The text keeps its size.",
                      "false"),
    },
}

BLOCKS_TEXT: dict[str, str] = {
    "h1": "A large heading, in `heading_font`.",
    "h2": "A heading, in `bold_font`. Numbered steps start again from 1 after each heading.",
    "p": "A paragraph.",
    "li": "A bullet point, its lines indented after the bullet.",
    "num": "A numbered step (1., 2., …), its lines indented after the number.",
    "space": "An empty gap one body size high; its text is ignored (`{space: \"\"}`).",
}

FRAGMENT_TITLE = "Fragment of a template"  # how the docs mark YAML that is not a whole file

# One checked example per op (tests/docs/test_docs.py parses each with the layout checker).
EXAMPLES: dict[str, str] = {
    "rect": "- {rect: {x: -3, y: -3, w: 69, h: 94, fill: lapis}}\n"
            "- {rect: {x: 4, y: 4, w: 55, h: 80, r: 3, stroke: gold, stroke_width: 0.6, dash: [2, 1]}}",
    "circle": "- {circle: {cx: 31.5, cy: 30, r: 12, fill: \"#ffffff\", stroke: ink, opacity: 0.8}}",
    "ellipse": "- {ellipse: {cx: 31.5, cy: 60, rx: 20, ry: 6, fill: sand}}",
    "line": "- {line: {x1: 6, y1: 50, x2: 57, y2: 50, stroke: gold, stroke_width: 0.5, cap: round}}",
    "polygon": "- {polygon: {points: [[31.5, 10], [50, 40], [13, 40]], fill: terracotta}}\n"
               "- {polygon: {points: [10, 70, 15, 75, 25, 62], closed: false, stroke: ink, stroke_width: 1}}",
    "path": "- {path: {d: \"M5 0.5 C5 0.5 1.5 4.6 1.5 6.3 C1.5 8.2 3.1 9.5 5 9.5 C6.9 9.5 8.5 8.2 8.5 6.3 "
            "C8.5 4.6 5 0.5 5 0.5 Z\", fill: lapis}}",
    "text": "- {text: {x: 6, y: 63, w: 51, h: 9, text: \"Anubis\", font: title, size: 19, min_size: 11,\n"
            "          align: center, valign: middle, color: ink}}",
    "glyph": "- {glyph: {x: 16, y: 23, w: 30, h: 28, char: \"\\U000130E0\", font: glyphs, color: ink, weight: 0.3}}",
    "image": "- {image: {x: 6, y: 12, w: 51, h: 40, src: portrait.png, fit: cover}}",
    "group": "- {group: {translate: [57, 82], rotate: 180, opacity: 0.9, ops: [\n"
             "    {text: {x: 0, y: 0, w: 10, h: 9, text: \"7\", font: title, size: 20}}]}}",
    "flow": "- flow:\n"
            "    x: 12\n"
            "    y: 40\n"
            "    w: 186\n"
            "    h: 200\n"
            "    columns: 2\n"
            "    size: 12\n"
            "    min_size: 8\n"
            "    heading_color: lapis\n"
            "    blocks:\n"
            "      - h2: Goal\n"
            "      - p: Be the first to collect a whole family.\n"
            "      - num: \"**Take** a card from the pyramid.\"\n"
            "      - num: \"**Ask** another player for a card.\"\n"
            "      - li: A Mummy card stays secret.",
}


def describe(kind: str, key: str) -> Key | None:
    """What ``key`` does in op ``kind`` (its own entry, else the shared one); None if undocumented."""
    return KEYS.get(kind, {}).get(key) or SHARED_KEYS.get(key)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _value_kind(key: str, want: str) -> str:
    kind = VALUE_KINDS.get(want, want)
    if key in CHOICES:
        return "one of " + ", ".join(f"`{choice}`" for choice in CHOICES[key])
    return kind


def op_markdown(kind: str, heading: str = "###") -> str:
    """The reference of one op: its paragraph, an example and a table of its keys."""
    required, optional = SPECS[kind]
    lines = [f"{heading} `{kind}`", "", OPS_TEXT.get(kind, "*(no description)*"), ""]
    if kind in EXAMPLES:
        lines += [f'```yaml title="{FRAGMENT_TITLE}"', EXAMPLES[kind], "```", ""]
    lines += ["| key | value | needed | default | what it does |", "| --- | --- | --- | --- | --- |"]
    for group, label in ((required, "required"), (optional, "optional")):
        for key, want in group.items():
            key_doc = describe(kind, key)
            text = key_doc.text if key_doc else "*(no description)*"
            default = key_doc.default if key_doc and key_doc.default and label == "optional" else ""
            lines.append(f"| `{key}` | {_cell(_value_kind(key, want))} | {label} | {_cell(default)} | {_cell(text)} |")
    if kind == "flow":
        lines += ["", "Block kinds:", "", "| block | what it is |", "| --- | --- |"]
        lines += [f"| `{block}` | {_cell(BLOCKS_TEXT.get(block, '*(no description)*'))} |" for block in BLOCK_KINDS]
    return "\n".join(lines) + "\n"


def summary(kind: str) -> str:
    """An op's first sentence, up to a colon outside code: the line of the index."""
    first = OPS_TEXT.get(kind, "").split(". ")[0]
    head, colon, _ = first.partition(": ")
    if colon and head.count("`") % 2 == 0:
        first = head
    return first.rstrip(".") + "."


def reference_markdown(heading: str = "###") -> str:
    """The whole op reference: an index of the ops, then one section per op, in table order."""
    index = ["| op | what it draws |", "| --- | --- |"]
    index += [f"| [`{kind}`](#{kind}) | {_cell(summary(kind))} |" for kind in SPECS]
    sections = [op_markdown(kind, heading) for kind in SPECS]
    return "\n".join(index) + "\n\n" + "\n".join(sections)
