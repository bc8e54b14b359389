"""The face cache: rendered faces kept between builds in the user's cache folder, so
that a rebuild after editing one card renders only that card's faces.

An entry is found by a key (render/memo.py) made of everything that decides a face's
rendering: cardgen's and Jinja's versions, the sources of every template the face
reaches, the values of the names it reads, its language and plural rules, and the
palette the colour filters read. It holds the rendered layout text, the locale
strings the rendering read with their values (an entry whose strings have changed
since is not used) and the document the text parses to, as JSON. The
template facts the keys are made of (render/memo.py) are kept too, by their source's
digest, so a rebuild need not compile a template whose faces are all cached.

An entry is data, never code, and is trusted no more than a template's output: it is
read only from a regular file of bounded size, its checksum and its own key must
match, its values must have the expected types, and what it holds is parsed and
checked (layout ops, text fit) exactly as a fresh rendering is. Anything else is a
miss, and the face is rendered. Only faces that rendered, parsed and checked without
a problem are stored, so every error is reported by a fresh rendering, at its place.

The same folder keeps, for output/reuse.py, what each kit file's inputs gave (its
SHA-256 and manifest entry), so that a file nothing of which changed is not drawn.

The folder must be the user's own and writable by no one else (as ssh asks of
``~/.ssh``): one owned by another user, or writable by its group or by everyone, is
refused with a warning and the build renders everything. Every entry is signed with
a secret of the user's, an HMAC-SHA256 key made at random on first use and kept in
the folder's ``key`` file (0600, refused unless the user's own and private): an entry
written by anyone without the key, its plain SHA-256 recomputed or not, is a miss.
cardgen makes the folder 0700 and its entries 0600; a folder others may read (one an
earlier cardgen made 0755) is used, since the key and entries stay private.

Writes go to a temporary file renamed into place, so concurrent builds never read a
half-written entry; the folder is kept under a size bound by removing the entries
used longest ago.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import importlib
import importlib.util
import json
import os
import re
import secrets
import stat
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..base.errors import CardgenWarning
from ..base.files import is_temporary, write_atomic
from .budget import MAX_OUTPUT

ENV_VAR = "CARDGEN_CACHE_DIR"
FORMAT = "cardgen-faces-2"  # the layout of an entry; another value is another cache
MAX_BYTES = 256 * 2**20  # the folder's bound; the entries used longest ago go first
MAX_ENTRY = 4 * MAX_OUTPUT + 2**20  # an entry's largest size: its text (UTF-8) and its document
_STALE_TMP = 3600.0  # seconds after which a temporary file is a killed build's leftover
KEY_FILE = "key"  # the user's secret the entries are signed with, in the cache folder
_KEY_HEX = 64  # the key: 32 random bytes, as hexadecimal text


class CacheRefused(Exception):
    """A cache folder or key file that is not the user's own and private: the build
    goes on without the cache (the message says why, in a few words)."""


def cache_dir() -> Path:
    """The face cache's folder: ``CARDGEN_CACHE_DIR`` if set, else the platform's user
    cache folder (``$XDG_CACHE_HOME/cardgen/faces``, default ``~/.cache/cardgen/faces``
    on Linux)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("cardgen", appauthor=False)) / "faces"


def _versions() -> str:
    """What decides every rendering beyond a face's own inputs: the versions of cardgen,
    Jinja, Babel (plural rules, number formats) and Python, and the source of this
    package (the sandbox, its filters, the contexts faces get), so that a checkout of
    cardgen between two releases never reads faces another one rendered."""
    from ..version import __version__

    code = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        code.update(path.name.encode() + b"\0" + path.read_bytes())
    jinja2, babel = _library_version("jinja2"), _library_version("babel")
    return f"{FORMAT}\0{__version__}\0jinja2 {jinja2}\0babel {babel}\0" \
           f"python {sys.version_info[0]}.{sys.version_info[1]}\0{code.hexdigest()}"


_VERSION_LINE = re.compile(r"""^__version__\s*=\s*["']([^"'\\]+)["']\s*$""", re.M)


def _library_version(name: str) -> str:
    """The ``__version__`` of the library ``name``, read from its package's source when
    it is not imported yet: a build with nothing to do (output/unchanged.py) then never
    imports Jinja or Babel. The module is imported when its source does not say it in
    one plain line."""
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.find_spec(name)
        try:
            found = _VERSION_LINE.search(Path(spec.origin).read_text(encoding="utf-8")) \
                if spec is not None and spec.origin else None
        except (OSError, UnicodeDecodeError):
            found = None
        if found is not None:
            return found.group(1)
        module = importlib.import_module(name)
    return str(module.__version__)


def is_plain(doc: Any) -> bool:
    """Whether ``doc`` comes back from JSON as itself: mappings with text keys, lists,
    text, whole numbers of at most 4,000 digits, finite floats, booleans and None."""
    stack = [doc]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            if not all(type(k) is str for k in value):
                return False
            stack.extend(value.values())
        elif kind is list:
            stack.extend(value)
        elif kind is int:
            if value.bit_length() > 13_000:  # beyond Python's 4,300 digits for int <-> text
                return False
        elif kind is float:
            if value != value or value in (float("inf"), float("-inf")):
                return False
        elif not (value is None or kind is str or kind is bool):
            return False
    return True


