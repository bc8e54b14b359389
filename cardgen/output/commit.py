"""A kit that is always whole: staging, the lock, and the one-step swap.

A build writes its files into a staging folder beside the kit,
``OUT/.<game>-building-XXXX/kit/``. When every language is written it takes the
kit's lock (``OUT/.<game>.lock``, there only while a build holds it), links into the staging folder the files of the
current kit that this build does not replace (other languages and papers, exports,
files of the user's own), writes the manifest there, and swaps the staging folder
with ``OUT/<game>`` in one step (:mod:`cardgen.output.swap`). A build killed at any
instant therefore leaves the old kit or the new one, never a mix; two builds into one
folder render side by side but commit one after the other, each keeping the other's
files.

Each staging folder holds a lock of its own, ``.alive``, for as long as its build
runs: a later build removes the staging folders nobody holds (killed builds'
leftovers) and leaves running builds' alone.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..base.errors import CardgenError, Stopped, Where, display_path
from ..base.files import naming
from ..impose.printshop import mode_of
from ..model.manifest import FileEntry, Manifest
from .locks import FileLock, is_abandoned
from .swap import make_current, previous_kit, recover_previous

MANIFEST = "manifest.json"


def reached(step: str) -> None:
    """Called as the build reaches each step of writing the kit. It does nothing; the
    fault-injection tests replace it to stop the process at a chosen step."""


@dataclass(frozen=True)
class Committed:
    """What the commit kept of the old kit and what it dropped."""

    carried: tuple[FileEntry, ...]  # the old kit's listed files this build did not replace
    removed: tuple[str, ...]  # old files left out (built with other variants)
    replaced: tuple[str, ...] = ()  # old print-shop files this build's print-shop files replace


@contextmanager
def kit_lock(out_dir: Path, game_id: str) -> Iterator[None]:
    """Hold the lock of the kit ``OUT/<game>`` for a block (an export into the kit)."""
    lock = FileLock(out_dir / f".{game_id}.lock", remove=True)
    lock.acquire()
    try:
        yield
    finally:
        lock.release()


class KitFolder:
    """The kit folder ``OUT/<game>`` and the staging folder a build writes into.

    Use as a context manager: entering makes the staging folder (after removing the
    leftovers of killed builds), :meth:`commit` makes the new kit current, leaving
    removes the staging folder and whatever it still holds."""

    def __init__(self, out_dir: Path, game_id: str, progress: Callable[[str], None] = lambda msg: None):
        self.game_id = game_id
        self.final = out_dir / game_id
        if self.final.is_symlink():  # a kit folder linked elsewhere: the swap happens where it leads
            self.final = self.final.resolve()
        self.out_dir = self.final.parent  # staging beside the kit: one file system, so the swap is one step
        self.progress = progress
        self.lock = FileLock(self.out_dir / f".{game_id}.lock", remove=True)
        self.staging: Path | None = None
        self.alive: FileLock | None = None
        self.moved_aside = False  # the fallback swap's first rename done (the old kit aside)
        self.swapped = False

    @property
    def new_kit(self) -> Path:
        """Where this build writes its files."""
        assert self.staging is not None, "the kit folder is not open"
        return self.staging / "kit"

    # -- opening and closing -------------------------------------------------
    def __enter__(self) -> KitFolder:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(self.final) and not self.final.is_dir():
            raise FileExistsError(errno.EEXIST, "File exists", str(self.final))
        with self._locked():
            self._tidy()
            self.staging = Path(tempfile.mkdtemp(prefix=f".{self.game_id}-building-", dir=self.out_dir))
            self.alive = FileLock(self.staging / ".alive")
            self.alive.acquire(wait=False)
            self.new_kit.mkdir()
        try:
            reached("staging ready")
        except BaseException as exc:
            self.__exit__(type(exc), exc, None)
            raise
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if isinstance(exc, Stopped):
            exc.kit = display_path(self.final)
            exc.kit_changed = self.swapped
        if self.moved_aside and not self.swapped:
            recover_previous(self.final)  # stopped between the fallback's two renames
        elif self.moved_aside:
            shutil.rmtree(previous_kit(self.final), ignore_errors=True)  # stopped before the old kit went
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        if self.alive is not None:
            self.alive.release()
            self.alive = None

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """The kit's lock, held for the block; a build that must wait says so."""
        self.lock.acquire(on_wait=lambda: self.progress(
            f"waiting for another cardgen writing {display_path(self.final)}"))
        try:
            yield
        finally:
            self.lock.release()

    def _tidy(self) -> None:
        """Put back a kit left aside by a swap cut short; remove what killed builds left."""
        if recover_previous(self.final):
            self.progress(f"put back {display_path(self.final)} (a build was stopped while moving it)")
        aside = previous_kit(self.final)
        if aside.exists():
            shutil.rmtree(aside, ignore_errors=True)
        for leftover in sorted(self.out_dir.glob(f".{self.game_id}-building-*")):
            if leftover.is_dir() and not leftover.is_symlink() and is_abandoned(leftover / ".alive"):
                shutil.rmtree(leftover, ignore_errors=True)
                self.progress(f"removed {leftover.name} (left by a build that was stopped)")

    # -- the commit ------------------------------------------------------------
    def commit(self, entries: list[FileEntry], variants: tuple[str, ...],
               manifest_for: Callable[[tuple[FileEntry, ...]], Manifest]) -> Committed:
        """Make the files written into :attr:`new_kit` (listed by ``entries``) the kit,
        keeping the old kit's other files; ``manifest_for`` makes the manifest from
        every entry the new kit lists."""
        reached("files written")
        with self._locked():
            reached("locked")
            carried, removed, replaced = self._carry_over(entries, variants)
            reached("carried")
            doc = manifest_for(tuple(sorted([*carried, *entries], key=lambda e: e.file)))
            with naming(self.new_kit / MANIFEST):
                (self.new_kit / MANIFEST).write_text(doc.to_json(), encoding="utf-8")
            reached("manifest written")
            old = make_current(self.new_kit, self.final, self._step)
            if old is not None and old != self.new_kit:
                shutil.rmtree(old, ignore_errors=True)
        reached("done")
        return Committed(tuple(carried), tuple(removed), tuple(replaced))

    def _step(self, name: str) -> None:
        self.moved_aside |= name == "old kit aside"
        self.swapped |= name == "swapped"
        reached(name)

    def _carry_over(self, entries: list[FileEntry],
                    variants: tuple[str, ...]) -> tuple[list[FileEntry], list[str], list[str]]:
        """Link the current kit's files this build does not replace into the new kit.
        Returns the manifest entries carried over, the names dropped (other variants)
        and the old print-shop files replaced under other names."""
        new_names = {e.file for e in entries}
        if not self.final.is_dir():
            return [], [], []
        old_entries: list[FileEntry] = []
        drop: set[str] = set()
        replaced: set[str] = set()
        path = self.final / MANIFEST
        if path.is_file():
            try:
                old = Manifest.from_json(path.read_text(encoding="utf-8"), Where(display_path(path)))
            except (OSError, ValueError, CardgenError):  # unreadable: the new manifest lists this build only
                old = None
            if old is not None:
                if tuple(sorted(old.variants)) != tuple(sorted(variants)):
                    drop = {e.file for e in old.files}  # files of another deck never stay beside this one
                else:
                    replaced = _superseded(old.files, entries) - new_names
                    old_entries = [e for e in old.files if e.file not in new_names and e.file not in replaced
                                   and (self.final / e.file).is_file()]
        for here, dirs, files in os.walk(self.final, followlinks=False):
            rel = Path(here).relative_to(self.final)
            (self.new_kit / rel).mkdir(exist_ok=True)
            for name in files:
                top = rel == Path(".")
                if name.startswith(".") or (top and (name in new_names or name in drop or name in replaced
                                                     or name == MANIFEST)):
                    continue  # hidden: a killed export's staging, editor and desktop files
                _link_or_copy(Path(here) / name, self.new_kit / rel / name)
            for name in dirs:
                if (Path(here) / name).is_symlink() and not name.startswith("."):
                    _link_or_copy(Path(here) / name, self.new_kit / rel / name)
            dirs[:] = [d for d in dirs if not d.startswith(".") and not (Path(here) / d).is_symlink()]
        removed = sorted(n for n in drop if n not in new_names and (self.final / n).is_file())
        return old_entries, removed, sorted(n for n in replaced if (self.final / n).is_file())


def _superseded(old: tuple[FileEntry, ...], new: list[FileEntry]) -> set[str]:
    """The old kit's print-shop files that this build's print-shop files of the same
    language and mode (ink-saver, proof) replace, whatever they were called: the set is
    split by trim size, so a change of sizes renames files, and an older cardgen wrote
    one file for all."""
    rewritten = {(e.lang, mode_of(e.file)) for e in new if e.kind == "printshop"}
    return {e.file for e in old if e.kind == "printshop" and (e.lang, mode_of(e.file)) in rewritten}


def _link_or_copy(src: Path, dst: Path) -> None:
    """``dst`` as another name of ``src`` (a hard link, a copy where links are refused;
    a symbolic link is copied as a link)."""
    if src.is_symlink():
        os.symlink(os.readlink(src), dst)
        return
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)
