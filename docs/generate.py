"""Every generated part of the documentation, rewritten or checked by one command::

    python docs/generate.py --write     # rewrite what is stale
    python docs/generate.py --check     # exit 1, naming each stale page

A page marks what is generated, and the generated text is committed between the marks,
so the page reads whole on GitHub and the site shows the same text:

- ``<!-- generated: WHAT -->`` … ``<!-- end generated -->``: the layout op reference
  (``layout ops``), the command-line reference (``command line``), the stages' diagram and
  table (``stages diagram``, ``stages table``), and game.yaml's key tables
  (``game.yaml keys: SECTION``, rendered by ``cardgen.load.gamedoc``);
- ``<!-- include: FILE[:SECTION] … -->`` on the line before a fenced block and
  ``<!-- end include -->`` on the line after it: the block's body is the file, or the
  lines between its ``--8<-- [start:SECTION]`` and ``--8<-- [end:SECTION]`` lines (marker
  lines left out), several joined in order; the example file stays the one source.

Pages are the Markdown files under ``docs/`` (not ``docs/examples/``), or those named.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

from cardgen.base.stages import STAGES, direct_imports, layers
from cardgen.cli import main as cardgen_command
from cardgen.cli.reference import reference_markdown as cli_reference
from cardgen.layout.reference import reference_markdown as layout_reference
from cardgen.load import gamedoc

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

GENERATED = re.compile(r"^(<!-- generated: (?P<name>[^>\n]+?) -->\n)(?P<body>.*?)^(<!-- end generated -->)$", re.S | re.M)
INCLUDE = re.compile(r"^<!-- include: (?P<refs>[^>\n]+?) -->\n(?P<open>`{3,})(?P<info>[^\n]*)\n"
                     r"(?P<body>.*?)^<!-- end include -->$", re.S | re.M)
SECTION_MARK = re.compile(r"-+8<-+[ \t]+\[[ \t]*(?P<edge>start|end)[ \t]*:[ \t]*(?P<name>[a-z][-_0-9a-z]*)[ \t]*\]")
END_INCLUDE = "<!-- end include -->"


# -- the stages of docs/developers/architecture.md ----------------------------------
def _stage_path(name: str) -> str:
    return f"cardgen/{name}/" if (ROOT / "cardgen" / name).is_dir() else f"cardgen/{name}.py"


def stages_diagram() -> str:
    """The stages in layers, top first, as text and as a Mermaid graph of the imports that
    are not also reached through another stage."""
    levels = layers()
    width = len(str(len(levels) - 1))
    lines = ["```text"]
    lines += [f"layer {n:>{width}}   " + "   ".join(level) for n, level in reversed(list(enumerate(levels)))]
    lines += ["```", "", "```mermaid", "flowchart TD"]
    node = {stage.name: stage.name.strip("_") for stage in STAGES}
    lines += [f'    {node[stage.name]}["{stage.name}"]' for level in reversed(levels)
              for stage in STAGES if stage.name in level]
    for name, below in direct_imports().items():
        lines += [f"    {node[name]} --> {node[other]}" for other in below]
    lines.append("```")
    return "\n".join(lines) + "\n"


def stages_table() -> str:
    """One row per stage, bottom layer first: its package or module, what it may import, its job."""
    jobs = {stage.name: stage for stage in STAGES}
    lines = ["| stage | may import | its job |", "| --- | --- | --- |"]
    for level in layers():
        for name in level:
            imports = ", ".join(f"`{other}`" for other in jobs if other in jobs[name].imports) or "nothing"
            job = jobs[name].job.replace("|", "\\|")
            lines.append(f"| `{_stage_path(name)}` | {imports} | {job} |")
    return "\n".join(lines) + "\n"


GENERATORS: dict[str, Callable[[], str]] = {
    "layout ops": layout_reference,
    "command line": lambda: cli_reference(cardgen_command),
    "stages diagram": stages_diagram,
    "stages table": stages_table,
}


# -- filling a page -----------------------------------------------------------------
class PageError(ValueError):
    """A mark that names nothing there is: the page's line and what is wrong."""


