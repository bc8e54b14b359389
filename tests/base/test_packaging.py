"""What ``pip install cardgen`` brings must be enough to run every command.

A module that cardgen imports but that only the test extra installs works in the test
suite and fails for a user (``validate --kit`` once needed pypdf this way): so every
third-party import in the package must be a runtime dependency in pyproject.toml."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported_modules() -> dict[str, str]:
    """Top-level module name → the first file of the package that imports it."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "cardgen").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return found


# modules of an optional feature: they may import what its extra installs (and say how to
# install it when it is missing), nothing else may
FEATURE_MODULES = {"cardgen/validation/cluster.py": "cluster"}


def _runtime_dependencies(extra: str | None = None) -> set[str]:
    """The runtime dependencies, or an optional extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] if extra is None else project["optional-dependencies"][extra]
    return {_normal(re.split(r"[<>=!~ \[;]", d, maxsplit=1)[0]) for d in wanted}


def _missing(imported: dict[str, str], runtime: set[str]) -> list[str]:
    """The imported third-party modules that no runtime dependency provides."""
    dists = packages_distributions()
    missing = []
    for module, where in imported.items():
        if module == "cardgen" or module == "__future__" or module in sys.stdlib_module_names:
            continue
        providers = {_normal(d) for d in dists.get(module, [module])}
        if not providers & runtime:
            missing.append(f"{module} (imported in {where}; from {sorted(providers)})")
    return missing


def test_every_third_party_import_is_a_runtime_dependency():
    """Outside the modules of an optional feature; those may import their extra's too."""
    imported = _imported_modules()
    plain = {m: where for m, where in imported.items() if where not in FEATURE_MODULES}
    missing = _missing(plain, _runtime_dependencies())
    for where, extra in FEATURE_MODULES.items():
        own = {m: w for m, w in imported.items() if w == where}
        missing += _missing(own, _runtime_dependencies() | _runtime_dependencies(extra))
    assert not missing, "imported by cardgen but not in [project].dependencies: " + "; ".join(missing)


def test_the_check_finds_a_test_only_import():
    """The check can fail: an import of pypdf (installed here by the test extra only)
    or of PIL without pillow among the dependencies is reported."""
    runtime = _runtime_dependencies()
    assert _missing({"pypdf": "x.py", "yaml": "y.py"}, runtime) == ["pypdf (imported in x.py; from ['pypdf'])"]
    assert _missing({"PIL": "z.py"}, runtime - {"pillow"}) == ["PIL (imported in z.py; from ['pillow'])"]
    assert "PIL" in _imported_modules() and "os" not in _missing(_imported_modules(), set())
