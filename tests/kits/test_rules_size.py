"""One rules text size (issue 20, item 6): every game's rules sheet prints its body at
one size, in every language and on both papers, and a long text runs on to a second
page instead of shrinking. Also the machinery that makes it so: linked flows (a text
poured through several boxes, across pages) and a template's ``choices``."""

from __future__ import annotations

import pytest
from kitchecks import render_kits

from cardgen import load_game
from cardgen.base.errors import Collector
from cardgen.layout.chain import link_flows
from cardgen.layout.flow import BLOCK_SCALE
from cardgen.layout.ops import MAX_CHOICES, layout_choices, parse_ops
from cardgen.pipeline import BuildOptions, KitBuilder
from cardgen.render.faces import chosen_pages

GAMES = ("hapy", "egypt", "farao", "horus")
RULES_PT = 10.5
pytestmark = pytest.mark.usefixtures("isolated_settings")


def _flows(ops):
    for op in ops:
        if op.kind == "group":
            yield from _flows(op.children)
        elif op.kind == "flow":
            yield op


@pytest.fixture(scope="module")
def rules_pages():
    """{(game, lang, paper): (text engine, [pages of ops])} of every shipped rules sheet."""
    out = {}
    for game_id in GAMES:
        game = load_game(game_id)
        builder, kits = render_kits(game, game.languages, ("a4", "letter"))
        for lang, kit in kits.items():
            for paper in ("a4", "letter"):
                out[(game_id, lang, paper)] = (builder.text, [f.ops for f in kit.sheets[("rules", paper)]])
    return out


def test_every_rules_sheet_prints_its_body_at_one_size(rules_pages):
    sizes: dict[tuple, set[float]] = {}
    for where, (text, pages) in rules_pages.items():
        for ops in pages:
            for op in _flows(ops):
                laid = text.flow_op(op)
                assert laid.fits, (where, laid.overflow)
                body = {line.size for line in laid.lines}
                sizes.setdefault(where, set()).add(laid.size)
                # headings and body at their fixed ratios of that one size: nothing shrunk
                assert body <= {laid.size * BLOCK_SCALE[k] for k in ("h1", "h2", "p")}, (where, body)
    assert set(sizes) == set(rules_pages)
    assert {s for found in sizes.values() for s in found} == {RULES_PT}, sizes


def test_a_long_rulebook_takes_a_second_page_and_a_short_one_does_not(rules_pages):
    pages = {where: len(p) for where, (_, p) in rules_pages.items()}
    assert pages[("horus", "fr", "letter")] == 2  # the longest text runs on
    assert pages[("hapy", "en", "a4")] == 1  # the shortest has no empty second page
    assert set(pages.values()) <= {1, 2}


def test_the_legend_follows_the_text_when_page_one_has_room(rules_pages):
    """Egypt's English rules fill four fifths of page one at 10.5 pt: the legend comes
    right under the text (the template's first choice that fits), not after a band of
    empty paper. (Hâpy's shorter rules spread down to their legend instead.)"""
    text, (ops,) = rules_pages[("egypt", "en", "a4")]
    flow, = _flows(ops)
    bottom = max(line.baseline for line in text.flow_op(flow).lines)
    legend, = (op for op in ops if op.kind == "group" and any(c.kind == "line" for c in op.children))
    legend_rule = legend.args["translate"][1] + min(c.args["y1"] for c in legend.children if c.kind == "line")
    assert 0 < legend_rule - bottom < 20, (bottom, legend_rule)


def test_a_spread_flow_reaches_the_foot_of_its_box_at_its_size(engine):
    blocks = [{"h2": "First"}, {"p": WORDS}, {"p": WORDS}, {"h2": "Second"}, {"p": WORDS}]
    found = Collector()
    (plain, spread), = [parse_ops([{"flow": {"x": 0, "y": 0, "w": 80, "h": 120, "blocks": blocks, "size": 10,
                                             **extra}} for extra in ({}, {"spread": True})], "L", found)]
    a, b = engine.flow_op(plain), engine.flow_op(spread)
    assert a.size == b.size == 10 and a.fits and b.fits
    assert max(line.baseline for line in b.lines) > max(line.baseline for line in a.lines) + 20
    assert max(line.baseline for line in b.lines) <= 120
    heads = [i for i, line in enumerate(b.lines) if line.text in ("First", "Second")]
    for i in heads:  # a heading stays on its text: the gap below it does not grow
        gap_a = a.lines[i + 1].baseline - a.lines[i].baseline
        assert abs(b.lines[i + 1].baseline - b.lines[i].baseline - gap_a) < 1e-6


# -- linked flows and choices ---------------------------------------------------


@pytest.fixture(scope="module")
def engine():
    game = load_game("hapy")
    builder = KitBuilder(game, BuildOptions(langs=("en",), papers=("a4",)))
    builder.register_fonts(Collector())
    return builder.text


WORDS = "The quick brown fox jumps over the lazy dog again and again. "
BLOCKS = [{"h2": "First"}, *({"num": WORDS * 2} for _ in range(4)), {"h2": "Second"}, {"p": WORDS * 3},
          {"num": WORDS}, {"num": WORDS}]


def _page(*ops):
    found = Collector()
    parsed = parse_ops(list(ops), "L", found)
    assert found.errors == []
    return parsed


