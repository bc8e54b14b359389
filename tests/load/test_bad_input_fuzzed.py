"""Bad input found by fuzzing: each class of mistake that once escaped as a traceback,
a hang, a runaway allocation or a message without its file, pinned here.

The contract (README, "Errors"): exit status 1, one ``error: path[:line[:col]]: what``
line per problem, no traceback, and nothing new in the output folder.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from conftest import DATA, assert_user_error, edit_file, game_label
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardgen.base.errors import display_path


def snapshot(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """An output folder that already holds a file: a failed build must leave it as it was."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "keep.txt").write_text("was here\n", encoding="utf-8")
    return folder


def build_fails(cli, game: Path, out: Path, *extra: str) -> list[str]:
    """Build ``game`` expecting a user error; the error lines, the output folder untouched."""
    before = snapshot(out)
    result = cli("build", game, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1", *extra)
    lines = assert_user_error(result)
    assert snapshot(out) == before, sorted(snapshot(out) - before)
    return lines


def mini(game_copy) -> Path:
    return game_copy("mini_game")


def front(root: Path) -> Path:
    return root / "templates" / "front.yaml.j2"


def append(path: Path, text: str) -> int:
    """Append a line to ``path``; its 1-based line number."""
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines, text]) + "\n", encoding="utf-8")
    return len(lines) + 1


# -- templates: runaway sizes, Python errors the sandbox raises ------------------------------------


@pytest.mark.parametrize("expr, message", [
    ("'-' * 10**10", "'*' would build 10,000,000,000 items"),
    ("[0] * 10**9", "'*' would build 1,000,000,000 items"),
    ("10 ** 100000000", "'**' result too large"),
    ("'%1000000000d' % 3", "'%' format width too large"),
    ("range(10**9) | list", "OverflowError: Range too big"),
])
def test_template_cannot_build_a_huge_value(game_copy, cli, out, expr, message):
    """Each of these once ate every byte of memory or escaped as a traceback."""
    root = mini(game_copy)
    line = append(front(root), f"{{% set _z = {expr} %}}")
    lines = build_fails(cli, root, out)
    assert lines[0].startswith(f"{game_label(root, 'templates', 'front.yaml.j2')}:{line}: cards/card-1 front [en]: ")
    assert message in lines[0], lines[0]
    assert len(lines) == 2 and lines[1].startswith("(the same template errors recur on 3 more face(s)"), lines


