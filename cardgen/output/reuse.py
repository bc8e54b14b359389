"""Files of the previous kit taken as they are when nothing that decides them changed.

A rebuild after editing one English string draws the English files again; the files
of the other languages would come out byte for byte as the kit holds them. Each file
gets a key made of everything that decides its bytes: the versions of cardgen's
drawing code, ReportLab and zlib, the build's options, the language's strings, the
palette, the font and asset files (by path, size and modification time), the game's
components and the imposition of the file, and every face of its language
(their text is their identity). The face cache (render/facestore.py) keeps, per key,
the SHA-256 of the file written and its manifest entry; a later build whose key is
the same takes the kit's file, after checking its SHA-256, instead of drawing it.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..model.manifest import FileEntry
from ..render.facestore import FaceStore

MAX_FILE = 512 * 2**20  # a kit file larger than this is drawn, not read back


def _code_digest() -> str:
    """The source of the packages that draw a file: output, impose and layout."""
    import reportlab

    code = hashlib.sha256(f"reportlab {reportlab.Version}\0zlib {zlib.ZLIB_RUNTIME_VERSION}".encode())
    root = Path(__file__).resolve().parent.parent
    for package in ("output", "impose", "layout"):
        for path in sorted((root / package).glob("*.py")):
            code.update(f"{package}/{path.name}\0".encode() + path.read_bytes())
    return code.hexdigest()


def files_stamp(folders: Iterable[Path | None]) -> list[list[Any]]:
    """Each file under ``folders`` (fonts, assets) by its path, size and modification time."""
    out: list[list[Any]] = []
    for folder in folders:
        if folder is None or not folder.is_dir():
            continue
        for dirpath, _, names in os.walk(folder):
            for name in sorted(names):
                path = Path(dirpath, name)
                try:
                    info = path.stat()
                except OSError:
                    continue
                out.append([str(path), info.st_size, info.st_mtime_ns])
    return sorted(out)


class FileReuse:
    """Looks up and records the kit's files of one language by their key."""

    def __init__(self, store: FaceStore, kit_dir: Path, base: list[Any]):
        self.store = store
        self.kit_dir = kit_dir
        text = json.dumps(["files", store.versions, _code_digest(), base], ensure_ascii=False, default=repr)
        self.base = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def key(self, name: str, what: Any) -> str:
        text = json.dumps([self.base, name, repr(what)], ensure_ascii=False)
        return hashlib.sha256(("file\0" + text).encode("utf-8", "surrogatepass")).hexdigest()

    def take(self, key: str, name: str, tmp: Path) -> tuple[FileEntry, int] | None:
        """The kit's file ``name`` copied into ``tmp`` when it is the one ``key`` gave."""
        payload = self.store.read(key)
        if payload is None or payload.get("name") != name or not isinstance(payload.get("sha256"), str):
            return None
        try:
            entry = FileEntry.from_dict(payload.get("entry"), name)
            pages = int(payload.get("pages"))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - any malformed entry is a miss
            return None
        path = self.kit_dir / name
        try:
            if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_FILE:
                return None
            data = path.read_bytes()
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != payload["sha256"] or entry.file != name:
            return None
        try:
            (tmp / name).write_bytes(data)
        except OSError:
            return None
        return entry, pages

    def remember(self, key: str, name: str, tmp: Path, entry: FileEntry, pages: int) -> None:
        try:
            digest = hashlib.sha256((tmp / name).read_bytes()).hexdigest()
        except OSError:
            return
        self.store.put(key, {"name": name, "sha256": digest, "entry": entry.to_dict(), "pages": pages})
