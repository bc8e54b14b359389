"""The build: load → render every face → check all text → impose → write, atomically.

Everything is rendered and checked for every requested language before anything
reaches the kit: each language is written into a staging folder, which becomes the
kit in one step only when every language succeeded (:mod:`cardgen.output.commit`),
so a build either produces a complete kit or reports every problem and leaves the
previous kit untouched.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .base import workers
from .base.errors import CardgenError, CardgenWarning, Collector, ErrorList, Where, display_path
from .base.paths import shipped_fonts_dir
from .impose.kitplan import impose_kit, plan_decks, tile_boards
from .impose.papers import PAPERS_MM
from .impose.seams import seam_warnings
from .layout.fonts import FontBook
from .layout.text import TextEngine
from .load.inputs import inputs_digest
from .load.locales import missing_message
from .load.readroots import game_roots
from .model.build import PDFX_STANDARDS, BuildOptions, Built, WrittenFile
from .model.components import Deck
from .model.game import Game
from .model.manifest import DeckRecord, FileEntry, Manifest, PageEntry
from .output.commit import Committed, KitFolder
from .output.kitwriter import KitWriter
from .output.reuse import FileReuse, files_stamp
from .output.unchanged import UnchangedKit, nothing_changed_note
from .render.faces import Face, KitRenderer, LangKit
from .render.inkcheck import InkProbe, ink_saver_same_warning, ink_saver_warning

Progress = Callable[[str], None]

__all__ = ["BuildOptions", "Built", "Face", "KitBuilder", "LangKit", "WrittenFile", "build_game"]


def rules_data_problems(game: Game) -> list:
    """Mistakes in the game's data that its rules module, if it has one, knows about and
    the kit would print (house rules): refused by the build at their line, not later as
    a template error."""
    from .rules import rules_for

    rules = rules_for(game.id)
    check = getattr(rules, "data_problems", None)
    if check is None:
        return []
    from .rules.guard import call_rules  # only for a game with rules: a build of any other imports none

    return call_rules("data_problems()", lambda: list(check(game, game.data_marks)), owner=check)


class KitBuilder:
    """Renders and writes one game's kit."""

    def __init__(self, game: Game, options: BuildOptions, progress: Progress | None = None):
        self.game = game
        self.opt = options
        self.progress = progress or (lambda msg: None)
        unknown = [l for l in options.langs if not game.has_language(l)]
        if unknown:
            raise CardgenError(
                f"game '{game.id}' has no language {', '.join(unknown)} (it has: {', '.join(game.languages)})"
            )
        if options.pdfx not in PDFX_STANDARDS:
            raise CardgenError(f"unknown PDF/X standard '{options.pdfx}' (known: {', '.join(PDFX_STANDARDS)})")
        for paper in options.papers:
            if paper not in PAPERS_MM:
                raise CardgenError(f"unknown paper '{paper}' (known: {', '.join(PAPERS_MM)})")
        if tuple(sorted(options.variants)) != tuple(sorted(game.variants)):
            raise CardgenError(f"game '{game.id}' was loaded with variants {list(game.variants)}, the build asks for"
                               f" {list(options.variants)}")
        self.langs = options.langs or game.languages
        unfinished = [lang for lang in self.langs if game.unfinished.get(lang) and lang not in game.fallbacks]
        if unfinished:  # one line per language, naming what it lacks
            raise ErrorList([CardgenError(missing_message(game.unfinished[lang]) + " (unfinished: or build it "
                                          "with --allow-fallback)",
                                          Where(display_path(game.root / "locales" / f"{lang}.yaml")))
                             for lang in unfinished])
        self.book = FontBook([game.root / "fonts", shipped_fonts_dir()], roots=game_roots(game.root))
        self.text = TextEngine(self.book, game.fonts, game.root / "assets", game.palette, game.icons)
        self.writer = KitWriter(game, options, self.book, self.text, self.progress)
        self.renderer = KitRenderer(game, options, self.text)
        self.stale: list[str] = []  # after build(): files of the kit left from other inputs
        self.warnings: list[CardgenWarning] = []  # what the build said and went on (each once)

    def warn(self, warning: CardgenWarning) -> None:
        """Record a warning and pass its line to the progress callback (once each)."""
        if warning not in self.warnings:
            self.warnings.append(warning)
            self.progress(warning.line())

    def warn_ink_saver(self) -> bool:
        """Say so when --ink-saver would print the same kit as without it, as far as the
        game's colours and templates tell; whether it said so."""
        if self.opt.ink_saver:
            warning = ink_saver_warning(self.game, self.renderer.renderer.env)
            if warning:
                self.warn(warning)
                return True
        return False

    def register_fonts(self, errors: Collector) -> None:
        """Register every font the game names, adding the ones that cannot be read to
        ``errors`` (before any face is rendered, so each is reported once)."""
        for name in self.game.fonts.values():
            try:
                self.book.register(name)
            except CardgenError as exc:
                errors.extend(exc)

    def render_lang(self, lang: str, errors: Collector) -> LangKit:
        """Render and check every face of ``lang``, adding problems to ``errors``."""
        return self.renderer.render_lang(lang, errors)

    def write_face_pages(self, path: Path, pages: list[tuple[Deck, str, int, str, Face]],
                         title: str) -> tuple[PageEntry, ...]:
        return self.writer.write_face_pages(path, pages, title)

    # -- the whole build ----------------------------------------------------
    def build(self) -> list[WrittenFile]:
        """Render, check and write every language into a staging folder, then make it
        the kit in one step (:mod:`cardgen.output.commit`) only if every language
        succeeded."""
        warned = self._before_rendering()
        inputs = inputs_digest(self.game, exclude=[self.opt.out_dir])
        unchanged = UnchangedKit.of(self.renderer.store, self.game, self.opt, tuple(self.langs), inputs)
        if unchanged is not None:
            kept = unchanged.kit_as_left()
            if kept is not None:  # the kit is what this very build made: nothing to render or draw
                self.progress(nothing_changed_note(len(kept)))
                return kept
        with KitFolder(self.opt.out_dir, self.game.id, self.progress) as kit_folder:
            outcomes = self._build_languages(kit_folder.new_kit)
            self._said_by(outcomes, warned)
            written = [f for o in outcomes for f in o.written]
            entries = [replace(e, inputs=inputs) for o in outcomes for e in o.manifest]
            done = kit_folder.commit(entries, self.game.variants, self._manifest)
        if self.renderer.store is not None:
            self.renderer.store.evict()  # the cache folder within its bound
        self._after_commit(done, inputs)
        if unchanged is not None and not (self.warnings or self.stale or done.removed or done.replaced):
            unchanged.remember(written)  # a build that said nothing: the next one with the same key can stop
        return written

    def _before_rendering(self) -> bool:
        """What is known before any face is rendered: fonts, house-rule mistakes, pieces
        too big for a paper (raised), the fallback notes and the warnings about options
        and the cache; whether the ink-saver warning was given."""
        errors = Collector()
        self.register_fonts(errors)
        for lang in self.langs:  # --allow-fallback: how much of each language is the first one's
            taken = len(self.game.fallbacks.get(lang, ()))
            if taken:
                self.progress(f"note: {lang}: {taken} string(s) printed in {self.game.languages[0]}, "
                              f"the language it falls back to")
        warned = self.warn_ink_saver()
        if self.renderer.store_problem:  # a face cache not to be trusted: the build goes on without it
            self.warn(self.renderer.store_problem)
        for problem in rules_data_problems(self.game):
            errors.add(problem.message, problem.where)
        errors.raise_if_any()
        plan_decks(self.game, self.opt.papers)  # a component too big for a paper fails before any work
        return warned

    def _said_by(self, outcomes: list[LangOutcome], warned: bool) -> None:
        """The languages' problems raised, their warnings recorded; with --strict, any
        warning raised, before the kit is touched."""
        problems = [line for o in outcomes for line in o.errors]
        if problems:
            raise ErrorList([CardgenError(line) for line in problems])
        for warning in (w for o in outcomes for w in o.warnings):
            self.warn(warning)
        if not warned and outcomes and all(o.ink_same for o in outcomes):
            self.warn(ink_saver_same_warning(self.game))
        if self.opt.strict and self.warnings:
            raise ErrorList([w.as_error() for w in self.warnings])

    def _after_commit(self, done: Committed, inputs: str) -> None:
        """Say what the commit removed, and which files of the kit it kept from other inputs."""
        for name in done.removed:
            self.progress(f"removed {name} (built with other variants)")
        for name in done.replaced:
            self.progress(f"removed {name} (replaced by the print-shop files of this build)")
        self.stale = sorted(e.file for e in done.carried if e.inputs != inputs)
        if self.stale:
            shown = ", ".join(self.stale[:6]) + (f" and {len(self.stale) - 6} more" if len(self.stale) > 6 else "")
            self.progress(f"note: {len(self.stale)} file(s) of the kit were built from other inputs (an older design, "
                          f"another cardgen) and were kept as they were: {shown}; build without --lang and "
                          "--paper to rebuild every file")

    def _build_languages(self, folder: Path) -> list[LangOutcome]:
        """Every language's outcome, in worker processes when there are several."""
        jobs = min(self.opt.jobs or os.cpu_count() or 1, len(self.langs))
        if jobs <= 1:
            outcomes = []
            for lang in self.langs:
                self.progress(f"rendering and writing {lang}")
                outcomes.append(self.build_language(lang, folder))
            return outcomes
        templates = [t for c in self.game.components for t in c.templates]
        if not self.renderer.facts_cached(templates):  # else the workers render from the cache, compiling little
            self.renderer.renderer.warm(templates)
        executor = workers.pool(jobs)
        try:
            with workers.signals_held():  # every worker is forked at the first submit
                futures = [executor.submit(_build_language_job, str(self.game.root), self.opt, lang, str(folder))
                           for lang in self.langs]
            outcomes = []
            for lang, future in zip(self.langs, futures):
                outcomes.append(future.result())
                self.progress(f"{lang} rendered and written")
        except BaseException:
            workers.stop(executor)  # Ctrl-C or a failure: no worker goes on writing
            raise
        executor.shutdown()
        return outcomes

    def _manifest(self, files: tuple[FileEntry, ...]) -> Manifest:
        return Manifest(game=self.game.id, variants=tuple(sorted(self.game.variants)),
                        decks={c.id: DeckRecord(cards={k.id: k.quantity for k in c.cards}, two_sided=bool(c.back))
                               for c in self.game.decks},
                        files=files)

    def build_language(self, lang: str, tmp: Path) -> LangOutcome:
        """Render and check one language; write its files into ``tmp`` only if all is well."""
        errors = Collector()
        self.renderer.seen_errors.clear()
        probe = self.renderer.ink_probe = (InkProbe(self.renderer.renderer.env)
                                           if self.opt.ink_saver and not self.game.ink_palette else None)
        kit = self.render_lang(lang, errors)
        self.renderer.ink_probe = None
        repeats = sum(self.renderer.seen_errors.values())
        if repeats:
            errors.add(f"(the same template errors recur on {repeats} more face(s) in [{lang}], not listed)")
        if errors.errors:
            return LangOutcome([str(e) for e in errors.errors], [], [])
        warnings = self.seam_warnings(lang, kit)
        self.writer.reuse = self._file_reuse(lang, kit)
        written: list[WrittenFile] = []
        manifest: list[FileEntry] = []
        for sheets in impose_kit(self.game, self.opt, kit, self.writer.label_width):
            written += self.writer.write_sheets(tmp, kit, sheets, manifest)
        shop_kit, shop_decks = self.shop_faces(lang, kit)
        if isinstance(shop_kit, list):
            return LangOutcome(shop_kit, [], [])
        written += self.writer.write_printshop(tmp, shop_kit, manifest, shop_decks)
        written += self.writer.write_boards(tmp, kit, manifest)
        return LangOutcome([], written, manifest, warnings, ink_same=probe is not None and not probe.changed)

    def shop_faces(self, lang: str, kit: LangKit) -> tuple[LangKit | list[str], tuple[Deck, ...] | None]:
        """The faces and decks of the print-shop files: the kit's own, or, when the shop
        profile's bleed is not a print-shop deck's, every face rendered again with the
        shop's bleed (templates draw their art into ``bleed``, so a larger one still gets
        ink to its edge); a list of problems if that rendering fails."""
        shop = self.opt.shop
        if shop is None or shop.bleed is None:
            return kit, None
        decks = tuple(replace(d, bleed=shop.bleed) if d.printshop else d for d in self.game.decks)
        if all(d.bleed == shop.bleed for d in self.game.decks if d.printshop):
            return kit, decks
        game = replace(self.game, components=tuple(replace(c, bleed=shop.bleed) if isinstance(c, Deck) and c.printshop
                                                   else c for c in self.game.components))
        errors = Collector()
        shop_kit = KitRenderer(game, self.opt, self.text).render_lang(lang, errors)
        if errors.errors:
            return [f"with the {shop.name} profile's bleed of {shop.bleed:g} mm: {e}" for e in errors.errors], None
        return shop_kit, tuple(d for d in game.decks)

    def _file_reuse(self, lang: str, kit: LangKit) -> FileReuse | None:
        """With the face cache: what decides every file of ``lang`` (output/reuse.py), so
        that a file whose inputs did not change is taken from the kit as it is."""
        store = self.renderer.store
        if store is None:
            return None
        g = self.game
        faces = hashlib.sha256()
        groups: list[Mapping[Any, Face | list[Face]]] = [kit.fronts, kit.backs, kit.boards, kit.sheets, kit.headers]
        for group in groups:
            for where, value in sorted(group.items(), key=lambda kv: repr(kv[0])):
                for face in (value if isinstance(value, list) else [value]):
                    faces.update(f"{where!r}\0{len(face.key)}\0".encode() + face.key.encode("utf-8", "surrogatepass"))
        options = replace(self.opt, out_dir=Path(), jobs=0, cache=False, langs=())
        base = [lang, repr(options), sorted(g.strings[lang].items()), sorted(g.fallbacks.get(lang, ())),
                g.name(lang), sorted(g.palette.items()), sorted(g.ink_palette.items()), sorted(g.fonts.items()),
                repr(g.icons), repr(g.components), sorted(g.variants), faces.hexdigest(),
                files_stamp([g.root / "fonts", shipped_fonts_dir(), g.root / "assets"])]
        return FileReuse(store, self.opt.out_dir / g.id, base)

    def seam_warnings(self, lang: str, kit: LangKit) -> list[CardgenWarning]:
        """A warning for each line of a board's text that a seam between its printed
        pieces cuts, on each paper of the build."""
        out: list[CardgenWarning] = []
        for paper in self.opt.papers:
            plans = tile_boards(self.game, paper)
            for board in self.game.boards:
                face = kit.boards.get(board.id)
                if face is not None:
                    out += seam_warnings(board.id, face.ops, self.text, plans[board.id], f"[{lang}, {paper}]")
        return out


@dataclass(frozen=True)
class LangOutcome:
    """What building one language gave: its problems, or its files and manifest entries."""

    errors: list[str]
    written: list[WrittenFile]
    manifest: list[FileEntry]
    warnings: list[CardgenWarning] = field(default_factory=list)  # said, but the kit is built
    ink_same: bool = False  # --ink-saver without ink_saver colours: every face came out as without it


def _build_language_job(root: str, options: BuildOptions, lang: str, tmp: str) -> LangOutcome:
    """One language in a worker process (the game is reloaded there: models hold read-only views)."""
    from .load.game import load_game

    try:
        game = load_game(root, options.variants, fallback=options.allow_fallback)
        return KitBuilder(game, options).build_language(lang, Path(tmp))
    except CardgenError as exc:
        return LangOutcome(exc.lines(), [], [])


def build_game(game: Game, options: BuildOptions, progress: Progress | None = None) -> Built:
    builder = KitBuilder(game, options, progress)
    written = builder.build()
    return Built(options.out_dir / game.id, written, list(builder.warnings))