def test_small_products_still_work(game_copy, cli, out):
    """The limit is on size, not on the operators: ordinary arithmetic renders as before."""
    root = mini(game_copy)
    append(front(root), "{% set _z = ('ab' * 3) ~ (2 ** 10) ~ ('%05d' % 7) ~ ([0] * 4) %}")
    result = cli("build", root, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output


def test_recursive_macro_is_one_line(game_copy, cli, out):
    root = mini(game_copy)
    line = append(front(root), "{% macro f() %}{{ f() }}{% endmacro %}{% set _z = f() %}")
    lines = build_fails(cli, root, out)
    assert "RecursionError: maximum recursion depth exceeded" in lines[0], lines
    assert game_label(root, "templates", "front.yaml.j2") + ":" in lines[0]
    assert f":{line}" in lines[0]


# -- layout ops: a wrong argument is reported, never measured -------------------------------------


@pytest.mark.parametrize("value, found", [("null", "None"), ('"6"', "'6'"), ("1e9", "'1e9'"), (".nan", "nan"),
                                          ("[1, 2]", "[1, 2]")])
def test_text_box_with_a_wrong_height(game_copy, cli, out, value, found):
    """A text op whose h was null or a string went on to the text fitter: TypeError."""
    root = mini(game_copy)
    edit_file(front(root), "h: 12,", f"h: {value},")
    lines = build_fails(cli, root, out)
    tpl = game_label(root, "templates", "front.yaml.j2")
    assert lines[0] == f"{tpl} [cards/card-1 front [en]]: op 2: 'h' of text must be number, found {found}", lines


def test_flow_with_a_wrong_height(hapy_copy, cli, out):
    """The same for a flow op on a sheet (the rules summary)."""
    rules = hapy_copy / "templates" / "rules.yaml.j2"
    rules.parent.mkdir(exist_ok=True)
    shutil.copy(DATA.parent.parent / "templates" / "hapy" / "rules.yaml.j2", rules)
    edit_file(rules, "    h: {{ text_h }}\n", "    h: null\n")
    lines = build_fails(cli, hapy_copy, out)
    assert any(line.startswith(f"{game_label(hapy_copy, 'templates', 'rules.yaml.j2')} [rules on a4 [en]]")
               and "'h' of flow must be number, found None" in line for line in lines), lines


# -- text checks name the template they come from --------------------------------------------------


def test_unknown_font_in_a_template_names_the_template(game_copy, cli, out):
    root = mini(game_copy)
    edit_file(front(root), "size: 12, color: ink", "size: 12, color: ink, font: NoSuchFont-Regular")
    lines = build_fails(cli, root, out)
    tpl = game_label(root, "templates", "front.yaml.j2")
    assert lines[0].startswith(f"{tpl} [cards/card-1 front [en]]: unknown font 'NoSuchFont-Regular'"), lines
    # the same on every card: said once for the first, the others counted
    assert len(lines) == 2 and lines[1].startswith("(the same template errors recur on "), lines


def test_missing_image_names_the_template(game_copy, cli, out):
    root = mini(game_copy)
    append(front(root), "- {image: {x: 1, y: 1, w: 10, h: 10, src: missing.png}}")
    lines = build_fails(cli, root, out)
    tpl = game_label(root, "templates", "front.yaml.j2")
    assert lines[0] == f"{tpl} [cards/card-1 front [en]]: image 'missing.png' not found in the game's assets folder"


# -- locales -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("body, message", [
    ("", "the file is empty: it must map each string key to its text"),
    ("- a\n- b\n", "locales/en.yaml must be a mapping, found a list"),
    ("just text\n", "locales/en.yaml must be a mapping, found str 'just text'"),
])
def test_broken_locale_file_is_one_error(hapy_copy, cli, out, body, message):
    """It once gave a 1,700-character line listing every key the file then lacked."""
    (hapy_copy / "locales" / "en.yaml").write_text(body, encoding="utf-8")
    lines = build_fails(cli, hapy_copy, out)
    assert len(lines) == 1, lines
    label = game_label(hapy_copy, "locales", "en.yaml")
    assert lines[0] in (f"{label}: {message}", f"{label}:1:1: {message}"), lines


def test_many_missing_translations_are_counted_not_listed(hapy_copy, cli, out):
    de = hapy_copy / "locales" / "de.yaml"
    de.write_text("game:\n  name: Hapy\n", encoding="utf-8")
    lines = build_fails(cli, hapy_copy, out, "--lang", "de")
    mine = [line for line in lines if line.startswith(game_label(hapy_copy, "locales", "de.yaml"))]
    assert len(mine) == 1 and re.search(r": missing \d+ translation\(s\): (\S+, ){11}\S+ … and \d+ more ",
                                        mine[0])
    assert len(mine[0]) - len(game_label(hapy_copy, "locales", "de.yaml")) < 350, mine[0]


# -- sizes and counts: a clear limit, not a build that never ends ----------------------------------


@pytest.mark.parametrize("size, fragment", [
    ("[0.01, 0.01]", "must be [width, height] with each side from 5 to 600 mm, found [0.01, 0.01]"),
    ("[5000, 5000]", "must be [width, height] with each side from 5 to 600 mm, found [5000, 5000]"),
    ("[.inf, 88]", "must be [width, height] in mm, both positive, found [inf, 88]"),
])
def test_absurd_card_size(game_copy, cli, out, size, fragment):
    root = mini(game_copy)
    edit_file(root / "game.yaml", "size: [63, 88]", f"size: {size}")
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:14:11: 'size' in component 'cards' {fragment}"


def test_absurd_board_size(farao_copy, cli, out):
    """A 100 m board once spread over hundreds of thousands of pages, in `list` too."""
    text = (farao_copy / "game.yaml").read_text(encoding="utf-8")
    new = re.sub(r"(kind: board[\s\S]*?size: )\[[^\]]*\]", r"\g<1>[100000, 100000]", text, count=1)
    assert new != text
    (farao_copy / "game.yaml").write_text(new, encoding="utf-8")
    lines = build_fails(cli, farao_copy, out)
    assert len(lines) == 1 and "each side from 20 to 2000 mm, found [100000, 100000]" in lines[0], lines
    assert lines[0].startswith(game_label(farao_copy) + ":")
    listed = cli("list", "--data", farao_copy.parent)
    assert listed.exit_code == 1 and "Traceback" not in listed.output
    assert "each side from 20 to 2000 mm" in listed.stdout


