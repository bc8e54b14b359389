"""Rules as plug-ins: a designer's rules module found through an installed package's
``cardgen.rules`` entry point or named with ``--rules``, held to the rules API, and every
way it can fail to fit reported as one line naming the file, exit 1."""

from __future__ import annotations

import shutil
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardgen.rules
from cardgen.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_RULES = ROOT / "docs" / "examples" / "rules"
FIRST_GAME = "docs/examples/first-game"


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Each test registers rules in a registry of its own, and leaves sys.modules as it was."""
    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    monkeypatch.chdir(ROOT)


def installed(site: Path, monkeypatch, module_text: str | None = None) -> None:
    """Install the example rules package the way pip leaves it, without pip: its module
    and a dist-info folder whose entry_points.txt is made from the example's pyproject.toml
    (so the snippet the docs show is the one tested), on sys.path."""
    project = tomllib.loads((EXAMPLE_RULES / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for module in tomllib.loads((EXAMPLE_RULES / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
            "setuptools"]["py-modules"]:
        if module_text is None:
            shutil.copy(EXAMPLE_RULES / f"{module}.py", site / f"{module}.py")
        else:
            (site / f"{module}.py").write_text(module_text, encoding="utf-8")
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n",
                                   encoding="utf-8")
    lines = [f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())
             for group, eps in project["entry-points"].items()]
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))


def validate(*args: str):
    return CliRunner().invoke(main, ["validate", FIRST_GAME, "--games", "10", "--jobs", "1", *args])


def test_the_first_game_has_no_rules_without_a_plugin():
    result = validate()
    assert result.exit_code == 0, result.output
    assert "no rules module for game 'night-sky'" in result.output


def test_an_installed_package_s_entry_point_brings_the_rules(tmp_path, monkeypatch):
    installed(tmp_path, monkeypatch)
    result = validate()
    assert result.exit_code == 0, result.output
    assert "Play: OK" in result.output and "no rules module" not in result.output
    assert "night-sky" in cardgen.rules.registered()


def test_rules_named_with_the_rules_option(tmp_path):
    result = validate("--rules", "docs/examples/rules/night_sky.py")
    assert result.exit_code == 0, result.output
    assert "Play: OK" in result.output


def test_a_game_folder_s_python_is_never_run_without_the_option(tmp_path):
    game = tmp_path / "first-game"
    shutil.copytree(ROOT / FIRST_GAME, game)
    marker = tmp_path / "ran"
    (game / "rules.py").write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    (game / "night_sky.py").write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(game), "--games", "5", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert not marker.exists()


BROKEN = {
    "raises": ("raise RuntimeError('the moon is missing')\n",
               "the rules module raised RuntimeError on import: the moon is missing"),
    "syntax": ("def (:\n", "the rules module raised SyntaxError on import"),
    "nothing": ("X = 1\n", "the rules module registers nothing: it must call cardgen.rules.register(...) with"
                           " rules whose game_id is 'night-sky'"),
    "other game": ("from cardgen.rules import register\n"
                   "class R:\n    game_id = 'day-sky'\nregister(R())\n",
                   "the rules module registers rules for 'day-sky', not for game 'night-sky'"),
    "missing member": ("from cardgen.rules import register\nfrom cardgen.rules.api import RandomAgent\n"
                       "class R:\n    game_id = 'night-sky'\n    agents = {'random': RandomAgent}\n"
                       "    must_finish = {'random': True}\n"
                       "    def static_spec(self, game, locate): ...\n    def player_counts(self, game): ...\n"
                       "    def setups(self, game): ...\nregister(R())\n",
                       "the rules R has no 'load' (a method load(game, num_players, setup))"),
    "no agents": ("from cardgen.rules import register\n"
                  "class R:\n    game_id = 'night-sky'\n    agents = {}\n    must_finish = {}\n"
                  "    def static_spec(self, game, locate): ...\n    def player_counts(self, game): ...\n"
                  "    def setups(self, game): ...\n    def load(self, game, n, setup): ...\nregister(R())\n",
                  "the rules' agents must be a mapping with at least one player kind"),
    "wrong type": ("from cardgen.rules import register\n"
                   "class R:\n    game_id = 'night-sky'\n    agents = {'random': 1}\n    must_finish = {}\n"
                   "    static_spec = player_counts = setups = load = 5\nregister(R())\n",
                   "the rules' 'static_spec' is not callable (a method static_spec(game, locate))"),
}


def one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("case", BROKEN)
def test_a_rules_file_that_does_not_fit_is_one_line(tmp_path, case):
    text, message = BROKEN[case]
    path = tmp_path / "my_rules.py"
    path.write_text(text, encoding="utf-8")
    line = one_error_line(validate("--rules", str(path)))
    assert line.startswith(f"error: {path}: "), line
    assert message in line, line


@pytest.mark.parametrize("case", ["raises", "nothing", "other game", "missing member"])
def test_an_entry_point_that_does_not_fit_is_one_line(tmp_path, monkeypatch, case):
    text, message = BROKEN[case]
    installed(tmp_path, monkeypatch, text)
    line = one_error_line(validate())
    assert line.startswith(f"error: {tmp_path / 'night_sky.py'}: "), line
    assert message in line, line


def test_a_rules_file_that_is_not_there_or_not_python(tmp_path):
    assert "no such rules file" in one_error_line(validate("--rules", str(tmp_path / "gone.py")))
    text = tmp_path / "rules.txt"
    text.write_text("x", encoding="utf-8")
    assert "a rules module is a Python file ending in .py" in one_error_line(validate("--rules", str(text)))


def test_a_rules_file_for_another_game_is_refused(tmp_path):
    line = one_error_line(CliRunner().invoke(main, ["validate", "hapy", "--rules", "docs/examples/rules/night_sky.py",
                                                    "--games", "1"]))
    assert "registers rules for 'night-sky', not for game 'hapy'" in line