def _linked(engine, *pages):
    found = Collector()
    out = link_flows(list(pages), engine.flow_op, "L", found)
    return out, [str(e) for e in found.errors]


def test_a_linked_flow_runs_on_to_the_next_page_at_one_size(engine):
    head = {"flow": {"name": "r", "x": 0, "y": 0, "w": 80, "h": 40, "blocks": BLOCKS, "size": 10, "min_size": 7}}
    more = {"flow": {"continues": "r", "x": 0, "y": 0, "w": 80, "h": 200}}
    pages, errors = _linked(engine, _page(head), _page(more))
    assert errors == [] and len(pages) == 2
    first, = pages[0]
    second, = pages[1]
    assert first.args["size"] == second.args["size"] == 10  # not shrunk: the text went on
    assert [b for op in (first, second) for b in op.args["blocks"]] == [next(iter(b.items())) for b in BLOCKS]
    assert first.args["blocks"][-1][0] != "h2"  # a heading is never left at a box's end
    assert engine.flow_op(first).fits and engine.flow_op(second).fits
    # the steps count on across the boxes: the second box's first step is not "1."
    numbers = [line.text for line in engine.flow_op(second).lines if line.text.endswith(".") and
               line.text[:-1].isdigit()]
    if second.args["blocks"][0][0] == "num":
        assert numbers[0] != "1.", numbers


def test_a_page_the_text_does_not_reach_is_left_out(engine):
    head = {"flow": {"name": "r", "x": 0, "y": 0, "w": 180, "h": 250, "blocks": BLOCKS[:3], "size": 10}}
    more = {"flow": {"continues": "r", "x": 0, "y": 0, "w": 80, "h": 200}}
    pages, errors = _linked(engine, _page(head), _page({"rect": {"x": 0, "y": 0, "w": 5, "h": 5}}, more))
    assert errors == [] and len(pages) == 1
    assert pages[0][0].args["blocks"] == [next(iter(b.items())) for b in BLOCKS[:3]]


def test_a_text_too_long_for_every_box_shrinks_then_overflows_the_last(engine):
    head = {"flow": {"name": "r", "x": 0, "y": 0, "w": 60, "h": 20, "blocks": BLOCKS, "size": 10, "min_size": 9}}
    more = {"flow": {"continues": "r", "x": 0, "y": 30, "w": 60, "h": 20}}
    (page,), errors = _linked(engine, _page(head, more))
    assert errors == []
    assert [op.args["size"] for op in page] == [9, 9]
    assert not engine.flow_op(page[-1]).fits  # the check pass reports it


@pytest.mark.parametrize("ops, message", [
    ([{"flow": {"continues": "r", "x": 0, "y": 0, "w": 9, "h": 9}}],
     "L: flow continues 'r', but no flow named 'r' comes before it"),
    ([{"flow": {"name": "r", "x": 0, "y": 0, "w": 9, "h": 9, "blocks": []}},
      {"flow": {"name": "r", "x": 0, "y": 0, "w": 9, "h": 9, "blocks": []}}],
     "L: two flows are named 'r'; each text needs a name of its own"),
])
def test_links_that_do_not_join_are_errors(engine, ops, message):
    pages, errors = _linked(engine, _page(*ops))
    assert errors == [message]
    assert pages == [()]  # nothing half-linked is measured or drawn


def test_a_continuing_flow_sets_only_its_box_and_columns():
    found = Collector()
    parse_ops([{"flow": {"continues": "r", "x": 0, "y": 0, "w": 9, "h": 9, "size": 8}},
               {"flow": {"x": 0, "y": 0, "w": 9, "h": 9}}], "L", found)
    assert [str(e) for e in found.errors] == [
        "L: op 1: a flow that continues another takes its text, fonts and size from that flow; leave out 'size' "
        "(it may set columns, continues, gap, h, w, x, y)",
        "L: op 2: flow is missing 'blocks' (or 'continues', to take up another flow's text)",
    ]


def test_choices_are_read_and_bounded():
    found = Collector()
    assert layout_choices([{"rect": {}}], "L", found) == [[{"rect": {}}]]
    assert layout_choices({"choices": [[], [1]]}, "L", found) == [[], [1]]
    assert layout_choices({"choices": []}, "L", found) == []
    assert layout_choices({"choices": [[]] * (MAX_CHOICES + 1)}, "L", found) == []
    assert [str(e) for e in found.errors] == [
        "L: 'choices' must be a non-empty list of layouts",
        f"L: a template may offer at most {MAX_CHOICES} choices, found {MAX_CHOICES + 1}",
    ]


def test_the_first_choice_whose_text_fits_is_drawn(engine):
    """A template offering a small box, then a larger one: the small one where the text
    fits it, else the larger; a choice that runs on to a page the text does not reach
    leaves that page out."""
    def doc(words):
        return {"choices": [[{"text": {"x": 0, "y": 0, "w": 40, "h": h, "text": words, "size": 10,
                                       "min_size": 10}}] for h in (6, 60)]}

    for words, want in (("short", 6), (WORDS * 3, 60)):
        found = Collector()
        pages = chosen_pages(doc(words), "L", found, True, engine)
        assert found.errors == []
        assert [op.args["h"] for op in pages[0]] == [want]
    found = Collector()
    assert chosen_pages(doc(WORDS * 30), "L", found, True, engine)[0][0].args["h"] == 60  # the last, too long