@pytest.mark.parametrize("quantity, fragment", [
    ("1000000000", "'quantity' in card entry 2 of component 'cards' must be at most 1,000 copies, found 1,000,000,000"),
    ('"{missing.count}"', "'quantity' refers to unknown field 'missing.count'"),
    ("-1", "'quantity' in card entry 2 of component 'cards' must be 1 or more, found -1"),
])
def test_absurd_quantity(game_copy, cli, out, quantity, fragment):
    root = mini(game_copy)
    edit_file(root / "game.yaml", "quantity: 2", f"quantity: {quantity}")
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:22:19: {fragment}"


def test_quantity_from_the_data_is_limited_too(game_copy, cli, out):
    root = mini(game_copy)
    edit_file(root / "game.yaml", '      - id: "card-{n}"\n        for_each:\n          n: {range: [1, 3]}\n',
              '      - id: "{kind.id}"\n        quantity: "{kind.count}"\n        for_each:\n'
              "          kind: [{id: sun, count: 5000}]\n")
    (line,) = build_fails(cli, root, out)
    # at the count as written in the data (a spreadsheet's cell, for a table)
    assert line == f"{game_label(root)}:21:35: 'quantity' \"{{kind.count}}\" gives 5,000; at most 1,000 copies are allowed"


def test_huge_for_each_range_and_deck(game_copy, cli, out):
    root = mini(game_copy)
    edit_file(root / "game.yaml", "{range: [1, 3]}", "{range: [1, 1000000000]}")
    (line,) = build_fails(cli, root, out)
    assert line.startswith(f"{game_label(root)}:")
    assert line.endswith("for_each 'n' range makes 1,000,000,000 cards; a component may have at most 10,000")
    edit_file(root / "game.yaml", "{range: [1, 1000000000]}", "{range: [1, 20]}")
    edit_file(root / "game.yaml", '      - id: "card-{n}"\n', '      - id: "card-{n}"\n        quantity: 999\n')
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:18:7: component 'cards' has 19,982 cards, every copy counted; at most 10,000 are allowed"


@pytest.mark.parametrize("key, value", [("bleed", ".nan"), ("safe", ".nan")])
def test_nan_margins_refused(game_copy, cli, out, key, value):
    root = mini(game_copy)
    edit_file(root / "game.yaml", "size: [63, 88]", f"size: [63, 88]\n    {key}: {value}")
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:15:{len(key) + 7}: '{key}' in component 'cards' must be between 0 and 20 mm, found nan"


