"""A game folder is data only (issue 15): every file cardgen reads for a game must, with
its symlinks followed, lie inside the game folder or cardgen's shipped folders. A link
out is one error line naming the link, and nothing of its target is read or shown.
Also two bounds on the user's own input: the settings file size and ``--games``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import assert_user_error, edit_file, game_label

from cardgen.settings import MAX_SETTINGS_BYTES

SECRET = "TOPSECRET-7f3a"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the game folder that no game may read."""
    path = tmp_path / "secret.txt"
    path.write_text(f"{SECRET}: the first line of a private file\n", encoding="utf-8")
    return path


def _link_data_file(game: Path, secret: Path) -> Path:
    edit_file(game / "game.yaml", "components:", "data_files: [extra.yaml]\ncomponents:")
    os.symlink(secret, game / "extra.yaml")
    return game / "extra.yaml"


def _link_game_file(game: Path, secret: Path) -> Path:
    (game / "game.yaml").unlink()
    os.symlink(secret, game / "game.yaml")
    return game / "game.yaml"


def _link_locale(game: Path, secret: Path) -> Path:
    (game / "locales" / "en.yaml").unlink()
    os.symlink(secret, game / "locales" / "en.yaml")
    return game / "locales" / "en.yaml"


def _link_template(game: Path, secret: Path) -> Path:
    (game / "templates" / "front.yaml.j2").unlink()
    os.symlink(secret, game / "templates" / "front.yaml.j2")
    return game / "templates" / "front.yaml.j2"


def _link_included_macro(game: Path, secret: Path) -> Path:
    front = game / "templates" / "front.yaml.j2"
    front.write_text('{% include "part.j2" %}\n' + front.read_text(encoding="utf-8"), encoding="utf-8")
    os.symlink(secret, game / "templates" / "part.j2")
    return game / "templates" / "part.j2"


def _link_templates_folder(game: Path, secret: Path) -> Path:
    """The whole templates/ folder moved out and linked back: every file in it is outside."""
    outside = secret.parent / "elsewhere-templates"
    shutil.move(game / "templates", outside)
    front = outside / "front.yaml.j2"
    front.write_text(f"# {SECRET}\n" + front.read_text(encoding="utf-8"), encoding="utf-8")
    os.symlink(outside, game / "templates")
    return game / "templates"


def _link_asset(game: Path, secret: Path) -> Path:
    edit_file(game / "templates" / "front.yaml.j2", "- {text:",
              '- {image: {x: 1, y: 1, w: 10, h: 10, src: "logo.png"}}\n- {text:')
    (game / "assets").mkdir()
    os.symlink(secret, game / "assets" / "logo.png")
    return game / "assets" / "logo.png"


def _link_font(game: Path, secret: Path) -> Path:
    (game / "fonts").mkdir()
    os.symlink(secret, game / "fonts" / "NotoSans-Regular.ttf")
    return game / "fonts" / "NotoSans-Regular.ttf"


def _link_folder(game: Path, secret: Path, folder: str, file_name: str) -> Path:
    """A whole folder of the game linked to one outside it, holding the secret."""
    outside = secret.parent / f"elsewhere-{folder}"
    outside.mkdir()
    shutil.copy(secret, outside / file_name)
    os.symlink(outside, game / folder)
    return game / folder


def _link_assets_folder(game: Path, secret: Path) -> Path:
    edit_file(game / "templates" / "front.yaml.j2", "- {text:",
              '- {image: {x: 1, y: 1, w: 10, h: 10, src: "logo.png"}}\n- {text:')
    return _link_folder(game, secret, "assets", "logo.png")


def _link_fonts_folder(game: Path, secret: Path) -> Path:
    return _link_folder(game, secret, "fonts", "NotoSans-Regular.ttf")


LINKS: dict[str, Callable[[Path, Path], Path]] = {
    "assets folder": _link_assets_folder,
    "fonts folder": _link_fonts_folder,
    "data file": _link_data_file,
    "game.yaml": _link_game_file,
    "locale": _link_locale,
    "template": _link_template,
    "included macro": _link_included_macro,
    "templates folder": _link_templates_folder,
    "asset image": _link_asset,
    "font": _link_font,
}


def _files_under(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()) if folder.exists() else b""


