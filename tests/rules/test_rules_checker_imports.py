"""Each game's checker is written apart from its engine: it judges the engine, so it must not
run the engine's code (a bug in shared code would then be invisible to the check).

A checker module (``rules/<game>/checker*.py``, and the modules of its own it uses, such as
Horus's ``scratch``) may import, at run time, only:

* ``..api`` (the rules API);
* its game's ``rulebook`` (the numbers written from the rulebook) and ``codec`` (how
  actions, phases and places are numbered: the vocabulary it reads the engine's states in);
* plain data constants of its game's ``spec`` (UPPER_CASE names bound to no function or
  class: card lists, kind and phase numbers), never its functions;
* its own ``checker*`` modules (each held to this rule);
* the standard library.

Never the engine (``state``, ``game``, its bit tables, tables and geometry, the layout
reader ``..tableau``). Imports under ``if TYPE_CHECKING:`` (annotations only) do not run and
are not counted."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "cardgen" / "rules"
GAMES = ("hapy", "egypt", "horus", "farao")
OWN_HELPERS = {"horus": ("scratch",)}  # modules written for the checker, held to the same rule
VOCABULARY = {"rulebook", "codec"}


def _runtime_imports(tree: ast.Module) -> list[ast.ImportFrom | ast.Import]:
    """The import statements of a module that run (those under ``if TYPE_CHECKING:`` left out)."""
    out: list[ast.ImportFrom | ast.Import] = []

    def visit(nodes: list[ast.AST]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(list(node.orelse))
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                out.append(node)
            visit(list(ast.iter_child_nodes(node)))

    visit(list(tree.body))
    return out


def _checker_modules(game: str) -> list[Path]:
    return sorted(RULES.joinpath(game).glob("checker*.py")) + \
        [RULES / game / f"{name}.py" for name in OWN_HELPERS.get(game, ())]


def engine_imports(game: str) -> list[str]:
    """Every run-time import of the game's checker modules that breaks the rule, as text."""
    allowed_here = VOCABULARY | set(OWN_HELPERS.get(game, ()))
    spec = importlib.import_module(f"cardgen.rules.{game}.spec")
    wrong = []
    for path in _checker_modules(game):
        where = f"{game}/{path.name}"
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                wrong += [f"{where}: import {a.name}" for a in node.names
                          if a.name.split(".")[0] not in sys.stdlib_module_names]
                continue
            module = node.module or ""
            names = [a.name for a in node.names]
            if node.level == 0:
                if module.split(".")[0] not in sys.stdlib_module_names:
                    wrong.append(f"{where}: from {module} import {', '.join(names)}")
            elif node.level == 2:
                if module != "api":
                    wrong.append(f"{where}: from ..{module} import {', '.join(names)}")
            elif node.level == 1 and not module:  # from . import rulebook
                wrong += [f"{where}: from . import {n}" for n in names if n not in allowed_here]
            elif node.level == 1 and module == "spec":
                wrong += [f"{where}: from .spec import {n} (not a plain data constant)" for n in names
                          if not n.isupper() or callable(getattr(spec, n))]
            elif node.level == 1 and module.split(".")[0] not in allowed_here \
                    and not module.startswith("checker"):  # the checker's own modules, held to this rule too
                wrong.append(f"{where}: from .{module} import {', '.join(names)}")
            elif node.level > 2:
                wrong.append(f"{where}: from {'.' * node.level}{module} import {', '.join(names)}")
    return wrong


@pytest.mark.parametrize("game", GAMES)
def test_no_checker_runs_its_engines_code(game: str) -> None:
    assert _checker_modules(game), f"{game} has no checker module"
    assert engine_imports(game) == []


def test_the_rule_finds_an_engine_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself: a checker importing its engine's state (or bit tables, or the layout
    reader) is named; one importing it for annotations only is not."""
    game = tmp_path / "cardgen" / "rules" / "hapy"
    game.mkdir(parents=True)
    game.joinpath("checker.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from ..api import RuleViolation\n"
        "from ..tableau import Layout\n"
        "from . import rulebook\n"
        "from .codec import PASS\n"
        "from .masks import POP6\n"
        "from .spec import N_CARDS, read_layout\n"
        "if TYPE_CHECKING:\n"
        "    from .state import HapyState\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "RULES", tmp_path / "cardgen" / "rules")
    assert engine_imports("hapy") == [
        "hapy/checker.py: from ..tableau import Layout",
        "hapy/checker.py: from .masks import POP6",
        "hapy/checker.py: from .spec import read_layout (not a plain data constant)",
    ]
