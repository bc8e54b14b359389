"""A build whose every input equals the one that left the kit as it is stops at once
("nothing changed"), with the face cache; any change of input, option or kit file
builds (issue 32)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.load.game import load_game
from cardgen.output.kitwriter import KitWriter
from cardgen.pipeline import BuildOptions, build_game

MINI = Path(__file__).parents[1] / "data" / "mini_game"


@pytest.fixture
def mini(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    return folder


def _build(folder: Path, out: Path, monkeypatch, **options) -> tuple[list[str], int, dict[str, bytes]]:
    """The build's progress lines, how many files it drew, and the kit's bytes after it."""
    drawn = []
    real = KitWriter.write_sheets

    def counted(self, *args, **kwargs):
        written = real(self, *args, **kwargs)
        drawn.extend(written)
        return written

    monkeypatch.setattr(KitWriter, "write_sheets", counted)
    said: list[str] = []
    opts = BuildOptions(out_dir=out, jobs=1, cache=options.pop("cache", True), **options)
    built = build_game(load_game(folder), opts, said.append)
    kit = {p.name: p.read_bytes() for p in sorted(built.folder.iterdir())}
    assert {f.name for f in built.files} <= set(kit)
    return said, len(drawn), kit


def _unchanged(said: list[str]) -> bool:
    return any("nothing changed" in line for line in said)


def test_a_second_build_of_the_same_inputs_stops_and_leaves_the_kit_as_it_was(mini, tmp_path, monkeypatch):
    out = tmp_path / "out"
    said, drawn, first = _build(mini, out, monkeypatch)
    assert not _unchanged(said) and drawn > 0
    said, drawn, second = _build(mini, out, monkeypatch)
    assert _unchanged(said) and drawn == 0
    assert second == first


def test_an_edited_string_builds_again(mini, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _build(mini, out, monkeypatch)
    locale = mini / "locales" / "en.yaml"
    text = locale.read_text(encoding="utf-8")
    assert "name: Mini Game" in text
    locale.write_text(text.replace("name: Mini Game", "name: Mini Game Two"), encoding="utf-8")
    said, drawn, _ = _build(mini, out, monkeypatch)
    assert not _unchanged(said) and drawn > 0


def test_other_options_or_no_cache_build_again(mini, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _build(mini, out, monkeypatch)
    said, _, _ = _build(mini, out, monkeypatch, ink_saver=True)
    assert not _unchanged(said)
    said, _, _ = _build(mini, out, monkeypatch, cache=False)
    assert not _unchanged(said)


def test_a_kit_file_changed_since_is_drawn_again(mini, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _, _, first = _build(mini, out, monkeypatch)
    damaged = next(name for name in first if name.endswith(".pdf"))
    (out / "mini" / damaged).write_bytes(b"%PDF-1.4 edited by hand")
    said, _, kit = _build(mini, out, monkeypatch)
    assert not _unchanged(said)
    assert kit[damaged] == first[damaged]
    said, _, _ = _build(mini, out, monkeypatch)
    assert _unchanged(said)


def test_the_public_build_stops_before_any_font_or_template_is_loaded(mini, tmp_path, monkeypatch):
    """Nothing to do costs almost nothing: with the kit as the same inputs left it,
    ``cardgen.build`` reads no font and compiles no template (each would raise here)."""
    import cardgen
    from cardgen.layout.fonts import FontBook
    from cardgen.render.sandbox import TemplateRenderer

    out = tmp_path / "out"
    first = cardgen.build(load_game(mini), BuildOptions(out_dir=out, jobs=1, cache=True))
    kit = {p.name: p.read_bytes() for p in first.folder.iterdir()}

    def sentinel(*args, **kwargs):
        raise AssertionError("loaded during a build with nothing to do")

    monkeypatch.setattr(FontBook, "register", sentinel)
    monkeypatch.setattr(TemplateRenderer, "_template", sentinel)
    said: list[str] = []
    again = cardgen.build(load_game(mini), BuildOptions(out_dir=out, jobs=1, cache=True), said.append)
    assert _unchanged(said)
    assert again.files == first.files and again.folder == first.folder and again.warnings == []
    assert {p.name: p.read_bytes() for p in again.folder.iterdir()} == kit


NO_CHANGE_PROBE = r"""
import sys
from cardgen.cli import main
try:
    main(["build", sys.argv[1], "--lang", "en", "--paper", "a4", "--out", sys.argv[2]], prog_name="cardgen")
except SystemExit as exc:
    assert exc.code == 0, exc.code
heavy = ("reportlab", "pikepdf", "PIL", "shapely", "fontTools", "jinja2", "babel", "cardgen.pipeline",
         "cardgen.render.faces", "cardgen.output.kitwriter", "cardgen.layout.text", "multiprocessing")
print("LOADED", sorted(m for m in heavy if m in sys.modules))
"""


def test_a_no_change_rebuild_from_the_command_line_imports_no_drawing_machinery(mini, tmp_path):
    """The second ``cardgen build`` of unchanged inputs decides from the fingerprint alone:
    neither ReportLab, pikepdf, Pillow, Jinja nor the renderer and the kit writer are imported."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
           "CARDGEN_CACHE_DIR": os.environ["CARDGEN_CACHE_DIR"]}
    runs = [subprocess.run([sys.executable, "-c", NO_CHANGE_PROBE, str(mini), str(tmp_path / "out")],
                           capture_output=True, text=True, cwd=tmp_path, timeout=300, env=env) for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[-1].stderr[-2000:]
    assert "nothing changed" not in runs[0].stderr and "reportlab" in runs[0].stdout
    assert "nothing changed" in runs[1].stderr
    assert "LOADED []" in runs[1].stdout, runs[1].stdout
