"""Per-user and per-project settings: ``key = value`` lines, no extra dependency.

Two files are read, the later one winning key by key:

1. the user file, in the platform's usual place —
   ``$XDG_CONFIG_HOME/cardgen/config`` (default ``~/.config/cardgen/config``) on Linux
   and BSD, ``~/Library/Application Support/cardgen/config`` on macOS,
   ``%APPDATA%\\cardgen\\config`` on Windows; the ``CARDGEN_CONFIG`` environment
   variable names another file instead;
2. the project file, ``cardgen.cfg`` in the current folder.

The format is meant to be edited by hand::

    # cardgen settings
    back-offset = 0.5,-1.0   # mm the back pages move: X to the right, Y down
    paper = a4
    duplex = long

One setting per line, ``#`` starts a comment, blank lines are ignored, values may be
quoted (``paper = "a4"``) for people used to TOML. A mistake is reported as
``path:line: what is wrong``, every mistake of both files at once.
"""

from __future__ import annotations

import math
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .base.errors import CardgenError, Collector, Where, display_path, not_utf8
from .base.files import write_atomic
from .impose.papers import PAPERS_MM

PROJECT_FILE = "cardgen.cfg"
ENV_VAR = "CARDGEN_CONFIG"
MAX_OFFSET_MM = 10.0
DUPLEX_MODES = ("long", "short")

KEYS: dict[str, str] = {
    "back-offset": "X,Y in mm: how far to move every back page (X to the right, Y down); e.g. 0.5,-1.0",
    "duplex": "long or short: how your printer flips the sheet",
    "paper": "a4 or letter",
}
"""Every setting cardgen knows, with a one-line description."""

_HEADER = (
    "# cardgen settings: one 'key = value' per line, '#' starts a comment.\n"
    "# Keys: back-offset (X,Y mm), paper (a4|letter), duplex (long|short).\n"
    "# Change them with 'cardgen config set KEY VALUE'; see 'cardgen config --help'.\n"
)

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-"})  # − as printed on the calibration sheet, – by autocorrect


@dataclass(frozen=True)
class Settings:
    """The settings in force; ``sources`` maps each key set by a file to that file's path."""

    back_offset: tuple[float, float] = (0.0, 0.0)
    paper: str | None = None
    duplex: str | None = None
    sources: dict[str, str] = field(default_factory=dict, compare=False)

    def source(self, key: str) -> str:
        """Where ``key`` comes from: a file path, or "default"."""
        return self.sources.get(key, "default")


# -- values -------------------------------------------------------------------------------


def parse_offset(text: str) -> tuple[float, float]:
    """``"0.5,-1"`` → ``(0.5, -1.0)``: two millimetre values, X then Y, each within ±10.

    The two numbers may be separated by a comma, spaces, or both; ``−`` (U+2212) counts
    as a minus sign so a value copied from the calibration sheet works.
    """
    raw = text
    text = text.translate(_MINUS).strip()
    parts = re.split(r"\s*,\s*|\s+", text) if text else []
    if len(parts) != 2 or not all(_NUMBER.fullmatch(p) for p in parts):
        raise CardgenError(f"back-offset must be two numbers in mm, X,Y (e.g. 0.5,-1.0), not {raw.strip()!r}")
    values = (float(parts[0]) + 0.0, float(parts[1]) + 0.0)  # + 0.0 turns -0.0 into 0.0
    for name, v in zip("XY", values):
        if not math.isfinite(v) or abs(v) > MAX_OFFSET_MM:
            raise CardgenError(
                f"back-offset {name} = {v:g} mm is out of range (at most {MAX_OFFSET_MM:g} mm either way; "
                "a printer that far off needs its paper guides checked)"
            )
    return values


def format_offset(offset: tuple[float, float]) -> str:
    """The way cardgen writes an offset back: ``0.5,-1``."""
    return ",".join(f"{v + 0.0:g}" for v in offset)


def _parse_value(key: str, text: str):
    """A checked, normalised value for ``key``; CardgenError (without a place) if bad."""
    if key == "back-offset":
        return parse_offset(text)
    value = text.strip().lower()
    allowed = sorted(PAPERS_MM) if key == "paper" else list(DUPLEX_MODES)
    if value not in allowed:
        raise CardgenError(f"{key} must be {' or '.join(allowed)}, not {text.strip()!r}")
    return value


def _format_value(key: str, value) -> str:
    return format_offset(value) if key == "back-offset" else str(value)


def normalise_value(key: str, value: str) -> str:
    """``value`` checked for ``key`` and written the way cardgen writes it (``"0.50, -1"`` → ``"0.5,-1"``);
    CardgenError if either is wrong."""
    k = _check_key(key)
    return _format_value(k, _parse_value(k, value))


def describe_value(settings: Settings, key: str) -> str:
    """A setting's value as ``cardgen config`` shows it: ``0.5,-1``, ``a4``, ``(not set)``."""
    value = getattr(settings, _check_key(key).replace("-", "_"))
    return "(not set)" if value is None else _format_value(key, value)


def _check_key(key: str) -> str:
    k = key.strip().lower()
    if k not in KEYS:
        raise CardgenError(f"unknown setting {key.strip()!r} (known: {', '.join(sorted(KEYS))})")
    return k


# -- files ---------------------------------------------------------------------------------


