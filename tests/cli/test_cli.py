"""The command line through click's CliRunner: exit codes, messages, and atomic builds.

0 = success, 1 = a mistake in the user's game (one `error: …` line per problem on
stderr, never a traceback), 2 = a usage mistake.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import click
import pypdf
import pytest
from conftest import assert_user_error, edit_file

from cardgen.base.errors import display_path
from cardgen.cli import main


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# -- help and version -------------------------------------------------------------------


def _commands():
    return sorted(main.commands)


def test_every_command_is_covered():
    assert {"list", "build"} <= set(main.commands)


@pytest.mark.parametrize("command", [None, *_commands()])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_has_an_example(cli, command, flag):
    args = [command, flag] if command else [flag]
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.stdout
    assert "Example" in result.stdout, result.stdout


def test_version(cli):
    from cardgen import __version__

    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"cardgen, version {__version__}"


# -- list -----------------------------------------------------------------------------------


def test_list_shows_hapy(cli):
    result = cli("list")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    head = [line for line in lines if line.startswith("hapy ")]
    assert len(head) == 1, lines
    assert re.fullmatch(r"hapy\s+Hâpy Families\s+\(2–4 players; languages: en, fr, nl, de\)", head[0]), head[0]
    start = lines.index(head[0])
    block = []
    for line in lines[start + 1:]:
        if not line.startswith(" "):
            break
        block.append(line)
    gods = [line for line in block if line.split()[0] == "gods"]
    assert len(gods) == 1 and re.match(r"\s+gods\s+36 × 63×88 mm two-sided\s+God cards$", gods[0]), gods
    stickers = [line for line in block if line.split()[0] == "stickers"]
    assert len(stickers) == 1 and re.match(r"\s+stickers\s+36 × 14×14 mm one-sided", stickers[0]), stickers
    assert {line.split()[0] for line in block} >= {"gods", "stickers", "rules", "setup"}
    assert result.stderr == ""


def test_list_data_game_folder(cli, scenario):
    result = cli("list", "--data", scenario("mini_game"))
    assert result.exit_code == 0, result.output
    assert any(line.startswith("hapy ") for line in result.stdout.splitlines())
    mini = [line for line in result.stdout.splitlines() if line.startswith("mini ")]
    assert len(mini) == 1 and "Mini Game" in mini[0] and "languages: en, fr" in mini[0] and "2–3 players" in mini[0]
    assert re.search(r"^\s+cards\s+5 × 63×88 mm two-sided\s+Cards$", result.stdout, re.M), result.stdout


def test_list_data_folder_of_games(cli, game_copy, tmp_path):
    game_copy("mini_game", "collection/mini_game")
    game_copy("duplex_game", "collection/duplex_game")
    (tmp_path / "collection" / "notes").mkdir()  # not a game: ignored
    result = cli("list", "--data", tmp_path / "collection")
    assert result.exit_code == 0, result.output
    ids = [line.split()[0] for line in result.stdout.splitlines() if not line.startswith(" ")]
    assert "hapy" in ids and ids[-2:] == ["duplex", "mini"]


def test_list_reports_a_broken_game_and_exits_1(cli, scenario):
    result = cli("list", "--data", scenario("unknown_key"))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert any(line.startswith("hapy ") for line in result.stdout.splitlines())
    assert f"{scenario('unknown_key')}: cannot be loaded (3 problem(s))" in result.output
    # each problem on its own indented line, with its place in the file
    shown = [line.strip() for line in result.stdout.splitlines() if "unknown key" in line]
    assert len(shown) == 3 and all(":" in line.split(" ")[0] for line in shown), shown


def test_list_data_missing_folder(cli, tmp_path):
    result = cli("list", "--data", tmp_path / "nowhere")
    lines = assert_user_error(result)
    assert lines == [f"{tmp_path / 'nowhere'}: no game folder here"]


# -- build: success ----------------------------------------------------------------------------


def test_build_prints_each_file_with_its_page_count(cli, scenario, tmp_path):
    out = tmp_path / "out"
    result = cli("build", scenario("mini_game"), "--out", out)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"Built mini into {out / 'mini'}/"
    listed = {}
    for line in lines[1:]:
        m = re.fullmatch(r"  (\S+\.pdf)\s+(\d+) pages?", line)
        assert m, line
        listed[m.group(1)] = int(m.group(2))
    assert listed == {
        "mini-en-a4-cards.pdf": 2, "mini-en-letter-cards.pdf": 2, "mini-en-printshop-63x88mm.pdf": 10,
        "mini-fr-a4-cards.pdf": 2, "mini-fr-letter-cards.pdf": 2, "mini-fr-printshop-63x88mm.pdf": 10,
    }
    on_disk = {p.name for p in (out / "mini").iterdir()}
    assert on_disk == set(listed) | {"manifest.json"}
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_build_page_counts_match_the_files(cli, scenario, tmp_path):
    out = tmp_path / "out"
    result = cli("build", scenario("mini_game"), "--out", out, "--lang", "en", "--paper", "a4")
    assert result.exit_code == 0, result.output
    for line in result.stdout.splitlines()[1:-1]:  # the last: the preflight's
        name, count = line.split()[:2]
        assert len(pypdf.PdfReader(out / "mini" / name).pages) == int(count), name


def test_build_selected_language_and_paper(cli, scenario, tmp_path):
    result = cli("build", scenario("mini_game"), "--out", tmp_path, "--lang", "fr", "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "mini").glob("*.pdf")) == [
        "mini-fr-letter-cards.pdf", "mini-fr-printshop-63x88mm.pdf"
    ]


# -- build: user errors (exit 1) -------------------------------------------------------------------


def test_unknown_game(cli, tmp_path):
    lines = assert_user_error(cli("build", "nosuchgame", "--out", tmp_path))
    assert len(lines) == 1
    assert lines[0].startswith("unknown game 'nosuchgame' (shipped games: ") and "hapy" in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_unknown_language_is_a_usage_error(cli, tmp_path):
    r = cli("build", "hapy", "--lang", "xx", "--out", tmp_path)
    assert r.exit_code == 2
    assert "Error: Invalid value for '--lang': hapy has no language xx (it has: en, fr, nl, de, and pseudo)" in r.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "name, count, fragment",
    [
        ("yaml_syntax_error", 1, "game.yaml:6:14: YAML syntax error: mapping values are not allowed in this context"),
        ("duplicate_key", 1, "game.yaml:5:1: duplicate key 'name' (first at line 2)"),
        ("unknown_key", 3, "game.yaml:12:5: unknown key 'finish' in component 'cards'"),
        ("wrong_type", 4, "game.yaml:11:12: 'bleed' in component 'cards' must be a number, found str 'thick'"),
        ("missing_template", 1, "game.yaml:10:"),
        ("unknown_font", 1, "game.yaml:6:10: unknown font 'Papyrus-Bold'"),
        ("missing_translation", 3, "game.yaml:11:11: string 'component.cards' is not in locales/fr.yaml"),
        ("duplicate_card_id", 2, "game.yaml:15:13: duplicate card id 'card-2' (first at line 12)"),
        ("data_files_errors", 4, "game.yaml:10:5: data file 'missing.yaml' not found"),
    ],
)
def test_broken_games_exit_1_with_one_line_per_problem(cli, scenario, tmp_path, name, count, fragment):
    root = scenario(name)
    result = cli("build", root, "--out", tmp_path)
    lines = assert_user_error(result)
    assert len(lines) == count, lines
    assert any(line.startswith(display_path(root)) and fragment in line for line in lines), lines
    for line in lines:
        assert re.match(r"^[^:\s]+(:\d+(:\d+)?)?: \S", line), line  # path[:line[:col]]: message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "jobs",
    [
        "1",
        "2",
    ],
)
def test_template_error_reported_once_per_language(cli, game_copy, tmp_path, jobs):
    root = game_copy("mini_game")
    edit_file(root / "templates" / "front.yaml.j2", "text: {{ card.id|q }}", "text: {{ t('card.subtitle')|q }}")
    lines = assert_user_error(cli("build", root, "--out", tmp_path / "out", "--jobs", jobs))
    front = display_path(root / "templates" / "front.yaml.j2")
    assert lines == [
        f"{front}:2: cards/card-1 front [en]: UndefinedError: no string 'card.subtitle' in locales/en.yaml",
        "(the same template errors recur on 3 more face(s) in [en], not listed)",
        f"{front}:2: cards/card-1 front [fr]: UndefinedError: no string 'card.subtitle' in locales/fr.yaml",
        "(the same template errors recur on 3 more face(s) in [fr], not listed)",
    ]


def test_component_too_big_for_paper(cli, game_copy, tmp_path):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "size: [63, 88]", "size: [250, 88]")
    lines = assert_user_error(cli("build", root, "--out", tmp_path, "--paper", "a4"))
    assert len(lines) == 1
    assert lines[0].startswith(f"{display_path(root / 'game.yaml')}:")
    assert "does not fit on a4" in lines[0]


# -- usage errors (exit 2) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["build"], "Missing argument 'GAME'"),
        (["build", "hapy", "--paper", "a3"], "'a3' is not one of"),
        (["build", "hapy", "--duplex", "diagonal"], "'diagonal' is not one of"),
        (["build", "hapy", "--bogus"], "No such option"),
        (["build", "hapy", "--jobs", "-1"], "--jobs"),
        (["frobnicate"], "No such command 'frobnicate'"),
        (["list", "--data"], "requires an argument"),
    ],
)
def test_usage_errors_exit_2(cli, args, fragment, tmp_path):
    result = cli(*args, *(["--out", tmp_path / "o"] if args[:1] == ["build"] and len(args) > 1 else []))
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_out_must_be_a_folder(cli, tmp_path):
    (tmp_path / "file").write_text("x")
    result = cli("build", "hapy", "--out", tmp_path / "file")
    assert result.exit_code == 2
    assert "is a file" in result.stderr


def test_error_output_has_no_traceback_even_for_many_problems(cli, scenario, tmp_path):
    result = cli("build", scenario("wrong_type"), "--out", tmp_path)
    assert isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    assert all(line.startswith("error: ") or line.startswith("  ") for line in result.stderr.splitlines())


# -- atomic builds ------------------------------------------------------------------------------------------


@pytest.fixture
def built_once(cli, tmp_path):
    """A good hapy kit (en, A4) in tmp_path/out, and a snapshot of its bytes."""
    out = tmp_path / "out"
    result = cli("build", "hapy", "--lang", "en", "--paper", "a4", "--out", out)
    assert result.exit_code == 0, result.output
    before = snapshot(out / "hapy")
    assert set(before) == {"hapy-en-a4-cards.pdf", "hapy-en-a4-sheets.pdf", "hapy-en-printshop-63x88mm.pdf", "manifest.json"}
    return out, before


def _no_temporary_folders(out: Path) -> None:
    leftovers = [p.name for p in out.iterdir() if p.name != "hapy"]
    assert leftovers == [], leftovers
    assert not list(out.glob(".hapy-building-*"))


def test_failed_build_leaves_previous_kit_untouched(cli, built_once, hapy_copy):
    out, before = built_once
    (hapy_copy / "templates").mkdir()
    shutil.copy(Path(__file__).parents[2] / "templates" / "hapy" / "mummy.yaml.j2", hapy_copy / "templates")
    edit_file(hapy_copy / "templates" / "mummy.yaml.j2", "{{ game.name|q }}", "{{ game.title|q }}")
    result = cli("build", hapy_copy, "--lang", "en", "--paper", "a4", "--out", out)
    lines = assert_user_error(result)
    assert lines[0].startswith(f"{display_path(hapy_copy / 'templates' / 'mummy.yaml.j2')}:")
    assert "gods/" in lines[0] and "back [en]" in lines[0]
    assert snapshot(out / "hapy") == before
    _no_temporary_folders(out)


def test_failure_while_writing_leaves_previous_kit_untouched(cli, built_once, hapy_copy):
    """A layout that passes every check but breaks while drawing (an unknown colour name)
    fails after the temporary folder exists: nothing may be half-replaced."""
    out, before = built_once
    (hapy_copy / "templates").mkdir()
    shutil.copy(Path(__file__).parents[2] / "templates" / "hapy" / "mummy.yaml.j2", hapy_copy / "templates")
    edit_file(hapy_copy / "templates" / "mummy.yaml.j2", "fill: {{ bg|q }}", 'fill: "blue"')
    result = cli("build", hapy_copy, "--lang", "en", "--paper", "a4", "--out", out)
    assert result.exit_code != 0
    assert snapshot(out / "hapy") == before
    _no_temporary_folders(out)


def test_unknown_colour_is_a_user_error(cli, hapy_copy, tmp_path):
    (hapy_copy / "templates").mkdir()
    shutil.copy(Path(__file__).parents[2] / "templates" / "hapy" / "mummy.yaml.j2", hapy_copy / "templates")
    edit_file(hapy_copy / "templates" / "mummy.yaml.j2", "fill: {{ bg|q }}", 'fill: "blue"')
    lines = assert_user_error(cli("build", hapy_copy, "--lang", "en", "--paper", "a4", "--out", tmp_path))
    assert any("gods/" in line and "back [en]" in line and "'blue'" in line for line in lines), lines


def test_rebuild_replaces_files_and_keeps_other_kits(cli, built_once):
    """A second good build (another language) adds its files and keeps the first ones in the manifest."""
    import json

    out, before = built_once
    result = cli("build", "hapy", "--lang", "fr", "--paper", "a4", "--out", out)
    assert result.exit_code == 0, result.output
    after = snapshot(out / "hapy")
    for name in ("hapy-en-a4-cards.pdf", "hapy-en-a4-sheets.pdf", "hapy-en-printshop-63x88mm.pdf"):
        assert after[name] == before[name]
    assert "hapy-fr-a4-cards.pdf" in after
    files = [e["file"] for e in json.loads(after["manifest.json"])["files"]]
    assert "hapy-en-a4-cards.pdf" in files and "hapy-fr-a4-cards.pdf" in files
    _no_temporary_folders(out)


def test_main_is_a_click_group():
    assert isinstance(main, click.Group)
