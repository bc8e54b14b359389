"""The layout language (`cardgen.layout.ops`): what a rendered template may contain."""

from __future__ import annotations

import pytest

from cardgen.base.errors import Collector
from cardgen.layout.ops import MIN_TEXT_PT, SPECS, Op, parse_layout, parse_ops

L = "templates/x/front.yaml.j2 [cards/c1 front [en]]"


def parse(doc):
    errors = Collector()
    ops = parse_ops(doc, L, errors)
    return ops, [str(e) for e in errors.errors]


def only_error(doc) -> str:
    ops, errors = parse(doc)
    assert len(errors) == 1, errors
    return errors[0]


RECT = {"x": 0, "y": 0, "w": 63, "h": 88}
TEXT = {"x": 5, "y": 5, "w": 50, "h": 10, "text": "Anubis"}


# -- what is accepted -------------------------------------------------------------


def test_valid_ops_are_kept_in_order():
    doc = [
        {"rect": {**RECT, "r": 3, "fill": "lapis", "stroke": "#000000", "stroke_width": 0.5}},
        {"circle": {"cx": 10, "cy": 10, "r": 5.5}},
        {"text": {**TEXT, "size": 12, "min_size": 8, "align": "center", "valign": "middle"}},
        {"polygon": {"points": [[0, 0], [10, 0], [5, 8]], "closed": True}},
        {"line": {"x1": 0, "y1": 0, "x2": 10, "y2": 0, "dash": [1, 2], "cap": "round"}},
        {"glyph": {**RECT, "char": "\U00013143", "font": "glyphs"}},
        {"path": {"d": "M 0 0 L 10 10 Z"}},
        {"image": {**RECT, "src": "art.png", "fit": "cover"}},
        {"ellipse": {"cx": 1, "cy": 2, "rx": 3, "ry": 4}},
    ]
    ops, errors = parse(doc)
    assert errors == []
    assert [op.kind for op in ops] == ["rect", "circle", "text", "polygon", "line", "glyph", "path", "image", "ellipse"]
    assert ops[0].args == {**RECT, "r": 3, "fill": "lapis", "stroke": "#000000", "stroke_width": 0.5}
    assert ops[2].args["align"] == "center" and ops[2].args["size"] == 12
    assert ops[5].args["char"] == "\U00013143"
    assert all(isinstance(op, Op) and op.children == () for op in ops)


def test_number_given_as_text_becomes_text():
    ops, errors = parse([{"text": {**TEXT, "text": 3}}])
    assert errors == [] and ops[0].args["text"] == "3"


def test_empty_layout():
    assert parse(None) == ((), [])
    assert parse([]) == ((), [])


# -- shape errors -----------------------------------------------------------------


def test_layout_must_be_a_list():
    assert only_error({"rect": RECT}) == f"{L}: a layout must be a list of draw operations, found dict"


@pytest.mark.parametrize("item", [{"rect": RECT, "circle": {"cx": 1, "cy": 1, "r": 1}}, "rect", ["rect", RECT]])
def test_each_op_is_a_one_key_mapping(item):
    msg = only_error([item])
    assert msg.startswith(f"{L}: op 1: each operation is a one-key mapping such as {{rect: {{...}}}}, found ")


def test_op_arguments_must_be_a_mapping():
    assert only_error([{"rect": [0, 0, 1, 1]}]) == f"{L}: op 1: 'rect' needs a mapping of arguments"


def test_unknown_op():
    msg = only_error([{"rect": RECT}, {"square": RECT}])
    assert msg.startswith(f"{L}: op 2: unknown operation 'square' (known: ")
    known = msg[msg.index("(known: ") + 8:-1].split(", ")
    assert known == sorted(SPECS) and {"rect", "text", "group", "flow"} <= set(known)


def test_unknown_key():
    msg = only_error([{"rect": {**RECT, "colour": "red"}}])
    assert msg.startswith(f"{L}: op 1: unknown key 'colour' in rect (allowed: ")
    assert "fill" in msg and "stroke" in msg


def test_missing_key():
    assert only_error([{"circle": {"cx": 1, "cy": 1}}]) == f"{L}: op 1: circle is missing 'r'"


