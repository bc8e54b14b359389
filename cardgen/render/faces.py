"""Rendering one language of a game: every face through its template, parsed into
layout ops and checked (glyph coverage, text fit, colours) before anything is drawn.

Identical renderings (one back for a whole deck) are parsed and checked once, and a
template bug that breaks every card is reported once, with a count.
"""

from __future__ import annotations

import functools
import hashlib
import json
import pickle
import sys
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from ..base.errors import CardgenError, Collector, ErrorList, Where, display_path
from ..impose.grid import SheetPlan
from ..impose.kitplan import deck_blocks, plan_decks
from ..impose.marks import EDGE_CLEARANCE
from ..impose.papers import PAPERS_MM
from ..layout.chain import link_flows
from ..layout.ops import Op, layout_choices, parse_layout
from ..layout.text import TextEngine
from ..load.locales import string_place
from ..model.components import Board, Card, Component, Deck
from ..model.game import Game
from ..model.pseudo import PSEUDO
from .bytecode import SignedBytecodeCache
from .cellhint import image_at_cell, with_cells, with_columns
from .facestore import open_store
from .fallback import mark_fallbacks
from .inkcheck import InkProbe
from .memo import FaceKeys, TemplateFacts
from .numberwords import count_helpers
from .placeholders import PlaceholderError
from .sandbox import TemplateLimitError, renderer_for, translator

SHEET_MARGIN_MM = 12.0


class Face:
    """A rendered face: its layout ops and the text it was rendered from (its identity).

    A language's faces all wait for the files that draw them, so each keeps its ops
    packed (pickled and compressed: a tenth of their size as live objects), with the
    fits of its texts (``fits``, :meth:`TextEngine.fits_of`, so that drawing it fits
    nothing again), and gives them back, equal, whenever they are asked for."""

    __slots__ = ("key", "_packed")
    key: str
    _packed: bytes

    def __init__(self, key: str, ops: tuple[Op, ...], fits: Mapping[tuple, Any] | None = None):
        packed = zlib.compress(pickle.dumps((tuple(ops), dict(fits or {})), pickle.HIGHEST_PROTOCOL), 1)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "_packed", packed)

    @property
    def ops(self) -> tuple[Op, ...]:
        return self.unpacked()[0]

    def unpacked(self) -> tuple[tuple[Op, ...], dict[tuple, Any]]:
        """The face's ops and the fits of its texts, as they were rendered."""
        return pickle.loads(zlib.decompress(self._packed))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Face is not changed: {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Face):
            return NotImplemented
        return self.key == other.key and (self._packed == other._packed or self.ops == other.ops)

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Face(key={self.key!r}, ops={self.ops!r})"

    def __reduce__(self):
        ops, fits = self.unpacked()
        return (Face, (self.key, ops, fits))


@dataclass(frozen=True)
class Rendered:
    """A face's rendered text and the locale strings it read, with their values then."""

    text: str
    strings: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True)
class FaceUse:
    """One rendering of a template, for whoever listens (the translators' catalogue):
    which strings it read, the texts ``t`` gave it (each with its key, placeholders
    filled; those of the shared context too, such as the game's name) and the faces
    it gave."""

    lang: str
    template: str
    label: str
    context: dict[str, Any]
    keys: tuple[str, ...]
    faces: tuple[Face, ...]
    printed: tuple[tuple[str, str], ...] = ()


@dataclass
class LangKit:
    """Everything rendered for one language."""

    lang: str
    fronts: dict[tuple[str, str], Face] = field(default_factory=dict)  # (component, card) -> face
    backs: dict[tuple[str, str], Face] = field(default_factory=dict)
    sheets: dict[tuple[str, str], list[Face]] = field(default_factory=dict)  # (component, paper) -> pages
    boards: dict[str, Face] = field(default_factory=dict)  # component -> the whole board, drawn once
    headers: dict[tuple[str, str], list[Face]] = field(default_factory=dict)  # (deck, paper) -> one per sheet


def chosen_pages(doc: Any, where: str, found: Collector, allow_pages: bool, text: TextEngine) -> list[tuple[Op, ...]]:
    """A rendered template's pages, its linked flows resolved: of its ``choices``, the
    first whose texts all fit (else the last, whose overflow the check reports)."""
    choices = layout_choices(doc, where, found)
    pages: list[tuple[Op, ...]] = []
    for n, choice in enumerate(choices):
        label = f"{where} choice {n + 1}" if len(choices) > 1 else where
        pages = link_flows(parse_layout(choice, label, found, allow_pages), text.flow_op, label, found)
        if n == len(choices) - 1 or all(text.all_fit(p) for p in pages):
            break
    return pages