def current_uid() -> int | None:
    """The user's id, None where the system has none (on Windows the user's cache folder
    is private by its access list, which file modes do not show)."""
    getuid = getattr(os, "getuid", None)
    return getuid() if getuid is not None else None


def folder_problem(info: os.stat_result) -> str | None:
    """Why a cache folder with this status may not be trusted, None when it is the
    user's own and no one else may write to it."""
    uid = current_uid()
    if uid is None:
        return None
    if info.st_uid != uid:
        return f"it belongs to another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others may write to it (chmod go-w it)"
    return None


def _key_problem(info: os.stat_result) -> str | None:
    """Why a key file with this status may not be trusted: it must be a regular file of
    the user's that no one else may read or write."""
    if not stat.S_ISREG(info.st_mode):
        return "its key file is not a regular file"
    uid = current_uid()
    if uid is None:
        return None
    if info.st_uid != uid:
        return f"its key file belongs to another user (uid {info.st_uid})"
    if info.st_mode & 0o077:
        return "its key file is not private (chmod 600 it)"
    return None


def _read_key(path: Path) -> bytes | None:
    """The key in ``path``; None when there is none or it is not a key (a crash cut it
    short); CacheRefused when the file is not the user's own and private."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise CacheRefused("its key file is a symbolic link") from None
        raise
    try:
        problem = _key_problem(os.fstat(fd))
        if problem:
            raise CacheRefused(problem)
        data = os.read(fd, _KEY_HEX + 1)
    finally:
        os.close(fd)
    text = data.decode("ascii", "replace")
    if len(text) != _KEY_HEX or any(c not in "0123456789abcdef" for c in text):
        return None
    return bytes.fromhex(text)


def _user_key(folder: Path) -> bytes:
    """The key the entries in ``folder`` are signed with, made on first use: written
    whole into a file of its own and linked into place, so that two builds starting at
    once agree on one key (the second takes the first's)."""
    path = folder / KEY_FILE
    key = _read_key(path)
    if key is not None:
        return key
    fd, tmp = tempfile.mkstemp(prefix=f".{KEY_FILE}.", suffix=".tmp", dir=folder)  # 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(_KEY_HEX // 2))
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:  # another build made it, or a crash left one cut short
            if _read_key(path) is None:
                os.replace(tmp, path)
        except OSError:  # a file system without hard links
            os.replace(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    key = _read_key(path)
    if key is None:
        raise OSError(errno.EIO, "the key file cannot be read back", str(path))
    return key


def _private_folder(folder: Path) -> None:
    """Make ``folder`` (0700) if it is missing, and refuse it unless it is the user's own
    and no one else may write to it."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.stat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(folder))
    problem = folder_problem(info)
    if problem:
        raise CacheRefused(problem)


def open_store(root: Path | None = None) -> tuple[FaceStore | None, CardgenWarning | None]:
    """The store in ``root`` (default: :func:`cache_dir`) and None, or None and the
    warning that says why the cache is not used. A folder that cannot be made or
    written only makes the build render everything, and says nothing."""
    folder = root if root is not None else cache_dir()
    try:
        return FaceStore(folder), None
    except CacheRefused as exc:
        return None, CardgenWarning(f"the face cache {folder} is not used: {exc}; every face is rendered")
    except OSError:
        return None, None


class FaceStore:
    """The face cache in ``root``; every failure to read or write an entry is a miss.
    Raises CacheRefused for a folder or key that is not the user's own and private,
    OSError for one that cannot be made."""

    def __init__(self, root: Path, max_bytes: int = MAX_BYTES):
        self.root = Path(root)
        self.max_bytes = max_bytes
        _private_folder(self.root)
        self._key = _user_key(self.root)
        self.versions = _versions()
        self.wrote = 0  # entries written by this process

    def _sign(self, data: bytes) -> bytes:
        return hmac.new(self._key, data, hashlib.sha256).hexdigest().encode("ascii")

    def _encode(self, payload: dict[str, Any]) -> bytes:
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        data = body.encode("utf-8", "surrogatepass")
        return self._sign(data) + b"\n" + data

    # -- keys ------------------------------------------------------------------
    def face_key(self, memo_key: str, palette: Iterable[tuple[str, str]]) -> str:
        """A face's entry key: its memo key (render/memo.py) with what decides a
        rendering beyond it (the versions, the palette the colour filters read)."""
        text = json.dumps(["face", self.versions, memo_key, sorted(palette)], ensure_ascii=False)
        return self._sign(text.encode("utf-8", "surrogatepass")).decode("ascii")

    def facts_key(self, source_digest: str) -> str:
        """The entry key of a template's facts, from its source's digest."""
        return self._sign(f"facts\0{self.versions}\0{source_digest}".encode()).decode("ascii")

    def _path(self, key: str, suffix: str = ".json") -> Path:
        return self.root / key[:2] / f"{key}{suffix}"

    # -- reading ---------------------------------------------------------------
    def read(self, key: str) -> dict[str, Any] | None:
        """The entry ``key``'s payload, None when it is absent or not a sound entry."""
        body = self.read_signed(key)
        if body is None:
            return None
        try:
            payload = json.loads(body.decode("utf-8", "surrogatepass"))
        except (ValueError, RecursionError, MemoryError):
            return None
        if not isinstance(payload, dict) or payload.get("key") != key:
            return None
        return payload

    def read_signed(self, key: str, suffix: str = ".json", limit: int = MAX_ENTRY) -> bytes | None:
        """The bytes stored under ``key`` when their signature is the user's (marked used
        now), None when they are absent, larger than ``limit`` or not signed with the key."""
        path = self._path(key, suffix)
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(path, flags)
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                return None
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(limit + 1)
        except OSError:
            return None
        finally:
            os.close(fd)
        head, _, body = data.partition(b"\n")
        if len(data) > limit or not hmac.compare_digest(self._sign(body), head):
            return None  # damaged, or written by someone without the user's key
        try:  # used now: the last to be evicted (the time is only a hint: a failure changes nothing)
            os.utime(path, None)
        except OSError:
            pass
        return body

    def face(self, key: str) -> tuple[str, tuple[tuple[str, str | None], ...], Any] | None:
        """A face's (text, the locale strings it read with their values then, document
        or None) from the cache."""
        payload = self.read(key)
        if payload is None:
            return None
        text, reads, doc = payload.get("text"), payload.get("reads"), payload.get("doc")
        if not (isinstance(text, str) and len(text) <= MAX_OUTPUT and isinstance(reads, list)
                and all(isinstance(r, list) and len(r) == 2 and isinstance(r[0], str)
                        and (r[1] is None or isinstance(r[1], str)) for r in reads)):
            return None
        if doc is not None and not isinstance(doc, (dict, list)):
            return None
        return text, tuple((k, v) for k, v in reads), doc

    def facts(self, source_digest: str) -> dict[str, Any] | None:
        """A template's facts (the fields of memo.TemplateFacts as JSON) from the cache."""
        key = self.facts_key(source_digest)
        payload = self.read(key)
        if payload is None or payload.get("digest") != source_digest:
            return None
        return payload

    # -- writing ---------------------------------------------------------------
    def put_face(self, key: str, text: str, reads: tuple[tuple[str, str | None], ...], doc: Any) -> None:
        """Store a face that rendered, parsed and checked without a problem (its
        document only when JSON gives it back as it is)."""
        payload = {"key": key, "text": text, "reads": [list(r) for r in reads], "doc": doc if is_plain(doc) else None}
        try:
            data = self._encode(payload)
        except (ValueError, RecursionError):  # nested too deep for JSON: the text alone
            payload["doc"] = None
            data = self._encode(payload)
        if len(data) <= MAX_ENTRY:
            self._write(key, data)

    def put(self, key: str, payload: dict[str, Any]) -> None:
        """Store any JSON ``payload`` under ``key`` (output/reuse.py keeps kit files' records)."""
        self._write(key, self._encode({**payload, "key": key}))

    def put_facts(self, source_digest: str, facts: dict[str, Any]) -> None:
        key = self.facts_key(source_digest)
        self._write(key, self._encode({"key": key, **facts, "digest": source_digest}))

    def put_signed(self, key: str, body: bytes, suffix: str = ".json") -> None:
        """Store ``body`` under ``key``, signed with the user's key (read_signed reads it)."""
        self._write(key, self._sign(body) + b"\n" + body, suffix)

    def _write(self, key: str, data: bytes, suffix: str = ".json") -> None:
        path = self._path(key, suffix)
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # whole or not at all, for a concurrent reader; not synced to disk: an entry
            # a crash cut short fails its check and is a miss
            write_atomic(path, data, mode=0o600, sync=False)
            self.wrote += 1
        except OSError:
            pass

    # -- the size bound ----------------------------------------------------------
    def evict(self) -> int:
        """Remove the entries used longest ago until the folder is within its bound, and
        temporary files a killed build left; returns how many files were removed."""
        entries: list[tuple[float, int, str]] = []
        removed = 0
        now = time.time()
        try:
            top = list(os.scandir(self.root))
        except OSError:
            return 0
        shards = [e.path for e in top if len(e.name) == 2 and e.is_dir(follow_symlinks=False)]
        for entry in top:  # a key file a killed build was making
            if is_temporary(entry.name):
                try:
                    if now - entry.stat(follow_symlinks=False).st_mtime > _STALE_TMP:
                        removed += _remove(entry.path)
                except OSError:
                    pass
        for shard in shards:
            try:
                files = list(os.scandir(shard))
            except OSError:
                continue
            for entry in files:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if is_temporary(entry.name):
                    if now - info.st_mtime > _STALE_TMP:
                        removed += _remove(entry.path)
                    continue
                entries.append((info.st_mtime, info.st_size, entry.path))
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return removed
        entries.sort()
        for _, size, path in entries:
            if total <= self.max_bytes:
                break
            removed += _remove(path)
            total -= size
        return removed


def _remove(path: str) -> int:
    try:
        os.unlink(path)
        return 1
    except OSError:
        return 0
