"""A game folder is untrusted data: hostile templates, locale strings and layouts.

Each folder of ``tests/data/hostile/`` is ``mini_game`` with one change that once
leaked the environment, ran for minutes or took gigabytes (issue 15). The build runs
as a real process under a 1 GiB address-space limit and must end with exit status 1,
one ``error:`` line naming the template, the face and the limit, no traceback, and
nothing written. Then the pieces: the plain formatter of locale strings, the
budget's checks on what a template builds, the rendered-YAML limits, the numeric
bounds of layout ops, and the text fitter with a huge size.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import jinja2
import pytest
import yaml

from cardgen.base.errors import CardgenError, Collector
from cardgen.layout.ops import MAX_GROUP_DEPTH, MAX_OPS, MAX_PAGES, parse_layout
from cardgen.layout.textfit import STEP_PT, Run, _paragraph, _try, fit_text, split_paragraphs
from cardgen.load.yamlsrc import MAX_NESTING, fast_load
from cardgen.render.placeholders import PlaceholderError, fill_placeholders, parse_placeholders
from cardgen.render.sandbox import TemplateLimitError, TemplateRenderer, translator

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile"
REPO = Path(__file__).resolve().parents[2]
SECRET = "hunter2-must-never-reach-a-card"
AGAIN = "(the same template errors recur on 3 more face(s) in [en], not listed)"
FACE = "cards/card-1 front [en]"
LIMIT_NOTE = "a template value may hold at most 1,000,000"

CASES: dict[str, list[str]] = {  # folder: its error lines, without "error: "
    "locale_secret": [
        f"locale_secret/templates/front.yaml.j2:3: {FACE}: string 'card.title' in en "
        "(locale_secret/locales/en.yaml:6): bad placeholder: '{x.__init__.__globals__[os].environ[SECRET]}' is not "
        "a plain {name}", AGAIN],
    "locale_environ": [
        f"locale_environ/templates/front.yaml.j2:3: {FACE}: string 'card.title' in en "
        "(locale_environ/locales/en.yaml:6): bad placeholder: '{x.__init__.__globals__[os].environ}' is not a "
        "plain {name}", AGAIN],
    "nested_loops": [
        f"nested_loops/templates/front.yaml.j2:3: {FACE}: the template ran more than 1,000,000 loop iterations "
        "and calls for one face (the limit per face)", AGAIN],
    "slow_template": [
        f"slow_template/templates/front.yaml.j2:3: {FACE}: the template used more than 5 s of processor time for "
        "one face (the limit per face)", AGAIN],
    "lipsum": [
        f"lipsum/templates/front.yaml.j2:3: {FACE}: 'lipsum' would write up to 10,000,000 words; a template may "
        "ask for at most 10,000", AGAIN],
    "center": [
        f"center/templates/front.yaml.j2:3: {FACE}: 'center' would build a value of 1,000,000,000 characters or "
        f"items; {LIMIT_NOTE}", AGAIN],
    "concat_doubling": [
        f"concat_doubling/templates/front.yaml.j2:3: {FACE}: '~' would build a value of 1,048,576 characters or "
        f"items; {LIMIT_NOTE}", AGAIN],
    "extend_doubling": [
        f"extend_doubling/templates/front.yaml.j2:3: {FACE}: 'extend' would build a value of 1,048,576 characters "
        f"or items; {LIMIT_NOTE}", AGAIN],
    "built_total": [
        f"built_total/templates/front.yaml.j2:3: {FACE}: the template built more than 20,000,000 characters and "
        "items for one face (the limit per face)", AGAIN],
    "long_output": [
        f"long_output/templates/front.yaml.j2: {FACE}: the layout text is longer than 2,000,000 characters for "
        "one face (the limit per face)", AGAIN],
    "nested_parens": [
        "nested_parens/templates/front.yaml.j2:3: template nested too deeply to compile: 300 brackets inside one "
        "another here (Jinja compiles about 20 loops, 90 blocks or 60 brackets inside one another)", AGAIN],
    "yaml_aliases": [
        f"yaml_aliases/templates/front.yaml.j2 (rendered for {FACE}): the layout holds more than 1,000,000 values "
        "once its aliases (*name) are expanded", AGAIN],
    "deep_yaml": [
        f"deep_yaml/templates/front.yaml.j2 (rendered for {FACE}):3:1002: the layout nests lists and mappings "
        "more than 1,000 deep", AGAIN],
    "deep_groups": [f"deep_groups/templates/front.yaml.j2 [{FACE}]: groups nested more than 32 deep", AGAIN],
    "many_pages": ["many_pages/templates/sheet.yaml.j2 [rules on a4 [en]]: a sheet template may render at most "
                   "100 pages, found 99,999"],
    "huge_text_size": [f"huge_text_size/templates/front.yaml.j2 [{FACE}]: op 2: 'size' of text must be at most "
                       "400 pt, found 1000000000000.0", AGAIN],
    "zero_width": [f"zero_width/templates/front.yaml.j2 [{FACE}]: op 2: 'w' of text must be more than 0 and at "
                   "most 2,000 mm, found 0", AGAIN],
    "negative_height": [f"negative_height/templates/front.yaml.j2 [{FACE}]: op 2: 'h' of text must be more than 0 "
                        "and at most 2,000 mm, found -12", AGAIN],
    "half_max_lines": [f"half_max_lines/templates/front.yaml.j2 [{FACE}]: op 2: 'max_lines' of text must be a "
                       "whole number from 1 to 1,000, found 0.5", AGAIN],
    "deep_game_yaml": ["deep_game_yaml/game.yaml:24:107: the file nests lists and mappings more than 100 deep"],
    "long_integer": ["long_integer/game.yaml:24:8: a whole number of 5,000 digits: cardgen reads at most 4,300"],
    "latin1_template": ["latin1_template/templates/front.yaml.j2:4:7: not UTF-8 text (byte 0xE9)", AGAIN],
    "bomb_png": [f"bomb_png/assets/art.png: bomb_png/templates/front.yaml.j2 [{FACE}]: the image is 100,000 × "
                 "100,000 pixels; an image may have at most 50,000,000 pixels", AGAIN],
    "broken_png": [f"broken_png/assets/art.png: broken_png/templates/front.yaml.j2 [{FACE}]: the image cannot be "
                   "read: not a PNG or JPEG file", AGAIN],
}

ONE_GIB = 1 << 30


def _one_gib() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ONE_GIB, ONE_GIB))


def _children_cpu() -> float:
    """Processor seconds used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_game_folder_is_one_error_line(case, tmp_path):
    """The build ends within seconds of processor time with exit 1 and the exact
    lines, within 1 GiB; the output folder (and the kit already in it) is left as it was."""
    out = tmp_path / "out"
    (out / "mini").mkdir(parents=True)
    (out / "mini" / "mini-en-a4-cards.pdf").write_bytes(b"%PDF- the previous kit\n")
    before = snapshot(out)
    env = {**os.environ, "SECRET": SECRET, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO),
                                                                                       os.environ.get("PYTHONPATH")])),
           "CARDGEN_CONFIG": str(tmp_path / "no-settings.cfg")}
    before_cpu = _children_cpu()
    # the timeout only keeps a hang from stalling the suite; the limits under test count processor
    # seconds, so the bound below is the child's processor time, whatever else the machine runs
    run = subprocess.run([sys.executable, "-m", "cardgen", "build", case, "--out", str(out), "--lang", "en",
                          "--paper", "a4", "--jobs", "1"], cwd=HOSTILE, env=env, preexec_fn=_one_gib,
                         capture_output=True, text=True, timeout=1800)
    took = _children_cpu() - before_cpu
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 1, (run.returncode, run.stderr[-2000:])
    errors = [line[len("error: "):] for line in run.stderr.splitlines() if line.startswith("error: ")]
    assert errors == CASES[case], run.stderr
    assert SECRET not in run.stdout + run.stderr
    assert snapshot(out) == before
    assert took < 45, f"{case} took {took:.1f} s of processor time"


