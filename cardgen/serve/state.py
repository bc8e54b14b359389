"""What the preview shows: the game as last loaded, one view per set of switches
(language, paper, duplex edge, ink-saver, proof), and the pictures of their faces and
sheet pages.

A picture's id is a hash of everything it is drawn from: a face's rendered layout text
(its identity, see ``render/faces.py``), its size and shape, the switches and the game's
fonts, palette and asset files. After a save the language is rendered again (cheap for
faces whose text did not change: their parsed, checked layout is reused), and only
pictures whose id is new are drawn; the others are served as they were. Only the
pictures of the live views are kept, in memory.

A change that breaks the game or a view keeps its last good content and records the
problems, each with its file and line, for the page's banner.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..base.errors import CardgenError, Collector, ErrorList, display_path
from ..impose.kitplan import impose_kit
from ..impose.papers import PAPER_NAMES, PAPERS_MM
from ..impose.sheets import BoardPage, PiecesPage, SheetFile, SheetPage, Sheets
from ..load.game import find_game, load_game, reload_strings
from ..model.components import Card, Deck
from ..model.game import Game
from ..pipeline import BuildOptions, Face, KitBuilder, LangKit, rules_data_problems
from . import pictures

FACE_DPI = 150  # sharp enough for the enlarged view
BOARD_PX = 1600  # a board's longer side, bleed included (a 400 mm board at 150 dpi would be 2,400)
SHEET_DPI = 60
MAX_VIEWS = 4  # switch combinations kept alive (each with its pictures)
ASSET_FOLDERS = ("assets", "fonts")  # drawn from, but not part of a face's layout text


@dataclass(frozen=True)
class ViewOptions:
    """The page's switches."""

    lang: str
    paper: str
    duplex: str = "long"
    ink_saver: bool = False
    proof: bool = False
    soft_proof: bool = False  # pictures as the print-shop CMYK profile prints them, out-of-gamut hatched


@dataclass(frozen=True)
class FaceItem:
    """One distinct face of a deck (the cards that show it) or a whole board, and where
    it comes from."""

    id: str
    slot: str  # where it stands on the page: deck/side/first card, or board/board
    piece: Deck  # what it is drawn as: the deck, or a board as a one-piece deck
    side: str  # front, back, or board
    cards: tuple[Card, ...]  # none for a board
    face: Face
    template: str  # the template file, as the user sees its path
    template_url: str | None  # where the page can show it: only a file of the game folder
    dpi: float
    words: str  # what it says, for the picture's alternative text

    def describe(self) -> dict[str, Any]:
        first = self.cards[0] if self.cards else None
        return {
            "id": self.id, "slot": self.slot, "url": f"/picture/{self.id}.png", "component": self.piece.id,
            "side": self.side, "cards": [c.id for c in self.cards],
            "copies": sum(c.quantity for c in self.cards) if self.cards else 1,
            "template": self.template, "template_url": self.template_url,
            "defined": (first or self.piece).where.prefix(), "size": list(self.piece.size),
            "data": _plain({"id": first.id, "quantity": first.quantity, **dict(first.fields)}) if first else None,
            "text": self.words,
        }


@dataclass(frozen=True)
class PageItem:
    """One imposed sheet page."""

    id: str
    slot: str
    file: int  # which file of the view's sheets
    number: int  # 1-based, in its file
    title: str

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "slot": self.slot, "url": f"/picture/{self.id}.png", "title": self.title}


@dataclass
class Content:
    """A view rendered without a problem: what its pictures are drawn from."""

    stamp: str  # resource_stamp: fonts, palette, assets
    sources: str  # sources_stamp: everything else but the locale strings
    builder: KitBuilder
    kit: LangKit
    sheets: Sheets
    faces: list[FaceItem]
    pages: list[PageItem]


@dataclass
class View:
    options: ViewOptions
    content: Content | None = None  # the last good rendering
    settled: Content | None = None  # while only its cards are rendered again after a save: the content before
    errors: list[CardgenError] = field(default_factory=list)  # why the latest rendering failed


def _plain(value: Any) -> Any:
    """A card's data as JSON values (the model holds read-only mappings and tuples)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


def _texts(ops) -> list[str]:
    """The words a face shows, for the picture's alternative text."""
    out: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, str) and key == "text":
            out.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, key)

    for op in ops:
        walk(op.args)
        out.extend(_texts(op.children))
    return out


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()[:32]


