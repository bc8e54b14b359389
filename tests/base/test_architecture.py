"""The package layout shows the order of the work: each stage imports only the stages the
table of cardgen/base/stages.py lets it, which lie below it, and no module imports itself
back through others (no import cycles)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardgen.base.stages import ALLOWED, STAGES, Stage, layers

ROOT = Path(__file__).resolve().parents[2] / "cardgen"

# ALLOWED: each package (or top-level module) of cardgen and the stages it may import, the
# table of cardgen/base/stages.py, from which docs/developers/architecture.md draws their order.


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, *, top_level_only: bool) -> set[str]:
    """The cardgen modules ``path`` imports (relative to cardgen), skipping TYPE_CHECKING blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = _module_name(path)
    package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
    if me == "__init__":
        package = []
    found: set[str] = set()

    def visit(nodes, nested: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.ImportFrom):
                if nested and top_level_only:
                    continue
                if node.level:
                    base = package[: len(package) - (node.level - 1)]
                    mod = ".".join([*base, *([node.module] if node.module else [])])
                elif node.module and node.module.startswith("cardgen"):
                    mod = node.module.removeprefix("cardgen").lstrip(".")
                else:
                    continue
                for alias in node.names:  # 'from . import x' may import the module x
                    sub = f"{mod}.{alias.name}" if mod else alias.name
                    found.add(sub if _exists(sub) else (mod or "__init__"))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("cardgen.") and not (nested and top_level_only):
                        found.add(alias.name.removeprefix("cardgen."))
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    visit(inner, nested or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                             ast.ClassDef)))

    visit(tree.body, False)
    return {m for m in found if m != me}


def _exists(mod: str) -> bool:
    p = ROOT.joinpath(*mod.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def _stage(mod: str) -> str:
    return mod.split(".")[0]


MODULES = sorted(ROOT.rglob("*.py"))


def test_each_stage_imports_only_earlier_stages():
    wrong = []
    for path in MODULES:
        me = _module_name(path)
        for target in _imports(path, top_level_only=False):
            if _stage(target) != _stage(me) and _stage(target) not in ALLOWED[_stage(me)]:
                wrong.append(f"{me} imports {target}")
    assert not wrong, "\n".join(wrong)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := dfs(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := dfs(node)):
            return found
    return None


@pytest.mark.parametrize("top_level_only", [True, False], ids=["at import", "including deferred imports"])
def test_no_import_cycles(top_level_only):
    graph = {_module_name(p): _imports(p, top_level_only=top_level_only) for p in MODULES}
    # a package's __init__ importing its own modules is how a package presents itself, not a cycle
    for mod, targets in graph.items():
        graph[mod] = {t for t in targets if not (t.startswith(mod + ".") and (ROOT / mod.replace(".", "/")).is_dir())}
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def test_every_package_and_top_level_module_is_a_stage():
    found = {p.parent.name for p in ROOT.glob("*/__init__.py")} | {p.stem for p in ROOT.glob("*.py")}
    assert found == set(ALLOWED)
    assert len(STAGES) == len(ALLOWED), "a stage is in the table twice"


def test_the_stages_are_in_layers_each_importing_only_from_those_below():
    levels = layers()
    assert sorted(name for level in levels for name in level) == sorted(ALLOWED)
    below: set[str] = set()
    for level in levels:
        for name in level:
            assert ALLOWED[name] <= below, f"{name} may import {sorted(ALLOWED[name] - below)} from its layer or above"
        below |= set(level)
    assert levels[0] == ["base", "version"] and levels[-1] == ["__main__"]


def test_the_checks_can_fail():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
    assert "layout" not in ALLOWED["model"]  # a model importing the layout stage is reported
    with pytest.raises(ValueError, match="import each other: a → b → a"):
        layers([Stage("a", frozenset({"b"}), ""), Stage("b", frozenset({"a"}), "")])
    with pytest.raises(ValueError, match="'a' may import 'c', which is no stage"):
        layers([Stage("a", frozenset({"c"}), "")])
    assert layers([Stage("top", frozenset({"low"}), ""), Stage("low", frozenset(), "")]) == [["low"], ["top"]]