def test_every_hostile_folder_is_a_case():
    assert sorted(p.name for p in HOSTILE.iterdir() if p.is_dir()) == sorted(CASES)


# -- locale strings: only {name} placeholders with plain values ------------------------------------


@pytest.mark.parametrize("text, refused", [
    ("{x.__class__}", "'{x.__class__}' is not a plain {name}"),
    ("{x.__init__.__globals__[os].environ}", "'{x.__init__.__globals__[os].environ}' is not a plain {name}"),
    ("{x[0]}", "'{x[0]}' is not a plain {name}"),
    ("{x!r}", "'{x!r}' is not a plain {name}"),
    ("{x:>1000000000}", "'{x:>1000000000}' is not a plain {name}"),
    ("{x:{y}}", "'{x:{y}}' is not a plain {name}"),
    ("{0}", "'{0}' is not a plain {name}"),
    ("{}", "'{}' is not a plain {name}"),
    ("a { b", "expected '}' before end of string (write {{ and }} for a literal brace)"),
    ("a } b", "Single '}' encountered in format string (write {{ and }} for a literal brace)"),
])
def test_locale_string_tricks_are_refused(text, refused):
    with pytest.raises(PlaceholderError) as exc:
        parse_placeholders(text)
    assert str(exc.value) == refused


