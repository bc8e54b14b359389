"""Rendered layouts that mean the same in JSON are read by json (render/jsonshape.py,
issue 32): the document must be exactly what the YAML reader gives, and anything
YAML reads otherwise, or refuses, is left to it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from yamlsame import same, yaml_value

from cardgen.base.errors import CardgenError, Collector
from cardgen.load.game import load_game
from cardgen.pipeline import BuildOptions, KitBuilder
from cardgen.render import sandbox
from cardgen.render.jsonshape import MAX_DEPTH, NOT_JSON_SHAPED, json_shaped

ROOT = Path(__file__).resolve().parents[2]


def _agrees(text: str) -> object:
    """json_shaped's document for ``text``, after checking that YAML reads it alike."""
    got = json_shaped(text)
    if got is NOT_JSON_SHAPED:
        return got
    assert same(got, yaml_value(text)), text
    return got


@pytest.mark.parametrize("text", [
    "- {rect: {x: -3.0, y: -3.0, w: 69.0, h: 94.0, fill: paper}}\n",
    '# a comment line\n- {text: {x: 5, text: "Card 1 #2: \\"ok\\"\\n", size: 14}}\n\n- {circle: {cx: 0, r: 1}}',
    "- {a: [1, 2.5, -0, -0.0, true, false, null, [], {}], b: {c: [d, e_f, NaN, Infinity]}}\n",
    '- {"quoted key": "𓀀 hiéroglyphe", y: n, "": ""}\n- -1\n- word\n- "s"\n- [1]\n',
    "- {a: 1, a: 2}\n",  # the later value wins in both
])
def test_a_json_shaped_layout_is_read_by_json_as_yaml_reads_it(text):
    assert _agrees(text) is not NOT_JSON_SHAPED


@pytest.mark.parametrize("text", [
    "- {a: yes}", "- {a: No}", "- {a: on}", "- {a: OFF}", "- {a: True}", "- {a: Null}", "- {a: ~}",
    "- {a: 1e3}", "- {a: 1.5e+3}", "- {a: 0x1F}", "- {a: 012}", "- {a: 1_000}", "- {a: .5}", "- {a: 1.}",
    "- {a: +1}", "- {a: 1:30}", "- {a: 2001-02-03}", "- {a: .inf}", "- {a: -Infinity}",
    "- {a:1}", '- {"a":1}', "- {a: 1,}", "- {a: }", "- {a}", "- {1: a}", "- {true: a}", "- {a: b c}", '- {a: b"c"}',
    "- {a: 1} # comment", "- {a: 1}, {b: 2}", "- - 1", "-\n  - 1", "  - {a: 1}", "- a: 1", "a: 1", "",
    "---\n- 1", "- 1\n...", "%YAML 1.1\n---\n- 1", "- {a: 1,\n   b: 2}", '- "line\n  folded"',
    "- {a: &x 1, b: *x}", "- {<<: {a: 1}}", "- {=: 1}", "- !!str 1", "- {a: 'single'}", "- {a: |\n  x}",
    '- "\\u00e9"', '- "\\x41"', '- "\\/"', '- "\\e"', '- "\\ud83d\\ude00"', "- \"\x85\"", "- \"\u2028\"", "- \"\x7f\"",
    "- \"\ufeff\"", "\ufeff- 1", "- {a:\t1}", "- \"\t\"", "- 1\r\n- 2",
    "- {a: 1}\n# \x01", "- {a: 1}\n# x\x85- {b: 2}",  # YAML reads comments too: a character it refuses, a NEL
    "- {\"" + "k" * 1100 + "\": 1}", "- {" + "k" * 1100 + ": 1}", "- " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "- " + "9" * 5000, "- {a: [1, 2}", "- {a: 1}}",
])
def test_a_layout_yaml_reads_otherwise_or_refuses_is_left_to_yaml(text):
    assert json_shaped(text) is NOT_JSON_SHAPED


_TOKENS = st.sampled_from([
    "a", "x", "y", "n", "fill", "stroke_width", "yes", "no", "on", "off", "True", "true", "false", "null", "Null", "~",
    "0", "1", "-1", "-0", "12", "3.5", "-3.0", "1e3", "1.5e+3", "012", "0x1F", "1_0", ".5", "1.", "+1", "1:30",
    '"s"', '"#fff"', '"a b"', '"\\n"', '"\\u00e9"', '"\\""', "'q'", '"', "é", "&a", "*a", "!!str", "<<", "=", "#",
    "{", "}", "[", "]", ",", ", ", ": ", ":", " ", "\n", "\n- ", "- ", "-", "\t", "?", "|", ">", "%", "@",
])


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(st.lists(st.lists(_TOKENS, max_size=14), min_size=1, max_size=4))
def test_json_and_yaml_agree_on_every_text_json_shaped_reads(lines):
    """Texts made of the pieces YAML and JSON read differently: whatever json_shaped
    reads, YAML reads the same; whatever it leaves, YAML may read or refuse."""
    text = "\n".join("- " + "".join(line) for line in lines)
    got = json_shaped(text)
    if got is NOT_JSON_SHAPED:
        return
    try:
        expected = yaml_value(text)
    except (yaml.YAMLError, ValueError) as exc:
        raise AssertionError(f"json_shaped read a text YAML refuses ({exc}): {text!r}") from None
    assert same(got, expected), text


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True), inner, max_size=4),
                    max_leaves=12))
def test_a_value_the_q_filter_writes_reads_back_the_same(value):
    """A layout item as a template writes it (``{{ value|q }}``) reads back as YAML reads it."""
    text = f"- {sandbox.quote(value)}\n- {{v: {sandbox.quote(value)}}}\n"
    _agrees(text)


def test_a_plain_deck_is_read_without_the_yaml_reader(tmp_path, monkeypatch):
    """The faces of a deck of one-line flow items (bench/plain-deck) are all read by json."""
    folder = tmp_path / "plain"
    shutil.copytree(ROOT / "bench" / "plain-deck", folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("range: [1, 120]", "range: [1, 3]"),
                         encoding="utf-8")
    game = load_game(folder)
    builder = KitBuilder(game, BuildOptions(out_dir=tmp_path / "out", jobs=1))
    read_by_yaml = []
    real = sandbox.fast_load
    monkeypatch.setattr(sandbox, "fast_load", lambda text, path: read_by_yaml.append(path) or real(text, path))
    errors = Collector()
    kit = builder.render_lang("en", errors)
    assert not errors.errors
    assert len(kit.fronts) == 3 and len(kit.backs) == 3
    assert read_by_yaml == []


def test_an_error_in_a_json_like_layout_is_still_reported_at_its_rendered_line(tmp_path):
    """A trailing comma is YAML, not JSON: read by YAML; a value YAML refuses, at its line."""
    renderer = sandbox.TemplateRenderer((tmp_path,), {})
    assert renderer.parse("- {a: 1,}\n", "t.yaml.j2", "x", "t.yaml.j2") == [{"a": 1}]
    with pytest.raises(CardgenError) as caught:
        renderer.parse('- {a: 1}\n- {b: "\\x4"}\n', "t.yaml.j2", "card 1", "t.yaml.j2")
    assert caught.value.where.line == 2 and "t.yaml.j2 (rendered for card 1)" in str(caught.value)
