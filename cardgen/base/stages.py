"""The stages of cardgen: each package (or top-level module), the stages it may import, and its job.

This table is the one statement of the package's order: ``tests/base/test_architecture.py``
holds every module to it, and the diagram and the package table of
``docs/developers/architecture.md`` are generated from it (``python docs/generate.py``).
Imports nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class Stage(NamedTuple):
    """One package or top-level module of cardgen, the stages it may import, and what it is for."""

    name: str
    imports: frozenset[str]
    job: str


def _stage(name: str, imports: Iterable[str], job: str) -> Stage:
    return Stage(name, frozenset(imports), job)


STAGES: tuple[Stage, ...] = (
    _stage("base", (),
           "below every stage, importing nothing else of cardgen: the one exception family and warnings "
           "(`errors`), millimetres to points (`units`), the files cardgen writes, whole or not at all "
           "(`files`), the folders it reads from (`paths`), worker processes (`workers`), the check that a "
           "path, its links followed, stays in the folders it may be read from (`jail`), and this table of "
           "stages (`stages`)"),
    _stage("version", (), "cardgen's version, in one place: read by the build backend and the reports"),
    _stage("model", ("base",),
           "the loaded game as frozen values with no I/O, the places of its data values kept beside them, "
           "the typed manifest of a built kit, and a build's options and result (`build`)"),
    _stage("layout", ("base",),
           "the layout language: the op table and its checks (`ops`), the reference generated from it "
           "(`reference`), SVG paths, fonts, inline markup (`inline`), wrapping, fitting and flowed text, "
           "linked flows that run a text through several boxes and pages (`chain`), images and SVG art "
           "(`images`; every raster, files and those embedded in an SVG, through `raster`; `svgart`, its "
           "paints `svgpaint` and gradients `svggradient`)"),
    _stage("toolwords", ("base",),
           "the words cardgen itself prints (sheet labels, the calibration sheet), read from the shipped "
           "`locales/<lang>.yaml`"),
    _stage("impose", ("base", "layout", "model"),
           "geometry only: where each piece goes on a sheet, its back on the flip side, cut marks and ticks, "
           "gutterfold, board tiles and the text that crosses their seams (`seams`), sheet labels, papers, "
           "piece shapes, and which print-shop files a kit has (`printshop`)"),
    _stage("rules", ("base", "model"),
           "one package per game's rules engine (spec, codec, state, checker, game, agents), found through a "
           "registry, behind the small API of `rules/api.py`; a game's own rules come in as a plug-in "
           "(`plugins`: a `cardgen.rules` entry point or `--rules FILE.py`), which may be built on the rules "
           "kit (`kit/`: piles and who sees them, turns, phases, moves; the engine, observations, re-deals, "
           "checker and greedy player made from them); an exception of a rules module's code before play is "
           "one line naming its file (`guard`)"),
    _stage("load", ("base", "impose", "layout", "model", "toolwords", "version"),
           "read a game folder: YAML that keeps each value's file and line (`yamlsrc`), key descriptors and "
           "the checks they drive (`schema`), game.yaml's key table (`gameschema`) and the reference tables "
           "rendered from it (`gamedoc`), the game, its components, cards and locales, spreadsheets as data "
           "(`tables`: CSV, XLSX, ODS), the game's icons (`icons`), what decks must hold (`expect`: "
           "game.yaml's `expect`, checked against the decks' cards)"),
    _stage("settings", ("base", "impose"),
           "the user's and the project's settings (`cardgen config`: back offset, paper, duplex), "
           "`key = value` lines read from the user file and `./cardgen.cfg`"),
    _stage("render", ("base", "impose", "layout", "load", "model", "version"),
           "the Jinja sandbox and its filters (`sandbox`, `cover`), and every face of a language rendered and "
           "parsed into layout ops, of a template's `choices` the first whose texts fit (`faces`); the key of "
           "a face's inputs, so that a face equal to an earlier one is not rendered again (`memo`), and the "
           "face cache between builds (`facestore`), with the compiled templates, signed (`bytecode`); "
           "unfilled placeholders (`placeholders`) and an "
           "`--ink-saver` that changes nothing (`inkcheck`: no colours and no template reading it, or every "
           "face drawn the same with it) are caught here"),
    _stage("output", ("base", "impose", "layout", "model", "render"),
           "drawing: PDF canvases, the painter that draws layout ops, the kit's files (`kitwriter`), boards, "
           "the ReportLab workarounds, the print-shop files made PDF/X-4 in CMYK through an output profile "
           "(`pdfx`, `cmyk`) and read back for ink, resolution and boxes (`preflight`), and the files of the "
           "kit taken as they are when nothing that decides them changed (`reuse`), and the whole kit when the "
           "build that left it is asked again, decided before anything is rendered (`unchanged`)"),
    _stage("pipeline", ("base", "impose", "layout", "load", "model", "output", "render", "rules"),
           "the build: load → render every face → check all text → impose → write, made current only when "
           "every language succeeded (and, with `--strict`, gave no warning); a build whose inputs equal the "
           "last one's stops at once"),
    _stage("validation", ("base", "impose", "load", "model", "output", "rules", "version"),
           "the validator: deck checks against the rules (`static`) and against game.yaml's `expect` "
           "(`expect`, for games with and without rules), seeded plays on several cores (`simulate`, "
           "`parallel`), chance outcomes against their declared distribution (`chance`), the kit check "
           "(`kitcheck`, with the print-shop files' `preflight`), who held each card and how often they won"
           " (`cardstats`, `cardbalance`), the report as text and as a page of charts (`htmlreport`, `svgcharts`)"),
    _stage("calibrate", ("base", "impose", "layout", "output", "toolwords"), "the duplex calibration sheet"),
    _stage("export", ("base", "impose", "model", "output", "pipeline"),
           "images (PNG per face, Tabletop Simulator sheets, the preview) from the same renderer"),
    _stage("i18n", ("base", "impose", "layout", "load", "model", "pipeline", "render", "toolwords"),
           "the translators' workflow: catalogues (PO through Babel, XLIFF 1.2) out and back into the locale "
           "files edited in place (`yamledit`), a new language (`newlang`), the status of each language, all "
           "learnt by rendering the game and listening to the strings each face reads (`usage`)"),
    _stage("__init__", ("base", "load", "model", "output", "pipeline", "validation", "version"),
           "the public API the CLI uses: `load_game`, `build`, `validate`, `BuildOptions`, `ValidateOptions`, "
           "the error types"),
    _stage("serve", ("base", "export", "impose", "load", "model", "pipeline"),
           "`cardgen serve`: the live preview's views and picture cache (`state`), drawing (`pictures`), HTTP "
           "routes on 127.0.0.1 (`app`), the caps on connections and event streams and the 503 beyond them "
           "(`limits`), server-sent events (`events`), the folder watcher (`watcher`), the page's HTML, JS and "
           "CSS (`page/`); it loads, renders and imposes through the pipeline's builder and draws faces as "
           "the image export does"),
    _stage("cli", ("base", "__init__", "calibrate", "export", "i18n", "impose", "load", "model", "output",
                   "pipeline", "rules", "serve", "settings", "toolwords", "validation", "version"),
           "click only: one module per command, one module (`exits`) that turns every user error into its "
           "lines and exit status 1, and the command-line reference rendered from the commands (`reference`)"),
    _stage("__main__", ("cli",), "`python -m cardgen`: the command line"),
)

ALLOWED: dict[str, frozenset[str]] = {stage.name: stage.imports for stage in STAGES}


def layers(stages: Iterable[Stage] = STAGES) -> list[list[str]]:
    """The stages in layers, bottom first: a stage's layer is one above the highest stage it
    may import, so each imports only from the layers below it. Within a layer, table order.
    A stage that may import an unknown stage, or itself through others, is a ValueError."""
    table = {stage.name: stage.imports for stage in stages}
    height: dict[str, int] = {}
    visiting: list[str] = []

    def place(name: str) -> int:
        if name in height:
            return height[name]
        if name in visiting:
            raise ValueError("the stages import each other: " + " → ".join([*visiting[visiting.index(name):], name]))
        if name not in table:
            raise ValueError(f"stage '{visiting[-1]}' may import '{name}', which is no stage")
        visiting.append(name)
        height[name] = 1 + max((place(below) for below in sorted(table[name])), default=-1)
        visiting.pop()
        return height[name]

    for name in table:
        place(name)
    return [[name for name in table if height[name] == level] for level in range(max(height.values(), default=-1) + 1)]


def direct_imports(stages: Iterable[Stage] = STAGES) -> dict[str, list[str]]:
    """For each stage, the stages it may import that it does not also reach through another
    of them: the arrows of the diagram, fewer than the table's, with the same reach."""
    table = {stage.name: stage.imports for stage in stages}
    reach: dict[str, set[str]] = {}
    for layer in layers(stages):
        for name in layer:  # the layers below are done
            reach[name] = set().union(*({below} | reach[below] for below in table[name]))
    return {name: [below for below in table if below in table[name]
                   and not any(below in reach[other] for other in table[name] if other != below)]
            for name in table}