def resource_stamp(game: Game) -> str:
    """What every picture also depends on beside its layout text: the game's fonts and
    palette, and the name, size and time of each file in its asset and font folders."""
    files = []
    for name in ASSET_FOLDERS:
        folder = game.root / name
        if folder.is_dir():
            for p in sorted(folder.rglob("*")):
                try:
                    st = p.stat()
                except OSError:
                    continue
                files.append((str(p.relative_to(game.root)), st.st_size, st.st_mtime_ns))
    return _digest(sorted(game.fonts.items()), sorted(game.palette.items()), sorted(game.ink_palette.items()), files)


def sources_stamp(game: Game, folders: list[Path]) -> str:
    """What a face's text is rendered from beside its locale strings: the name, size and
    time of every file in the game and template folders but ``locales/``. While it holds,
    a face whose strings kept their values is not rendered again after a save."""
    locales = game.root.resolve() / "locales"
    files = []
    for folder in dict.fromkeys(f.resolve() for f in folders):
        for p in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if p.is_relative_to(locales):
                continue
            try:
                st = p.stat()
            except OSError:
                continue
            files.append((str(p), st.st_size, st.st_mtime_ns))
    return _digest(files, game.variants)


class Fetches:
    """The pictures of changed faces the page was told of and has not fetched yet: the
    live preview renders the sheets once they are fetched (or a while has passed), so
    the page's requests do not wait behind the sheets' rendering for the interpreter."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._left: set[str] = set()
        self._done = threading.Event()
        self._done.set()

    def expect(self, pids: list[str]) -> None:
        with self._lock:
            self._left = set(pids)
            if self._left:
                self._done.clear()
            else:
                self._done.set()

    def served(self, pid: str) -> None:
        if pid in self._left:
            with self._lock:
                self._left.discard(pid)
                if not self._left:
                    self._done.set()

    def wait(self, timeout: float) -> bool:
        """Whether every picture expected was fetched within ``timeout`` seconds."""
        return self._done.wait(timeout)


def error_record(exc: CardgenError) -> dict[str, Any]:
    """A problem for the banner: its line as the command line prints it, and its file and line."""
    return {"text": str(exc), "file": exc.where.path, "line": exc.where.line}


def _flat(exc: CardgenError) -> list[CardgenError]:
    return list(exc.errors) if isinstance(exc, ErrorList) else [exc]


class Preview:
    """The live state behind the page; every method may be called from any thread."""

    def __init__(self, game: str, variants: tuple[str, ...] = (),
                 on_change: Callable[[dict[str, Any]], None] | None = None):
        self.source = game
        self.variants = variants
        self.on_change = on_change or (lambda message: None)
        self.root = find_game(game).resolve()
        self.game: Game = load_game(game, variants)  # a game that does not load at start is the caller's error
        # taken before the game is read, so that a file saved meanwhile changes the next one
        self._sources = sources_stamp(self.game, self.folders_of(self.game))
        self.game = load_game(game, variants)
        self._loaded_sources = self._sources  # what ``game`` was loaded from (a failed load keeps the last)
        self.game_loads = 1  # whole loads of the game so far (a save of strings alone reads only them)
        self.default = self.default_options()  # the switches of a page that names none
        self.load_errors: list[CardgenError] = []
        self.version = 1
        self.face_draws = 0  # pictures drawn so far, for tests and the benchmark
        self.page_draws = 0
        self._lock = threading.RLock()
        self._views: OrderedDict[ViewOptions, View] = OrderedDict()
        self._pictures: dict[str, bytes] = {}
        self._described: dict[ViewOptions, dict[str, Any]] = {}  # read without the lock: see refresh
        self._gamut: dict[str, tuple[int, int]] = {}  # soft-proofed pictures: (pixels out of gamut, pixels)
        self.fetches = Fetches()  # after a save, the changed faces' pictures not fetched yet
        # Worked out once, not per face and save: a face's picture id from what it is drawn
        # from, its words for the page, and a template's file and page address (per load).
        self._ids: dict[tuple, str] = {}
        self._words: dict[str, str] = {}
        self._places: dict[str, tuple[str, str | None]] = {}

    def folders(self) -> list[Path]:
        """The folders whose files the preview is drawn from (its game folder and its
        template folders; fonts and assets are inside the game folder)."""
        with self._lock:
            return self.folders_of(self.game)

    def folders_of(self, game: Game) -> list[Path]:
        return [self.root, *game.template_dirs]

    # -- views ------------------------------------------------------------
    def default_options(self, lang: str | None = None, paper: str = "a4", duplex: str = "long",
                        soft_proof: bool = False) -> ViewOptions:
        langs = self.game.languages
        return ViewOptions(lang or ("en" if "en" in langs else langs[0]), paper, duplex, soft_proof=soft_proof)

    def view(self, options: ViewOptions) -> View:
        """The view for ``options``, rendered if it is new; the least recently used go."""
        with self._lock:
            view = self._views.get(options)
            if view is None:
                view = self._views[options] = View(options)
                self._render(view)
                while len(self._views) > MAX_VIEWS:
                    self._views.popitem(last=False)
                self._prune()
            self._views.move_to_end(options)
            return view

    def describe(self, options: ViewOptions) -> dict[str, Any]:
        """What the page shows for ``options``, as JSON-ready values (while the sheets are
        rendered after a save, the view shown last as the page was told of it)."""
        described = self._described.get(options)
        if described is not None:
            return described
        return self._describe(options)

    def _describe(self, options: ViewOptions) -> dict[str, Any]:
        with self._lock:
            view = self.view(options)
            c = view.content
            return {
                "version": self.version,
                "game": self.game.name(options.lang) if options.lang in self.game.languages else self.game.id,
                "langs": list(self.game.languages),
                "papers": list(PAPERS_MM),
                "options": {"lang": options.lang, "paper": options.paper, "duplex": options.duplex,
                            "ink_saver": options.ink_saver, "proof": options.proof,
                            "soft_proof": options.soft_proof},
                "errors": [error_record(e) for e in self.load_errors + view.errors],
                "faces": [f.describe() for f in c.faces] if c else [],
                "sheets": [{"title": title, "pages": [p.describe() for p in c.pages if p.file == n]}
                           for n, title in enumerate(_file_titles(c.sheets))] if c else [],
            }

    # -- after a change ---------------------------------------------------
    def refresh(self, changed: list[Path] | None = None) -> dict[str, Any]:
        """Load the game again and re-render every live view; then tell the pages.
        After a save of locale files alone (``changed`` says which files were saved) only
        they are read again, the rest of the game kept as it was loaded.

        After a change of locale strings only, the pages are told twice: first once the
        faces of the cards and boards are rendered again and the changed ones of the
        view shown last are drawn (the message names them), then once the sheets are
        rendered and imposed too. Until then its faces and sheet list are served from
        what was described when first told, without waiting for the sheets."""
        with self._lock:
            self._described.clear()
            faces: list[str] | None = None
            try:
                self._sources = sources_stamp(self.game, self.folders())  # before reading: see __init__
                self.game = self._strings_reloaded(changed) or self._load()
                self.load_errors = []
                faces = self._refresh_pieces()
            except CardgenError as exc:  # the last good pictures stay
                self.load_errors = _flat(exc)
            if faces is not None:
                self.version += 1
                first = self._message(changed, faces)
                self.fetches.expect(faces)
                shown = next(reversed(self._views))
                self._described[shown] = self._describe(shown)
        if faces is not None:
            self.on_change(first)
        with self._lock:
            if not self.load_errors:
                for view in list(self._views.values()):
                    self._render(view)
                self._prune()
            self._described.clear()
            self.version += 1
            message = self._message(changed, None)
        self.on_change(message)
        return message

    def _load(self) -> Game:
        """The whole game read again; the templates' files and addresses looked up anew."""
        game = load_game(self.source, self.variants)
        self._loaded_sources = self._sources
        self.game_loads += 1
        self._places.clear()
        return game

    def _strings_reloaded(self, changed: list[Path] | None) -> Game | None:
        """The game with its locale files read again, when they are all that changed
        since it was loaded: every file saved is in ``locales/`` and every other file
        of the game and its templates is as it was (None: not so, or the strings have a
        problem, which a whole load then reports)."""
        if not changed or self._sources != self._loaded_sources:
            return None
        locales = self.root / "locales"
        if not all(p.resolve().is_relative_to(locales) for p in changed):
            return None
        return reload_strings(self.game)

    def _message(self, changed: list[Path] | None, faces: list[str] | None) -> dict[str, Any]:
        """An event: the version, the files saved, the problems, and, when the sheets are
        still to come, the ids of the faces that changed in the view shown last."""
        message: dict[str, Any] = {"version": self.version,
                                   "changed": [display_path(p) for p in (changed or [])][:20],
                                   "errors": [error_record(e) for e in self.load_errors]}
        if faces is not None:
            message["faces"] = faces
        return message

    def _refresh_pieces(self) -> list[str] | None:
        """After a change of locale strings only (the same sources, fonts, palette and
        assets for every live view with content): render each view's cards and boards
        again, keeping its sheets, and draw the changed faces of the view shown last.
        Their ids; None when the change is not of strings only or a face has a problem
        (the whole rendering then says what)."""
        views = list(self._views.values())
        if not views or any(v.content is None or v.content.sources != self._sources
                            or v.content.stamp != resource_stamp(self.game) for v in views):
            return None
        fresh = [self._render_pieces(v) for v in views]
        if any(c is None for c in fresh):
            return None
        for view, content in zip(views, fresh):
            view.settled, view.content = view.content, content
        shown = views[-1]
        assert shown.settled is not None and shown.content is not None
        old = {f.id for f in shown.settled.faces}
        self._draw_faces(shown.content, shown.options)
        return [f.id for f in shown.content.faces if f.id not in old]

    def _render_pieces(self, view: View) -> Content | None:
        """``view`` with its cards and boards rendered again from the game as loaded now,
        its sheets and imposition as they were (strings change no card's size or count)."""
        o, old, game = view.options, view.content, self.game
        assert old is not None
        if o.lang not in game.languages:
            return None
        try:
            options = BuildOptions(langs=(o.lang,), papers=(o.paper,), duplex=o.duplex, ink_saver=o.ink_saver,
                                   proof=o.proof, variants=game.variants, jobs=1)
            builder = KitBuilder(game, options)
            builder.renderer.keep_renders = True
            builder.renderer.adopt(old.builder.renderer, same_sources=True)
            errors = Collector()
            builder.register_fonts(errors)
            pieces = builder.renderer.render_lang(o.lang, errors, pieces_only=True)
            if errors.errors or rules_data_problems(game):
                return None
        except CardgenError:
            return None
        kit = replace(old.kit, fronts=pieces.fronts, backs=pieces.backs, boards=pieces.boards)
        # the sheet pages keep their pictures until the sheets are rendered too
        return Content(old.stamp, old.sources, builder, kit, old.sheets, self._faces(builder, kit, o, old.stamp),
                       old.pages)

    def _render(self, view: View) -> None:
        """Render ``view`` anew; on a problem keep its last good content."""
        o = view.options
        game = self.game
        settled, view.settled = view.settled, None
        if o.lang not in game.languages:
            view.errors = [CardgenError(f"game '{game.id}' has no language {o.lang} any more")]
            view.content = settled or view.content
            return
        try:
            stamp = resource_stamp(game)
            sources = self._sources
            options = BuildOptions(langs=(o.lang,), papers=(o.paper,), duplex=o.duplex, ink_saver=o.ink_saver,
                                   proof=o.proof, variants=game.variants, jobs=1)
            builder = KitBuilder(game, options)
            builder.renderer.keep_renders = True
            for old in (settled, view.content):  # the sheets' renderings, then the cards' newer ones
                if old is not None and old.stamp == stamp:
                    builder.renderer.adopt(old.builder.renderer, same_sources=old.sources == sources)
            errors = Collector()
            builder.register_fonts(errors)
            for problem in rules_data_problems(game):
                errors.add(problem.message, problem.where)
            kit = builder.render_lang(o.lang, errors)
            errors.raise_if_any()
            sheets = impose_kit(game, options, kit, builder.writer.label_width)[0]
        except CardgenError as exc:
            view.errors = _flat(exc)
            view.content = settled or view.content  # the last content that was good whole
            return
        view.content = Content(stamp, sources, builder, kit, sheets, self._faces(builder, kit, o, stamp),
                               _pages(kit, sheets, o, stamp))
        view.errors = []

    def _faces(self, builder: KitBuilder, kit: LangKit, o: ViewOptions, stamp: str) -> list[FaceItem]:
        """Every distinct face of every deck, in deck order, with the cards that show it;
        then each board, whole."""
        groups: dict[tuple[str, str, str], list] = {}
        for deck in self.game.decks:
            for side, faces, side_of in (("front", kit.fronts, deck.front_of), ("back", kit.backs, deck.back_of)):
                for card in deck.cards:
                    face = faces.get((deck.id, card.id))
                    template = side_of(card)
                    if face is None or template is None:
                        continue
                    group = groups.setdefault((deck.id, side, face.key), [deck, side, [], face, template])
                    group[2].append(card)
        items = []
        where = builder.renderer.renderer.template_path
        for deck, side, cards, face, template in groups.values():
            pid = self._id("face", face.key, deck.size, deck.bleed, deck.safe, deck.shape, deck.hex_top,
                           deck.corner_radius, deck.outline, o.proof, o.ink_saver, o.soft_proof, FACE_DPI, stamp)
            items.append(FaceItem(pid, f"{deck.id}/{side}/{cards[0].id}", deck, side, tuple(cards), face,
                                  *self._place(template, where), FACE_DPI, self._words_of(face)))
        for board in self.game.boards:
            face = kit.boards.get(board.id)
            if face is None:
                continue
            piece = Deck(id=board.id, name_key=board.name_key, where=board.where, size=board.size, bleed=board.bleed,
                         safe=0.0, front=board.template)
            dpi = min(FACE_DPI, BOARD_PX / (max(board.size) + 2 * board.bleed) * 25.4)
            pid = self._id("board", face.key, board.size, board.bleed, o.proof, o.ink_saver, o.soft_proof, dpi, stamp)
            items.append(FaceItem(pid, f"{board.id}/board", piece, "board", (), face,
                                  *self._place(board.template, where), dpi, self._words_of(face)))
        return items

    def _id(self, *parts: Any) -> str:
        """A picture's id: the digest of what it is drawn from, worked out once."""
        pid = self._ids.get(parts)
        if pid is None:
            pid = self._ids[parts] = _digest(*parts)
        return pid

    def _words_of(self, face: Face) -> str:
        words = self._words.get(face.key)
        if words is None:
            words = self._words[face.key] = " · ".join(_texts(face.ops))
        return words

    def _place(self, template: str, where: Callable[[str], str]) -> tuple[str, str | None]:
        """A template's file as the user sees its path, and its page address."""
        place = self._places.get(template)
        if place is None:
            place = self._places[template] = (where(template), self._game_url(template))
        return place

    def _game_url(self, template: str) -> str | None:
        """The page's address of a template that lies in the game folder."""
        for folder in self.game.template_dirs:
            path = folder / template
            if path.is_file():
                try:
                    rel = path.resolve().relative_to(self.root)
                except ValueError:
                    return None
                return "/game/" + quote(rel.as_posix())
        return None

    # -- pictures ---------------------------------------------------------
    def picture(self, pid: str) -> bytes | None:
        """The PNG of a face or sheet page of a live view, drawn if it is not yet (with
        every other picture of its view or file still missing); None for an unknown id."""
        png = self._pictures.get(pid)  # a drawn picture needs no lock (the sheets may be rendering)
        if png is not None:
            self.fetches.served(pid)
            return png
        with self._lock:
            png = self._pictures.get(pid)
            if png is not None:
                self.fetches.served(pid)
                return png
            for view in reversed(self._views.values()):
                c = view.content
                if c is None:
                    continue
                if any(f.id == pid for f in c.faces):
                    self._draw_faces(c, view.options)
                    return self._pictures.get(pid)
                page = next((p for p in c.pages if p.id == pid), None)
                if page is not None:
                    self._draw_pages(c, page.file, view.options)
                    return self._pictures.get(pid)
            return None

    def gamut(self, pid: str) -> tuple[int, int] | None:
        """Of a soft-proofed picture already drawn: its pixels outside the press's gamut,
        and all its pixels (None: not drawn yet, or not soft-proofed)."""
        return self._gamut.get(pid)  # set with the picture, read without the lock

    def _keep(self, c: Content, o: ViewOptions, drawn: list[tuple[str, bytes]]) -> None:
        """Keep drawn pictures, soft-proofed through the print-shop profile when ``o`` says so."""
        if o.soft_proof:
            from .softproof import soft_proof_png

            profile = c.builder.writer.output_profile().data
            for pid, png in drawn:
                png, out, pixels = soft_proof_png(png, profile)
                self._pictures[pid] = png
                self._gamut[pid] = (out, pixels)
            return
        self._pictures.update(drawn)

    def _draw_faces(self, c: Content, o: ViewOptions) -> None:
        missing = [f for f in c.faces if f.id not in self._pictures]
        pngs = pictures.face_pngs(c.builder, [(f.piece, f.cards[0].id if f.cards else f.piece.id, f.side, f.face, f.dpi)
                                              for f in missing], with_bleed=o.proof)
        self._keep(c, o, [(f.id, png) for f, png in zip(missing, pngs)])
        self.face_draws += len(missing)

    def _draw_pages(self, c: Content, file_no: int, o: ViewOptions) -> None:
        file = c.sheets.files[file_no]
        numbered = [p for p in c.pages if p.file == file_no]
        missing = [(p, page) for p, page in zip(numbered, file.pages) if p.id not in self._pictures]
        part: SheetFile = replace(file, pages=tuple(page for _, page in missing))
        (pngs,) = pictures.sheet_pngs(c.builder, c.kit, replace(c.sheets, files=(part,)), SHEET_DPI)
        self._keep(c, o, [(p.id, png) for (p, _), png in zip(missing, pngs)])
        self.page_draws += len(missing)

    def _prune(self) -> None:
        """Keep only the pictures of the live views."""
        live: set[str] = set()
        for v in self._views.values():
            if v.content is not None:
                live.update(f.id for f in v.content.faces)
                live.update(p.id for p in v.content.pages)
        for pid in [k for k in self._pictures if k not in live]:
            del self._pictures[pid]
            self._gamut.pop(pid, None)
        self._ids = {parts: pid for parts, pid in self._ids.items() if pid in live}
        keys = {f.face.key for v in self._views.values() if v.content is not None for f in v.content.faces}
        self._words = {key: words for key, words in self._words.items() if key in keys}