def test_plain_placeholders_and_brace_escapes_are_kept():
    pieces = parse_placeholders("{{n}} is {n}, {who} {{ok}}")
    assert fill_placeholders(pieces, {"n": 3, "who": "Ra", "unused": 1}) == "{n} is 3, Ra {ok}"
    assert fill_placeholders(parse_placeholders("{x}"), {"x": 2.5}) == "2.5"
    assert fill_placeholders(parse_placeholders("no placeholders"), {}) == "no placeholders"


@pytest.mark.parametrize("value, refused", [
    (jinja2.utils.Cycler, "the value for {n} must be text or a number, found Cycler"),
    (jinja2.utils.Cycler(1, 2), "the value for {n} must be text or a number, found Cycler"),
    ({"a": 1}, "the value for {n} must be text or a number, found dict"),
    (True, "the value for {n} must be text or a number, found bool"),
])
def test_locale_values_must_be_plain(value, refused):
    with pytest.raises(PlaceholderError) as exc:
        fill_placeholders(parse_placeholders("{n}"), {"n": value})
    assert str(exc.value) == refused


def test_translator_names_key_and_language():
    t = translator({"k": "{x.__init__.__globals__}", "row": "row {n}", "raw": "{x.y}"}, "fr", lambda key: None)
    with pytest.raises(PlaceholderError, match=r"^string 'k' in fr: bad placeholder: '\{x.__init__.__globals__\}' "):
        t("k", x=1)
    with pytest.raises(PlaceholderError, match=r"^string 'row' in fr: bad placeholder: no value for \{n\}$"):
        t("row", count=2)
    assert t("row", n=2) == "row 2"
    assert t("raw") == "{x.y}"  # no values given: the string as written, nothing looked up


def test_undefined_value_is_the_undefined_error():
    t = translator({"row": "row {n}"}, "en", lambda key: None)
    with pytest.raises(jinja2.UndefinedError, match="'nope' is undefined"):
        t("row", n=jinja2.StrictUndefined(name="nope"))


# -- what a template builds: each multiplier checked before it runs ------------------------------


@pytest.fixture
def render(tmp_path):
    """render(template text) → the rendered text, or the CardgenError it raised."""
    folder = tmp_path / "tpl"
    folder.mkdir()
    renderer = TemplateRenderer((folder,), {})

    def run(text: str):
        name = f"t{len(list(folder.iterdir()))}.j2"
        (folder / name).write_text(text, encoding="utf-8")
        try:
            return renderer.render_text(name, {"t": translator({"k": "N={n}"}, "en", lambda key: None)}, "L")
        except CardgenError as exc:
            return exc

    return run


BIG = "{% set big = 'x' * 100000 %}{% set many = [big] * 1000 %}"