def _template_line() -> tuple[str, int] | None:
    """The template and line whose code is running further up the stack (the caller of
    ``t()``, through ``plural()`` or a macro): Jinja's compiled code keeps its template
    in its globals and maps its own line numbers back to the template's."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            return template.name, template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return None


def _card_context(card: Card) -> dict[str, Any]:
    return {"id": card.id, "quantity": card.quantity, "variant": card.variant, **card.fields}


def _component_context(c: Component) -> dict[str, Any]:
    """What every template sees of each component: a deck's cards, size and shape; a
    board's size; a sheet has neither cards nor size."""
    cards = c.cards if isinstance(c, Deck) else ()
    size = c.size if isinstance(c, (Deck, Board)) else None
    shape = c.shape if isinstance(c, Deck) else "rect"
    return {"id": c.id, "count": sum(k.quantity for k in cards), "cards": [_card_context(k) for k in cards],
            "size": {"w": size[0], "h": size[1]} if size else None, "shape": shape}


class KitRenderer:
    """Renders and checks the faces and sheets of one game, language by language."""

    def __init__(self, game: Game, options, text: TextEngine):
        self.game = game
        self.opt = options
        self.text = text
        self._plans: dict[str, dict[str, SheetPlan]] | None = None  # the decks' sheet plans, once asked for
        self.renderer = renderer_for(game.template_dirs, game.palette)
        self.seen_errors: dict[tuple[str, str], int] = {}
        self._parsed: dict[tuple[str, str], list[Face]] = {}
        self._clean: set[tuple[str, str]] = set()  # parsed and checked without a problem
        self._exhausted: dict[str, tuple[str, str]] = {}  # template -> its budget error, for this language
        # The live preview keeps each face's rendered text with the strings it read, to
        # skip rendering the faces a locale edit did not touch (see ``adopt``).
        self.keep_renders = False
        self._renders: dict[tuple[str, str], Rendered] = {}  # (template, label) -> its last rendering
        self._reusable: dict[tuple[str, str], Rendered] = {}  # adopted: valid while their strings are
        self._strings: Mapping[str, str] = {}
        self._places: dict[tuple[str, str], str | None] = {}
        self._read: list[str] = []  # the string keys the current face has read so far
        self._printed: list[tuple[str, str]] = []  # ... and the texts t() gave it: (key, text as filled)
        self._base_printed: tuple[tuple[str, str], ...] = ()  # those of the shared context
        self._memo_printed: dict[str, tuple[tuple[str, str], ...]] = {}  # memo key -> the texts t() gave it
        self._base_read: frozenset[str] = frozenset()  # ... and those the shared context read
        self.on_face: Callable[[FaceUse], None] | None = None  # hears every rendered face
        # key -> the template lines whose t() looked it up, (template name, line), when a
        # listener asks for them (the translators' catalogue: PO's "#:" references)
        self.source_lines: dict[str, dict[tuple[str, int], None]] | None = None
        self.ink_probe: InkProbe | None = None  # a build with --ink-saver and no ink_saver colours: does it change?
        self._lang = ""
        # Faces whose inputs equal an earlier face's are not rendered again (render/memo.py):
        # their key -> (text, the string keys the rendering read), across languages.
        # With the face cache (options.cache), faces rendered by earlier builds are read
        # from the user's cache folder (render/facestore.py): keyed the same way, plus
        # what decides a rendering beyond one build.
        # A folder that is not the user's own and private is not used (store_problem says so).
        self.store, self.store_problem = open_store() if getattr(options, "cache", False) else (None, None)
        # compiled templates kept between builds, beside the faces (render/bytecode.py)
        env = self.renderer.env
        env.bytecode_cache = SignedBytecodeCache(self.store, env.facts) if self.store is not None else None
        if self.store is not None:
            self._digests: dict[str, str | None] = {}
            self._keys = FaceKeys(self.renderer.env.facts, self._source_digest, self._stored_facts)
        else:
            self._keys = FaceKeys(self.renderer.env.facts)
        self._palette = tuple(sorted(game.palette.items()))
        self._pending: tuple[str, tuple[str, ...]] | None = None  # the cache key of the face just rendered
        self._docs: dict[str, Any] = {}  # text -> its document, read from the cache
        self._reading = True  # off while a face whose cached entry failed is rendered afresh
        self._hit: tuple[str, str] | None = None  # (memo key, text) of the face just read from the cache
        self._facts_saved: set[str] = set()
        self._clean_docs: dict[tuple[str, str], Any] = {}  # (template, text) -> document, to store
        self._memo: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._base: dict[str, Any] = {}
        self._shared: dict[str, str] = {}
        self._lang_token = ""
        self._card: Card | None = None  # the card whose face is being rendered (for its cells)
        self._paths: dict[str, str] = {}  # template -> its file as errors name it, for this build

    def _line_of(self, template: str, where: Where) -> str | None:
        """The text of the template line an error names, when it is in ``template`` itself."""
        if where.line is None:
            return None
        for folder in self.renderer.dirs:
            path = folder / template
            if display_path(path) == where.path:
                try:
                    lines = path.read_text(encoding="utf-8").splitlines()
                except (OSError, UnicodeError):
                    return None
                return lines[where.line - 1] if 0 < where.line <= len(lines) else None
        return None

    def _base_context(self, lang: str, t, errors: Collector) -> dict[str, Any]:
        g = self.game
        rules_lang = g.languages[0] if lang == PSEUDO else lang
        try:
            name = t(g.name_key)
        except PlaceholderError:  # the game's name holds a {placeholder}: nothing can fill it
            errors.add(f"the game's name, string '{g.name_key}' in {lang}, holds a {{placeholder}} that nothing "
                       f"fills (write {{{{ and }}}} for a literal brace)", g.where)
            name = g.strings[lang].get(g.name_key, g.id)
        return {
            "game": {"id": g.id, "name": name, "players": list(g.players), "data": g.data},
            "palette": dict(g.palette),
            "lang": lang,
            "t": t,
            **count_helpers(g.strings[lang], lang, rules_lang, t),
            "ink_saver": self.opt.ink_saver,
            "components": {c.id: _component_context(c) for c in g.components},
        }

    def _face(self, template: str, ctx: dict[str, Any], label: str, errors: Collector,
              allow_pages: bool = False) -> list[Face]:
        self._read = []
        self._printed = []
        faces = self._rendered(template, ctx, label, errors, allow_pages)
        printed = tuple(dict.fromkeys([*self._printed, *self._base_printed]))
        fallbacks = self.game.fallbacks.get(self._lang)
        if fallbacks and self.opt.proof and faces:
            strings = self.game.strings[self._lang]
            heard = {k for k, _ in printed}
            texts = [text for k, text in printed if k in fallbacks]  # as printed, placeholders filled
            texts += [strings[k] for k in dict.fromkeys(self._read) if k in fallbacks and k not in heard]
            faces = [mark_fallbacks(f, texts) for f in faces]
        if self.on_face is not None:
            self.on_face(FaceUse(self._lang, template, label, ctx, tuple(dict.fromkeys(self._read)), tuple(faces),
                                 printed))
        if self.ink_probe is not None and faces:
            self.ink_probe.face(self.renderer.render_text, template, ctx, label)
        return faces

    def _rendered(self, template: str, ctx: dict[str, Any], label: str, errors: Collector,
                  allow_pages: bool) -> list[Face]:
        if self.store is None:
            return self._rendered_once(template, ctx, label, errors, allow_pages)
        before, seen = len(errors.errors), dict(self.seen_errors)
        self._hit = None
        faces = self._rendered_once(template, ctx, label, errors, allow_pages)
        hit, self._hit = self._hit, None
        if hit is None or (len(errors.errors) == before and self.seen_errors == seen):
            return faces
        # A cached face that does not parse or check (a damaged or forged entry: a fresh
        # rendering of the same inputs would not be stored so): forgotten, and rendered.
        del errors.errors[before:]
        self.seen_errors = seen
        key, text = hit
        self._memo.pop(key, None)
        self._parsed.pop((template, text), None)
        self._reading = False
        try:
            return self._rendered_once(template, ctx, label, errors, allow_pages)
        finally:
            self._reading = True

    def _rendered_once(self, template: str, ctx: dict[str, Any], label: str, errors: Collector,
                       allow_pages: bool) -> list[Face]:
        exhausted = self._exhausted.get(template)
        if exhausted is not None:  # it ran out of its budget on an earlier face: counted, not run again
            self.seen_errors[exhausted] = self.seen_errors.get(exhausted, 0) + 1
            return []
        self._pending = None
        try:
            text = self._render_text(template, ctx, label)
            pending, self._pending = self._pending, None
            cached = self._parsed.get((template, text))
            if cached is not None:  # identical rendering (one back for a whole deck): reuse
                if pending is not None and (template, text) in self._clean:  # other inputs, the same face
                    self._store_face(pending, template, text)
                return cached
            doc = self._docs.pop(text, None)
            if doc is None:
                doc = self.renderer.parse(text, template, label, self._template_path(template))
        except TemplateLimitError as exc:
            self._report_once(template, label, [exc], errors)
            self._exhausted[template] = self._error_key(template, label, exc)
            return []
        except CardgenError as exc:
            if self._card is not None and not isinstance(exc, ErrorList):
                line_of = functools.partial(self._line_of, template)
                exc = with_columns(with_cells(exc, self._card.cells, self._card.fields, line_of), self._card, line_of)
            self._report_once(template, label, exc.errors if isinstance(exc, ErrorList) else [exc], errors)
            return []
        where = f"{self._template_path(template)} [{label}]"  # the file first, as every error reads
        found = Collector()
        pages = chosen_pages(doc, where, found, allow_pages, self.text)
        for ops in pages:  # checked as rendered: the faces keep them packed, with their texts' fits
            self.text.check(ops, where, found, self._strings_in)
        if len(pages) == 1:
            faces = [Face(text, pages[0], self.text.fits_of(pages[0]))]
        else:  # each page's identity: its number and the text's digest (not a copy of the text per page)
            digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
            faces = [Face(f"{n}\n{digest}", ops, self.text.fits_of(ops)) for n, ops in enumerate(pages)]
        found.errors = [image_at_cell(e, self._card) for e in found.errors]
        self._report_once(template, label, found.errors, errors)
        self._parsed[(template, text)] = faces
        if not found.errors:
            self._clean.add((template, text))
            if self.store is not None:
                self._clean_docs[(template, text)] = doc
                if pending is not None:  # only a face without a problem is kept
                    self._store_face(pending, template, text)
        return faces

    def _template_path(self, template: str) -> str:
        """How errors name ``template``'s file: looked up once per build, not per face
        (a stat of each template folder and a path made relative to the cwd)."""
        path = self._paths.get(template)
        if path is None:
            path = self._paths[template] = self.renderer.template_path(template)
        return path

    def _store_face(self, pending: tuple[str, tuple[str, ...]], template: str, text: str) -> None:
        assert self.store is not None
        read = tuple((k, self._strings.get(k)) for k in dict.fromkeys(pending[1]))  # with their values now
        self.store.put_face(pending[0], text, read, self._clean_docs.get((template, text)))
        self._save_facts()

    def _render_text(self, template: str, ctx: dict[str, Any], label: str) -> str:
        """The face's text: rendered, or the adopted one when every string it read is unchanged."""
        old = self._reusable.get((template, label))
        if old is not None and all(self._strings.get(k) == v for k, v in old.strings):
            text = old.text
            self._read.extend(k for k, _ in old.strings)  # what it read when it was rendered
        else:
            text = self._memo_render(template, ctx, label)
            if not self.keep_renders:
                return text
            old = Rendered(text, tuple((k, self._strings.get(k)) for k in sorted({*self._read, *self._base_read})))
        if self.keep_renders:
            self._renders[(template, label)] = old
        return text

    def _memo_render(self, template: str, ctx: dict[str, Any], label: str) -> str:
        """The face's text, rendered unless a face with the same key was (render/memo.py)."""
        key = self._keys.key(template, ctx, self._base, self._language_token, self._shared)
        if key is not None:
            known = self._memo.get(key)
            if known is not None:
                self._read.extend(known[1])  # what the rendering read, for whoever listens
                self._printed.extend(self._memo_printed.get(key, ()))
                return known[0]
            if self.store is not None and self._reading:
                hit = self.store.face(self.store.face_key(key, self._palette))
                if hit is not None and all(self._strings.get(k) == v for k, v in hit[1]):
                    text, read, doc = hit
                    reads = tuple(k for k, _ in read)
                    self._read.extend(reads)
                    self._memo[key] = (text, reads)
                    self._hit = (key, text)
                    if doc is not None:
                        self._docs[text] = doc
                    return text
        start, start_printed = len(self._read), len(self._printed)
        text = self.renderer.render_text(template, ctx, label)
        if key is None:  # the templates it reaches are compiled now: a key if it has one
            key = self._keys.key(template, ctx, self._base, self._language_token, self._shared)
        if key is not None:
            reads = tuple(self._read[start:])
            self._memo[key] = (text, reads)
            self._memo_printed[key] = tuple(self._printed[start_printed:])
            if self.store is not None:
                self._pending = (self.store.face_key(key, self._palette), reads)
        return text

    def _source_digest(self, template: str) -> str | None:
        """The digest of a template's source as it is now (None: it cannot be read)."""
        if template not in self._digests:
            env = self.renderer.env
            try:
                source, _, _ = env.loader.get_source(env, template)  # type: ignore[union-attr]
                self._digests[template] = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
            except Exception:  # noqa: BLE001 - not found, outside the jail, not UTF-8: the rendering says which
                self._digests[template] = None
        return self._digests[template]

    def _stored_facts(self, digest: str) -> TemplateFacts | None:
        assert self.store is not None
        data = self.store.facts(digest)
        return TemplateFacts.from_json(data, digest) if data is not None else None

    def _save_facts(self) -> None:
        """Keep the facts of every template compiled so far in the face cache."""
        assert self.store is not None
        for facts in list(self.renderer.env.facts.values()):
            if facts.digest not in self._facts_saved:
                self._facts_saved.add(facts.digest)
                self.store.put_facts(facts.digest, facts.as_json())

    def facts_cached(self, templates) -> bool:
        """Whether the face cache knows the facts of each of ``templates`` as they are now
        (then a build need not compile them before its workers start)."""
        if self.store is None:
            return False
        for name in dict.fromkeys(templates):
            digest = self._source_digest(name)
            if digest is None or self.store.facts(digest) is None:
                return False
        return True

    def _language_token(self) -> str:
        """What stands for the language's ``t`` and count helpers in a face's key: the
        language, the language whose plural rules apply, a digest of which strings it
        has (the count helpers choose a form by the keys there are) and which of them
        are fallbacks. Not the strings' values: within a language they are fixed, and
        a cached face (render/facestore.py) keeps the values of the strings it read,
        which must be the same for it to be used."""
        if not self._lang_token:
            strings = sorted(self._strings)
            fallbacks = sorted(self.game.fallbacks.get(self._lang, ()))
            rules_lang = self.game.languages[0] if self._lang == PSEUDO else self._lang  # the plural rules
            text = json.dumps([self._lang, rules_lang, strings, fallbacks], ensure_ascii=False)
            self._lang_token = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        return self._lang_token

    def adopt(self, previous: KitRenderer, *, same_sources: bool = False) -> None:
        """Start from what ``previous`` did, for the live preview's renderings after a save.

        Faces ``previous`` parsed and checked without a problem are not parsed or checked
        again when their text comes out the same: only for the same fonts, palette and
        assets. With ``same_sources`` (nothing but locale strings changed: the same game
        data, templates and options, which the caller makes sure of), a face whose read
        strings all kept their values is not even rendered again (``keep_renders`` on
        ``previous`` kept them)."""
        for key in previous._clean:
            self._parsed[key] = previous._parsed[key]
            self._clean.add(key)
        if same_sources:  # adopting from several: the later one's renderings win
            self._reusable.update(previous._renders)

    def _report_once(self, template: str, label: str, found: list[CardgenError], errors: Collector) -> None:
        """One template bug breaks every card: each message is reported for its first
        face only, the others counted (the count ends the list). Messages that differ
        by more than the face's label, such as text too long for its box, all stay."""
        for exc in found:
            key = self._error_key(template, label, exc)
            if key in self.seen_errors:
                self.seen_errors[key] += 1
            else:
                self.seen_errors[key] = 0
                errors.extend(exc)

    @staticmethod
    def _error_key(template: str, label: str, exc: CardgenError) -> tuple[str, str]:
        return template, str(exc).replace(label, "…")

    def _render_headers(self, comp: Deck, header: str, base: dict[str, Any], lang: str, kit: LangKit,
                        errors: Collector) -> None:
        """A one-sided deck's header, once per sheet and paper: the template gets the
        page, the sheet's number and the box its pieces cover (``block``), from the
        imposition of the deck's pieces."""
        if self._plans is None:
            self._plans = plan_decks(self.game, self.opt.papers)
        for paper in self.opt.papers:
            pw, ph = PAPERS_MM[paper]
            blocks = deck_blocks(comp, self._plans[paper][comp.id])
            pages = kit.headers[(comp.id, paper)] = []
            for n, (x, y, w, h) in enumerate(blocks, start=1):
                ctx = {**base, "component": {"id": comp.id}, "paper": paper,
                       "page": {"w": pw, "h": ph, "margin": SHEET_MARGIN_MM, "edge": EDGE_CLEARANCE},
                       "sheet": {"n": n, "of": len(blocks)}, "block": {"x": x, "y": y, "w": w, "h": h}}
                faces = self._face(header, ctx, f"{comp.id} header, sheet {n} on {paper} [{lang}]", errors)
                if faces:
                    pages.append(faces[0])

    def _read_key(self, key: str) -> None:
        self._read.append(key)
        if self.source_lines is not None:
            line = _template_line()
            if line is not None:
                self.source_lines.setdefault(key, {})[line] = None

    def _printed_text(self, key: str, text: str) -> None:
        self._printed.append((key, text))

    def _strings_in(self, texts: list[str]) -> list[str]:
        """The keys of the strings a box's texts print: those ``t`` gave this face, or of
        the shared context (the game's name) when a text is that string alone."""
        own = [k for k, text in self._printed if text.strip() and any(text in t for t in texts)]
        whole = {t.strip() for t in texts}
        shared = [k for k, text in self._base_printed if text.strip() and text.strip() in whole]
        return list(dict.fromkeys(own + shared))

    def _string_place(self, lang: str, key: str) -> str | None:
        """Where the text ``t(key)`` printed in ``lang`` is written: the first
        language's file for the pseudo-language and a string that fell back."""
        written_in = self.game.languages[0] if lang == PSEUDO or key in self.game.fallbacks.get(lang, ()) else lang
        if (written_in, key) not in self._places:  # a bad string fails every face that prints it
            self._places[(written_in, key)] = string_place(self.game.root, written_in, key)
        return self._places[(written_in, key)]

    def render_lang(self, lang: str, errors: Collector, pieces_only: bool = False) -> LangKit:
        """Every face of ``lang``; with ``pieces_only`` only the cards' faces and the
        boards, no sheet and no header (the live preview's first look after a save)."""
        kit = LangKit(lang)
        self._exhausted.clear()
        self._lang = lang
        self._strings = self.game.strings[lang]
        self._read = []
        self._printed = []
        self._base_printed = ()
        t = translator(self._strings, lang, lambda key: None, self._read_key,
                       lambda key: self._string_place(lang, key), self._printed_text)
        base = self._base = self._base_context(lang, t, errors)
        self._base_printed = tuple(self._printed)
        self._shared = {}
        self._lang_token = ""
        self._base_read = frozenset(self._read)
        for comp in self.game.components:
            if isinstance(comp, Deck):
                w, h = comp.size
                geo = {"w": w, "h": h, "bleed": comp.bleed, "safe": comp.safe, "shape": comp.shape}
                for card in comp.cards:
                    for side, template, store in (("front", comp.front_of(card), kit.fronts),
                                                  ("back", comp.back_of(card), kit.backs)):
                        if template is None:
                            continue
                        ctx = {**base, "component": {"id": comp.id, **geo}, "card": _card_context(card),
                               "face": side, **geo}
                        label = f"{comp.id}/{card.id} {side} [{lang}]"
                        self._card = card
                        try:
                            faces = self._face(template, ctx, label, errors)
                        finally:
                            self._card = None
                        if faces:
                            store[(comp.id, card.id)] = faces[0]
                if comp.header and not pieces_only:
                    self._render_headers(comp, comp.header, base, lang, kit, errors)
            elif isinstance(comp, Board):
                w, h = comp.size
                geo = {"w": w, "h": h, "bleed": comp.bleed}
                ctx = {**base, "component": {"id": comp.id, "overlap": comp.overlap, **geo}, "face": "board", **geo}
                label = f"{comp.id} [{lang}]"
                faces = self._face(comp.template, ctx, label, errors)
                if faces:
                    kit.boards[comp.id] = faces[0]
            elif not pieces_only:
                for paper in self.opt.papers:
                    pw, ph = PAPERS_MM[paper]
                    ctx = {**base, "component": {"id": comp.id}, "paper": paper,
                           "page": {"w": pw, "h": ph, "margin": SHEET_MARGIN_MM, "edge": EDGE_CLEARANCE}}
                    label = f"{comp.id} on {paper} [{lang}]"
                    kit.sheets[(comp.id, paper)] = self._face(comp.template, ctx, label, errors, allow_pages=True)
        return kit

