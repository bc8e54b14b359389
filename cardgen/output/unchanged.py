"""A build whose every input equals the one that left the kit as it is stops there.

With the face cache, a build that said nothing (no warning) records, under a key made
of everything that decides the kit (the inputs fingerprint: the game and template
folders, cardgen's version and the variants; the build's options and output folder;
the source of cardgen and the versions of the libraries that render and draw; the
shipped fonts), the SHA-256 of the kit's manifest and of each of its files. A later
build with the same key whose kit still holds those very bytes has nothing to do.

:func:`kit_left_unchanged` decides that from the loaded game alone, before a font is
read, a template compiled or the renderer and ReportLab imported: a rebuild with
nothing changed costs the game's loading and one fingerprint.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..base.paths import shipped_fonts_dir
from ..impose.papers import PAPERS_MM
from ..model.build import PDFX_STANDARDS, BuildOptions, Built, WrittenFile
from ..model.game import Game
from ..render.facestore import FaceStore, open_store
from .reuse import files_stamp

__all__ = ["UnchangedKit", "cardgen_digest", "kit_left_unchanged"]


class UnchangedKit:
    """The record of the kit a build with the key ``key`` left in ``kit_dir``."""

    def __init__(self, store: FaceStore, key: str, kit_dir: Path):
        self.store = store
        self.key = key
        self.kit_dir = kit_dir

    @classmethod
    def of(cls, store: FaceStore | None, game: Game, options: BuildOptions, langs: tuple[str, ...],
           inputs: str) -> UnchangedKit | None:
        """The record's place for a build of ``langs`` of ``game`` with ``options`` (None
        without the face cache)."""
        if store is None:
            return None
        options = replace(options, out_dir=options.out_dir.resolve(), jobs=0, langs=tuple(langs))
        text = json.dumps(["kit", store.versions, cardgen_digest(), inputs, repr(options),
                           files_stamp([shipped_fonts_dir()])], ensure_ascii=False, default=repr)
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        return cls(store, key, options.out_dir / game.id)

    def _digests(self, names: list[str]) -> dict[str, str] | None:
        out = {}
        for name in names:
            path = self.kit_dir / name
            try:
                if path.is_symlink() or not path.is_file():
                    return None
                out[name] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                return None
        return out

    def kit_as_left(self) -> list[WrittenFile] | None:
        """The files the recorded build wrote, when the kit holds exactly what it left."""
        record = self.store.read(self.key)
        if record is None:
            return None
        files, written = record.get("files"), record.get("written")
        if not isinstance(files, dict) or not isinstance(written, list):
            return None
        if self._digests(sorted(files)) != files:
            return None
        try:
            return [WrittenFile(str(name), int(pages)) for name, pages in written]
        except (TypeError, ValueError):
            return None

    def remember(self, written: list[WrittenFile]) -> None:
        """Record the kit as this build left it."""
        from .commit import MANIFEST

        try:
            names = sorted(p.name for p in self.kit_dir.iterdir())
        except OSError:
            return
        files = self._digests(names)
        if files is not None and MANIFEST in files:
            self.store.put(self.key, {"files": files, "written": [[f.name, f.pages] for f in written]})


@functools.cache
def cardgen_digest() -> str:
    """The source of the whole cardgen package (a checkout between two releases), as
    this process imported it: read once a process."""
    code = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for path in sorted(root.rglob("*.py")):
        code.update(f"{path.relative_to(root).as_posix()}\0".encode() + path.read_bytes())
    return code.hexdigest()


def nothing_changed_note(count: int) -> str:
    return (f"note: nothing changed since the last build of this kit: its {count} file(s) are as that "
            "build left them")


def kit_left_unchanged(game: Game, options: BuildOptions, fingerprint: Callable[[], str],
                       progress: Callable[[str], None] | None = None) -> Built | None:
    """The kit as it is, when the build ``options`` ask for of ``game`` is the one that
    left it (said at ``progress``); None when there is anything to do, or anything to
    say first (a bad option, an unfinished language, a fallback note, a face cache not
    used): the whole build then says and does it. ``fingerprint()`` gives the game's
    inputs fingerprint (load/inputs.py), asked only when the rest allows a stop."""
    if not options.cache or options.pdfx not in PDFX_STANDARDS or any(p not in PAPERS_MM for p in options.papers):
        return None
    if tuple(sorted(options.variants)) != tuple(sorted(game.variants)):
        return None
    if any(not game.has_language(lang) for lang in options.langs):
        return None
    langs = tuple(options.langs or game.languages)
    if any(game.unfinished.get(lang) or game.fallbacks.get(lang) for lang in langs):
        return None
    store, problem = open_store()
    if store is None or problem is not None:
        return None
    unchanged = UnchangedKit.of(store, game, options, langs, fingerprint())
    kept = unchanged.kit_as_left() if unchanged is not None else None
    if kept is None:
        return None
    if progress is not None:
        progress(nothing_changed_note(len(kept)))
    return Built(options.out_dir / game.id, kept, [])