def _line(page: str, index: int) -> int:
    return page.count("\n", 0, index) + 1


def fill_generated(page: str) -> str:
    """``page`` with each ``generated:`` block rendered afresh (game.yaml's key tables aside)."""
    def one(m: re.Match) -> str:
        name = m.group("name")
        if name.startswith("game.yaml keys:"):
            return m.group(0)
        if name not in GENERATORS:
            raise PageError(f"line {_line(page, m.start())}: nothing generates '{name}' "
                            f"(known: {', '.join(GENERATORS)})")
        return m.group(1) + GENERATORS[name]() + m.group(4)

    return GENERATED.sub(one, page)


def included_lines(ref: str, root: Path = ROOT) -> list[str]:
    """The lines ``ref`` (``FILE`` or ``FILE:SECTION``, FILE from ``root``) stands for, marker lines left out."""
    file, _, section = ref.partition(":")
    path = root / file
    if not path.is_file() or not path.resolve().is_relative_to(root.resolve()):
        raise PageError(f"no file '{file}'")
    lines = path.read_text(encoding="utf-8").splitlines()
    if not section:
        return [line for line in lines if not SECTION_MARK.search(line)]
    marks = [(i, m.group("edge")) for i, line in enumerate(lines)
             if (m := SECTION_MARK.search(line)) and m.group("name") == section]
    if [edge for _, edge in marks] != ["start", "end"]:
        raise PageError(f"'{file}' has no section '{section}' (one start and one end line)")
    (start, _), (end, _) = marks
    return [line for line in lines[start + 1:end] if not SECTION_MARK.search(line)]


def fill_includes(page: str, root: Path = ROOT) -> str:
    """``page`` with the body of each included block read afresh from its files."""
    def one(m: re.Match) -> str:
        try:
            lines = [line for ref in m.group("refs").split() for line in included_lines(ref, root)]
        except PageError as exc:
            raise PageError(f"line {_line(page, m.start())}: {exc}") from None
        while lines and not lines[-1].strip():
            lines.pop()
        body = "\n".join(lines)
        if END_INCLUDE in body:
            raise PageError(f"line {_line(page, m.start())}: the included text holds '{END_INCLUDE}'")
        ticks = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", body)), default=0))
        return f"<!-- include: {m.group('refs')} -->\n{ticks}{m.group('info')}\n{body}\n{ticks}\n{END_INCLUDE}"

    return INCLUDE.sub(one, page)


def fill(page: str, root: Path = ROOT) -> str:
    """``page`` with every generated part made afresh; a PageError for a mark that names nothing."""
    try:
        page = gamedoc.fill(page)
    except ValueError as exc:
        raise PageError(str(exc)) from None
    return fill_includes(fill_generated(page), root)


def pages(docs: Path = DOCS) -> list[Path]:
    """The documentation's pages: every Markdown file under ``docs/`` but the examples."""
    return sorted(p for p in docs.rglob("*.md") if p.relative_to(docs).parts[0] != "examples")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python docs/generate.py", description=__doc__.split("::")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the stale pages")
    mode.add_argument("--check", action="store_true", help="exit 1 when a page is stale")
    parser.add_argument("pages", nargs="*", type=Path, help="pages to do (default: every page under docs/)")
    args = parser.parse_args(argv)
    stale = []
    for page in args.pages or pages():
        try:
            text = page.read_text(encoding="utf-8")
            fresh = fill(text)
        except (OSError, PageError) as exc:
            print(f"error: {page}: {exc}", file=sys.stderr)
            return 1
        if fresh != text:
            stale.append(page)
            if args.write:
                page.write_text(fresh, encoding="utf-8")
    for page in stale:
        print(f"{'rewrote' if args.write else 'stale'}: {page}")
    if stale and args.check:
        print("run: python docs/generate.py --write", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
