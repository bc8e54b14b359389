"""Rendered layouts in block-style YAML are read by json (render/blockshape.py, issue
32): the document must be exactly what the YAML reader gives, and anything YAML
reads otherwise, or refuses, is left to it, with its error at its line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from yamlsame import same, yaml_value

from cardgen.base.errors import CardgenError, Collector
from cardgen.load.game import load_game
from cardgen.load.yamlsrc import MAX_NESTING, fast_load
from cardgen.pipeline import BuildOptions, KitBuilder
from cardgen.render import sandbox
from cardgen.render.blockshape import block_shaped
from cardgen.render.jsonshape import MAX_DEPTH, NOT_JSON_SHAPED, json_shaped

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.parent for p in [*ROOT.glob("card_data/*/game.yaml"), *ROOT.glob("docs/examples/*/game.yaml")])


def _agrees(text: str) -> object:
    """block_shaped's document for ``text``, after checking that YAML reads it alike."""
    got = block_shaped(text)
    if got is NOT_JSON_SHAPED:
        return got
    try:
        expected = yaml_value(text)
    except (yaml.YAMLError, ValueError) as exc:
        raise AssertionError(f"block_shaped read a text YAML refuses ({exc}): {text!r}") from None
    assert same(got, expected), text
    assert same(got, fast_load(text, "t.yaml")), text
    return got


_RULES_SHEET = """\
pages:
  -\x20
    # header band
    - group:
        clip: [5.0, 5.0, 200.0, 23.0]
        clip_shape: rounded
        clip_radius: 3
        ops:
          - {rect: {x: 5.0, y: 5.0, w: 200.0, h: 23.0, fill: "#1b2440"}}
          - {text: {x: 1, text: "Card #2: \\"ok\\" \\u00e9 \\U0001305F", size: -0.5}}

    - flow:
        name: rules
        blocks:
          - h2: "Goal"
          - li: "**Bag:** every tile, a: b"
          - p: 'single quotes stay with YAML'
"""


@pytest.mark.parametrize("text", [
    "a: 1\nb: [1, 2.5, -0, -0.0, true, false, null, [], {}]\nc: {d: [e, f_g, NaN, Infinity]}\n",
    "pages:\n  -\n    - group:\n        clip: [0, 0, 40, 40]\n        ops:\n          - {rect: {x: 0}}\n",
    "ops:\n- {rect: {x: 0}}\n- word\nnext: 1\n",  # a list at its key's own column
    "- a: 1\n  b:\n  - x\n  - y\n  c: \"s\"\n- -1\n-   d: 2\n    e: 3\n",
    "# a comment\n\n  a: 1\n  # an indented comment\n\n  b: 2   \n",  # the document indented, trailing spaces
    '"quoted key": "𓀀 hiéroglyphe"\n"": 1\nx: "#fff"\n',
    "a: 1\na: 2\n",  # the later value wins in both
    "- {a: 1}\n-\n  - 1\n  - 2\n",
    _RULES_SHEET.replace(" \\u00e9 \\U0001305F", " é").replace("'single quotes stay with YAML'", '"double"'),
])
def test_a_block_layout_is_read_by_json_as_yaml_reads_it(text):
    assert _agrees(text) is not NOT_JSON_SHAPED


@pytest.mark.parametrize("text", [
    _RULES_SHEET,  # \u and \U escapes and single quotes are left to YAML
    "a: yes", "a: No", "a: on", "a: OFF", "a: True", "a: Null", "a: ~", "a:", "a:\nb: 1", "- \n- 1", "-",
    "a: 1e3", "a: 012", "a: 1_000", "a: .5", "a: +1", "a: 1:30", "a: 2001-02-03", "a: .inf",
    "a:1", "a: b c", "a: b, c", "- a, b", "- [1], [2]", "- {a: 1}, {b: 2}", "- [1] x", "a: b: c", "- a: b: c",
    "a: [1,\n  2]", "a: [1, 2", "a: 1]", "a: {x: 1}}", 'a: "x\n  y"', "a: b\n  c", "a: 1 # comment",
    "a: &x 1\nb: *x", "a: !!str 1", "<<: {a: 1}", "=: 1", "? a\n: 1", "a: |\n  x", "a: >\n  x", "a: 'q'",
    "---\na: 1", "a: 1\n...", "%YAML 1.1\n---\na: 1", "- - 1", "a: - 1", "true: 1", "yes: 1", "1: a", "a b: 1",
    "a: 1\n b: 2", "a: 1\n  - x", "a:\n    b: 1\n  c: 2", "- a: 1\n  - x", "- a\n  - b", "  a: 1\nb: 2",
    "a: 1\n- b", "- a:\n- x", "a:\t1", "a: \"\t\"", "a: 1\r\nb: 2", "\ufeffa: 1", "a: \"\x85\"", "a: 1\n# \x01",
    "a: 1\n# x\x85b: 2", 'a: "\\x41"', 'a: "\\/"', 'a: "\\ud83d\\ude00"',
    '"' + "k" * 1100 + '": 1', "k" * 1100 + ": 1", "a: {\"" + "k" * 1100 + "\": 1}",
    "a: " + "9" * 5000, "", "# only a comment\n",
])
def test_a_block_layout_yaml_reads_otherwise_or_refuses_is_left_to_yaml(text):
    assert block_shaped(text) is NOT_JSON_SHAPED


