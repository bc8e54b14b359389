"""Rendering templates (`cardgen.render.sandbox`) and checking the text they produce.

Templates run in a sandboxed Jinja environment with StrictUndefined; errors name the
template file and line. Text that does not fit, or that the font cannot draw, stops
the build with a message naming card, face and language.
"""

from __future__ import annotations

import re

import jinja2
import pytest
import yaml
from conftest import assert_user_error, edit_file

from cardgen.base.errors import CardgenError, display_path
from cardgen.render.sandbox import TemplateRenderer, contrast, luminance, mix, quote, translator

LABEL = "cards/card-1 front [fr]"
FALCON = "\U00013143"


@pytest.fixture
def tpl(tmp_path):
    """Write templates into a folder and render them: tpl({name: text}) → render(name, ctx)."""

    def make(files: dict[str, str], palette=None, extra_dirs=()):
        d = tmp_path / "tpl"
        d.mkdir(exist_ok=True)
        for name, text in files.items():
            (d / name).write_text(text, encoding="utf-8")
        renderer = TemplateRenderer((d, *extra_dirs), palette or {})

        def render(name, context=None):
            return renderer.render(name, context or {}, LABEL)

        render.dir = d
        return render

    return make


def render_error(render, name, context=None) -> CardgenError:
    with pytest.raises(CardgenError) as exc:
        render(name, context)
    return exc.value


BOX = "x: 0, y: 0, w: 10, h: 5"


# -- StrictUndefined ----------------------------------------------------------------


def test_undefined_variable_names_file_and_line(tpl):
    render = tpl({"front.yaml.j2": f"# a comment\n- {{rect: {{{BOX}}}}}\n- {{text: {{{BOX}, text: \"{{{{ nope }}}}\"}}}}\n"})
    err = render_error(render, "front.yaml.j2")
    assert str(err).startswith(f"{display_path(render.dir / 'front.yaml.j2')}:3: {LABEL}: ")
    assert "'nope' is undefined" in err.message


def test_undefined_attribute_of_a_defined_value(tpl):
    render = tpl({"front.yaml.j2": f"\n\n\n- {{text: {{{BOX}, text: \"{{{{ card.colour }}}}\"}}}}\n"})
    err = render_error(render, "front.yaml.j2", {"card": {"id": "c1"}})
    assert str(err).startswith(f"{display_path(render.dir / 'front.yaml.j2')}:4: ")
    assert "colour" in err.message and LABEL in err.message


def test_undefined_variable_through_q_filter_is_named(tpl):
    render = tpl({"front.yaml.j2": f"- {{text: {{{BOX}, text: {{{{ nope|q }}}}}}}}\n"})
    err = render_error(render, "front.yaml.j2")
    assert str(err).startswith(f"{display_path(render.dir / 'front.yaml.j2')}:1: ")
    assert "'nope' is undefined" in err.message


def test_undefined_through_q_filter_is_still_an_error(tpl):
    """Whatever the message, a missing variable never renders as a blank."""
    render = tpl({"front.yaml.j2": f"- {{text: {{{BOX}, text: {{{{ nope|q }}}}}}}}\n"})
    err = render_error(render, "front.yaml.j2")
    assert str(err).startswith(f"{display_path(render.dir / 'front.yaml.j2')}:1: ")


def test_error_inside_a_macro_names_the_macro_file(tpl):
    render = tpl({
        "macros.j2": "{% macro title(c) %}\n- {text: {x: 0, y: 0, w: 1, h: 1, text: \"{{ c.missing }}\"}}\n{% endmacro %}\n",
        "front.yaml.j2": '{% import "macros.j2" as m %}\n{{ m.title(card) }}\n',
    })
    err = render_error(render, "front.yaml.j2", {"card": {}})
    text = str(err)
    assert text.startswith(f"{display_path(render.dir / 'macros.j2')}:2"), text
    assert "missing" in err.message


def test_unknown_filter_in_a_branch_is_an_error_at_its_line(tpl):
    """Jinja reports a filter it does not know only when the branch using it runs."""
    render = tpl({"front.yaml.j2": f"{{% if card %}}\n- {{text: {{{BOX}, text: {{{{ 'a'|nosuch }}}}}}}}\n{{% endif %}}\n"})
    err = render_error(render, "front.yaml.j2", {"card": {"id": "c1"}})
    assert str(err).startswith(f"{display_path(render.dir / 'front.yaml.j2')}:2: {LABEL}: ")
    assert "No filter named 'nosuch'" in err.message


