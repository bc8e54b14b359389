"""The public API in ``cardgen`` — what the command line uses, for scripts and tools."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cardgen

DATA = Path(__file__).resolve().parents[1] / "data"


def test_every_public_name_resolves():
    for name in cardgen.__all__:
        assert getattr(cardgen, name) is not None, name
    with pytest.raises(AttributeError):
        cardgen.no_such_thing  # noqa: B018


def test_importing_cardgen_loads_no_heavy_module():
    """``import cardgen`` must stay cheap: ReportLab, Jinja and the rules engines load
    only when a build or a validation needs them."""
    code = ("import sys, cardgen; "
            "print([m for m in ('reportlab', 'jinja2', 'cardgen.rules', 'PIL') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_load_build_and_validate_a_game(tmp_path):
    game = cardgen.load_game(DATA / "mini_game")
    assert isinstance(game, cardgen.Game)
    folder, written, warnings = cardgen.build(game, cardgen.BuildOptions(langs=("en",), papers=("a4",),
                                                                         out_dir=tmp_path, jobs=1))
    assert warnings == []
    assert folder == tmp_path / game.id
    assert written and all((folder / f.name).is_file() for f in written)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(e["file"] for e in manifest["files"]) == sorted(f.name for f in written)
    report = cardgen.validate(game, cardgen.ValidateOptions(kit=folder, langs=("en",)))
    assert report["ok"], report
    assert report["kit"]["ok"]


def test_validate_plays_a_game_with_rules():
    game = cardgen.load_game("hapy")
    report = cardgen.validate(game, cardgen.ValidateOptions(games=2, players=(3,), setups=("pyramid",), jobs=1))
    assert report["ok"] and report["rules"] == "cardgen.rules.hapy"
    assert sum(c["games"] for c in report["simulation"]["configs"]) == 4  # random and greedy players


def test_a_user_mistake_is_a_cardgen_error(tmp_path):
    with pytest.raises(cardgen.CardgenError) as caught:
        cardgen.load_game(tmp_path / "nowhere")
    assert caught.value.lines() and "nowhere" in caught.value.lines()[0]
    (tmp_path / "game.yaml").write_text("id: x\nname: [\n", encoding="utf-8")
    with pytest.raises(cardgen.CardgenError) as caught:
        cardgen.load_game(tmp_path)
    assert "game.yaml:" in caught.value.lines()[0]


def test_the_cli_is_built_on_the_api():
    """The commands call cardgen.load_game / build / validate, not the stages' internals."""
    root = Path(cardgen.__file__).parent / "cli"
    text = {p.name: p.read_text(encoding="utf-8") for p in root.glob("*.py")}
    assert "from .. import build, load_game" in text["build.py"]
    assert "validate as run_validation" in text["validate.py"] and "from .. import ValidateOptions" in text["validate.py"]
    assert not any("build_game" in t for t in text.values())


def test_the_python_api_page_example_runs(tmp_path, monkeypatch):
    """The example on docs/reference/python-api.md runs as written (output redirected)."""
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "reference" / "python-api.md").read_text(encoding="utf-8")
    code = page.split("```python\n", 1)[1].split("```", 1)[0]
    assert 'Path("output")' in code
    monkeypatch.chdir(root)
    printed: list[str] = []
    exec(compile(code.replace('Path("output")', f"Path({str(tmp_path)!r})"), "python-api.md", "exec"),
         {"print": lambda *a: printed.append(" ".join(map(str, a)))})
    game_id = cardgen.load_game(root / "docs" / "examples" / "first-game").id
    built = sorted(p.name for p in (tmp_path / game_id).glob("*.pdf"))
    assert printed[-1] == "OK"
    assert sorted(line.split()[0] for line in printed[:-1]) == built and built
