"""The face cache (render/facestore.py): a rebuild renders only what changed, gives the
same bytes as a clean build, lives outside the output folder, takes a damaged or
forged entry for a miss, and is not used at all from a folder that is not the user's
own and private."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import copy_shipped, edit_file
from kitchecks import build

from cardgen.render import facestore, sandbox
from cardgen.render.facestore import FaceStore, cache_dir, is_plain

ROOT = Path(__file__).resolve().parents[2]


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


def _signed(cache: Path, body: bytes) -> bytes:
    """An entry as cardgen writes it: the body signed with the user's key."""
    key = bytes.fromhex((cache / "key").read_text(encoding="ascii"))
    return hmac.new(key, body, hashlib.sha256).hexdigest().encode() + b"\n" + body


def _plain(body: bytes) -> bytes:
    """An entry with its body's plain SHA-256 where the signature goes: what anyone who
    can write to the folder but has not the key can make."""
    return hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def _damage(path: Path, how: str, cache: Path) -> None:
    """Damage the entry ``path`` in one way; the forgeries that must fail the checks
    after the signature are signed with the user's key (as a cardgen with a bug would
    write them), ``plain-sha256`` is not."""
    data = path.read_bytes()
    head, _, body = data.partition(b"\n")
    payload = json.loads(body)
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        path.write_bytes(os.urandom(200))
    elif how == "checksum":  # a flipped byte in the body
        path.write_bytes(head + b"\n" + body.replace(b'"key"', b'"kez"'))
    elif how == "plain-sha256":  # readable forged text that passes every check but the signature
        path.write_bytes(_plain(_forged(body)))
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
            path.write_bytes(_signed(cache, body))
            return
        elif how == "types":
            payload = {k: 5 for k in payload}
            payload["key"] = json.loads(body)["key"]
        path.write_bytes(_signed(cache, json.dumps(payload).encode()))
    elif how == "fifo":
        path.unlink()
        os.mkfifo(path)
    elif how == "symlink":
        path.unlink()
        path.symlink_to("/dev/zero")
    elif how == "folder":
        path.unlink()
        path.mkdir()


@pytest.mark.parametrize("how", ["truncated", "garbage", "checksum", "plain-sha256", "forged-doc", "forged-text",
                                 "other-key", "deep", "types", "fifo", "symlink", "folder"])
def test_a_damaged_or_forged_entry_is_a_miss(game_copy, tmp_path, cache, how):
    game = game_copy("mini_game")
    build(tmp_path / "out", str(game))
    for path in entries(cache):
        _damage(path, how, cache)
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


# -- a cache no one but the user can write to -------------------------------------------------------------


FORGED = "FORGED BY ANOTHER"


def _forged(body: bytes) -> bytes:
    """A face entry's body with its card's title replaced by FORGED (a sound face,
    which every check but the signature passes); any other entry as it is."""
    payload = json.loads(body)
    if "text" not in payload or "card-" not in payload["text"]:
        return body
    payload["text"] = payload["text"].replace('text: "card-', f'text: "{FORGED} ')
    payload["doc"] = None
    return json.dumps(payload).encode()


def _kit_text(kit: Path) -> str:
    import pypdfium2 as pdfium

    out = []
    for pdf_path in sorted(kit.glob("*.pdf")):
        pdf = pdfium.PdfDocument(str(pdf_path))
        try:
            out += [page.get_textpage().get_text_range() for page in pdf]
        finally:
            pdf.close()
    return "\n".join(out)


@pytest.mark.parametrize("signed", [False, True])
def test_an_entry_rewritten_without_the_users_key_is_not_printed(game_copy, tmp_path, cache, signed):
    """An entry whose text was changed and its plain SHA-256 recomputed is a miss; the
    same forgery signed with the user's key (the control) is read, so the check that
    keeps it out is the signature."""
    game = game_copy("mini_game")
    options = ("--lang", "en", "--paper", "a4")
    build(tmp_path / "out", str(game), *options)
    forged = 0
    for path in entries(cache):
        body = path.read_bytes().partition(b"\n")[2]
        new = _forged(body)
        if new != body:
            path.write_bytes(_signed(cache, new) if signed else _plain(new))
            forged += 1
    assert forged >= 3
    (tmp_path / "out" / "mini").rename(tmp_path / "old")  # drawn again, not taken from the kit
    build(tmp_path / "out", str(game), *options)
    printed = _kit_text(tmp_path / "out" / "mini")
    if signed:
        assert FORGED in printed
    else:
        assert FORGED not in printed and "card-1" in printed
        build(tmp_path / "clean", str(game), *options, "--no-cache")
        assert files_of(tmp_path / "out" / "mini") == files_of(tmp_path / "clean" / "mini")


def _build_stderr(cli, out: Path, game: Path, *options: str) -> list[str]:
    r = cli("build", game, "--out", out, "--jobs", "1", "--lang", "en", "--paper", "a4", *options)
    assert r.exit_code == 0, r.output
    return [line for line in r.stderr.splitlines() if line.startswith("warning:")]


@pytest.mark.parametrize("mode", [0o777, 0o775, 0o757, 0o1777])
def test_a_cache_folder_others_may_write_to_is_not_used(game_copy, tmp_path, cache, cli, mode):
    game = game_copy("mini_game")
    cache.mkdir()
    cache.chmod(mode)
    assert _build_stderr(cli, tmp_path / "out", game) == [
        f"warning: the face cache {cache} is not used: others may write to it (chmod go-w it); every face is rendered"]
    assert list(cache.iterdir()) == []  # neither read nor written: no key, no entry
    assert _build_stderr(cli, tmp_path / "clean", game, "--no-cache") == []
    assert files_of(tmp_path / "out" / "mini") == files_of(tmp_path / "clean" / "mini")