def test_template_syntax_error(tpl):
    render = tpl({"front.yaml.j2": "- {rect: {x: 0}}\n{% if %}\n"})
    err = render_error(render, "front.yaml.j2")
    assert str(err).startswith(f"{display_path(render.dir / 'front.yaml.j2')}:2: template syntax error: ")


def test_rendered_yaml_error_quotes_the_rendered_line(tpl):
    render = tpl({"front.yaml.j2": "- {rect: {x: 0, y: 0}}\n- {text: {text: {{ s }}}}\n"})
    err = render_error(render, "front.yaml.j2", {"s": "a: b"})
    assert str(err).startswith(f"{display_path(render.dir / 'front.yaml.j2')}")
    assert err.where.line == 2
    assert "YAML syntax error" in err.message and "- {text: {text: a: b}}" in err.message


# -- the sandbox --------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr",
    [
        "''.__class__",
        "''.__class__.__mro__",
        "card.__class__.__base__.__subclasses__()",
        "'{0.__class__}'.format(card)",
        "t.__globals__",
    ],
)
def test_sandbox_blocks_dunder_access(tpl, expr):
    render = tpl({"front.yaml.j2": f"- {{text: {{{BOX}, text: \"{{{{ {expr} }}}}\"}}}}\n"})
    err = render_error(render, "front.yaml.j2", {"card": {"id": "c1"}, "t": lambda k: k})
    assert "unsafe" in err.message or "SecurityError" in err.message, err.message
    assert "<class" not in err.message


def test_sandbox_blocks_dunder_access_through_q(tpl):
    render = tpl({"front.yaml.j2": f"- {{text: {{{BOX}, text: {{{{ ''.__class__|q }}}}}}}}\n"})
    err = render_error(render, "front.yaml.j2")
    assert "<class" not in str(err)


def test_sandbox_is_a_sandboxed_environment(tpl):
    render = tpl({"front.yaml.j2": "[]\n"})
    renderer = TemplateRenderer((render.dir,), {})
    assert isinstance(renderer.env, jinja2.sandbox.SandboxedEnvironment)
    assert renderer.env.undefined is jinja2.StrictUndefined


def test_no_include_outside_template_folders(tpl, tmp_path):
    (tmp_path / "secret.txt").write_text("- {rect: {x: 0, y: 0, w: 1, h: 1}}\n")
    render = tpl({"front.yaml.j2": '- {rect: {x: 0, y: 0, w: 1, h: 1}}\n{% include "../secret.txt" %}\n'})
    err = render_error(render, "front.yaml.j2")
    assert err.where.line == 2 and err.where.path.endswith("front.yaml.j2")
    assert err.message.endswith("template '../secret.txt' must be a file inside the game's templates folder "
                                "(no '..', no absolute path)")


# -- the q filter and astral characters ----------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        FALCON,
        f"Horus {FALCON} \U000130E2",
        'He said: "hi" # not a comment',
        "yes",
        "null",
        "1.50",
        "- item",
        "line one\nline two",
        "Qu\u2019est-ce\u202f?",
        "{braces}: [and] brackets",
        "",
    ],
)
def test_q_round_trips_through_yaml(tpl, value):
    render = tpl({"front.yaml.j2": "- {glyph: {x: 0, y: 0, w: 5, h: 5, char: {{ c|q }}}}\n"})
    text, doc = render("front.yaml.j2", {"c": value})
    got = doc[0]["glyph"]["char"]
    assert got == value and type(got) is str
    assert "\\ud80c" not in text.lower()  # no surrogate escapes in the rendered text


def test_q_keeps_astral_char_as_one_code_point(tpl):
    render = tpl({"front.yaml.j2": "- {glyph: {x: 0, y: 0, w: 5, h: 5, char: {{ c|q }}}}\n"})
    text, doc = render("front.yaml.j2", {"c": FALCON})
    assert FALCON in text
    char = doc[0]["glyph"]["char"]
    assert len(char) == 1 and ord(char) == 0x13143


