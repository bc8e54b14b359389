"""Files cardgen replaces (cardgen/base/files.py): whole or not at all, with the mode of the
file they replace or the one the umask gives a new file, through a temporary file of
their own, so that two writers of one file never collide."""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import assert_user_error
from PIL import Image

from cardgen.base.files import replacing, write_atomic


@contextmanager
def umask(value: int):
    old = os.umask(value)
    try:
        yield
    finally:
        os.umask(old)


def mode_of(path: Path) -> str:
    return oct(path.stat().st_mode & 0o777)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664), (0o077, 0o600)])
def test_a_new_file_gets_0666_less_the_umask(tmp_path, mask, mode):
    with umask(mask):
        write_atomic(tmp_path / "new.txt", b"hello\n")
    assert (tmp_path / "new.txt").read_bytes() == b"hello\n"
    assert mode_of(tmp_path / "new.txt") == oct(mode)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o664])
def test_a_replaced_file_keeps_its_mode(tmp_path, mode):
    path = tmp_path / "old.txt"
    path.write_bytes(b"old\n")
    path.chmod(mode)
    with umask(0o077):
        write_atomic(path, b"new\n")
    assert path.read_bytes() == b"new\n" and mode_of(path) == oct(mode)


def test_a_mode_asked_for_is_the_mode_given(tmp_path):
    path = tmp_path / "entry"
    path.write_bytes(b"old\n")
    path.chmod(0o644)
    write_atomic(path, b"new\n", mode=0o600)
    assert mode_of(path) == oct(0o600)


@pytest.mark.parametrize("stage", ["writing", "syncing", "renaming"])
def test_a_failed_write_leaves_the_old_file_and_nothing_beside_it(tmp_path, monkeypatch, stage):
    path = tmp_path / "game.yaml"
    path.write_bytes(b"old: 1\n")

    def fail(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    if stage == "syncing":
        monkeypatch.setattr(os, "fsync", fail)
    elif stage == "renaming":
        monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError) as caught:
        with replacing(path) as tmp:
            tmp.write_bytes(b"new: ")
            if stage == "writing":
                fail()
            tmp.write_bytes(b"new: 2\n")
    assert caught.value.filename == str(path)  # the file the user knows, not the temporary one
    assert path.read_bytes() == b"old: 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.yaml"]


def test_an_exception_in_the_block_leaves_the_old_file_and_nothing_beside_it(tmp_path):
    path = tmp_path / "p.png"
    path.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt):
        with replacing(path) as tmp:
            tmp.write_bytes(b"half")
            raise KeyboardInterrupt
    assert path.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["p.png"]


def test_two_writers_of_one_file_each_get_a_temporary_file_of_their_own(tmp_path):
    path = tmp_path / "preview.png"
    with replacing(path) as first:
        first.write_bytes(b"first, written slowly")
        with replacing(path) as second:
            assert second != first and second.parent == first.parent == tmp_path
            second.write_bytes(b"second")
        assert path.read_bytes() == b"second" and first.read_bytes() == b"first, written slowly"
    assert path.read_bytes() == b"first, written slowly"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["preview.png"]


def test_two_previews_written_to_one_file_at_once_do_not_collide(game_copy, cli, tmp_path, monkeypatch):
    """A second ``cardgen preview`` of the same file, run while the first has written
    its image but not yet renamed it into place, leaves the first to finish (both once
    wrote a fixed ``.p.png.tmp``, which the second renamed away under the first)."""
    from cardgen import export

    target = tmp_path / "shared" / "p.png"
    game = game_copy("mini_game")
    original = export._save
    inner: list = []

    def save(image, path, **options):
        original(image, path, **options)
        if not inner:  # the first preview, between its write and its rename: the second one runs
            inner.append("running")
            inner.append(cli("preview", game, "--lang", "fr", "--out", target))

    monkeypatch.setattr(export, "_save", save)
    result = cli("preview", game, "--lang", "en", "--out", target)
    assert inner[1].exit_code == 0, inner[1].output
    assert result.exit_code == 0, result.output
    assert Image.open(target).format == "PNG"
    assert sorted(p.name for p in target.parent.iterdir()) == ["p.png"]


def test_i18n_import_on_a_full_disk_names_the_file_and_leaves_it_whole(game_copy, cli, tmp_path, monkeypatch):
    from cardgen.i18n.catalog import load_for_translators
    from cardgen.i18n.exchange import export_catalogue

    root = game_copy("i18n_game")
    locale = root / "locales" / "fr.yaml"
    before = locale.read_bytes()
    po = tmp_path / "fr.po"
    data = export_catalogue(load_for_translators(root), "fr", "po")
    assert b'msgstr "Cartes"' in data
    po.write_bytes(data.replace(b'msgstr "Cartes"', b'msgstr "Paquet"'))

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    (line,) = assert_user_error(cli("i18n", "import", root, po))
    assert "fr.yaml" in line and "No space left on device" in line, line
    assert locale.read_bytes() == before
    assert sorted(p.name for p in locale.parent.iterdir()) == ["de.yaml", "en.yaml", "fr.yaml"]