@pytest.mark.slow
def test_nesting_deeper_than_the_json_limit_is_left_to_yaml_which_keeps_its_own_limit():
    """Block levels and flow levels count together; past MAX_DEPTH the YAML reader
    reads the text, and past MAX_NESTING it refuses it at the line that goes too deep."""
    def blocks(levels: int, leaf: str) -> str:
        return "".join(" " * (2 * n) + "k:\n" for n in range(levels)) + " " * (2 * levels) + f"k: {leaf}\n"
    assert _agrees(blocks(MAX_DEPTH - 1, "1")) is not NOT_JSON_SHAPED
    assert block_shaped(blocks(MAX_DEPTH, "1")) is NOT_JSON_SHAPED
    assert _agrees(blocks(MAX_DEPTH - 11, "[" * 10 + "]" * 10)) is not NOT_JSON_SHAPED
    assert block_shaped(blocks(MAX_DEPTH - 10, "[" * 10 + "]" * 10)) is NOT_JSON_SHAPED
    items = "".join(" " * (2 * n) + "-\n" for n in range(MAX_NESTING + 5)) + " " * (2 * MAX_NESTING + 10) + "- 1\n"
    assert block_shaped(items) is NOT_JSON_SHAPED
    with pytest.raises(CardgenError) as caught:
        sandbox.TemplateRenderer((ROOT,), {}).parse(items, "t.yaml.j2", "card 1", "t.yaml.j2")
    assert "nest" in caught.value.message and caught.value.where.line
    with pytest.raises(CardgenError) as direct:
        fast_load(items, "t.yaml.j2 (rendered for card 1)")
    assert (caught.value.message, caught.value.where) == (direct.value.message, direct.value.where)


@pytest.mark.slow
def test_a_huge_block_layout_is_read_alike():
    text = "pages:\n" + "".join(f"  - p{n}:\n      ops:\n        - {{rect: {{x: {n}, y: {n}.5}}}}\n"
                                 for n in range(2_000))
    assert len(_agrees(text)["pages"]) == 2_000


def test_an_error_in_a_block_layout_is_still_reported_at_its_rendered_line():
    """What blockshape.py leaves, the YAML reader reads and refuses at its line, as before."""
    renderer = sandbox.TemplateRenderer((ROOT,), {})
    with pytest.raises(CardgenError) as caught:
        renderer.parse('pages:\n  - a: 1\n    b: "\\x4"\n', "t.yaml.j2", "card 1", "t.yaml.j2")
    assert caught.value.where.line == 3 and "t.yaml.j2 (rendered for card 1)" in str(caught.value)
    assert "in rendered line: 'b: \"\\\\x4\"'" in caught.value.message
    with pytest.raises(CardgenError) as caught:
        renderer.parse("pages:\n  - a: 1\n   b: 2\n", "t.yaml.j2", "card 1", "t.yaml.j2")
    assert caught.value.where.line == 3 and caught.value.message.startswith("YAML syntax error")


_KEYS = st.sampled_from(["a", "b", "fill", "yes", "true", "1", '"q"', '""', "<<", "a b", "&x a", "?", "-"])
_VALUES = st.sampled_from([
    "a", "x", "n", "yes", "on", "True", "true", "false", "null", "~", "0", "-1", "-0", "3.5", "1e3", "012", "1_0",
    ".5", "+1", "1:30", '"s"', '"#fff"', '"a b"', '"\\n"', '"\\u00e9"', '"\\""', "'q'", '"', "&a 1", "*a", "!!str 1",
    "[1, 2]", "{a: 1}", "[a, {b: [c]}]", "{a: 1}, {b: 2}", "[1], [2]", "a, b", "b c", "[", "]", "{a: 1", "#", "| x",
    "1 # c", "", " ", "- 1", "a: b",
])