def test_q_of_numbers_and_booleans():
    assert yaml.safe_load(quote(3)) == 3
    assert yaml.safe_load(quote(2.5)) == 2.5
    assert yaml.safe_load(quote(True)) is True
    assert quote(FALCON) == f'"{FALCON}"'


def test_astral_glyph_from_game_data_reaches_layout():
    """The real god template: the falcon from game.yaml arrives whole in the glyph op."""
    from cardgen.base.errors import Collector
    from cardgen.load.game import load_game
    from cardgen.pipeline import BuildOptions, KitBuilder

    builder = KitBuilder(load_game("hapy"), BuildOptions(langs=("en",), papers=("a4",)))
    errors = Collector()
    kit = builder.render_lang("en", errors)
    assert errors.errors == []
    face = kit.fronts[("gods", "falcon-2")]
    glyphs = [op.args["char"] for op in face.ops if op.kind == "glyph"]
    assert glyphs == [FALCON]


# -- t() ------------------------------------------------------------------------------


def test_t_returns_and_formats_strings():
    missing = []
    t = translator({"card.title": "Carte {n}", "plain": "Chacal"}, "fr", missing.append)
    assert t("plain") == "Chacal"
    assert t("card.title", n=3) == "Carte 3"
    assert missing == []


def test_t_missing_key_is_an_error_in_the_template(tpl):
    missing = []
    t = translator({"a": "A"}, "fr", missing.append)
    render = tpl({"front.yaml.j2": f"\n- {{text: {{{BOX}, text: {{{{ t('a')|q }}}}}}}}\n"
                                   f"- {{text: {{{BOX}, text: {{{{ t('family.ibis.god')|q }}}}}}}}\n"})
    err = render_error(render, "front.yaml.j2", {"t": t})
    assert str(err).startswith(f"{display_path(render.dir / 'front.yaml.j2')}:3: ")
    assert f"{LABEL}: UndefinedError: no string 'family.ibis.god' in locales/fr.yaml" == err.message
    assert missing == ["family.ibis.god"]


def test_t_bad_placeholder_is_an_error():
    t = translator({"row": "row {n}"}, "en", lambda k: None)
    with pytest.raises(jinja2.UndefinedError, match="string 'row' in en: bad placeholder"):
        t("row", count=2)


def test_t_missing_key_in_a_build_names_template_and_line(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    edit_file(root / "templates" / "front.yaml.j2", "text: {{ card.id|q }}", "text: {{ t('card.subtitle')|q }}")
    result = cli("build", root, "--out", tmp_path / "out", "--paper", "a4")
    lines = assert_user_error(result)
    front = display_path(root / "templates" / "front.yaml.j2")
    assert lines[0] == (f"{front}:2: cards/card-1 front [en]: UndefinedError: "
                        "no string 'card.subtitle' in locales/en.yaml")
    assert any("[fr]" in line and "locales/fr.yaml" in line for line in lines), lines
    # one template bug is reported once per language, not once per face (10 faces here)
    repeats = [line for line in lines if line.startswith("(the same template errors recur on ")]
    assert repeats and all("more face(s)" in line for line in repeats), lines
    assert len(lines) - len(repeats) == 2, lines
    assert not (tmp_path / "out" / "mini").exists()


# -- template folders and colour helpers ---------------------------------------------


def test_game_templates_override_shipped_ones(tmp_path, tpl):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "front.yaml.j2").write_text("- {rect: {x: 0, y: 0, w: 1, h: 1}}\n")
    (shipped / "back.yaml.j2").write_text("- {circle: {cx: 0, cy: 0, r: 1}}\n")
    render = tpl({"front.yaml.j2": "- {line: {x1: 0, y1: 0, x2: 1, y2: 1}}\n"}, extra_dirs=(shipped,))
    assert list(render("front.yaml.j2")[1][0]) == ["line"]
    assert list(render("back.yaml.j2")[1][0]) == ["circle"]


def test_colour_filters_use_the_palette(tpl):
    render = tpl({"front.yaml.j2": "- {rect: {x: 0, y: 0, w: 1, h: 1, fill: {{ 'night'|mix('#ffffff', 0.5)|q }}, "
                                   "stroke: {{ 'night'|contrast|q }}}}\n"},
                 palette={"night": "#000000"})
    _, doc = render("front.yaml.j2")
    assert doc[0]["rect"]["fill"] == "#808080"
    assert doc[0]["rect"]["stroke"] == "#ffffff"