def user_config_path(platform: str | None = None) -> Path:
    """The user's settings file: ``CARDGEN_CONFIG`` if set, else the platform's usual place."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    platform = platform or sys.platform
    if platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "cardgen" / "config"
    if platform.startswith("win"):
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
        return base / "cardgen" / "config"
    xdg = os.environ.get("XDG_CONFIG_HOME")
    # The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".config"
    return base / "cardgen" / "config"


def project_config_path(cwd: Path | None = None) -> Path:
    """The project's settings file: ``cardgen.cfg`` in ``cwd`` (default: the current folder)."""
    return (Path(cwd) if cwd is not None else Path.cwd()) / PROJECT_FILE


def config_paths(cwd: Path | None = None) -> list[Path]:
    """The files consulted, in the order they are applied (later wins)."""
    return [user_config_path(), project_config_path(cwd)]


MAX_SETTINGS_BYTES = 64 * 1024  # a settings file is a few lines; CARDGEN_CONFIG=/dev/zero is not


def _read_text(path: Path) -> str | None:
    """A settings file's text, None if it does not exist; CardgenError if unreadable
    or larger than MAX_SETTINGS_BYTES (read only that far: a device never ends)."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CardgenError("is a folder, not a settings file", Where(display_path(path))) from None
    except OSError as e:
        raise CardgenError(f"cannot be read: {e.strerror or e}", Where(display_path(path))) from None
    if len(data) > MAX_SETTINGS_BYTES:
        raise CardgenError(f"is larger than {MAX_SETTINGS_BYTES // 1024} KiB: not a settings file",
                           Where(display_path(path)))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise not_utf8(e, display_path(path)) from None


def _split_line(line: str) -> tuple[str, str] | None:
    """``(key, raw value)`` of a settings line, None for blank/comment lines.

    Raises CardgenError (without a place) for a line that is not ``key = value``."""
    body = line.split("#", 1)[0].strip()
    if not body:
        return None
    if "=" not in body:
        raise CardgenError(f"expected 'key = value', got {body!r}")
    key, value = (s.strip() for s in body.split("=", 1))
    if not key:
        raise CardgenError(f"missing key before '=' in {body!r}")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1].strip()
    if not value:
        raise CardgenError(f"no value for {key!r}")
    return key, value


def _parse_file(path: Path, errors: Collector) -> dict[str, object]:
    """The settings one file sets (checked); problems go to ``errors`` with path:line."""
    try:
        text = _read_text(path)
    except CardgenError as e:
        errors.extend(e)
        return {}
    if text is None:
        return {}
    shown = display_path(path)
    values: dict[str, object] = {}
    first_line: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        where = Where(shown, n)
        try:
            item = _split_line(line)
            if item is None:
                continue
            key = _check_key(item[0])
            if key in first_line:
                raise CardgenError(f"{key} is set twice (first on line {first_line[key]})")
            first_line[key] = n
            values[key] = _parse_value(key, item[1])
        except CardgenError as e:
            errors.add(e.message, where)
    return values


def load_settings(cwd: Path | None = None) -> Settings:
    """The settings in force in ``cwd``: defaults, then the user file, then ``cwd/cardgen.cfg``.

    Raises CardgenError (an ErrorList when there are several) naming path:line of every
    mistake in either file.
    """
    errors = Collector()
    merged: dict[str, object] = {}
    sources: dict[str, str] = {}
    for path in config_paths(cwd):
        for key, value in _parse_file(path, errors).items():
            merged[key] = value
            sources[key] = str(path)
    errors.raise_if_any()
    return Settings(
        back_offset=merged.get("back-offset", (0.0, 0.0)),  # type: ignore[arg-type]
        paper=merged.get("paper"),  # type: ignore[arg-type]
        duplex=merged.get("duplex"),  # type: ignore[arg-type]
        sources=sources,
    )


def set_value(key: str, value: str, project: bool = False, *, cwd: Path | None = None) -> Path:
    """Check ``value`` for ``key`` and write it into the user file (or the project file).

    The file keeps its comments and other lines; the key's line is replaced in place (or
    appended). The write is atomic (a temporary file in the same folder, then a rename),
    and a symlinked file (dotfile managers) is written through the link. Returns the
    path written.
    """
    k = _check_key(key)
    text = normalise_value(k, value)
    path = project_config_path(cwd) if project else user_config_path()
    target = path.resolve() if path.is_symlink() else path
    old = _read_text(target)
    lines = (old if old is not None else _HEADER).splitlines()
    out: list[str] = []
    done = False
    for line in lines:
        try:
            item = _split_line(line)
            same = item is not None and item[0].strip().lower() == k
        except CardgenError:
            same = False  # a broken line about something else: keep it for the user to fix
        if same:
            if done:
                continue  # drop a duplicate of the key we are setting
            comment = line.split("#", 1)[1] if "#" in line else None
            line = f"{k} = {text}" + (f"   #{comment}" if comment is not None else "")
            done = True
        out.append(line)
    if not done:
        out.append(f"{k} = {text}")
    _write_atomic(target, "\n".join(out) + "\n")
    return path


def _write_atomic(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode("utf-8"))
    except OSError as e:
        raise CardgenError(f"cannot be written: {e.strerror or e}", Where(display_path(path))) from None