def _file_titles(sheets: Sheets) -> list[str]:
    return [f"{PAPER_NAMES.get(sheets.paper, sheets.paper.upper())} · {f.kind} ({f.layout}{', ' + f.duplex + ' edge' if f.duplex else ''})"
            for f in sheets.files]


def _page_title(page) -> str:
    if isinstance(page, PiecesPage):
        return f"{page.component} · {page.side} {page.sheet}"
    if isinstance(page, BoardPage):
        return f"{page.component} · tile {page.tile.label}"
    assert isinstance(page, SheetPage)
    return f"{page.component} · page {page.index + 1}"


def _page_faces(kit: LangKit, paper: str, page) -> tuple[str, ...]:
    """The face keys a page is drawn from (beside its own imposition)."""
    if isinstance(page, PiecesPage):
        keys = [kit.headers[(page.component, paper)][page.sheet - 1].key] if page.header else []
        for f in page.faces:
            faces = kit.fronts if f.side == "front" else kit.backs
            keys.append(faces[(f.component, f.card)].key)
        return tuple(keys)
    if isinstance(page, BoardPage):
        return (kit.boards[page.component].key,)
    return (kit.sheets[(page.component, paper)][page.index].key,)


def _pages(kit: LangKit, sheets: Sheets, o: ViewOptions, stamp: str) -> list[PageItem]:
    items = []
    for n, file in enumerate(sheets.files):
        for number, page in enumerate(file.pages, start=1):
            pid = _digest("page", page, file.kind, file.layout, file.size, file.duplex, sheets.lang, sheets.paper,
                          _page_faces(kit, sheets.paper, page), o, SHEET_DPI, stamp)
            items.append(PageItem(pid, f"{n}/{number}", n, number, _page_title(page)))
    return items