@pytest.mark.parametrize("kind", sorted(LINKS))
def test_a_link_out_of_the_game_folder_is_one_error_naming_it(kind, cli, game_copy, secret, tmp_path):
    game = game_copy("mini_game")
    link = LINKS[kind](game, secret)
    # a linked folder: each of its templates is a link out, named on a line of its own
    links = sorted(link.iterdir()) if link.is_dir() else [link]
    out = tmp_path / "out"
    result = cli("build", game, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    errors = assert_user_error(result)
    # an image is checked per face: its line names the face too, then counts the others
    naming = sorted(e for e in errors if not e.startswith("(the same template errors recur"))
    assert len(naming) == len(links), errors
    for line, path in zip(naming, links):
        # an included macro's line also names the line that included it
        included = f" (included from {game_label(game, 'templates', 'front.yaml.j2')}:" if kind == "included macro" else ""
        assert line.startswith(f"{game_label(path.parent, path.name)}{included}"), errors
        assert line.endswith(f": links outside the game folder (to {path.resolve()})"), errors
    assert SECRET not in result.stdout + result.stderr
    assert SECRET.encode() not in _files_under(out)
    assert not list(out.rglob("*.pdf")) if out.exists() else True


def test_validate_refuses_a_link_out_too(cli, game_copy, secret):
    game = game_copy("mini_game")
    link = _link_locale(game, secret)
    result = cli("validate", game)
    errors = assert_user_error(result)
    assert errors == [f"{game_label(link.parent, link.name)}: links outside the game folder (to {secret.resolve()})"]
    assert SECRET not in result.stdout + result.stderr


def test_links_that_stay_inside_the_game_folder_keep_working(cli, game_copy, tmp_path):
    """A template, a locale and a whole folder linked to places inside the game folder."""
    game = game_copy("mini_game")
    (game / "layouts").mkdir()
    shutil.move(game / "templates" / "front.yaml.j2", game / "layouts" / "front.yaml.j2")
    os.symlink(Path("..") / "layouts" / "front.yaml.j2", game / "templates" / "front.yaml.j2")
    shutil.move(game / "locales", game / "strings")
    os.symlink("strings", game / "locales")
    linked_game = tmp_path / "linked-game"  # the game folder itself reached through a link
    os.symlink(game, linked_game)
    out = tmp_path / "out"
    result = cli("build", linked_game, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert list(out.rglob("*.pdf"))


def test_a_link_to_the_shipped_fonts_is_allowed(cli, game_copy, tmp_path):
    game = game_copy("mini_game")
    (game / "fonts").mkdir()
    os.symlink(REPO / "fonts" / "NotoSans-Regular.ttf", game / "fonts" / "NotoSans-Regular.ttf")
    result = cli("build", game, "--out", tmp_path / "out", "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output


def test_a_dangling_link_is_an_error_not_a_traceback(cli, game_copy, tmp_path):
    game = game_copy("mini_game")
    edit_file(game / "game.yaml", "components:", "data_files: [extra.yaml]\ncomponents:")
    os.symlink(tmp_path / "nothing-here.yaml", game / "extra.yaml")
    errors = assert_user_error(cli("validate", game))
    assert errors == [f"{game_label(game, 'game.yaml')}:10:14: data file 'extra.yaml' not found"], errors


# -- the user's own input: bounded too -----------------------------------------------------------


def test_a_settings_file_over_the_limit_is_refused_in_one_line(cli, scenario, monkeypatch, tmp_path):
    big = tmp_path / "big.cfg"
    big.write_text("# padding\n" * (MAX_SETTINGS_BYTES // 10 + 1), encoding="utf-8")
    monkeypatch.setenv("CARDGEN_CONFIG", str(big))
    result = cli("build", scenario("mini_game"), "--out", tmp_path / "out", "--lang", "en", "--jobs", "1")
    errors = assert_user_error(result)
    assert errors == [f"{big}: is larger than 64 KiB: not a settings file"], errors


def test_a_settings_file_just_under_the_limit_is_read(cli, scenario, monkeypatch, tmp_path):
    ok = tmp_path / "ok.cfg"
    ok.write_text("# padding\n" * (MAX_SETTINGS_BYTES // 10), encoding="utf-8")
    monkeypatch.setenv("CARDGEN_CONFIG", str(ok))
    result = cli("build", scenario("mini_game"), "--out", tmp_path / "out", "--lang", "en", "--paper", "a4",
                 "--jobs", "1")
    assert result.exit_code == 0, result.output


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_cardgen_config_dev_zero_is_refused_without_reading_it_whole(scenario, tmp_path):
    env = {**os.environ, "CARDGEN_CONFIG": "/dev/zero",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, "-m", "cardgen", "build", str(scenario("mini_game")), "--out",
                          str(tmp_path / "out"), "--lang", "en", "--jobs", "1"],
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert [line for line in run.stderr.splitlines() if line.startswith("error: ")] == [
        "error: /dev/zero: is larger than 64 KiB: not a settings file"]


@pytest.mark.parametrize("games", ["1000000000", "1000001"])
def test_validate_games_above_the_maximum_is_a_usage_error(cli, games):
    result = cli("validate", "hapy", "--games", games)
    assert result.exit_code == 2, result.output
    assert "1000000" in result.output and "Traceback" not in result.output


def test_validate_help_states_the_maximum(cli):
    assert "at most 1,000,000" in " ".join(cli("validate", "--help").output.split())
