"""Where each string is used and how much room it has, learnt by rendering.

A template may build a key (``t("family." ~ fam.id ~ ".god")``), so reading templates
cannot say which faces use which string. Instead every face of a language is rendered
as a build would, listening to the texts ``t`` gives each face, placeholders filled
with the values the face prints (``Region of 4 tiles``, not ``Region of {n} tiles``);
the text boxes that hold a string's text give its room, and fitting them (as the
build's check does) says which strings are too long, on which paper, and by how much.
A box too small for its text that holds no string is reported too, with its text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import CardgenError, Collector
from ..base.units import pt_to_mm
from ..impose.papers import PAPERS_MM
from ..layout.inline import plain
from ..layout.ops import Op, leaf_ops
from ..model.game import Game
from ..model.plural_categories import CATEGORIES
from ..pipeline import BuildOptions, KitBuilder
from ..render.faces import FaceUse
from ..render.fallback import texts_of

_SAMPLE = "the quick brown fox jumps over a lazy dog, 0123 ETAOIN"


@dataclass(frozen=True)
class Room:
    """A box a string is set in."""

    w: float
    h: float
    size: float
    min_size: float
    chars: int  # roughly how many characters fit at the minimum size
    shared: bool  # the box holds other text too (a flow, or a string joined with others)

    def describe(self) -> str:
        shared = ", shared with other text" if self.shared else ""
        return (f"{round(self.w, 1):g}×{round(self.h, 1):g} mm at {self.size:g} pt (down to {self.min_size:g} pt), "
                f"about {self.chars} characters{shared}")


@dataclass(frozen=True)
class Overflow:
    """A box whose text does not fit even at its minimum size."""

    label: str
    paper: str | None
    overflow: float  # how much too long, as a fraction
    box: str
    text: str = ""  # what the box prints


@dataclass
class Usage:
    """What rendering one language found, per key."""

    lang: str
    uses: dict[str, list[str]] = field(default_factory=dict)  # key -> where it is used (one line each)
    rooms: dict[str, Room] = field(default_factory=dict)  # key -> its tightest box
    overflows: dict[str, list[Overflow]] = field(default_factory=dict)
    unclaimed: list[Overflow] = field(default_factory=list)  # boxes too small whose text is no string
    problems: list[str] = field(default_factory=list)  # whatever else would stop a build (one line each)
    sources: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # key -> (template, line) of its t()

    def used(self, key: str) -> bool:
        if key in self.uses:
            return True
        stem, _, last = key.rpartition(".")
        return last in CATEGORIES and any(f"{stem}.{c}" in self.uses for c in CATEGORIES)


def _leaves(ops: tuple[Op, ...]):
    return (op for op in leaf_ops(ops) if op.kind in ("text", "flow"))


def _where(use: FaceUse) -> str:
    """A face as a translator reads it: its template, component and side."""
    comp = use.context.get("component", {}).get("id", "?")
    side = use.context.get("face") or "sheet"
    return f"{use.template}: {comp} {side}"


class _Listener:
    def __init__(self, game: Game, builder: KitBuilder, lang: str):
        self.strings = game.strings[lang]
        self.text = builder.text
        self.usage = Usage(lang)
        self.cards: dict[tuple[str, str], list[str]] = {}
        self.avg: dict[tuple[str, float], float] = {}

    def _avg_width(self, font: str, size: float) -> float:
        key = (font, size)
        if key not in self.avg:
            self.avg[key] = self.text.book.string_width_mm(font, _SAMPLE, size) / len(_SAMPLE)
        return self.avg[key]

    def _room(self, op: Op, shared: bool, longer_by: int = 0) -> Room:
        """The room of ``op``; ``longer_by``: how many more characters the text prints
        than its string has (placeholders filled with longer values), which the string
        has less room for."""
        a = op.args
        size = a.get("size") or 9.0
        min_size = min(a.get("min_size") or size, size)
        font = self.text.font(a.get("font"))
        line_h = pt_to_mm(min_size * a.get("line_height", 1.2 if op.kind == "text" else 1.25))
        lines = max(1, int(a["h"] // line_h)) if line_h > 0 else 1
        if a.get("max_lines"):
            lines = min(lines, int(a["max_lines"]))
        per_line = int(a["w"] * (a.get("columns") or 1) // max(self._avg_width(font, min_size), 1e-6))
        return Room(a["w"], a["h"], size, min_size, max(1, max(1, per_line) * lines - longer_by),
                    shared or op.kind == "flow")

    def _fits(self, op: Op) -> tuple[bool, float]:
        try:
            result = self.text.fit_op(op) if op.kind == "text" else self.text.flow_op(op)
        except CardgenError:
            return True, 0.0  # a missing glyph, reported by the check
        return result.fits, result.overflow

    def _printed(self, use: FaceUse) -> dict[str, list[str]]:
        """Each key's texts as this face printed them (placeholders filled); a key read
        without a text heard (a face the live preview reused) as it is written."""
        printed: dict[str, list[str]] = {}
        for key, text in use.printed:
            if text.strip() and text not in printed.setdefault(key, []):
                printed[key].append(text)
        for key in use.keys:
            if key not in printed and self.strings.get(key, "").strip():
                printed[key] = [self.strings[key]]
        return printed

    def _note_use(self, key: str, where: str, card: str | None) -> None:
        lines = self.usage.uses.setdefault(key, [])
        if where not in lines:
            lines.append(where)
        if card:
            self.cards.setdefault((key, where), []).append(card)

    def __call__(self, use: FaceUse) -> None:
        where = _where(use)
        card = use.context.get("card", {}).get("id")
        own = set(use.keys)
        for key in use.keys:
            self._note_use(key, where, card)
        printed = self._printed(use)
        for face in use.faces:
            for op in _leaves(face.ops):
                texts = texts_of(op)
                whole = {plain(text).strip() for text in texts}
                found: dict[str, str] = {}
                for key, options in printed.items():
                    for text in options:
                        # A string of the shared context (the game's name) is the face's only as a whole box.
                        if any(text in t for t in texts) if key in own else plain(text).strip() in whole:
                            found[key] = text
                            break
                fits, overflow = self._fits(op)
                box = f"{round(op.args['w'], 1):g}×{round(op.args['h'], 1):g} mm"
                if not found and not fits:
                    self.usage.unclaimed.append(Overflow(use.label, use.context.get("paper"), overflow, box,
                                                         " / ".join(texts)))
                for key, text in found.items():
                    if key not in own:
                        self._note_use(key, where, card)
                    shared = plain(text).strip() not in whole  # bold or an icon round it is no other text
                    room = self._room(op, shared, len(text) - len(self.strings.get(key, text)))
                    known = self.usage.rooms.get(key)
                    if known is None or room.chars < known.chars:
                        self.usage.rooms[key] = room
                    if not fits:
                        self.usage.overflows.setdefault(key, []).append(Overflow(
                            use.label, use.context.get("paper"), overflow, box, text))

    def finish(self) -> Usage:
        for (key, where), cards in self.cards.items():
            lines = self.usage.uses[key]
            shown = ", ".join(dict.fromkeys(cards[:4])) + (", …" if len(set(cards)) > 4 else "")
            lines[lines.index(where)] = f"{where} (cards {shown}; {len(set(cards))} in all)"
        return self.usage


def render_usage(game: Game, lang: str) -> Usage:
    """Render every face of ``lang`` on every paper, listening: where each string is
    used, its room, and which boxes overflow. ``game`` is loaded with every variant."""
    options = BuildOptions(langs=(lang,), papers=tuple(PAPERS_MM), jobs=1, variants=game.variants)
    builder = KitBuilder(game, options)
    listener = _Listener(game, builder, lang)
    builder.renderer.on_face = listener
    builder.renderer.source_lines = {}
    errors = Collector()
    builder.register_fonts(errors)
    if not errors.errors:
        builder.render_lang(lang, errors)
    usage = listener.finish()
    usage.sources = {key: list(lines) for key, lines in builder.renderer.source_lines.items()}
    usage.problems = [str(e) for e in errors.errors if "does not fit" not in e.message]
    return usage


__all__ = ["Overflow", "Room", "Usage", "render_usage"]