def test_colour_helpers():
    assert mix("#000000", "#ffffff", 0.0) == "#000000"
    assert mix("#000000", "#ffffff", 1.0) == "#ffffff"
    assert mix("#102030", "#102030", 0.3) == "#102030"
    assert luminance("#ffffff") == pytest.approx(1.0) and luminance("#000000") == 0.0
    assert contrast("#f0c94a") == "#1b1b1b"  # gold takes dark ink
    assert contrast("#23508f") == "#ffffff"  # lapis takes light ink


# -- text checks through a build -----------------------------------------------------


def test_text_too_long_names_card_face_and_language(hapy_copy, cli, tmp_path):
    long_name = "Taweret-Opet-Ipet-Reret-" * 10 + "Nijlpaardgodin"
    edit_file(hapy_copy / "locales" / "nl.yaml", "god: Taweret,", f"god: {long_name},")
    result = cli("build", hapy_copy, "--out", tmp_path / "out", "--paper", "a4")
    lines = assert_user_error(result)
    god = "templates/hapy/god.yaml.j2 ["  # each line names the template first, then card, face and language
    assert all(line.startswith("templates/hapy/") for line in lines if "does not fit" in line), lines
    cards = [line[len(god):] for line in lines if line.startswith(god + "gods/")]
    # the six Hippo cards carry the same name: its first card says so, the other five are counted
    assert [line.split(" ", 1)[0] for line in cards] == ["gods/hippopotamus-1"]
    assert "(the same template errors recur on 5 more face(s) in [nl], not listed)" in lines
    for line in cards:
        assert line.split(": ", 1)[0].endswith(" front [nl]]"), line
        assert re.search(r"does not fit its [\d.]+×[\d.]+ mm box even at [\d.]+ pt \(\d+% too long\)$", line), line
        assert "Taweret-Opet" in line
    # only Dutch is wrong: the same names in English and French pass
    assert all("[nl]" in line for line in lines if "does not fit" in line)
    assert not any("[en]" in line or "[fr]" in line for line in lines)
    assert not (tmp_path / "out" / "hapy").exists()


def test_character_missing_from_font_is_an_error(hapy_copy, cli, tmp_path):
    edit_file(hapy_copy / "locales" / "en.yaml", "animal: Jackal,", 'animal: "Jackal \\U000130E2",')
    edit_file(hapy_copy / "locales" / "en.yaml", 'players: "2–4', 'players: "\\U00013143 2–4')
    result = cli("build", hapy_copy, "--lang", "en", "--out", tmp_path / "out", "--paper", "a4")
    lines = assert_user_error(result)
    jackal = [line for line in lines if line.startswith("templates/hapy/god.yaml.j2 [gods/jackal-")]
    assert len(jackal) == 1  # the same on the six Jackal cards: said once, the other five counted
    assert "(the same template errors recur on 5 more face(s) in [en], not listed)" in lines
    assert re.match(r"templates/hapy/god\.yaml\.j2 \[gods/jackal-1 front \[en\]\]: font NotoSans-\S+ has no glyph for ",
                    jackal[0]), jackal[0]
    assert "U+130E2" in jackal[0] and "Jackal \U000130E2" in jackal[0]
    # the rules sheet draws the players line in the text font (NotoSans-Regular)
    rules = [line for line in lines if line.startswith("templates/hapy/rules.yaml.j2 [rules") and "U+13143" in line]
    assert len(rules) == 1 and "[en]" in rules[0], lines
    assert "font NotoSans-Regular has no glyph for " in rules[0]
    assert not (tmp_path / "out" / "hapy").exists()


def test_hieroglyph_in_the_glyph_font_is_fine():
    """The same hieroglyph is fine where the glyph font draws it (the card figure): no false alarm."""
    from cardgen.base.paths import shipped_fonts_dir
    from cardgen.layout.fonts import FontBook

    book = FontBook([shipped_fonts_dir()])
    assert book.missing_chars("NotoSansEgyptianHieroglyphs-Regular", "\U000130E2\U00013143") == []
    assert book.missing_chars("NotoSans-Regular", "Jackal \U000130E2") == ["\U000130E2"]