@pytest.mark.parametrize("expr, fragment", [
    ("{{ many }}", "printing a list would build a value of more than 1,000,000 characters or items"),
    ("{{ many|join }}", "'join' of a list would build a value of more than 1,000,000"),
    ("{{ ''.join(many) }}", "'join' would build a value of more than 1,000,000 characters"),
    ("{{ many|select|join }}", "'join' of a list would build a value of more than 1,000,000 characters"),
    ("{{ ''.join(many|select) }}", "'join' would build a value of more than 1,000,000 characters"),
    ("{% set l = [] %}{% do l.extend(range(100000)|select) %}{% do l.extend(l|select) %}"
     "{% for i in range(5) %}{% do l.extend(l|select) %}{% endfor %}", "'extend' would build a value of 1,599,984"),
    ("{{ big ~ many }}", "'~' would build a value of more than 1,000,000"),
    ("{{ (big * 9)|replace('x', 'yy') }}", "'replace' would build a value of 1,800,000 characters"),
    ("{{ big.replace('x', 'y' * 20) }}", "'replace' would build a value of 2,000,000 characters"),
    ("{{ big.translate({120: 'y' * 20}) }}", "'translate' would build a value of 2,000,000 characters"),
    ("{{ 'x'.ljust(10**9) }}", "'ljust' would build a value of 1,000,000,000 characters"),
    ("{{ 'x'.zfill(10**7) }}", "'zfill' would build a value of 10,000,000 characters"),
    ("{{ ('\\t' * 100).expandtabs(10**5) }}", "'expandtabs' would build a value of 10,000,100 characters"),
    ("{{ '{:>1000000000}'.format(1) }}", "a format width would build a value of 1,000,000,000 characters"),
    ("{{ ('{0}' * 20).format(big) }}", "'format' would build a value of 1,000,060 characters"),
    ("{{ ('%s' * 20) % ((big,) * 20) }}", "'%' would build a value of 2,000,040 characters"),
    ("{{ ('%(a)s' * 20) % {'a': big} }}", "'%' would build a value of 2,000,100 characters"),
    ("{{ '%s'|format(many) }}", "'%' would build a value of more than 1,000,000"),
    ("{{ '%1000000000s' % 1.5 }}", "'%' format width too large"),
    ("{{ (big|safe).center(10**7) }}", "'center' would build a value of 10,000,000 characters"),
    ("{{ ('a\\n' * 1000)|indent(1000) }}", "'indent' would build a value of 1,003,000 characters"),
    ("{{ ('a ' * 1000)|wordwrap(1, wrapstring='x' * 1000) }}", "'wordwrap' would build a value of 2,003,000"),
    ("{{ [1, 2]|tojson(indent=10**6) }}", "'tojson' would build a value of 6,000,006 characters"),
    ("{{ [1]|batch(10**9, 0)|list }}", "'batch' would build a value of 1,000,000,000 characters"),
    ("{{ [1]|slice(10**9)|list }}", "'slice' would build a value of 1,000,000,000 characters"),
    ("{{ ([[0] * 1000] * 1001)|sum(start=[]) }}", "'sum' would build a value of more than 1,000,000"),
    ("{{ (big * 5) + (big * 6) }}", "'+' would build a value of 1,100,000 characters"),
    ("{{ big * 11 }}", "'*' would build 1,100,000 items; a template may build at most 1,000,000"),
    ("{% set ns = namespace(x=2**4000) %}{% set ns.x = ns.x * ns.x %}", "'*' result too large (a 8,002-bit number"),
    ("{% set ns = namespace(x='ab') %}{% for i in range(30) %}{% set ns.x %}{{ ns.x }}{{ ns.x }}{% endset %}"
     "{% endfor %}", "the template's output would build a value of 1,048,576 characters"),
    ("{% macro m() %}{% for i in range(11) %}{{ big }}{% endfor %}{% endmacro %}{{ m() }}",
     "the template's output would build a value of 1,100,000 characters"),
    ("{% filter center(10**9) %}x{% endfilter %}", "'center' would build a value of 1,000,000,000 characters"),
    ("{{ range(1000)|map('center', 100000)|join }}", "the template built more than 20,000,000 characters"),
    ("{% set ps = [] %}{% for i in range(201) %}{% do ps.append({'x': i, 'y': 0}) %}{% endfor %}{{ ps|covered }}",
     "'covered' takes at most 200 pieces, found 201"),
    ("{% set d = {} %}{% for i in range(99999) %}{% do d.update({i: big}) %}{% endfor %}{{ d|length }}", None),
])
def test_a_template_cannot_build_a_huge_value(render, expr, fragment):
    result = render(BIG + expr)
    if fragment is None:  # within every limit: a mapping of 99,999 references to one string
        assert result == "99999"
        return
    assert isinstance(result, TemplateLimitError), repr(result)[:300]
    assert result.where.line == 1 and result.message.startswith("L: ") and fragment in result.message, str(result)


def test_small_values_render_as_before(render):
    """The checks measure; they never change what renders."""
    text = render("{% set ns = namespace(s='') %}{% for i in range(200) %}{% set ns.s = ns.s ~ i %}{% endfor %}"
                  "{{ ns.s|length }} {{ t('k', n=3) }} {{ '%05d' % 7 }} {{ '{:>5}'.format(3) }} {{ [1, 2]|q }} "
                  "{{ 'a' + 'b' }} {{ [1] + [2] }} {{ 'ab' * 3 }} {{ 'x'|center(5) }}|{{ [1, 2, 3]|join('-') }} "
                  "{% set l = [] %}{% do l.extend([1, 2]) %}{{ l }} {{ range(3)|list }} {{ lipsum(1, False, 5, 6)|length > 0 }}")
    assert text == "490 N=3 00007     3 [1, 2] ab [1, 2] ababab   x  |1-2-3 [1, 2] [0, 1, 2] True"