def test_a_cache_folder_of_another_user_is_not_used(game_copy, tmp_path, cache, cli, monkeypatch):
    """The owner is compared with the user's id through ``current_uid``; as root, the
    folder is also given to another user for real."""
    game = game_copy("mini_game")
    cache.mkdir(mode=0o700)
    me = os.stat(cache).st_uid
    monkeypatch.setattr(facestore, "current_uid", lambda: me + 1)
    assert _build_stderr(cli, tmp_path / "out", game) == [
        f"warning: the face cache {cache} is not used: it belongs to another user (uid {me}); every face is rendered"]
    assert list(cache.iterdir()) == []
    monkeypatch.undo()
    monkeypatch.setenv("CARDGEN_CACHE_DIR", str(cache))
    if os.getuid() == 0:
        os.chown(cache, 4242, -1)
        assert _build_stderr(cli, tmp_path / "out", game) == [
            f"warning: the face cache {cache} is not used: it belongs to another user (uid 4242); every face is "
            "rendered"]
        assert list(cache.iterdir()) == []
    build(tmp_path / "clean", str(game), "--lang", "en", "--paper", "a4", "--no-cache")
    assert files_of(tmp_path / "out" / "mini") == files_of(tmp_path / "clean" / "mini")


def test_the_folder_and_its_key_are_private(game_copy, tmp_path, cache, cli):
    game = game_copy("mini_game")
    old = os.umask(0o002)
    try:
        assert _build_stderr(cli, tmp_path / "out", game) == []
    finally:
        os.umask(old)
    key = cache / "key"
    assert oct(cache.stat().st_mode & 0o777) == oct(0o700)
    assert oct(key.stat().st_mode & 0o777) == oct(0o600) and key.stat().st_uid == os.getuid()
    assert len(bytes.fromhex(key.read_text(encoding="ascii"))) == 32
    assert {oct(p.stat().st_mode & 0o777) for p in entries(cache)} == {oct(0o600)}
    other = FaceStore(tmp_path / "elsewhere")  # every folder a key of its own
    assert (tmp_path / "elsewhere" / "key").read_bytes() != key.read_bytes()
    assert other.face_key("k", ()) != FaceStore(cache).face_key("k", ())


def test_a_cache_folder_others_may_read_is_used(game_copy, tmp_path, cache, cli, renders):
    """A folder an earlier cardgen made 0755 is used: its key and entries are the user's alone."""
    game = game_copy("mini_game")
    cache.mkdir()
    cache.chmod(0o755)
    assert _build_stderr(cli, tmp_path / "out", game) == []
    renders.clear()
    assert _build_stderr(cli, tmp_path / "out", game) == []
    assert sum(renders.values()) == 0 and oct((cache / "key").stat().st_mode & 0o777) == oct(0o600)


@pytest.mark.parametrize("how, problem", [
    ("readable", "its key file is not private (chmod 600 it)"),
    ("symlink", "its key file is a symbolic link"),
    ("folder", "its key file is not a regular file"),
    ("other-user", "its key file belongs to another user (uid {uid})"),
])
def test_a_key_file_that_is_not_private_is_refused(game_copy, tmp_path, cache, cli, monkeypatch, how, problem):
    game = game_copy("mini_game")
    assert _build_stderr(cli, tmp_path / "first", game) == []
    key = cache / "key"
    uid = key.stat().st_uid
    if how == "readable":
        key.chmod(0o640)
    elif how == "symlink":
        (tmp_path / "elsewhere").write_bytes(key.read_bytes())
        key.unlink()
        key.symlink_to(tmp_path / "elsewhere")
    elif how == "folder":
        key.unlink()
        key.mkdir(mode=0o700)
    else:  # the folder is the user's, its key file another's
        real = facestore.folder_problem
        monkeypatch.setattr(facestore, "current_uid", lambda: uid + 1)
        monkeypatch.setattr(facestore, "folder_problem", lambda info: None if info.st_uid == uid else real(info))
    before = sorted(p.name for p in cache.rglob("*"))
    assert _build_stderr(cli, tmp_path / "out", game) == [
        f"warning: the face cache {cache} is not used: {problem.format(uid=uid)}; every face is rendered"]
    assert sorted(p.name for p in cache.rglob("*")) == before
    monkeypatch.undo()
    build(tmp_path / "clean", str(game), "--lang", "en", "--paper", "a4", "--no-cache")
    assert files_of(tmp_path / "out" / "mini") == files_of(tmp_path / "clean" / "mini")


def test_a_key_file_a_crash_cut_short_is_made_again(game_copy, tmp_path, cache, cli, renders):
    game = game_copy("mini_game")
    assert _build_stderr(cli, tmp_path / "out", game) == []
    (cache / "key").write_bytes(b"")
    renders.clear()
    assert _build_stderr(cli, tmp_path / "out", game) == []
    assert sum(renders.values()) > 0  # the entries of the old key are misses
    assert len((cache / "key").read_bytes()) == 64 and oct((cache / "key").stat().st_mode & 0o777) == oct(0o600)
    renders.clear()
    assert _build_stderr(cli, tmp_path / "out", game) == []
    assert sum(renders.values()) == 0


def test_builds_starting_at_once_agree_on_one_key(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        stores = list(pool.map(lambda _: FaceStore(tmp_path / "fresh"), range(16)))
    assert len({s.face_key("k", ()) for s in stores}) == 1
    assert sorted(p.name for p in (tmp_path / "fresh").iterdir()) == ["key"]  # no temporary file left
