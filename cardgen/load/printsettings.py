"""game.yaml's ``print:`` section: the game's output profile, ink limit and shop.

The profile is a file of the game folder, which is untrusted data: its name may not
climb out (``..``, an absolute path), a link may not lead out, and it is held to a size
before anything reads it. Whether it is a CMYK output profile, and whether the shop
exists, is checked where the print-shop files are made (``cardgen.output.printchoice``),
which names this file's line.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from ..base.errors import CardgenError, Collector
from ..model.printing import PrintSettings
from .gameschema import MAX_ICC_BYTES, PRINT
from .readroots import inside
from .schema import read_section
from .yamlsrc import YDict


def read_print(root: Path, section: YDict, errors: Collector) -> PrintSettings:
    """The checked ``print:`` mapping (its type already checked) of the game in ``root``."""
    keys = read_section(section, PRINT, "print", errors)
    where = {k: section.at(k) for k in keys.given}
    profile = None
    if "profile" in keys.given:
        profile = _profile_path(root, keys["profile"], section, errors)
    return PrintSettings(profile=profile, ink_limit=keys["ink_limit"], shop=keys["shop"], where=where)


def _profile_path(root: Path, name: str, section: YDict, errors: Collector) -> Path | None:
    where = section.at("profile")
    plain = PurePosixPath(name)
    if not name or plain.is_absolute() or Path(name).is_absolute() or ".." in plain.parts or "\\" in name:
        errors.add(f"'profile' in print must be an .icc file inside the game folder, found {name!r}", where)
        return None
    try:
        path = inside(root / name, (root,))
        size = path.stat().st_size
    except CardgenError as exc:
        errors.add(f"'profile' in print: {name!r} {exc.message}", where)
        return None
    except OSError as exc:
        errors.add(f"'profile' in print: {name!r} cannot be read: {exc.strerror or exc}", where)
        return None
    if not path.is_file():
        errors.add(f"'profile' in print: {name!r} is not a file", where)
        return None
    if size > MAX_ICC_BYTES:
        errors.add(f"'profile' in print: {name!r} is larger than {MAX_ICC_BYTES >> 20} MiB: not an output profile",
                   where)
        return None
    return path