def test_a_budget_is_per_face(render, tmp_path):
    """Each face starts afresh: 600,000 iterations twice is two faces within the limit."""
    folder = tmp_path / "tpl"
    (folder / "loop.j2").write_text("{% for i in range(600) %}{% for j in range(1000) %}{% endfor %}{% endfor %}ok")
    renderer = TemplateRenderer((folder,), {})
    assert [renderer.render_text("loop.j2", {}, f"face {n}") for n in (1, 2)] == ["ok", "ok"]


def test_a_template_out_of_budget_is_not_rendered_again(game_copy, tmp_path, monkeypatch):
    """Once a template runs out of its budget, the language's other faces are counted, not rendered."""
    from cardgen.load.game import load_game
    from cardgen.pipeline import BuildOptions, KitBuilder

    root = game_copy("mini_game")
    front = root / "templates" / "front.yaml.j2"
    front.write_text(front.read_text() + "{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}\n")
    builder = KitBuilder(load_game(root), BuildOptions(langs=("en",), papers=("a4",), out_dir=tmp_path / "out"))
    rendered = []
    original = TemplateRenderer.render_text

    def counting(self, name, context, label):
        rendered.append((name, label))
        return original(self, name, context, label)

    monkeypatch.setattr(TemplateRenderer, "render_text", counting)
    outcome = builder.build_language("en", tmp_path)
    assert [label for name, label in rendered if name == "front.yaml.j2"] == [FACE]
    # the backs are fine: the four share their inputs, so the face memo renders one
    assert len([name for name, _ in rendered if name == "back.yaml.j2"]) == 1
    assert "the template ran more than 1,000,000 loop iterations" in outcome.errors[0]
    assert outcome.errors[1:] == [AGAIN]


# -- rendered YAML: the limits of user files --------------------------------------------------------


@pytest.mark.parametrize("twice", ["[*a{m}, *a{m}]", "[*a{m}, *b{m}]"])
def test_merges_of_merges_are_counted(twice):
    """Each level merges the level below twice, doubling the pairs a merge copies:
    refused at cardgen's own limit whatever PyYAML release merges them (6.0.4's drops
    a pair merged twice from the same node; the second form copies distinct nodes)."""
    levels = ["a0: &a0 {x: 1, y: 2}", "b0: &b0 {x: 3, y: 4}"]
    for n in range(1, 40):
        merge = twice.format(m=n - 1)
        levels += [f"a{n}: &a{n} {{<<: {merge}}}", f"b{n}: &b{n} {{<<: {merge}}}"]
    with pytest.raises(CardgenError, match=r"^L:\d+:\d+: the layout holds more than 1,000,000 values once its "
                                           r"merges \(<<\) are expanded$"):
        fast_load("\n".join(levels) + "\n", "L")


def test_merges_follow_the_merge_key_rules():
    """A mapping's own keys win over merged ones, and the earlier of the merged
    mappings over the later, as the YAML merge-key type says."""
    text = ("a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\n"
            "own: {<<: *a, x: 9}\nlisted: {<<: [*a, *b]}\nreversed: {<<: [*b, *a]}\n"
            "again: {<<: [*a, *b, *a]}\nnested: {<<: {<<: *b, w: 4}, v: 5}\n")
    doc = fast_load(text, "L")
    assert doc["own"] == {"x": 9, "y": 1}
    assert doc["listed"] == {"x": 1, "y": 1, "z": 2}
    assert doc["reversed"] == {"x": 2, "y": 1, "z": 2}
    assert doc["again"] == {"x": 1, "y": 1, "z": 2}
    assert doc["nested"] == {"x": 2, "z": 2, "w": 4, "v": 5}
    with pytest.raises(CardgenError, match=r"^L:1:9: a merge \(<<\) takes a mapping or a list of mappings$"):
        fast_load("a: {<<: 3}\n", "L")


