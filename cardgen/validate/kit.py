"""The built kit against the deck: the manifest, the PDFs, counts and duplex backs.

``cardgen build`` writes ``manifest.json`` beside the PDFs: per file, its language,
paper, kind (cards / sheets / printshop), duplex mode and pages, each page with
the items placed on it (card, copy, slot, position and size in mm, rotation). This
module checks, for any game:

* every file the manifest lists exists and is a PDF with the listed page count
  (and page size);
* the manifest's decks agree with the game's decks;
* each cards file prints every card of every two-sided deck as many times as
  the deck says, each sheets file every card of every one-sided deck and every
  sheet, each print-shop file every card of every print-shop deck;
* every front has its back on the page right after it, at the mirrored place
  (long edge: x_back = paper_w − x − w; short edge: y_back = paper_h − y − h and
  turned 180°);
* every language (and every paper the kit was built for) is present.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Where, display_path
from ..model.components import Deck
from ..model.game import Game
from ..units import PAPERS_MM, mm_to_pt

TOL_MM = 0.01
TOL_PT = 0.5


@dataclass
class KitResult:
    folder: str
    passed: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class _Bad(Exception):
    """A malformed manifest entry."""


def _get(d: Any, key: str, types: tuple[type, ...], what: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise _Bad(f"{what} has no '{key}'")
    value = d[key]
    if not isinstance(value, types) or isinstance(value, bool) and bool not in types:
        raise _Bad(f"{what}: '{key}' has the wrong type ({type(value).__name__})")
    return value


def _num(d: Any, key: str, what: str) -> float:
    return float(_get(d, key, (int, float), what))


def read_manifest(folder: Path) -> dict[str, Any]:
    if not folder.is_dir():
        raise CardgenError(f"kit folder '{display_path(folder)}' not found")
    path = folder / "manifest.json"
    label = display_path(path)
    if not path.is_file():
        raise CardgenError(f"no manifest.json in '{display_path(folder)}': build the kit first (cardgen build)",
                           Where(label))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise CardgenError(f"not UTF-8 text (byte {exc.start})", Where(label)) from None
    except json.JSONDecodeError as exc:
        raise CardgenError(f"not valid JSON: {exc.msg}", Where(label, exc.lineno, exc.colno)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("files"), list) or not isinstance(doc.get("decks"), dict):
        raise CardgenError("not a cardgen kit manifest (it needs 'game', 'decks' and 'files')", Where(label))
    return doc


def _pdf_pages(path: Path) -> list[tuple[float, float]]:
    """Page sizes (width, height in points) of a PDF; raises ValueError when unreadable.

    Read with pypdfium2, which cardgen already needs for its PNG exports, so that
    checking a kit needs nothing beyond what ``pip install cardgen`` brings."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except (pdfium.PdfiumError, OSError, ValueError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None
    try:
        return [tuple(float(v) for v in pdf.get_page_size(i)) for i in range(len(pdf))]
    except (pdfium.PdfiumError, ValueError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None
    finally:
        pdf.close()


def check_kit(game: Game, folder: Path, langs: tuple[str, ...] = ()) -> KitResult:
    """Check a built kit folder against the game; every problem is one line naming its file."""
    doc = read_manifest(folder)
    res = KitResult(display_path(folder))
    label = display_path(folder / "manifest.json")
    if doc.get("game") != game.id:
        res.problems.append(f"{label}: the kit is of game {doc.get('game')!r}, not '{game.id}'")
    if doc.get("format") != 1:
        res.problems.append(f"{label}: manifest format {doc.get('format')!r} is not one this cardgen reads (1)")
    built = doc.get("variants", [])
    if not isinstance(built, list) or sorted(map(str, built)) != sorted(game.variants):
        hint = " ".join(f"--variant {v}" for v in built) if isinstance(built, list) and built else "no --variant"
        res.problems.append(f"{label}: the kit was built with variants {built!r}, this check expects"
                            f" {sorted(game.variants)!r} (validate with {hint})")
        return res  # every card and page would differ for this one reason: say it once

    # -- decks: the manifest's record against the game ------------------------------
    decks = {c.id: c for c in game.decks}
    for comp in game.decks:
        rec = doc["decks"].get(comp.id)
        want = {k.id: k.quantity for k in comp.cards}
        if not isinstance(rec, dict) or not isinstance(rec.get("cards"), dict):
            res.problems.append(f"{label}: deck '{comp.id}' is not recorded")
            continue
        have = rec["cards"]
        for cid in sorted(set(want) | set(have)):
            if have.get(cid) != want.get(cid):
                res.problems.append(f"{label}: deck '{comp.id}' records card '{cid}' ×{have.get(cid, 0)}, the game"
                                    f" has ×{want.get(cid, 0)}")
    for extra in sorted(set(doc["decks"]) - set(decks)):
        res.problems.append(f"{label}: records a deck '{extra}' the game does not have")

    # -- each file --------------------------------------------------------------------
    present: Counter = Counter()  # (lang, paper, kind) -> files
    names = Counter()
    for i, entry in enumerate(doc["files"]):
        what = f"{label}: files[{i}]"
        try:
            name = _get(entry, "file", (str,), what)
            names[name] += 1
            if names[name] > 1:
                res.problems.append(f"{label}: '{name}' is listed twice")
                continue
            if "/" in name or "\\" in name or name.startswith(".."):
                raise _Bad(f"file name {name!r} must be a plain name inside the kit folder")
            kind = _get(entry, "kind", (str,), what)
            lang = _get(entry, "lang", (str,), what)
            present[(lang, entry.get("paper"), kind)] += 1
            problems_before = len(res.problems)
            info = _check_file(game, folder, entry, name, kind, lang, res)
            res.files.append({"file": name, "kind": kind, "lang": lang, "paper": entry.get("paper"),
                              "pages": info, "ok": len(res.problems) == problems_before})
        except _Bad as exc:
            res.problems.append(f"{what}: {exc}")

    # -- every language, every paper ---------------------------------------------------
    want_langs = langs or game.languages
    for lang in sorted({k[0] for k in present} - set(game.languages)):
        res.problems.append(f"{label}: files in language '{lang}', which the game does not have")
    papers = sorted({k[1] for k in present if k[1] is not None and k[0] in game.languages})
    two_sided = [c for c in game.decks if c.back]
    one_sided = [c for c in game.decks if not c.back]
    needs = []
    if two_sided:
        needs.append("cards")
    if one_sided or game.sheets or game.boards:
        needs.append("sheets")
    if not papers and needs:
        res.problems.append(f"{label}: the kit has no files for any paper")
    for lang in want_langs:
        for paper in papers:
            for kind in needs:
                if not present[(lang, paper, kind)]:
                    res.problems.append(f"{res.folder}: language '{lang}' has no {kind} file for {paper}")
        if any(c.printshop for c in game.decks) and not present[(lang, None, "printshop")]:
            res.problems.append(f"{res.folder}: language '{lang}' has no print-shop file")
        if game.boards and present[(lang, None, "board")] < len(game.boards):
            res.problems.append(f"{res.folder}: language '{lang}' lacks a full-size board file")
    if res.ok:
        pages = sum(f["pages"] or 0 for f in res.files)
        res.passed.append(f"{len(res.files)} file(s), {pages} page(s): every file present, page counts and sizes"
                          " as the manifest says")
        res.passed.append(f"every card printed as many times as its deck says, in every file"
                          f" ({', '.join(f'{c.id} ×{c.count}' for c in game.decks)})")
        if two_sided:
            res.passed.append("every front has its back at the mirrored place (on the next page, or across the fold)")
        res.passed.append(f"languages {', '.join(want_langs)}; papers {', '.join(papers) or '—'}")
    return res


def _check_file(game: Game, folder: Path, entry: dict, name: str, kind: str, lang: str, res: KitResult) -> int | None:
    where = f"{display_path(folder / name)}"
    pages = _get(entry, "pages", (list,), f"'{name}'")
    paper = entry.get("paper")
    if kind in ("cards", "sheets"):
        if paper not in PAPERS_MM:
            raise _Bad(f"'{name}': unknown paper {paper!r}")
    elif kind not in ("printshop", "board"):
        raise _Bad(f"'{name}': unknown kind {kind!r}")
    if lang not in game.languages:
        return len(pages)

    # the PDF itself
    path = folder / name
    if not path.is_file():
        res.problems.append(f"{where}: listed in the manifest but missing from the kit")
        sizes = None
    else:
        try:
            sizes = _pdf_pages(path)
        except ValueError as exc:
            res.problems.append(f"{where}: cannot be read as a PDF ({exc})")
            sizes = None
    if sizes is not None and len(sizes) != len(pages):
        res.problems.append(f"{where}: the PDF has {len(sizes)} page(s), the manifest lists {len(pages)}")
    numbers = [p.get("page") if isinstance(p, dict) else None for p in pages]
    if numbers != list(range(1, len(pages) + 1)):
        res.problems.append(f"{where}: the manifest's pages are not numbered 1 to {len(pages)}")

    decks = {c.id: c for c in game.decks}
    duplex = entry.get("duplex")
    layout = entry.get("layout", "duplex")
    offset = (0.0, 0.0)
    if kind == "cards":
        expected_decks = [c for c in game.decks if c.back]
        if layout == "gutterfold":
            pass
        elif layout != "duplex":
            raise _Bad(f"'{name}': unknown layout {layout!r}")
        elif duplex not in ("long", "short"):
            raise _Bad(f"'{name}': duplex must be 'long' or 'short', found {duplex!r}")
        else:
            raw = entry.get("back_offset", [0.0, 0.0])
            if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, (int, float)) for v in raw)):
                raise _Bad(f"'{name}': back_offset must be [x, y] in mm, found {raw!r}")
            offset = (float(raw[0]), float(raw[1]))
    elif kind == "sheets":
        expected_decks = [c for c in game.decks if not c.back]
    elif kind == "board":
        expected_decks = []
    else:
        expected_decks = [c for c in game.decks if c.printshop]
    counts: Counter = Counter()  # (component, card) -> fronts
    fronts: dict[int, dict] = {}
    sheet_pages: Counter = Counter()
    for i, page in enumerate(pages):
        pw = f"'{name}' page {i + 1}"
        if not isinstance(page, dict):
            raise _Bad(f"{pw} is not a mapping")
        side = _get(page, "side", (str,), pw)
        comp_id = _get(page, "component", (str,), pw)
        if side == "sheet":
            sheet_pages[comp_id] += 1
            if kind == "board" and sizes is not None and i < len(sizes):
                board = next((b for b in game.boards if b.id == comp_id), None)
                if board is None:
                    res.problems.append(f"{where}: page {i + 1} prints '{comp_id}', which is not a board of the game")
                else:
                    _check_page_size(game, board, "board", None, sizes[i], where, i + 1, res)
            continue
        comp = decks.get(comp_id)
        if comp is None:
            res.problems.append(f"{where}: page {i + 1} prints component '{comp_id}', which is not a deck of the game")
            continue
        items = _get(page, "items", (list,), pw)
        if sizes is not None and i < len(sizes):
            _check_page_size(game, comp, kind if side != "gutterfold" else "gutterfold", paper, sizes[i], where,
                             i + 1, res)
        if side == "gutterfold":
            if kind != "cards" or layout != "gutterfold":
                raise _Bad(f"{pw}: a gutterfold page in a file that is not a gutterfold cards file")
            front_items = [it for it in items if isinstance(it, dict) and it.get("side") == "front"]
            back_items = [it for it in items if isinstance(it, dict) and it.get("side") == "back"]
            if len(front_items) + len(back_items) != len(items):
                raise _Bad(f"{pw}: every gutterfold item must say side front or back")
            for it in front_items:
                card = _get(it, "card", (str,), f"{pw} item")
                if card not in {k.id for k in comp.cards}:
                    res.problems.append(f"{where}: page {i + 1} prints '{card}', which is not in deck '{comp.id}'")
                counts[(comp.id, card)] += 1
            fold_x = _num(page, "fold_x", pw)
            _pair_mirrored({"items": front_items}, {"items": back_items}, where, i + 1, i + 1,
                           lambda x, y, w, h, rot: (2 * fold_x - x - w, y, rot % 360),
                           f"folding at x {fold_x:g}", res)
            continue
        if side == "front":
            for it in items:
                card = _get(it, "card", (str,), f"{pw} item")
                if card not in {k.id for k in comp.cards}:
                    res.problems.append(f"{where}: page {i + 1} prints '{card}', which is not in deck '{comp.id}'")
                counts[(comp.id, card)] += 1
            fronts[i] = page
        elif side == "back":
            if not comp.back:
                res.problems.append(f"{where}: page {i + 1} prints backs for one-sided deck '{comp.id}'")
                continue
            front = fronts.pop(i - 1, None)
            if front is None or front.get("component") != comp.id:
                res.problems.append(f"{where}: page {i + 1} holds backs of '{comp.id}' that follow no page of its"
                                    " fronts")
                continue
            if kind == "printshop":
                _pair_printshop(front, page, where, i, res)
            else:
                rule, text = _duplex_rule(PAPERS_MM[paper], duplex, offset)
                _pair_mirrored(front, page, where, i, i + 1, rule, text, res)
        else:
            raise _Bad(f"{pw}: side must be front, back or sheet, found {side!r}")
    for i, page in sorted(fronts.items()):
        comp = decks.get(page.get("component"))
        if comp is not None and comp.back:
            res.problems.append(f"{where}: page {i + 1} holds fronts of '{comp.id}' with no page of backs after it")

    for comp in expected_decks:
        for card in comp.cards:
            n = counts[(comp.id, card.id)]
            if n != card.quantity:
                res.problems.append(f"{where}: card '{card.id}' of '{comp.id}' is printed {n} time(s), the deck"
                                    f" says {card.quantity}")
    for (comp_id, card_id), n in counts.items():
        if comp_id in decks and decks[comp_id] not in expected_decks:
            res.problems.append(f"{where}: prints '{card_id}' of '{comp_id}', which belongs in another file")
            break
    if kind == "sheets":
        for board in game.boards:
            tiles = [p for p in pages if isinstance(p, dict) and p.get("component") == board.id]
            grid = tiles[0].get("tiles") if tiles else None
            labels = {p.get("tile") for p in tiles}
            if tiles and (not isinstance(grid, list) or len(grid) != 2 or grid[0] * grid[1] != len(tiles)
                          or len(labels) != len(tiles)):
                res.problems.append(f"{where}: board '{board.id}' has {len(tiles)} page(s), not one for each piece"
                                    f" of its {grid} grid")
    if kind == "sheets":
        for sheet in (c for c in game.components if not isinstance(c, Deck)):  # boards are tiled there too
            if not sheet_pages[sheet.id]:
                res.problems.append(f"{where}: sheet '{sheet.id}' is missing")
    return len(pages)