def _emit(node, indent: int, step: int, draw) -> list[str]:
    """Block-style lines for ``node`` (a dict, a list or a value's text) at ``indent``."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(node, str):
        lines.append(pad + node)
    elif isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str):
                lines.append(f"{pad}{key}: {value}")
            else:
                lines.append(f"{pad}{key}:")
                same_column = isinstance(value, list) and draw(st.booleans())  # `key:` then `- ` at its column
                lines += _emit(value, indent if same_column else indent + step, step, draw)
    elif isinstance(node, list):
        for item in node:
            if isinstance(item, str):
                lines.append(f"{pad}- {item}")
            elif isinstance(item, dict) and item and draw(st.booleans()):  # `- key: value`, the rest below it
                inner = _emit(item, indent + 2, step, draw)
                lines += [f"{pad}- {inner[0][indent + 2:]}", *inner[1:]]
            else:
                lines.append(f"{pad}-")
                lines += _emit(item, indent + step, step, draw)
    return lines


_GOOD_KEYS = st.sampled_from(["a", "b", "fill", "x_1", '"q"', '"a b"', '""'])
_GOOD_VALUES = st.sampled_from(["a", "n", "NaN", "true", "false", "null", "0", "-1", "-0", "3.5", "-0.0", '"s"',
                                '"#fff: x, [y]"', '"\\n\\"\\u00e9"', "[1, 2]", "{a: 1}", "[a, {b: [c]}]", "[]", "{}"])


def _trees(keys, values):
    return st.recursive(values.filter(bool), lambda inner: st.lists(inner, min_size=1, max_size=3)
                        | st.dictionaries(keys, inner, min_size=1, max_size=3), max_leaves=10)


_TREES = st.one_of(_trees(_GOOD_KEYS, _GOOD_VALUES), _trees(_KEYS, _VALUES),
                   _trees(_GOOD_KEYS, st.one_of(_GOOD_VALUES, _GOOD_VALUES, _GOOD_VALUES, _VALUES)))


@st.composite
def _block_texts(draw) -> str:
    """Block-style texts of keys, items and values: well formed (with odd keys and
    values), or with one line moved, cut or broken, comments and blank lines here and there."""
    lines = _emit(draw(_TREES), draw(st.sampled_from([0, 0, 2])), draw(st.integers(1, 4)), draw)
    if draw(st.integers(0, 2)) == 0:
        n = draw(st.integers(0, len(lines) - 1))
        change = draw(st.sampled_from(["indent", "dedent", "cut", "append", "join"]))
        line = lines[n]
        lines[n] = {"indent": " " + line, "dedent": line[1:], "cut": line[:len(line) // 2],
                    "append": line + draw(st.sampled_from([", x", " x", ": 1", " # c", "]", "{"])),
                    "join": line + (" " + lines[n + 1].lstrip(" ") if n + 1 < len(lines) else "")}[change]
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), " " * draw(st.integers(0, 6)) + draw(st.sampled_from(["# c", ""])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "  \n"]))


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, derandomize=True)
@given(_block_texts())
def test_json_and_yaml_agree_on_every_block_text_block_shaped_reads(text):
    """Whatever block_shaped reads, YAML reads the same; whatever it leaves, YAML may read or refuse."""
    _agrees(text)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True), inner, max_size=4),
                    max_leaves=20))
def test_a_value_written_in_block_style_reads_back_as_yaml_reads_it(value):
    """Any value, written out in block style by PyYAML itself, with its flow values as
    the ``q`` filter writes them: read alike."""
    _agrees(yaml.safe_dump({"v": value, "w": [value]}, default_flow_style=False, sort_keys=False))
    _agrees(f"v: {sandbox.quote(value)}\nw:\n- {sandbox.quote(value)}\n")


def _rendered_texts(folder: Path, monkeypatch, tmp_path) -> dict[str, str]:
    """Every distinct text the templates of the game in ``folder`` render, in every
    language, with the template it came from."""
    texts: dict[str, str] = {}
    real = sandbox.TemplateRenderer.parse

    def parse(self, text, name, label, path=None):
        texts[text] = name
        return real(self, text, name, label, path)

    monkeypatch.setattr(sandbox.TemplateRenderer, "parse", parse)
    game = load_game(folder)
    for lang in game.languages:
        errors = Collector()
        KitBuilder(game, BuildOptions(out_dir=tmp_path / "out", jobs=1)).render_lang(lang, errors)
        assert not errors.errors
    return texts


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=[f"{p.parent.name}/{p.name}" for p in GAMES])
def test_every_rendered_face_of_every_shipped_game_reads_as_the_yaml_reader_reads_it(folder, monkeypatch, tmp_path):
    texts = _rendered_texts(folder, monkeypatch, tmp_path)
    assert texts
    for text, name in texts.items():
        got = json_shaped(text)
        if got is NOT_JSON_SHAPED:
            got = block_shaped(text)
        if got is not NOT_JSON_SHAPED:
            assert same(got, fast_load(text, name)), name
            assert same(got, yaml_value(text)), name


@pytest.mark.slow
def test_the_block_style_sheets_of_hapy_are_read_without_the_yaml_reader(monkeypatch, tmp_path):
    """Hâpy's rules sheet and setup sheet, in block style, are read by json: the
    YAML reader reads none of Hâpy's faces."""
    read_by_yaml: list[str] = []
    real = sandbox.fast_load
    monkeypatch.setattr(sandbox, "fast_load", lambda text, path: read_by_yaml.append(path) or real(text, path))
    texts = _rendered_texts(ROOT / "card_data" / "hapy", monkeypatch, tmp_path)
    assert {"rules.yaml.j2", "setup.yaml.j2"} <= {name for text, name in texts.items()
                                                  if json_shaped(text) is NOT_JSON_SHAPED}
    assert read_by_yaml == []
