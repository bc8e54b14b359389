"""User and project settings: parsing, merging, writing, and the `cardgen config` command.

Every test runs with CARDGEN_CONFIG, HOME, XDG_CONFIG_HOME and APPDATA pointing into
tmp_path and the current folder set to a fresh project folder: the real home is never
read or written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import assert_user_error

from cardgen.base.errors import CardgenError
from cardgen.settings import (
    PROJECT_FILE,
    Settings,
    config_paths,
    load_settings,
    parse_offset,
    project_config_path,
    set_value,
    user_config_path,
)


@pytest.fixture(autouse=True)
def env(tmp_path, monkeypatch):
    """An isolated world: (user file, project folder)."""
    user = tmp_path / "user" / "config"
    monkeypatch.setenv("CARDGEN_CONFIG", str(user))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return user, project


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error_of(fn, *args, **kwargs) -> list[str]:
    with pytest.raises(CardgenError) as info:
        fn(*args, **kwargs)
    return info.value.lines()


# -- parse_offset -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ("0.5,-1", (0.5, -1.0)),
    ("0.5, -1.0", (0.5, -1.0)),
    (" 0.5 -1 ", (0.5, -1.0)),
    ("+1.25,\u22122", (1.25, -2.0)),   # U+2212 as copied from a PDF
    ("\u20130.5,0", (-0.5, 0.0)),      # en dash, as printed on the calibration sheet
    ("0,0", (0.0, 0.0)),
    ("-0,.5", (0.0, 0.5)),
    ("10,-10", (10.0, -10.0)),
])
def test_parse_offset(text, expected):
    value = parse_offset(text)
    assert value == expected
    assert all(type(v) is float for v in value)
    assert str(value[0]) != "-0.0"


@pytest.mark.parametrize("text", ["", "1", "1,2,3", "a,b", "1,,2", "nan,0", "inf,0", "1e3,0", "0x1,0", "1;2",
                                  "1mm,2mm"])
def test_parse_offset_rejects_garbage(text):
    lines = error_of(parse_offset, text)
    assert len(lines) == 1 and "back-offset must be two numbers in mm, X,Y (e.g. 0.5,-1.0)" in lines[0]


@pytest.mark.parametrize("text,axis", [("10.5,0", "X"), ("0,-11", "Y")])
def test_parse_offset_range(text, axis):
    [line] = error_of(parse_offset, text)
    assert line.startswith(f"back-offset {axis} = ") and "out of range" in line


# -- where the files are ----------------------------------------------------------------------------------


def test_cardgen_config_overrides_user_path(env, monkeypatch, tmp_path):
    user, project = env
    assert user_config_path() == user
    assert config_paths() == [user, project / PROJECT_FILE]
    monkeypatch.setenv("CARDGEN_CONFIG", "~/elsewhere.cfg")
    assert user_config_path() == tmp_path / "home" / "elsewhere.cfg"


def test_platform_paths(monkeypatch, tmp_path):
    monkeypatch.delenv("CARDGEN_CONFIG")
    home = tmp_path / "home"
    assert user_config_path("linux") == tmp_path / "xdg" / "cardgen" / "config"
    assert user_config_path("freebsd13") == tmp_path / "xdg" / "cardgen" / "config"
    assert user_config_path("darwin") == home / "Library" / "Application Support" / "cardgen" / "config"
    assert user_config_path("win32") == tmp_path / "appdata" / "cardgen" / "config"
    monkeypatch.delenv("APPDATA")
    assert user_config_path("win32") == home / "AppData" / "Roaming" / "cardgen" / "config"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert user_config_path("linux") == home / ".config" / "cardgen" / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")  # invalid per the XDG spec: ignored
    assert user_config_path("linux") == home / ".config" / "cardgen" / "config"


def test_project_path(tmp_path):
    assert project_config_path(tmp_path) == tmp_path / "cardgen.cfg"
    assert project_config_path() == Path.cwd() / "cardgen.cfg"


# -- load_settings ----------------------------------------------------------------------------------------


def test_defaults_without_files():
    s = load_settings()
    assert s == Settings()
    assert (s.back_offset, s.paper, s.duplex, s.sources) == ((0.0, 0.0), None, None, {})
    assert s.source("paper") == "default"


def test_user_file_then_project_file(env):
    user, project = env
    write(user, "back-offset = 0.5,-1\npaper = letter\n")
    write(project / PROJECT_FILE, "back-offset = -0.25, 2\nduplex = short\n")
    s = load_settings()
    assert s.back_offset == (-0.25, 2.0)
    assert (s.paper, s.duplex) == ("letter", "short")
    assert s.sources == {"back-offset": str(project / PROJECT_FILE), "paper": str(user),
                         "duplex": str(project / PROJECT_FILE)}
    other = project.parent / "other"
    other.mkdir()
    assert load_settings(other).back_offset == (0.5, -1.0)  # another folder: only the user file


def test_hand_written_file_niceties(env):
    user, _ = env
    write(user, "\ufeff# my printer\n\n  Paper = \"A4\"   # office\nduplex='short'\r\nback-offset = 1 , -0.5\n")
    s = load_settings()
    assert (s.paper, s.duplex, s.back_offset) == ("a4", "short", (1.0, -0.5))


def test_every_mistake_is_reported_with_path_and_line(env):
    user, project = env
    write(user, "paper = a3\nthis is not a setting\n\ncolour = red\nback-offset = 12,0\n")
    write(project / PROJECT_FILE, "duplex = long\nduplex = short\npaper =\n= a4\n")
    lines = error_of(load_settings)
    assert lines == [
        f"{user}:1: paper must be a4 or letter, not 'a3'",
        f"{user}:2: expected 'key = value', got 'this is not a setting'",
        f"{user}:4: unknown setting 'colour' (known: back-offset, duplex, paper)",
        f"{user}:5: back-offset X = 12 mm is out of range (at most 10 mm either way; a printer that far off "
        "needs its paper guides checked)",
        "cardgen.cfg:2: duplex is set twice (first on line 1)",
        "cardgen.cfg:3: no value for 'paper'",
        "cardgen.cfg:4: missing key before '=' in '= a4'",
    ]


def test_unreadable_files(env):
    user, project = env
    user.parent.mkdir(parents=True)
    user.write_bytes(b"paper = a4\nduplex = l\xf6ng\n")
    assert error_of(load_settings) == [f"{user}:2:11: not UTF-8 text (byte 0xF6)"]
    user.unlink()
    (project / PROJECT_FILE).mkdir()
    assert error_of(load_settings) == ["cardgen.cfg: is a folder, not a settings file"]


# -- set_value --------------------------------------------------------------------------------------------


def test_set_creates_the_user_file(env):
    user, project = env
    assert set_value("back-offset", "0.5, -1") == user
    text = user.read_text(encoding="utf-8")
    assert text.startswith("# cardgen settings") and text.endswith("back-offset = 0.5,-1\n")
    assert load_settings().back_offset == (0.5, -1.0)
    assert not (project / PROJECT_FILE).exists()
    assert oct(user.stat().st_mode & 0o777) == oct(0o644)


def test_set_keeps_comments_and_other_keys(env):
    user, _ = env
    write(user, "# mine\npaper = a4  # office printer\nback-offset = 1,1\nduplex = long\nback-offset = 2,2\n")
    set_value("paper", "LETTER")
    set_value("back-offset", "\u22120.5,0")
    assert user.read_text(encoding="utf-8") == (
        "# mine\npaper = letter   # office printer\nback-offset = -0.5,0\nduplex = long\n"
    )
    assert [p.name for p in user.parent.iterdir()] == ["config"]  # no temporary file left


def test_set_project(env):
    user, project = env
    path = set_value("duplex", "short", project=True)
    assert path == project / PROJECT_FILE
    assert load_settings().duplex == "short" and not user.exists()
    assert load_settings().source("duplex") == str(path)


def test_set_rejects_bad_values_and_keys_without_writing(env):
    user, _ = env
    write(user, "paper = a4\n")
    assert error_of(set_value, "paper", "a3") == ["paper must be a4 or letter, not 'a3'"]
    assert error_of(set_value, "duplex", "") == ["duplex must be long or short, not ''"]
    assert error_of(set_value, "colour", "red") == ["unknown setting 'colour' (known: back-offset, duplex, paper)"]
    assert "out of range" in error_of(set_value, "back-offset", "0,20")[0]
    assert user.read_text(encoding="utf-8") == "paper = a4\n"


def test_set_writes_through_a_symlink(env, tmp_path):
    user, _ = env
    real = write(tmp_path / "dotfiles" / "cardgen", "paper = a4\n")
    user.parent.mkdir(parents=True)
    user.symlink_to(real)
    set_value("duplex", "short")
    assert user.is_symlink()
    assert real.read_text(encoding="utf-8") == "paper = a4\nduplex = short\n"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a non-root POSIX user")
def test_set_unwritable_folder_is_a_user_error(env, monkeypatch, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    monkeypatch.setenv("CARDGEN_CONFIG", str(locked / "config"))
    try:
        [line] = error_of(set_value, "paper", "a4")
        assert line.endswith("cannot be written: Permission denied")
    finally:
        locked.chmod(0o700)


def test_set_write_failure_is_a_user_error(env, monkeypatch):
    user, _ = env
    write(user, "paper = a4\n")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("cardgen.base.files.tempfile.mkstemp", refuse)
    assert error_of(set_value, "paper", "letter") == [f"{user}: cannot be written: Permission denied"]
    assert user.read_text(encoding="utf-8") == "paper = a4\n"


# -- the command ------------------------------------------------------------------------------------------


def test_config_shows_settings_and_sources(cli, env):
    user, project = env
    result = cli("config")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "back-offset = 0,0        # default",
        "duplex      = (not set)  # default",
        "paper       = (not set)  # default",
    ]
    write(user, "back-offset = 0.5,-1\npaper = letter\n")
    write(project / PROJECT_FILE, "paper = a4\n")
    result = cli("config")
    assert result.stdout.splitlines() == [
        f"back-offset = 0.5,-1     # {user}",
        "duplex      = (not set)  # default",
        "paper       = a4         # cardgen.cfg",
    ]


def test_config_set_negative_values(cli, env):
    user, _ = env
    result = cli("config", "set", "back-offset", "-1.5,0.5")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"back-offset = -1.5,0.5  (written to {user})\n"
    result = cli("config", "set", "back-offset", "-0.5", "-2")  # two words work too
    assert result.exit_code == 0, result.output
    assert load_settings().back_offset == (-0.5, -2.0)


def test_config_set_project_and_override_note(cli, env):
    user, project = env
    assert cli("config", "set", "paper", "letter", "--project").exit_code == 0
    assert (project / PROJECT_FILE).read_text(encoding="utf-8").endswith("paper = letter\n")
    result = cli("config", "set", "paper", "a4")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"paper = a4  (written to {user})\n"
    assert result.stderr == "note: cardgen.cfg also sets paper, and wins in this folder\n"


def test_config_set_errors(cli, env):
    # a bad value is a usage error (exit 2), as a bad --paper is for build
    for args, message in ((("paper", "a3"), "paper must be a4 or letter, not 'a3'"),
                          (("back-offset", "1,2,3"),
                           "back-offset must be two numbers in mm, X,Y (e.g. 0.5,-1.0), not '1,2,3'")):
        result = cli("config", "set", *args)
        assert result.exit_code == 2, result.output
        assert result.stderr.splitlines()[-1] == f"Error: Invalid value for 'VALUE': {message}"
    for args in (("set", "colour", "red"), ("set", "paper"), ("set",), ("sideways",)):
        result = cli("config", *args)
        assert result.exit_code == 2, (args, result.output)
        assert "Usage:" in result.stderr


def test_config_reports_a_broken_file(cli, env):
    _, project = env
    write(project / PROJECT_FILE, "paper = a4\nduplex: long\n")
    lines = assert_user_error(cli("config"))
    assert lines == ["cardgen.cfg:2: expected 'key = value', got 'duplex: long'"]
    # set still writes (it only replaces its own line), then reports the broken line
    result = cli("config", "set", "paper", "letter", "--project")
    assert assert_user_error(result) == lines
    assert result.stdout == "paper = letter  (written to cardgen.cfg)\n"
    assert (project / PROJECT_FILE).read_text(encoding="utf-8") == "paper = letter\nduplex: long\n"


def test_config_path(cli, env):
    user, project = env
    result = cli("config", "path")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{user}  (user file, from CARDGEN_CONFIG; not there yet)",
        f"{project / PROJECT_FILE}  (project file; not there yet)",
    ]
    write(project / PROJECT_FILE, "")
    assert cli("config", "path").stdout.splitlines()[1].endswith("(project file; exists)")


@pytest.mark.parametrize("args", [("config",), ("config", "set"), ("config", "path"), ("calibrate",)])
def test_help_has_examples(cli, args):
    result = cli(*args, "--help")
    assert result.exit_code == 0, result.output
    assert "Example" in result.stdout and "cardgen " in result.stdout