def test_every_missing_key_reported():
    _, errors = parse([{"text": {"x": 1, "y": 1}}])
    assert errors == [f"{L}: op 1: text is missing '{k}'" for k in ("w", "h", "text")]


@pytest.mark.parametrize(
    "op, message",
    [
        ({"rect": {**RECT, "x": "ten"}}, "'x' of rect must be number, found 'ten'"),
        ({"rect": {**RECT, "w": True}}, "'w' of rect must be number, found True"),
        ({"rect": {**RECT, "fill": 3}}, "'fill' of rect must be colour, found 3"),
        ({"polygon": {"points": [[0, 0], [1]]}}, "'points' of polygon must be points, found [[0, 0], [1]]"),
        ({"polygon": {"points": [[0, 0]], "closed": "yes"}}, "'closed' of polygon must be bool, found 'yes'"),
        ({"group": {"ops": [], "translate": [1]}}, "'translate' of group must be pair, found [1]"),
        ({"group": {"ops": [], "scale": "big"}}, "'scale' of group must be scale, found 'big'"),
        ({"text": {**TEXT, "text": ["a"]}}, "'text' of text must be text, found ['a']"),
    ],
)
def test_wrong_type(op, message):
    assert only_error([op]) == f"{L}: op 1: {message}"


def test_scale_accepts_number_or_pair():
    _, errors = parse([{"group": {"ops": [], "scale": 2}}, {"group": {"ops": [], "scale": [1, -1]}}])
    assert errors == []


@pytest.mark.parametrize(
    "op, message",
    [
        ({"text": {**TEXT, "align": "centre"}}, "'align' of text must be one of left, center, right, found 'centre'"),
        ({"text": {**TEXT, "valign": "center"}}, "'valign' of text must be one of top, middle, bottom, found 'center'"),
        ({"image": {**RECT, "src": "a.png", "fit": "fill"}}, "'fit' of image must be one of contain, cover, stretch, found 'fill'"),
        ({"line": {"x1": 0, "y1": 0, "x2": 1, "y2": 1, "cap": "flat"}}, "'cap' of line must be one of butt, round, square, found 'flat'"),
    ],
)
def test_bad_choice(op, message):
    assert only_error([op]) == f"{L}: op 1: {message}"


# -- nothing under 6 pt -----------------------------------------------------------


def test_min_text_size_is_6pt():
    assert MIN_TEXT_PT == 6.0


@pytest.mark.parametrize(
    "extra, ok",
    [
        ({"size": 6}, True),
        ({"size": 9, "min_size": 6}, True),
        ({}, True),  # default size 9 pt
        ({"size": 5.9}, False),
        ({"size": 9, "min_size": 5.5}, False),
        ({"size": 4, "min_size": 8}, False),
    ],
)
def test_text_under_6pt_refused(extra, ok):
    ops, errors = parse([{"text": {**TEXT, **extra}}])
    if ok:
        assert errors == [] and len(ops) == 1
    else:
        assert len(errors) == 1, errors
        assert errors[0].startswith(f"{L}: op 1: text smaller than 6 pt is not legible (size ")


def test_flow_under_6pt_refused():
    msg = only_error([{"flow": {**RECT, "blocks": [{"p": "x"}], "size": 8, "min_size": 5}}])
    assert msg.startswith(f"{L}: op 1: text smaller than 6 pt is not legible")


# -- groups -----------------------------------------------------------------------


def test_groups_are_recursive():
    doc = [
        {"group": {"translate": [5, 5], "rotate": 90, "ops": [
            {"rect": RECT},
            {"group": {"scale": 0.5, "ops": [{"circle": {"cx": 1, "cy": 1, "r": 1}}, {"text": TEXT}]}},
        ]}},
    ]
    ops, errors = parse(doc)
    assert errors == []
    (outer,) = ops
    assert outer.kind == "group" and outer.args == {"translate": [5, 5], "rotate": 90}
    assert [c.kind for c in outer.children] == ["rect", "group"]
    inner = outer.children[1]
    assert inner.args == {"scale": 0.5}
    assert [c.kind for c in inner.children] == ["circle", "text"]
    assert inner.children[1].args["text"] == "Anubis"


