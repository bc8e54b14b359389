"""The preflight of a kit's print-shop files (``cardgen.output.preflight``), each finding
named by its file, page and the face the manifest says that page prints: what ``cardgen
validate --kit`` reports and ``cardgen build`` prints after writing a kit."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..model.manifest import FileEntry, Manifest
from ..output.preflight import preflight


@dataclass
class KitPreflight:
    files: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def face_of(entry: FileEntry, page: int) -> str:
    """What a page of a print-shop file prints, as its manifest says ("anubis front")."""
    if 1 <= page <= len(entry.pages):
        record = entry.pages[page - 1]
        card = record.items[0].card if record.items else record.component
        return f"{card} {record.side}"
    return "?"


def preflight_kit(folder: Path, manifest: Manifest) -> KitPreflight:
    """Every print-shop file of the kit that is on disk, read as a shop's preflight would."""
    out = KitPreflight()
    for entry in manifest.files:
        path = folder / entry.file
        if entry.kind != "printshop" or not path.is_file():
            continue
        out.files += 1
        for finding in preflight(path).findings:
            line = f"{entry.file}: page {finding.page} ({face_of(entry, finding.page)}): {finding.text}"
            (out.problems if finding.problem else out.warnings).append(line)
    return out
