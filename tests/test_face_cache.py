"""The face cache (render/facestore.py): a rebuild renders only what changed, gives the
same bytes as a clean build, lives outside the output folder, and takes a damaged or
forged entry for a miss."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import copy_shipped, edit_file
from kitchecks import build

from cardgen.render import sandbox
from cardgen.render.facestore import FaceStore, cache_dir, is_plain

ROOT = Path(__file__).resolve().parent.parent


def files_of(kit: Path) -> dict[str, bytes]:
    return {str(p.relative_to(kit)): p.read_bytes() for p in sorted(kit.rglob("*")) if p.is_file()}


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob("*.json") if p.is_file())


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDGEN_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def renders(monkeypatch) -> Counter:
    """How many times each template is rendered (the cache saves exactly those)."""
    counted: Counter = Counter()
    original = sandbox.TemplateRenderer.render_text

    def render_text(self, name, context, label):
        counted[name] += 1
        return original(self, name, context, label)

    monkeypatch.setattr(sandbox.TemplateRenderer, "render_text", render_text)
    return counted


def test_a_rebuild_after_editing_one_card_renders_it_alone_and_matches_a_clean_build(
        game_copy, tmp_path, cache, renders):
    game = game_copy("mini_game")
    build(tmp_path / "out", str(game))
    assert sum(renders.values()) > 0 and entries(cache)
    renders.clear()
    build(tmp_path / "out", str(game))  # nothing changed: nothing is rendered
    assert sum(renders.values()) == 0, renders
    edit_file(game / "game.yaml", "- id: joker", "- id: jester")
    build(tmp_path / "out", str(game))
    assert renders == Counter({"front.yaml.j2": 1}), renders  # the edited card's front (en and fr alike)
    build(tmp_path / "clean", str(game), "--no-cache")
    assert files_of(tmp_path / "out" / "mini") == files_of(tmp_path / "clean" / "mini")


def test_string_and_included_template_edits_rebuild_as_a_clean_build(game_copy, tmp_path, cache, renders):
    game = game_copy("mini_game")
    (game / "templates" / "parts.j2").write_text('{% macro title(t) %}{{ t|q }}{% endmacro %}\n', encoding="utf-8")
    edit_file(game / "templates" / "front.yaml.j2", "- {text:", '{% import "parts.j2" as parts %}\n- {text:')
    edit_file(game / "templates" / "front.yaml.j2", "text: {{ card.id|q }}", "text: {{ parts.title(t('card.title', n=card.id)) }}")
    build(tmp_path / "out", str(game))
    for path, old, new in ((game / "locales" / "en.yaml", "Card {n}", "Carte {n}"),
                           (game / "templates" / "parts.j2", "{{ t|q }}", "{{ (t ~ '!')|q }}")):
        edit_file(path, old, new)
        renders.clear()
        build(tmp_path / "out", str(game))
        assert renders["front.yaml.j2"] > 0 and renders["back.yaml.j2"] == 0, renders
        build(tmp_path / f"clean-{path.name}", str(game), "--no-cache")
        assert files_of(tmp_path / "out" / "mini") == files_of(tmp_path / f"clean-{path.name}" / "mini")


def test_a_shipped_game_rebuilt_after_a_string_edit_is_byte_identical(tmp_path, cache):
    game = copy_shipped("hapy", tmp_path)
    options = ("--lang", "en", "--paper", "a4")
    build(tmp_path / "out", str(game), *options)
    edit_file(game / "locales" / "en.yaml", "god: Anubis", "god: Anpu")
    build(tmp_path / "out", str(game), *options)
    build(tmp_path / "clean", str(game), *options, "--no-cache")
    assert files_of(tmp_path / "out" / "hapy") == files_of(tmp_path / "clean" / "hapy")


def test_the_cache_is_outside_the_output_folder_and_no_cache_leaves_it_alone(game_copy, tmp_path, cache):
    game = game_copy("mini_game")
    build(tmp_path / "out", str(game), "--no-cache")
    assert not cache.exists() or not entries(cache)
    build(tmp_path / "out", str(game))
    assert entries(cache)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["mini"]  # the kit, nothing beside it
    kit = tmp_path / "out" / "mini"
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(files_of(kit)) == sorted([*(f["file"] for f in manifest["files"]), "manifest.json"])


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    head, _, body = data.partition(b"\n")
    payload = json.loads(body)
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        path.write_bytes(os.urandom(200))
    elif how == "checksum":  # a flipped byte in the body
        path.write_bytes(head + b"\n" + body.replace(b'"key"', b'"kez"'))
    elif how in ("forged-doc", "forged-text", "other-key", "deep", "types"):
        if how == "forged-doc" and "doc" in payload:  # passes the checksum, fails the layout check
            payload["doc"] = [{"rect": {"x": "left", "y": 0, "w": 1, "h": 1}}]
        elif how == "forged-text" and "text" in payload:
            payload["text"], payload["doc"] = "- {rect: {x: 0, y: 0, w: 1, h: 1, fill: nosuchcolour}}\n", None
        elif how == "other-key":
            payload["key"] = "0" * 64
        elif how == "deep":
            payload = {"key": payload["key"], "text": "x", "reads": [], "doc": None, "deep": "[" * 100_000}
            body = json.dumps(payload).replace('"[', "[").encode()
            path.write_bytes(__import__("hashlib").sha256(body).hexdigest().encode() + b"\n" + body)
            return
        elif how == "types":
            payload = {k: 5 for k in payload}
            payload["key"] = json.loads(body)["key"]
        body = json.dumps(payload).encode()
        path.write_bytes(__import__("hashlib").sha256(body).hexdigest().encode() + b"\n" + body)
    elif how == "fifo":
        path.unlink()
        os.mkfifo(path)
    elif how == "symlink":
        path.unlink()
        path.symlink_to("/dev/zero")
    elif how == "folder":
        path.unlink()
        path.mkdir()


@pytest.mark.parametrize("how", ["truncated", "garbage", "checksum", "forged-doc", "forged-text", "other-key",
                                 "deep", "types", "fifo", "symlink", "folder"])
def test_a_damaged_or_forged_entry_is_a_miss(game_copy, tmp_path, cache, how):
    game = game_copy("mini_game")
    build(tmp_path / "out", str(game))
    for path in entries(cache):
        _damage(path, how)
    # in a process of its own, under a time limit: a FIFO must not stall it
    run = subprocess.run([sys.executable, "-m", "cardgen", "build", str(game), "--out", str(tmp_path / "out"),
                          "--jobs", "1"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    build(tmp_path / "clean", str(game), "--no-cache")
    assert files_of(tmp_path / "out" / "mini") == files_of(tmp_path / "clean" / "mini")


def test_the_cache_folder_is_kept_within_its_bound(tmp_path):
    store = FaceStore(tmp_path / "c", max_bytes=10_000)
    for n in range(30):
        key = f"{n:064x}"
        store.put_face(key, "- {rect: {x: 0}}\n" * 20, (("a", "A"),), None)
        os.utime(store._path(key), (1_000_000 + n, 1_000_000 + n))
    assert store.face(f"{29:064x}") is not None  # a read makes an entry the newest
    os.utime(store._path(f"{0:064x}"), (2_000_000, 2_000_000))
    store.evict()
    left = {p.stem for p in entries(tmp_path / "c")}
    assert sum(p.stat().st_size for p in entries(tmp_path / "c")) <= 10_000
    assert f"{0:064x}" in left and f"{29:064x}" in left and f"{1:064x}" not in left


def test_the_cache_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("CARDGEN_CACHE_DIR")
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert cache_dir() == tmp_path / "xdg" / "cardgen" / "faces"


def test_only_documents_json_gives_back_unchanged_are_stored():
    assert is_plain({"a": [1, 2.5, None, True, "x", {"b": -0.0}]})
    for doc in ({1: "x"}, [float("nan")], [float("inf")], [(1, 2)], [__import__("datetime").date(2020, 1, 1)],
                [10 ** 5000]):
        assert not is_plain(doc)


def test_two_builds_at_once_share_the_cache(game_copy, tmp_path, cache):
    game = game_copy("mini_game")
    runs = [subprocess.Popen([sys.executable, "-m", "cardgen", "build", str(game), "--out", str(tmp_path / out),
                              "--lang", lang, "--jobs", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
            for out, lang in (("a", "en"), ("b", "en"), ("c", "fr"))]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
    assert files_of(tmp_path / "a" / "mini") == files_of(tmp_path / "b" / "mini")
    build(tmp_path / "clean", str(game), "--lang", "en", "--no-cache")
    assert files_of(tmp_path / "a" / "mini") == files_of(tmp_path / "clean" / "mini")


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """The names of the PDF files drawn (a file taken from the kit is not)."""
    from cardgen.output import canvas

    names: list[str] = []
    original = canvas.new_canvas

    def new_canvas(path, *args, **kwargs):
        names.append(Path(path).name)
        return original(path, *args, **kwargs)

    monkeypatch.setattr(canvas, "new_canvas", new_canvas)
    return names


def test_files_whose_inputs_did_not_change_are_taken_from_the_kit(game_copy, tmp_path, cache, drawn):
    game = game_copy("mini_game")
    build(tmp_path / "out", str(game))
    assert len(drawn) == 6
    drawn.clear()
    edit_file(game / "locales" / "fr.yaml", "name: Mini-jeu", "name: Mini-jeu II")  # the French files' title
    build(tmp_path / "out", str(game))
    assert sorted(drawn) == ["mini-fr-a4-cards.pdf", "mini-fr-letter-cards.pdf", "mini-fr-printshop-63x88mm.pdf"], drawn
    kit = tmp_path / "out" / "mini"
    (kit / "mini-en-a4-cards.pdf").write_bytes((kit / "mini-en-a4-cards.pdf").read_bytes() + b"%annotated\n")
    drawn.clear()
    build(tmp_path / "out", str(game))  # a kit file changed since it was written is drawn again
    assert drawn == ["mini-en-a4-cards.pdf"], drawn
    build(tmp_path / "clean", str(game), "--no-cache")
    assert files_of(kit) == files_of(tmp_path / "clean" / "mini")