def _check_page_size(game, comp, kind: str, paper: str | None, size: tuple[float, float], where: str, n: int,
                     res: KitResult) -> None:
    if kind in ("printshop", "board"):
        w, h = comp.size
        want = (mm_to_pt(w + 2 * comp.bleed), mm_to_pt(h + 2 * comp.bleed))
    elif kind == "gutterfold":  # landscape
        pw, ph = PAPERS_MM[paper]
        want = (mm_to_pt(max(pw, ph)), mm_to_pt(min(pw, ph)))
    else:
        pw, ph = PAPERS_MM[paper]
        want = (mm_to_pt(pw), mm_to_pt(ph))
    if abs(size[0] - want[0]) > TOL_PT or abs(size[1] - want[1]) > TOL_PT:
        res.problems.append(f"{where}: page {n} is {size[0]:.1f}×{size[1]:.1f} pt, should be"
                            f" {want[0]:.1f}×{want[1]:.1f} pt")


def _key(item: dict, what: str) -> tuple[str, int, int]:
    return (_get(item, "card", (str,), what), int(_get(item, "copy", (int,), what)),
            int(_get(item, "slot", (int,), what)))


def _duplex_rule(paper_mm: tuple[float, float], duplex: str, offset: tuple[float, float]):
    """Where a duplex printer puts the back of a card printed at (x, y, w, h, rotation)."""
    pw, ph = paper_mm
    dx, dy = offset

    def long_edge(x, y, w, h, rot):
        return (pw - x - w + dx, y + dy, rot % 360)

    def short_edge(x, y, w, h, rot):
        return (x + dx, ph - y - h + dy, (rot + 180) % 360)

    text = "a long-edge flip" if duplex == "long" else "a short-edge flip"
    if offset != (0.0, 0.0):
        text += f" (backs shifted by {dx:g}, {dy:g} mm)"
    return (long_edge if duplex == "long" else short_edge), text