def test_aliases_are_counted_where_they_are_used():
    text = "- &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" + "".join(
        f"- &a{n} [{', '.join(['*a' if n == 1 else f'*a{n - 1}'] * 10)}]\n" for n in range(1, 7))
    with pytest.raises(CardgenError, match=r"^L: the layout holds more than 1,000,000 values once its aliases"):
        fast_load(text, "L")
    assert fast_load("- &a {rect: {x: 1}}\n- *a\n- *a\n", "L") == [{"rect": {"x": 1}}] * 3


def test_deep_nesting_is_refused_before_the_parser_recurses():
    """libyaml's composer recurses in C: 30,000 levels crashed the whole process."""
    with pytest.raises(CardgenError, match=rf"^L:1:{MAX_NESTING + 1}: the layout nests lists and mappings more than "
                                           rf"1,000 deep$"):
        fast_load("[" * 30_000 + "]" * 30_000, "L")
    with pytest.raises(CardgenError, match=rf"^L:1:{MAX_NESTING + 1}: the layout nests lists and mappings more than "
                                           rf"1,000 deep$"):
        fast_load("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1), "L")  # one past the limit
    assert fast_load("[" * MAX_NESTING + "]" * MAX_NESTING, "L") is not None  # at the limit
    assert fast_load("- {a: '" + "[" * 20_000 + "'}\n", "L") == [{"a": "[" * 20_000}]  # brackets in a string



def test_a_lower_libyaml_ceiling_still_gets_cardgen_words(monkeypatch):
    """Should a libyaml release stop nesting earlier than cardgen's limit, the text is
    refused at its place in cardgen's words, not libyaml's (set through the setter
    PyYAML 6.0.4 on has; earlier releases have no ceiling to lower)."""
    setter = getattr(getattr(yaml, "_yaml", None), "_set_max_nest_level", None)
    getter = getattr(getattr(yaml, "_yaml", None), "_get_max_nest_level", None)
    if setter is None or getter is None:
        pytest.skip("this PyYAML's libyaml has no nesting ceiling")
    before = getter()
    setter(50)
    try:
        with pytest.raises(CardgenError) as raised:
            fast_load("[" * 60 + "]" * 60 + "\n" + "- a: 1\n" * MAX_NESTING, "L")
        assert str(raised.value) == "L:1:51: lists and mappings nested deeper than the YAML reader allows"
    finally:
        setter(before)

# -- layout ops: numeric bounds, counts and depth ---------------------------------------------------


def errors_of(doc, allow_pages=False) -> list[str]:
    found = Collector()
    parse_layout(doc, "L", found, allow_pages)
    return [str(e) for e in found.errors]


TEXT = {"x": 0, "y": 0, "w": 20, "h": 10, "text": "hi"}
FLOW = {"x": 0, "y": 0, "w": 20, "h": 10, "blocks": [{"p": "hi"}]}


@pytest.mark.parametrize("op, message", [
    ({"text": {**TEXT, "w": 0}}, "'w' of text must be more than 0 and at most 2,000 mm, found 0"),
    ({"text": {**TEXT, "h": -1.5}}, "'h' of text must be more than 0 and at most 2,000 mm, found -1.5"),
    ({"text": {**TEXT, "size": 401}}, "'size' of text must be at most 400 pt, found 401"),
    ({"text": {**TEXT, "min_size": 1e12}}, "'min_size' of text must be at most 400 pt, found 1000000000000.0"),
    ({"text": {**TEXT, "max_lines": 0.5}}, "'max_lines' of text must be a whole number from 1 to 1,000, found 0.5"),
    ({"text": {**TEXT, "max_lines": 0}}, "'max_lines' of text must be a whole number from 1 to 1,000, found 0"),
    ({"text": {**TEXT, "line_height": 0}}, "'line_height' of text must be more than 0 and at most 10, found 0"),
    ({"text": {**TEXT, "text": "x" * 10_001}}, "the text of a text op may be at most 10,000 characters, found 10,001"),
    ({"flow": {**FLOW, "columns": 13}},
     "'columns' of flow must be a whole number from 1 to 12, found 13"),
    ({"flow": {**FLOW, "gap": -1}}, "'gap' of flow must be at least 0 and at most 2,000 mm, found -1"),
    ({"flow": {**FLOW, "blocks": [{"p": "x" * 20_001}]}},
     "the blocks of a flow may hold at most 20,000 characters, found 20,001"),
    ({"rect": {"x": 1e6, "y": 0, "w": 1, "h": 1}}, "'x' of rect holds a number beyond ±100,000, found 1000000.0"),
    ({"polygon": {"points": [[0, 0], [0, 1e9]]}}, "'points' of polygon holds a number beyond ±100,000, found [[0, 0], [0, 1000000000.0]]"),
    ({"line": {"x1": 0, "y1": 0, "x2": 1, "y2": 1, "dash": [0, 0]}},
     "'dash' of line must be lengths of at least 0 adding up to more than 0 (mm), found [0, 0]"),
])
def test_op_values_have_bounds(op, message):
    assert errors_of([op]) == [f"L: op 1: {message}"]


def test_whole_numbers_may_be_written_as_floats():
    assert errors_of([{"text": {**TEXT, "max_lines": 2.0}}, {"text": {**TEXT, "size": 400, "min_size": 6}}]) == []


def test_ops_are_counted_across_groups():
    rect = {"rect": {"x": 0, "y": 0, "w": 1, "h": 1}}
    half = MAX_OPS // 2
    assert errors_of([{"group": {"ops": [rect] * (half - 1)}}, {"group": {"ops": [rect] * (half - 1)}}]) == []
    assert errors_of([{"group": {"ops": [rect] * half}}, {"group": {"ops": [rect] * half}}]) == [
        f"L: more than {MAX_OPS:,} operations on one face (groups' contents included)"]


def test_group_depth_is_said_once():
    doc: list = [{"rect": {"x": 0, "y": 0, "w": 1, "h": 1}}]
    for _ in range(1500):
        doc = [{"group": {"ops": doc}}, {"group": {"ops": doc}}]  # shared: cheap to build, deep to walk
    assert errors_of(doc[:1]) == [f"L: groups nested more than {MAX_GROUP_DEPTH} deep"]
    nested: list = [{"rect": {"x": 0, "y": 0, "w": 1, "h": 1}}]
    for _ in range(MAX_GROUP_DEPTH):
        nested = [{"group": {"ops": nested}}]
    assert errors_of(nested) == []  # 32 groups inside one another
    assert errors_of([{"group": {"ops": nested}}]) == [f"L: groups nested more than {MAX_GROUP_DEPTH} deep"]


def test_pages_of_a_sheet_are_bounded():
    assert errors_of({"pages": [[]] * MAX_PAGES}, allow_pages=True) == []
    assert errors_of({"pages": [[]] * (MAX_PAGES + 1)}, allow_pages=True) == [
        f"L: a sheet template may render at most {MAX_PAGES} pages, found {MAX_PAGES + 1:,}"]


def test_an_error_quotes_a_deep_value_briefly():
    deep: list = [1]
    for _ in range(5000):
        deep = [deep]
    (message,) = errors_of([deep])
    assert message.startswith("L: op 1: each operation is a one-key mapping such as {rect: {...}}, found [[[[")
    assert len(message) < 200


# -- the fitter: a huge size is arithmetic, not a list of steps ------------------------------------


def mono(text: str, size: float) -> float:
    return len(text) * size * 0.2


def test_fitter_with_a_huge_size_is_quick():
    started = time.process_time()  # processor time: what the machine's other work does not change
    fitted = fit_text(mono, "a few words to fit", 30, 10, size=1e12, min_size=6)
    assert time.process_time() - started < 1
    assert fitted.fits and fitted.size < 30


@pytest.mark.parametrize("size, min_size", [(12, 6), (12.1, 6.3), (9, 8.9), (40, 6), (7.3, 7.25)])
def test_fitter_picks_the_largest_grid_size_that_fits(size, min_size):
    """The same answer as trying every step of the 0.25 pt grid from the top."""
    text = "Translations run longer than English, so every box shrinks until it fits"
    paras = [_paragraph(p) for p in split_paragraphs([Run(text)])]
    width_of = lambda run, size: mono(run.text, size)  # noqa: E731
    grid = [size] + [size - k * STEP_PT for k in range(1, int((size - min_size) / STEP_PT) + 2)
                     if size - k * STEP_PT > min_size + 1e-9] + [min_size]
    for width in (20, 35, 60):
        fits = [s for s in grid if _try(width_of, lambda font, t, size: mono(t, size), paras, s, width, 14, 1.2, None).fits]
        fitted = fit_text(mono, text, width, 14, size, min_size)
        assert fitted.size == (fits[0] if fits else min_size)
