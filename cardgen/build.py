"""The build: load → render every face → check all text → impose → write, atomically.

Everything is rendered and checked for every requested language before the first
byte is written, so a build either produces a complete kit or reports every
problem and leaves the previous kit untouched.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .errors import CardgenError, Collector, ErrorList, display_path
from .fonts import FontBook
from .impose import SheetPlan, Slot, back_slots, compact, marks_for, paginate, plan_gutterfold, plan_sheet
from .layout import Op, parse_layout
from .model import Card, Component, Game
from .paths import shipped_fonts_dir
from .render import renderer_for, translator
from .textcheck import TextEngine
from .units import PAPERS_MM, PT_PER_MM, mm_to_pt
from . import pdfout
from .draw import Painter

Progress = Callable[[str], None]


@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...] = ()  # empty: every language of the game
    papers: tuple[str, ...] = ("a4", "letter")
    duplex: str = "long"
    out_dir: Path = Path("output")
    ink_saver: bool = False
    jobs: int = 0  # worker processes for languages; 0 = one per core
    layout: str = "duplex"  # or "gutterfold": fronts and backs on one side, folded
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, added to every back page (x right, y down)
    proof: bool = False  # trim, bleed and safe-zone lines over every card


@dataclass(frozen=True)
class Face:
    """A rendered face: its layout ops and the text it was rendered from (its identity)."""

    key: str
    ops: tuple[Op, ...]


@dataclass
class LangKit:
    """Everything rendered for one language."""

    lang: str
    fronts: dict[tuple[str, str], Face] = field(default_factory=dict)  # (component, card) -> face
    backs: dict[tuple[str, str], Face] = field(default_factory=dict)
    sheets: dict[tuple[str, str], list[Face]] = field(default_factory=dict)  # (component, paper) -> pages


@dataclass(frozen=True)
class WrittenFile:
    name: str
    pages: int


def _card_context(card: Card) -> dict[str, Any]:
    return {"id": card.id, "quantity": card.quantity, **card.fields}


class KitBuilder:
    """Renders and writes one game's kit."""

    def __init__(self, game: Game, options: BuildOptions, progress: Progress | None = None):
        self.game = game
        self.opt = options
        self.progress = progress or (lambda msg: None)
        self.book = FontBook([game.root / "fonts", shipped_fonts_dir()])
        self.renderer = renderer_for(game.template_dirs, game.palette)
        self.text = TextEngine(self.book, game.fonts, game.root / "assets", game.palette)
        unknown = [l for l in options.langs if l not in game.languages]
        if unknown:
            raise CardgenError(
                f"game '{game.id}' has no language {', '.join(unknown)} (it has: {', '.join(game.languages)})"
            )
        for paper in options.papers:
            if paper not in PAPERS_MM:
                raise CardgenError(f"unknown paper '{paper}' (known: {', '.join(PAPERS_MM)})")
        self.langs = options.langs or game.languages
        self._seen_errors: dict[tuple[str, str], int] = {}
        self._parsed: dict[tuple[str, str], list[Face]] = {}

    # -- rendering ---------------------------------------------------------
    def _base_context(self, lang: str, t) -> dict[str, Any]:
        g = self.game
        return {
            "game": {"id": g.id, "name": t(g.name_key), "players": list(g.players), "data": g.data},
            "palette": dict(g.palette),
            "lang": lang,
            "t": t,
            "ink_saver": self.opt.ink_saver,
            "components": {
                c.id: {"id": c.id, "count": c.count, "cards": [_card_context(k) for k in c.cards],
                       "size": {"w": c.size[0], "h": c.size[1]} if c.size else None}
                for c in g.components
            },
        }

    def _face(self, template: str, ctx: dict[str, Any], label: str, errors: Collector,
              allow_pages: bool = False) -> list[Face]:
        try:
            text = self.renderer.render_text(template, ctx, label)
            cached = self._parsed.get((template, text))
            if cached is not None:  # identical rendering (one back for a whole deck): reuse
                return cached
            doc = self.renderer.parse(text, template, label)
        except CardgenError as exc:
            # one template bug breaks every card: report it once, with a count
            key = (template, str(exc).replace(label, "…"))
            if key in self._seen_errors:
                self._seen_errors[key] += 1
            else:
                self._seen_errors[key] = 0
                errors.extend(exc)
            return []
        pages = parse_layout(doc, f"{self.renderer.template_path(template)} [{label}]", errors, allow_pages)
        faces = [Face(text if len(pages) == 1 else f"{n}\n{text}", ops) for n, ops in enumerate(pages)]
        for face in faces:
            self.text.check(face.ops, label, errors)
        self._parsed[(template, text)] = faces
        return faces

    def render_lang(self, lang: str, errors: Collector) -> LangKit:
        kit = LangKit(lang)
        t = translator(self.game.strings[lang], lang, lambda key: None)
        base = self._base_context(lang, t)
        for comp in self.game.components:
            if comp.kind == "deck":
                w, h = comp.size
                geo = {"w": w, "h": h, "bleed": comp.bleed, "safe": comp.safe}
                for card in comp.cards:
                    for side, template, store in (("front", comp.front, kit.fronts), ("back", comp.back, kit.backs)):
                        if template is None:
                            continue
                        ctx = {**base, "component": {"id": comp.id, **geo}, "card": _card_context(card),
                               "face": side, **geo}
                        label = f"{comp.id}/{card.id} {side} [{lang}]"
                        faces = self._face(template, ctx, label, errors)
                        if faces:
                            store[(comp.id, card.id)] = faces[0]
            else:
                for paper in self.opt.papers:
                    pw, ph = PAPERS_MM[paper]
                    ctx = {**base, "component": {"id": comp.id}, "paper": paper,
                           "page": {"w": pw, "h": ph, "margin": 12.0}}
                    label = f"{comp.id} on {paper} [{lang}]"
                    kit.sheets[(comp.id, paper)] = self._face(comp.template, ctx, label, errors, allow_pages=True)
        return kit

    # -- the whole build ----------------------------------------------------
    def build(self) -> list[WrittenFile]:
        """Render, check and write every language into a temporary folder, then move
        the files into place only if every language succeeded."""
        errors = Collector()
        for name in self.game.fonts.values():
            try:
                self.book.register(name)
            except CardgenError as exc:
                errors.extend(exc)
        errors.raise_if_any()
        self._plans()  # a component too big for a paper fails before any work

        final_dir = self.opt.out_dir / self.game.id
        self.opt.out_dir.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{self.game.id}-building-", dir=self.opt.out_dir))
        try:
            jobs = min(self.opt.jobs or os.cpu_count() or 1, len(self.langs))
            if jobs > 1:
                self.renderer.warm(t for c in self.game.components for t in (c.front, c.back, c.template) if t)
                with ProcessPoolExecutor(max_workers=jobs) as pool:
                    futures = [pool.submit(_build_language_job, str(self.game.root), self.opt, lang, str(tmp))
                               for lang in self.langs]
                    outcomes = []
                    for lang, future in zip(self.langs, futures):
                        outcomes.append(future.result())
                        self.progress(f"{lang} rendered and written")
            else:
                outcomes = []
                for lang in self.langs:
                    self.progress(f"rendering and writing {lang}")
                    outcomes.append(self.build_language(lang, tmp))
            problems = [line for o in outcomes for line in o.errors]
            if problems:
                raise ErrorList([CardgenError(line) for line in problems])
            written = [f for o in outcomes for f in o.written]
            manifest = [e for o in outcomes for e in o.manifest]
            self._commit(tmp, final_dir, written, manifest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return written

    def build_language(self, lang: str, tmp: Path) -> "LangOutcome":
        """Render and check one language; write its files into ``tmp`` only if all is well."""
        errors = Collector()
        self._seen_errors.clear()
        kit = self.render_lang(lang, errors)
        repeats = sum(self._seen_errors.values())
        if repeats:
            errors.add(f"(the same template errors recur on {repeats} more face(s) in [{lang}], not listed)")
        if errors.errors:
            return LangOutcome([str(e) for e in errors.errors], [], [])
        plans = self._plans()
        written: list[WrittenFile] = []
        manifest: list[dict] = []
        for paper in self.opt.papers:
            written += self._write_paper_files(tmp, kit, paper, plans[paper], manifest)
        written += self._write_printshop(tmp, kit, manifest)
        return LangOutcome([], written, manifest)

    def _plans(self) -> dict[str, dict[str, SheetPlan]]:
        errors = Collector()
        plans: dict[str, dict[str, SheetPlan]] = {}
        for paper in self.opt.papers:
            plans[paper] = {}
            for comp in self.game.decks:
                try:
                    plans[paper][comp.id] = plan_sheet(
                        PAPERS_MM[paper], comp.size, comp.bleed, name=f"{self.game.id} {comp.id}", paper_name=paper
                    )
                except CardgenError as exc:
                    errors.add(exc.message, comp.where)
        errors.raise_if_any()
        return plans

    def _suffix(self) -> str:
        return ("-ink-saver" if self.opt.ink_saver else "") + ("-proof" if self.opt.proof else "")

    def _painter(self, c) -> Painter:
        return Painter(c, self.text, self.game.palette, self.game.root / "assets")

    def _draw_face_form(self, forms: pdfout.FormCache, painter: Painter, face: Face, comp: Component) -> str:
        w, h = comp.size
        b = comp.bleed
        def draw() -> None:
            painter.reset()
            painter.draw(face.ops)

        return forms.form(face.key, (-b, -b, w + b, h + b), draw)

    def _place_items(self, c, forms, painter, plan: SheetPlan, comp: Component, items: list[tuple[Card, int]],
                     faces: dict, slots: tuple[Slot, ...], side: str, offset: tuple[float, float] = (0.0, 0.0)
                     ) -> list[dict]:
        """Place each item's face form in its slot, clipped to the bleed it may show;
        returns the manifest records (positions as printed, offset included)."""
        occupied = {(s.col, s.row) for s in slots[: len(items)]}
        w, h = comp.size
        b = comp.bleed
        placed = []
        for (card, copy), slot in zip(items, slots):
            name = self._draw_face_form(forms, painter, faces[(comp.id, card.id)], comp)
            if plan.gutter > 0:
                clip = (slot.x - b, slot.y - b, slot.x + w + b, slot.y + h + b)
            else:  # butted: bleed only where no neighbour shares the cut line
                clip = (
                    slot.x - (0 if (slot.col - 1, slot.row) in occupied else b),
                    slot.y - (0 if (slot.col, slot.row - 1) in occupied else b),
                    slot.x + w + (0 if (slot.col + 1, slot.row) in occupied else b),
                    slot.y + h + (0 if (slot.col, slot.row + 1) in occupied else b),
                )
            pdfout.place(c, name, slot.x, slot.y, w, h, slot.rotation, clip)
            if self.opt.proof:
                pdfout.draw_proof(c, slot.x, slot.y, w, h, b, comp.safe)
            placed.append({"card": card.id, "copy": copy, "side": side, "slot": slot.index, "col": slot.col,
                           "row": slot.row, "x": round(slot.x + offset[0], 3), "y": round(slot.y + offset[1], 3),
                           "w": w, "h": h, "rotation": slot.rotation})
        return placed

    def _place_deck_page(self, c, forms, painter, plan: SheetPlan, comp: Component, items: list[tuple[Card, int]],
                         faces: dict, slots: tuple[Slot, ...], side: str, page_no: int, sheet_no: int,
                         entry: dict, offset: tuple[float, float] = (0.0, 0.0)) -> None:
        """One imposed page of one side: faces, crop marks, manifest record."""
        placed = self._place_items(c, forms, painter, plan, comp, items, faces, slots, side, offset)
        pdfout.draw_marks(c, marks_for(plan, slots[: len(items)]))
        entry["pages"].append({"page": page_no, "component": comp.id, "side": side, "sheet": sheet_no,
                               "items": placed})

    def _label(self, c, plan: SheetPlan, text: str) -> None:
        """A small grey line saying what the page is, placed where no crop mark runs:
        vertically in the left margin between two horizontal cut lines when a row is
        tall enough, else above the block's top marks."""
        font = self.text.font(None)
        size = 6.0
        ys = plan.cut_ys
        top, bottom = max(zip(ys, ys[1:]), key=lambda p: p[1] - p[0]) if len(ys) > 1 else (0.0, 0.0)
        block_top = min(s.y for s in plan.slots) - plan.bleed
        c.saveState()
        c.setFillColorRGB(0.35, 0.35, 0.35)
        if bottom - top >= 50 or block_top < 14:
            room = bottom - top - 4.0
            x = max((min(s.x for s in plan.slots) - plan.bleed) / 2, 2.5)
            c.translate(x, (top + bottom) / 2)
            c.rotate(-90)
            y = 0.8
        else:
            room = plan.paper[0] - 20.0
            c.translate(plan.paper[0] / 2, block_top - 9.0)
            y = 0.0
        while len(text) > 1 and self.book.string_width_mm(font, text, size) > room:
            text = text[:-2].rstrip() + "…"
        Painter(c, self.text, {}, None)._string(font, size / PT_PER_MM, 0, y, text, "center")
        c.restoreState()

    def _write_paper_files(self, tmp: Path, kit: LangKit, paper: str, plans: dict[str, SheetPlan],
                           manifest: list) -> list[WrittenFile]:
        """Per paper: the duplex cards file (two-sided decks) and the one-sided sheets file."""
        out = []
        game = self.game
        base = f"{game.id}-{kit.lang}-{paper}"
        if any(c.back for c in game.decks) and self.opt.layout == "gutterfold":
            out.append(self._write_gutterfold_file(tmp / f"{base}-cards-gutterfold{self._suffix()}.pdf", kit, paper,
                                                   manifest))
        elif any(c.back for c in game.decks):
            dup = "" if self.opt.duplex == "long" else "-short-edge"
            out.append(self._write_cards_file(tmp / f"{base}-cards{dup}{self._suffix()}.pdf", kit, paper, plans,
                                              manifest))
        if any(c.kind == "sheet" or not c.back for c in game.components):
            out.append(self._write_sheets_file(tmp / f"{base}-sheets{self._suffix()}.pdf", kit, paper, plans,
                                               manifest))
        return out

    def _component_name(self, comp: Component, lang: str) -> str:
        return self.game.strings[lang].get(comp.name_key, comp.id) if comp.name_key else comp.id

    def _write_cards_file(self, path: Path, kit: LangKit, paper: str, plans: dict[str, SheetPlan],
                          manifest: list) -> WrittenFile:
        """Each sheet of fronts followed by its sheet of backs, mirrored for the duplex flip."""
        game, paper_mm = self.game, PAPERS_MM[paper]
        self.progress(f"writing {path.name}")
        c = pdfout.new_canvas(path, paper_mm, self.book.register(self.text.font(None)),
                              f"{game.name(kit.lang)} — cards ({paper})", self.opt.duplex)
        forms, painter = pdfout.FormCache(c), self._painter(c)
        entry = {"file": path.name, "lang": kit.lang, "paper": paper, "kind": "cards", "duplex": self.opt.duplex,
                 "back_offset": list(self.opt.back_offset), "pages": []}
        n_pages = 0
        for comp in (d for d in game.decks if d.back):
            plan = plans[comp.id]
            items = [(card, k) for card in comp.cards for k in range(card.quantity)]
            chunks = paginate(len(items), plan.per_sheet)
            backs = back_slots(plan, self.opt.duplex)
            for n, rng in enumerate(chunks, start=1):
                chunk = [items[i] for i in rng]
                for side, faces, slots in (("front", kit.fronts, plan.slots), ("back", kit.backs, backs)):
                    n_pages += 1
                    offset = self.opt.back_offset if side == "back" else (0.0, 0.0)
                    with pdfout.page(c, paper_mm[1]):
                        c.translate(*offset)  # the printer's measured misregistration, undone
                        self._place_deck_page(c, forms, painter, plan, comp, chunk, faces, slots, side, n_pages, n,
                                              entry, offset)
                        shifted = f" · backs shifted {offset[0]:g},{offset[1]:g} mm" if any(offset) else ""
                        self._label(c, plan, f"{game.name(kit.lang)} · {self._component_name(comp, kit.lang)} · "
                                             f"{side} {n}/{len(chunks)} · {paper.upper()} · 100% · "
                                             f"duplex {self.opt.duplex}-edge{shifted}")
        c.save()
        manifest.append(entry)
        return WrittenFile(path.name, n_pages)

    def _write_gutterfold_file(self, path: Path, kit: LangKit, paper: str, manifest: list) -> WrittenFile:
        """Fronts and mirrored backs on one side of landscape sheets, to fold and glue: no duplex needed."""
        game = self.game
        self.progress(f"writing {path.name}")
        entry = {"file": path.name, "lang": kit.lang, "paper": paper, "kind": "cards", "layout": "gutterfold",
                 "duplex": None, "pages": []}
        c = None
        n_pages = 0
        for comp in (d for d in game.decks if d.back):
            fold = plan_gutterfold(PAPERS_MM[paper], comp.size, comp.bleed, name=f"{game.id} {comp.id}",
                                   paper_name=paper)
            plan = fold.plan
            if c is None:
                c = pdfout.new_canvas(path, plan.paper, self.book.register(self.text.font(None)),
                                      f"{game.name(kit.lang)} — cards, gutterfold ({paper})", None)
                forms, painter = pdfout.FormCache(c), self._painter(c)
            items = [(card, k) for card in comp.cards for k in range(card.quantity)]
            chunks = paginate(len(items), plan.per_sheet)
            for n, rng in enumerate(chunks, start=1):
                chunk = [items[i] for i in rng]
                n_pages += 1
                with pdfout.page(c, plan.paper[1]):
                    placed = self._place_items(c, forms, painter, plan, comp, chunk, kit.fronts, plan.slots, "front")
                    placed += self._place_items(c, forms, painter, plan, comp, chunk, kit.backs, fold.backs, "back")
                    pdfout.draw_marks(c, marks_for(plan, plan.slots[: len(chunk)] + fold.backs[: len(chunk)]))
                    pdfout.draw_fold_marks(c, fold.fold_marks)
                    self._label(c, plan, f"{game.name(kit.lang)} · {self._component_name(comp, kit.lang)} · "
                                         f"{n}/{len(chunks)} · {paper.upper()} · 100% · fold on the dashed line")
                entry["pages"].append({"page": n_pages, "component": comp.id, "side": "gutterfold", "sheet": n,
                                       "fold_x": fold.fold_x, "items": placed})
        c.save()
        manifest.append(entry)
        return WrittenFile(path.name, n_pages)

    def _write_sheets_file(self, path: Path, kit: LangKit, paper: str, plans: dict[str, SheetPlan],
                           manifest: list) -> WrittenFile:
        """Sheet components (rules, setup…) and one-sided decks (stickers, tokens), in game order."""
        game, paper_mm = self.game, PAPERS_MM[paper]
        self.progress(f"writing {path.name}")
        c = pdfout.new_canvas(path, paper_mm, self.book.register(self.text.font(None)),
                              f"{game.name(kit.lang)} — sheets ({paper})", None)
        forms, painter = pdfout.FormCache(c), self._painter(c)
        entry = {"file": path.name, "lang": kit.lang, "paper": paper, "kind": "sheets", "duplex": None, "pages": []}
        n_pages = 0
        for comp in game.components:
            if comp.kind == "sheet":
                for face in kit.sheets[(comp.id, paper)]:
                    n_pages += 1
                    with pdfout.page(c, paper_mm[1]):
                        painter.reset()
                        painter.draw(face.ops)
                    entry["pages"].append({"page": n_pages, "component": comp.id, "side": "sheet", "items": []})
            elif not comp.back:
                plan = plans[comp.id]
                items = [(card, k) for card in comp.cards for k in range(card.quantity)]
                chunks = paginate(len(items), plan.per_sheet)
                for n, rng in enumerate(chunks, start=1):
                    n_pages += 1
                    page_plan = compact(plan, len(rng))
                    with pdfout.page(c, paper_mm[1]):
                        self._place_deck_page(c, forms, painter, page_plan, comp, [items[i] for i in rng],
                                              kit.fronts, page_plan.slots, "front", n_pages, n, entry)
                        self._label(c, page_plan, f"{game.name(kit.lang)} · {self._component_name(comp, kit.lang)}"
                                                  f" · {n}/{len(chunks)} · {paper.upper()} · 100%")
        c.save()
        manifest.append(entry)
        return WrittenFile(path.name, n_pages)

    def _write_printshop(self, tmp: Path, kit: LangKit, manifest: list) -> list[WrittenFile]:
        """One card face per page, trim + bleed, TrimBox and BleedBox set: front, back, front, back…"""
        pages = [
            (comp, card.id, k, side, faces[(comp.id, card.id)])
            for comp in self.game.decks if comp.printshop
            for card in comp.cards
            for k in range(card.quantity)
            for side, faces in (("front", kit.fronts), ("back", kit.backs))
            if (comp.id, card.id) in faces
        ]
        if not pages:
            return []
        name = f"{self.game.id}-{kit.lang}-printshop{self._suffix()}.pdf"
        self.progress(f"writing {name}")
        entry = self.write_face_pages(tmp / name, pages, f"{self.game.name(kit.lang)} — print-shop file")
        entry.update({"lang": kit.lang, "paper": None, "kind": "printshop", "duplex": None})
        manifest.append(entry)
        return [WrittenFile(name, len(pages))]

    def write_face_pages(self, path: Path, pages: list[tuple[Component, str, int, str, Face]], title: str) -> dict:
        """A PDF with one face per page, each page the card plus its bleed, TrimBox and
        BleedBox set (print shops, PNG exports); returns its manifest entry."""
        comp0 = pages[0][0]
        first = (comp0.size[0] + 2 * comp0.bleed, comp0.size[1] + 2 * comp0.bleed)
        c = pdfout.new_canvas(path, first, self.book.register(self.text.font(None)), title, None)
        forms, painter = pdfout.FormCache(c), self._painter(c)
        entry: dict = {"file": path.name, "pages": []}
        for n, (comp, card_id, copy, side, face) in enumerate(pages, start=1):
            w, h = comp.size
            b = comp.bleed
            pw, ph = w + 2 * b, h + 2 * b
            c.setPageSize((mm_to_pt(pw), mm_to_pt(ph)))
            c.setTrimBox((mm_to_pt(b), mm_to_pt(b), mm_to_pt(b + w), mm_to_pt(b + h)))
            c.setBleedBox((0, 0, mm_to_pt(pw), mm_to_pt(ph)))
            with pdfout.page(c, ph):
                form = self._draw_face_form(forms, painter, face, comp)
                pdfout.place(c, form, b, b, w, h, 0, (0, 0, pw, ph))
                if self.opt.proof:
                    pdfout.draw_proof(c, b, b, w, h, b, comp.safe)
            entry["pages"].append({"page": n, "component": comp.id, "side": side, "items": [
                {"card": card_id, "copy": copy, "side": side, "slot": 0, "x": b, "y": b, "w": w, "h": h,
                 "rotation": 0}]})
        c.save()
        return entry

    def _commit(self, tmp: Path, final_dir: Path, written: list[WrittenFile], manifest: list) -> None:
        """Move the finished files into place, one atomic rename each, then the manifest."""
        final_dir.mkdir(parents=True, exist_ok=True)
        manifest_path = final_dir / "manifest.json"
        old_files = []
        if manifest_path.is_file():
            try:
                old = json.loads(manifest_path.read_text(encoding="utf-8"))
                new_names = {f.name for f in written}
                old_files = [e for e in old.get("files", [])
                             if e.get("file") not in new_names and (final_dir / e.get("file", "")).is_file()]
            except (OSError, ValueError, AttributeError):
                old_files = []
        doc = {"game": self.game.id, "format": 1,
               "decks": {c.id: {"cards": {k.id: k.quantity for k in c.cards}, "two_sided": bool(c.back)}
                         for c in self.game.decks},
               "files": sorted(old_files + manifest, key=lambda e: e["file"])}
        (tmp / "manifest.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                                           encoding="utf-8")
        for f in written:
            os.replace(tmp / f.name, final_dir / f.name)
        os.replace(tmp / "manifest.json", manifest_path)


@dataclass(frozen=True)
class LangOutcome:
    """What building one language gave: its problems, or its files and manifest entries."""

    errors: list[str]
    written: list[WrittenFile]
    manifest: list[dict]


def _build_language_job(root: str, options: BuildOptions, lang: str, tmp: str) -> LangOutcome:
    """One language in a worker process (the game is reloaded there: models hold read-only views)."""
    from .loader import load_game

    try:
        return KitBuilder(load_game(root), options).build_language(lang, Path(tmp))
    except CardgenError as exc:
        return LangOutcome(exc.lines(), [], [])


def build_game(game: Game, options: BuildOptions, progress: Progress | None = None) -> tuple[Path, list[WrittenFile]]:
    builder = KitBuilder(game, options, progress)
    written = builder.build()
    return options.out_dir / game.id, written