def test_errors_deep_in_groups_are_found_and_located():
    doc = [
        {"rect": RECT},
        {"group": {"ops": [
            {"rect": RECT},
            {"group": {"ops": [{"text": {**TEXT, "size": 4}}, {"blob": {}}]}},
        ]}},
    ]
    _, errors = parse(doc)
    assert len(errors) == 2, errors
    assert errors[0].startswith(f"{L}: op 2 (group): op 2 (group): op 1: text smaller than 6 pt")
    assert errors[1].startswith(f"{L}: op 2 (group): op 2 (group): op 2: unknown operation 'blob'")


def test_group_ops_must_be_a_list():
    assert only_error([{"group": {"ops": {"rect": RECT}}}]) == (
        f"{L}: op 1 (group): a layout must be a list of draw operations, found dict"
    )


def test_a_group_clip_is_a_box_and_anything_else_is_an_error_not_a_traceback():
    ops, errors = parse([{"group": {"clip": [0, 0, 40, 40], "ops": [{"rect": RECT}]}}])
    assert not errors and ops[0].args["clip"] == [0, 0, 40, 40]
    assert only_error([{"group": {"clip": [[0, 0], [40, 0], [40, 40]], "ops": []}}]) == (
        f"{L}: op 1: 'clip' of group must be a box [x, y, w, h] or SVG path data, found [[0, 0], [40, 0], [40, 40]]"
    )


# -- flow blocks ------------------------------------------------------------------


def test_flow_blocks():
    blocks = [{"h1": "Goal"}, {"p": "Win."}, {"li": "one"}, {"num": 2}, {"space": None}, {"h2": "End"}]
    ops, errors = parse([{"flow": {**RECT, "blocks": blocks, "columns": 2, "gap": 6}}])
    assert errors == []
    assert ops[0].args["blocks"] == [("h1", "Goal"), ("p", "Win."), ("li", "one"), ("num", "2"), ("space", ""),
                                     ("h2", "End")]
    assert ops[0].args["columns"] == 2


@pytest.mark.parametrize(
    "blocks, message",
    [
        ([{"h3": "x"}], "flow block 1 has unknown kind 'h3' (allowed: h1, h2, p, li, num, space)"),
        ([{"p": "a"}, {"p": "b", "li": "c"}], "flow block 2 must be one of {h1|h2|p|li|num|space: text}"),
        ([{"p": "a"}, "plain text"], "flow block 2 must be one of {h1|h2|p|li|num|space: text}"),
        ("just text", "'blocks' of flow must be a list of {h1|h2|p|li|num|space: text}"),
    ],
)
def test_bad_flow_blocks(blocks, message):
    assert only_error([{"flow": {**RECT, "blocks": blocks}}]) == f"{L}: op 1: {message}"


# -- every problem at once; pages ---------------------------------------------------


def test_all_problems_reported_in_one_pass():
    doc = [{"square": {}}, {"rect": {**RECT, "x": "a"}}, {"text": {**TEXT, "size": 3}}, {"circle": {"cx": 1}}]
    _, errors = parse(doc)
    assert [e.split(": ")[1] for e in errors] == ["op 1", "op 2", "op 3", "op 4", "op 4"]


def test_pages_only_for_sheets():
    doc = {"pages": [[{"rect": RECT}], [{"circle": {"cx": 1, "cy": 1, "r": 1}}]]}
    errors = Collector()
    assert parse_layout(doc, L, errors) == []
    assert [str(e) for e in errors.errors] == [f"{L}: a card face has one page; 'pages' is for sheet templates"]

    errors = Collector()
    pages = parse_layout(doc, L, errors, allow_pages=True)
    assert errors.errors == []
    assert [[op.kind for op in page] for page in pages] == [["rect"], ["circle"]]


def test_pages_errors_name_the_page():
    errors = Collector()
    parse_layout({"pages": [[{"rect": RECT}], [{"rect": {"x": 1}}]]}, L, errors, allow_pages=True)
    assert [str(e) for e in errors.errors][0].startswith(f"{L} page 2: op 1: rect is missing")

    errors = Collector()
    parse_layout({"pages": []}, L, errors, allow_pages=True)
    assert [str(e) for e in errors.errors] == [f"{L}: 'pages' must be a non-empty list of op lists"]