# -- one bounded property: delete lines, and the contract still holds -------------------------------


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), deletions=st.integers(min_value=1, max_value=3))
def test_deleting_lines_is_clean_or_ok(cli, tmp_path_factory, seed, deletions):
    """Delete 1–3 random lines of the mini game's YAML (game or locale): the build is
    either fine (exit 0) or one clean error per problem naming its file, with the
    output folder untouched."""
    base = tmp_path_factory.mktemp("prop")
    root = base / "mini"
    shutil.copytree(DATA / "mini_game", root)
    out = base / "out"
    out.mkdir()
    rng = random.Random(seed)
    files = [root / "game.yaml", root / "locales" / "en.yaml", root / "locales" / "fr.yaml"]
    for _ in range(deletions):
        path = rng.choice(files)
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        if lines:
            del lines[rng.randrange(len(lines))]
            path.write_text("".join(lines), encoding="utf-8")
    result = cli("build", root, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert "Traceback" not in result.output
    event(f"exit {result.exit_code}")
    if result.exit_code == 0:
        return
    for line in assert_user_error(result):
        assert re.match(r"\S*(game\.yaml|locales/\w+\.yaml|\.j2)\b", line) or "'mini'" in line, line
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("lines, message", [
    ("size: [8, 8]\n    bleed: 12", "'bleed' in component 'cards' (12 mm) is larger than the piece itself (8×8 mm)"),
    ("size: [8, 8]\n    safe: 4", "'safe' in component 'cards' (4 mm on each side) leaves no room inside the 8×8 mm"
                                  " piece"),
])
def test_margins_larger_than_the_piece(game_copy, cli, out, lines, message):
    root = mini(game_copy)
    edit_file(root / "game.yaml", "size: [63, 88]", lines)
    (line,) = build_fails(cli, root, out)
    assert line.startswith(f"{game_label(root)}:15:") and line.endswith(f": {message}"), line


# -- an output path the system refuses ------------------------------------------------------------


def test_output_folder_blocked_by_a_file(cli, scenario, tmp_path):
    """A file where the kit's folder should go once escaped as FileExistsError."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "mini").write_text("not a folder\n", encoding="utf-8")
    result = cli("build", scenario("mini_game"), "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    (line,) = assert_user_error(result)
    assert line.startswith(display_path(out / "mini")) and line.endswith(": File exists: a file stands where a folder is needed"), line
    assert sorted(p.name for p in out.iterdir()) == ["mini"]  # no temporary folder left behind


def test_output_folder_under_a_file(cli, scenario, tmp_path):
    blocker = tmp_path / "afile"
    blocker.write_text("x\n", encoding="utf-8")
    result = cli("build", scenario("mini_game"), "--out", blocker / "sub", "--lang", "en", "--paper", "a4")
    (line,) = assert_user_error(result)
    assert line == f"{display_path(blocker / 'sub')}: Not a directory: a file stands where a folder is needed in this path"


def test_preview_into_a_missing_place(cli, scenario, tmp_path):
    blocker = tmp_path / "afile"
    blocker.write_text("x\n", encoding="utf-8")
    result = cli("preview", scenario("mini_game"), "--out", blocker / "sub" / "p.png")
    (line,) = assert_user_error(result)
    assert line.startswith(display_path(blocker / "sub")) and line.endswith("Not a directory: a file stands where a folder is needed in this path"), line


@pytest.mark.parametrize("kind", ["--png", "--tts"])
def test_failed_export_leaves_no_folders(game_copy, cli, out, kind):
    """A template error once left empty OUT/<game>/png/ folders behind; and an export
    of several languages is published only when every language succeeded."""
    root = mini(game_copy)
    line = append(front(root), "{% if lang == 'fr' %}{{ no_such_value }}{% endif %}")  # en renders, fr fails
    before = snapshot(out)
    result = cli("export", root, kind, "--out", out)
    lines = assert_user_error(result)
    assert lines[0].startswith(f"{game_label(root, 'templates', 'front.yaml.j2')}:{line}: ")
    assert "[fr]: UndefinedError: 'no_such_value' is undefined" in lines[0], lines
    assert snapshot(out) == before, sorted(snapshot(out) - before)


def test_yaml_alias_bomb_is_refused(game_copy, cli, out):
    """Aliases of aliases ("billion laughs") once expanded until memory ran out."""
    root = mini(game_copy)
    bomb = "data:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 10))
    edit_file(root / "game.yaml", "components:", bomb + "components:")
    (line,) = build_fails(cli, root, out)
    assert re.fullmatch(re.escape(game_label(root)) + r":\d+:\d+: the file holds more than 1,000,000 values once"
                        r" its aliases \(\*name\) are expanded", line), line


# -- house rules: refused by the build at their line -----------------------------------------------


@pytest.mark.parametrize("game, old, new, line, message", [
    ("farao", "    cash_optional: true ", "    cash_optional: 7    ", 85,
     "rule option 'cash_optional' must be true or false, found 7"),
    ("farao", "    trade: one_for_one ", "    trade: whatever   ", 87,
     "rule option 'trade' must be one of"),
    ("egypt", "  house_rules:\n", "  house_rules:\n    ankh_colour: red\n", 185,
     "unknown rule option 'ankh_colour' in 'house_rules'"),
])
def test_a_wrong_house_rule_fails_the_build_at_its_line(cli, tmp_path, request, game, old, new, line, message):
    """The build once failed on it later, as a template error naming the rules template."""
    root = request.getfixturevalue(f"{game}_copy")
    edit_file(root / "game.yaml", old, new)
    out = tmp_path / "out"
    out.mkdir()
    result = cli("build", root, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    (err,) = assert_user_error(result)
    assert err.startswith(f"{game_label(root)}:{line if line else ''}"), err
    assert message in err and ".j2" not in err, err
    assert list(out.iterdir()) == []


# -- YAML scalars that do not fit their tag ----------------------------------------------------------


@pytest.mark.parametrize("value, message", [
    ('!!int "x"', "bad value: 'x' is not a valid integer"),
    ('!!float ""', "bad value: '' is not a valid number"),
    ('!!bool "maybe"', "bad value: 'maybe' is not a valid true or false"),
    ("!!timestamp soon", "bad value: 'soon' is not a valid date"),
    ("2001-02-30", "bad value: '2001-02-30' is not a valid date (day is out of range for month)"),
])
def test_scalar_that_does_not_fit_its_tag(game_copy, cli, out, value, message):
    """PyYAML's constructors trust a tag (or a plain value that looks like a date):
    each of these once escaped as ValueError, KeyError, IndexError or AttributeError."""
    root = mini(game_copy)
    edit_file(root / "game.yaml", "players: [2, 3]", f"players: {value}")
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:4:10: {message}"


def test_rendered_scalar_that_does_not_fit_its_tag(game_copy, cli, out):
    """The same in a rendered layout: found again at its rendered line."""
    root = mini(game_copy)
    line = append(front(root), '- {rect: {x: !!int "x", y: 0, w: 1, h: 1}}')
    lines = build_fails(cli, root, out)
    tpl = game_label(root, "templates", "front.yaml.j2")
    assert lines[0] == (f"{tpl} (rendered for cards/card-1 front [en]):{line}:14: bad value: 'x' is not a valid "
                        f"integer in rendered line: '- {{rect: {{x: !!int \"x\", y: 0, w: 1, h: 1}}}}'"), lines


@pytest.mark.parametrize("included", [False, True])
def test_unclosed_comment_names_its_template(game_copy, cli, out, included):
    """Jinja's lexer gives this error no filename: it once named the bare template."""
    root = mini(game_copy)
    broken = front(root)
    if included:
        broken = root / "templates" / "macros.j2"
        broken.write_text("{% macro m() %}{% endmacro %}\n{# never closed\n", encoding="utf-8")
        at = append(front(root), "{% import 'macros.j2' as mc %}")
        line = f"2 (included from {game_label(root, 'templates', 'front.yaml.j2')}:{at})"
    else:
        line = append(broken, "{# never closed")
    lines = build_fails(cli, root, out)
    assert lines[0] == f"{game_label(root, 'templates', broken.name)}:{line}: template syntax error: Missing end of comment tag", lines


@pytest.mark.parametrize("old, new", [
    ("    cards:\n      - id:", "    cards: &deck\n      - *deck\n      - id:"),
    ("players: [2, 3]", "players: &p {a: [1, *p]}"),
])
def test_alias_inside_its_own_value(game_copy, cli, out, old, new):
    """A value that holds an alias of itself once recursed until RecursionError."""
    root = mini(game_copy)
    edit_file(root / "game.yaml", old, new)
    (line,) = build_fails(cli, root, out)
    assert re.fullmatch(re.escape(game_label(root)) + r":\d+:\d+: an alias \(\*name\) stands inside the value it "
                        r"names, which would never end", line), line


@pytest.mark.parametrize("statement, message", [
    ("{% set _z = 0 if 0.id else [] %}", "UndefinedError: 'int object' has no attribute 'id'"),
    ("{% if (0).x and 1 %}{% endif %}", "UndefinedError: 'int object' has no attribute 'x'"),
    ("{% set _z = 1 if ''.__class__ else 2 %}", "SecurityError: access to attribute '__class__' of 'str' object is unsafe."),
])
def test_constant_test_of_an_undefined(game_copy, cli, out, statement, message):
    """Jinja folds constant expressions while compiling; testing an undefined there once
    escaped as UndefinedError before any rendering began."""
    root = mini(game_copy)
    line = append(front(root), statement)
    lines = build_fails(cli, root, out)
    assert lines[0] == f"{game_label(root, 'templates', 'front.yaml.j2')}:{line}: {message}", lines


def test_error_quoting_a_control_character_stays_one_line(game_copy, cli, out):
    """A form feed or a line separator in a text was once printed raw inside its error
    line, which it broke in two (and a right-to-left override reversed it)."""
    root = mini(game_copy)
    edit_file(front(root), "text: {{ card.id|q }}", 'text: "a\\fb\\u2028c\\u202ed"')
    result = cli("build", root, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    lines = assert_user_error(result)
    assert all(line.startswith("  ") or line.startswith("error: ") for line in result.stderr.splitlines()), result.stderr
    assert "no glyph for '\\x0c' (U+000C)" in lines[0], lines
    assert lines[0].endswith("in 'a\\x0cb\\u2028c\\u202ed'; no shipped or game font has it (add a font that has it "
                             "to the game's fonts/, or use an icon)"), lines


@pytest.mark.parametrize("statement, message", [
    ("{% set _z = cycler() %}", "RuntimeError: at least one item has to be provided"),
    ("{% set _z = 'abc'|truncate(-1) %}", "AssertionError: expected length >= 3, got -1"),
    ("{% set _z = [1]|map('nosuchfilter')|list %}", "TemplateRuntimeError: No filter named 'nosuchfilter'."),
    ("# {{ [1]|map|list }}", "FilterArgumentError: map requires a filter argument"),
])
def test_jinja_runtime_errors_are_one_line(game_copy, cli, out, statement, message):
    """Jinja's own helpers raise these for bad arguments; each once escaped as a traceback."""
    root = mini(game_copy)
    line = append(front(root), statement)
    lines = build_fails(cli, root, out)
    assert lines[0] == f"{game_label(root, 'templates', 'front.yaml.j2')}:{line}: cards/card-1 front [en]: {message}", lines


LONG_NAME = "x" * 1000  # longer than a file name may be: looking it up raises OSError (ENAMETOOLONG)


@pytest.mark.parametrize("old, new, message", [
    ("front: front.yaml.j2", f"front: {LONG_NAME}", f"template '{LONG_NAME}' not found (looked in: "),
    ("palette:", f"data_files: [{LONG_NAME}.csv]\npalette:", f"data file '{LONG_NAME}.csv' not found"),
    ("text: NotoSans-Regular", f"text: {LONG_NAME}", f"unknown font '{LONG_NAME}' (looked in: "),
])
def test_file_name_too_long_for_the_system(game_copy, cli, out, old, new, message):
    """A name longer than the system allows was once an OSError traceback from the
    loader: it is a file that is not there."""
    root = mini(game_copy)
    edit_file(root / "game.yaml", old, new)
    (line,) = build_fails(cli, root, out)
    assert line.startswith(f"{game_label(root)}:") and message in line, line


@pytest.mark.parametrize("layout, message", [
    (f"{{% include '{LONG_NAME}' %}}", f"template '{LONG_NAME}' not found"),
    (f"- {{image: {{x: 1, y: 1, w: 10, h: 10, src: {LONG_NAME}.png}}}}",
     f"image '{LONG_NAME}.png' not found in the game's assets folder"),
])
def test_template_naming_a_file_too_long_for_the_system(game_copy, cli, out, layout, message):
    root = mini(game_copy)
    (root / "assets").mkdir()
    append(front(root), layout)
    lines = build_fails(cli, root, out)
    assert lines[0].startswith(game_label(root, "templates", "front.yaml.j2")) and lines[0].endswith(message), lines


@pytest.mark.parametrize("key", ["front", "template"])
def test_required_template_given_as_null(game_copy, cli, out, key):
    """`front: null` once passed the loader and failed later as "template '' not found",
    naming no file."""
    root = mini(game_copy)
    if key == "template":
        edit_file(root / "game.yaml", "components:\n", "components:\n  - {id: rules, kind: sheet, template: null}\n")
        where, what = "11:40", "component 'rules'"
    else:
        edit_file(root / "game.yaml", "front: front.yaml.j2", "front: null")
        where, what = "15:12", "component 'cards'"
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:{where}: '{key}' in {what} must be a template file name, found nothing"


def test_no_components_at_all(game_copy, cli, out):
    """`components: []` once built a kit of no files and then crashed printing its list
    (ValueError from max() of nothing)."""
    root = mini(game_copy)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(text[:text.index("components:")] + "components: []\n", encoding="utf-8")
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:10:13: 'components' in the game is empty: list at least one deck, sheet or board"
