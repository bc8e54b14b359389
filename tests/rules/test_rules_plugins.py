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

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_RULES = ROOT / "docs" / "examples" / "rules"
FIRST_GAME = "docs/examples/first-game"
NIGHT_SKY = (EXAMPLE_RULES / "night_sky.py").read_text(encoding="utf-8")
EXAMPLE_MODULES = frozenset(tomllib.loads((EXAMPLE_RULES / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "setuptools"]["py-modules"])


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Each test registers rules in a registry of its own, and leaves no rules module it
    imported in sys.modules (sys.modules itself stays the interpreter's: a copy in its
    place breaks the import of C modules that import others, such as pickle)."""
    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    monkeypatch.chdir(ROOT)
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("cardgen_rules_file_") or name in EXAMPLE_MODULES:
            del sys.modules[name]


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
    "raising member": ("from cardgen.rules import register\n"
                       "class R:\n    game_id = 'night-sky'\n    @property\n    def agents(self):\n"
                       "        raise RuntimeError('no players yet')\nregister(R())\n",
                       "the rules raised RuntimeError when their members were read: no players yet"),
    "quick games": (NIGHT_SKY.replace("    game_id = \"night-sky\"\n",
                                      "    game_id = \"night-sky\"\n    quick_games = \"ten\"\n"),
                    "the rules' quick_games is 'ten', not a number of games from 1 to 1,000,000"),
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


# -- a rules module whose own code raises before a game is played ----------------------
# (during play the same exception is a failed game, listed with its seed; before play it
# stops the command as one line naming the rules file, where, and what was asked)
WORKER_MARK = "import os\nPARENT = os.getpid()\n"
RAISE = 'raise ValueError(f"the moon is missing (in a worker: {os.getpid() != PARENT})")'

# the call → (the code of the example that is replaced by the raise, what the line says)
PRE_PLAY = {
    "new_initial_state": ("        return NightSkyState(self)\n",
                          "the rules crashed in new_initial_state() (setup 'standard', 2 players)"),
    "checker": ("        return NightSkyChecker(self)\n", "the rules crashed in checker() (setup 'standard', 2 players)"),
    "a player": ("    def __init__(self, game: NightSkyGame, seat: int):\n        self.game = game\n",
                 "the rules crashed in making seat 1's player (setup 'standard', 2 players)"),
    "load": ("        deck = game.component(DECK)\n", "the rules crashed in load() (setup 'standard', 2 players)"),
    "static_spec": ('        suits = tuple(s["id"] for s in game.data["suits"])\n        comet',
                    "the rules crashed in static_spec()"),
    "a card's key": ('    suit = fields.get("suit")\n', "the rules crashed in the deck check of its static_spec()"),
    "player_counts": ("        lo, hi = game.players\n", "the rules crashed in player_counts()"),
    "setups": ("        return (SETUP,)\n", "the rules crashed in setups()"),
}
PLAYED_IN_WORKERS = {"new_initial_state", "checker", "a player"}  # asked in the worker processes


def rules_raising_in(tmp_path: Path, case: str) -> tuple[Path, int]:
    """The example rules with the code of ``case`` replaced by a raise, and the raise's line."""
    code, _ = PRE_PLAY[case]
    assert NIGHT_SKY.count(code) == 1, case
    indent = code[:len(code) - len(code.lstrip())]
    if code.lstrip().startswith("def "):  # keep the def, raise in its body
        head = code.splitlines(keepends=True)[0]
        new = head + indent + "    " + RAISE + "\n"
    else:
        new = indent + RAISE + "\n" + ("        comet" if code.endswith("comet") else "")
    text = NIGHT_SKY.replace("from __future__ import annotations\n",
                             "from __future__ import annotations\n" + WORKER_MARK, 1).replace(code, new)
    path = tmp_path / "my_rules.py"
    path.write_text(text, encoding="utf-8")
    line = next(k for k, ln in enumerate(text.splitlines(), 1) if RAISE in ln)
    return path, line


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("case", PRE_PLAY)
def test_rules_that_raise_before_play_stop_with_one_line(tmp_path, case, jobs):
    path, line = rules_raising_in(tmp_path, case)
    result = CliRunner().invoke(main, ["validate", FIRST_GAME, "--games", "10", "--jobs", jobs,
                                       "--rules", str(path)])
    assert isinstance(result.exception, SystemExit), result.output  # not the rules' ValueError escaping
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    errors = [ln for ln in result.output.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and result.output.rstrip().endswith(errors[0]), result.output
    _, says = PRE_PLAY[case]
    worker = jobs == "2" and case in PLAYED_IN_WORKERS
    assert errors[0] == (f"error: {path.resolve()}:{line}: {says}: ValueError: the moon is missing"
                         f" (in a worker: {worker})"), errors[0]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_first_state_that_raises_is_one_line_from_the_command(tmp_path, jobs):
    """The command as a user runs it: its own process, workers forked from it."""
    import subprocess

    path, line = rules_raising_in(tmp_path, "new_initial_state")
    run = subprocess.run([sys.executable, "-m", "cardgen", "validate", FIRST_GAME, "--games", "10", "--jobs", jobs,
                          "--rules", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    errors = [ln for ln in run.stderr.splitlines() if ln.startswith("error:")]
    assert errors == [f"error: {path.resolve()}:{line}: the rules crashed in new_initial_state() (setup 'standard',"
                      f" 2 players): ValueError: the moon is missing (in a worker: {jobs == '2'})"], run.stderr


def test_drawing_a_game_whose_first_state_raises_is_one_line(tmp_path):
    path, line = rules_raising_in(tmp_path, "new_initial_state")
    result = CliRunner().invoke(main, ["validate", FIRST_GAME, "--rules", str(path), "--seed", "3",
                                       "--draw", str(tmp_path / "table.png")])
    assert isinstance(result.exception, SystemExit), result.output
    assert one_error_line(result) == (f"error: {path.resolve()}:{line}: the rules crashed in new_initial_state()"
                                      " (setup 'standard', 2 players): ValueError: the moon is missing"
                                      " (in a worker: False)")
    assert not (tmp_path / "table.png").exists()


def test_house_rule_checks_that_raise_stop_a_build_with_one_line(tmp_path, monkeypatch):
    """A package's data_problems (asked by `cardgen build` too) that raises."""
    text = NIGHT_SKY.replace("    def player_counts(self, game)",
                             "    def data_problems(self, game, locate):\n"
                             "        raise KeyError('house_rules')\n\n"
                             "    def player_counts(self, game)", 1)
    installed(tmp_path, monkeypatch, text)
    line = next(k for k, ln in enumerate(text.splitlines(), 1) if "raise KeyError('house_rules')" in ln)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", FIRST_GAME, "--out", str(out), "--lang", "en", "--paper", "a4"])
    assert isinstance(result.exception, SystemExit), result.output
    errors = [ln for ln in result.output.splitlines() if ln.startswith("error:")]
    assert errors == [f"error: {tmp_path / 'night_sky.py'}:{line}: the rules crashed in data_problems():"
                      " KeyError: 'house_rules'"], result.output
    assert result.exit_code == 1
    assert not (out / "night-sky").exists()