def _pair_mirrored(front: dict, back: dict, where: str, front_page: int, back_page: int,
                   rule, rule_text: str, res: KitResult) -> None:
    """Each front item has its back where ``rule`` puts it, and no back lacks its front."""
    f_items = {_key(it, f"page {front_page} item"): it for it in front.get("items", [])}
    b_items = {_key(it, f"page {back_page} item"): it for it in back.get("items", [])}
    on = f"page {back_page}" if back_page != front_page else f"page {back_page} (the other half)"
    for key, f in f_items.items():
        card, copy, slot = key
        label = f"'{card}' (copy {copy + 1})"
        b = b_items.pop(key, None)
        if b is None:
            res.problems.append(f"{where}: page {front_page} prints the front of {label}; its back is missing"
                                f" from {on}")
            continue
        x, y, w, h = (_num(f, k, label) for k in ("x", "y", "w", "h"))
        want = rule(x, y, w, h, int(_num(f, "rotation", label)))
        bx, by, brot = _num(b, "x", label), _num(b, "y", label), int(_num(b, "rotation", label)) % 360
        bw, bh = _num(b, "w", label), _num(b, "h", label)
        if abs(bx - want[0]) > TOL_MM or abs(by - want[1]) > TOL_MM or brot != want[2] or \
                abs(bw - w) > TOL_MM or abs(bh - h) > TOL_MM:
            res.problems.append(f"{where}: {on}: the back of {label} is at x {bx:g}, y {by:g}, turned {brot}°;"
                                f" {rule_text} needs x {want[0]:g}, y {want[1]:g}, turned {want[2]}°, behind its"
                                f" front at x {x:g}, y {y:g} on page {front_page}")
    for card, copy, slot in b_items:
        res.problems.append(f"{where}: {on} prints the back of '{card}' (copy {copy + 1}) with no front on page"
                            f" {front_page}")


def _pair_printshop(front: dict, back: dict, where: str, i: int, res: KitResult) -> None:
    f_keys = sorted(_key(it, f"page {i} item")[:2] for it in front.get("items", []))
    b_keys = sorted(_key(it, f"page {i + 1} item")[:2] for it in back.get("items", []))
    if f_keys != b_keys:
        res.problems.append(f"{where}: page {i + 1} is the back of {b_keys or 'nothing'}, but page {i} is the front"
                            f" of {f_keys}")
