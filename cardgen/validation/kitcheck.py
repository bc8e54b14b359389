"""The built kit against the deck: the manifest, the PDFs, counts and duplex backs.

``cardgen build`` writes ``manifest.json`` beside the PDFs (see
:mod:`cardgen.model.manifest`, which also reads it back and checks every key's
type). This module checks, for any game:

* every file the manifest lists exists and is a PDF with the listed page count
  (and page size);
* the manifest's decks agree with the game's decks;
* each cards file prints every card of every two-sided deck as many times as
  the deck says, each sheets file every card of every one-sided deck and every
  sheet, each print-shop file every card of the decks it lists;
* each print-shop file holds one trim size (every TrimBox the one the manifest
  gives), and either pages in front-then-back pairs (two-sided) or fronts only, and
  every print-shop deck is in one of its language's print-shop files;
* every front has its back on the page right after it, at the mirrored place
  (long edge: x_back = paper_w − x − w; short edge: y_back = paper_h − y − h and
  turned 180°);
* every language (and every paper the kit was built for) is present.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import CardgenError, Where, display_path, read_utf8
from ..base.units import mm_to_pt
from ..impose.papers import PAPERS_MM
from ..impose.printshop import trim_of
from ..load.inputs import inputs_digest
from ..model.components import Board, Deck
from ..model.game import Game
from ..model.manifest import FileEntry, Manifest, PageEntry, PlacedItem
from .preflight import preflight_kit

TOL_MM = 0.01
TOL_PT = 0.5

# where the back of a piece at (x, y, w, h, rotation) must be: (x, y, rotation)
BackRule = Callable[[float, float, float, float, int], tuple[float, float, int]]


@dataclass
class KitResult:
    folder: str
    passed: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what a shop's preflight flags without refusing the file

    @property
    def ok(self) -> bool:
        return not self.problems


class _Bad(Exception):
    """A file entry the kit cannot be checked against (an unknown kind, paper, layout…)."""


MAX_MANIFEST_BYTES = 16 << 20  # a kit's manifest is some kilobytes; a larger file is not one


def read_manifest(folder: Path) -> Manifest:
    if not folder.is_dir():
        raise CardgenError(f"kit folder '{display_path(folder)}' not found")
    path = folder / "manifest.json"
    label = display_path(path)
    if not path.is_file():
        raise CardgenError(f"no manifest.json in '{display_path(folder)}': build the kit first (cardgen build)",
                           Where(label))
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise CardgenError(f"larger than {MAX_MANIFEST_BYTES // (1 << 20)} MiB: not a cardgen kit manifest", Where(label))
    try:
        text = read_utf8(path, label)
    except OSError as exc:
        raise CardgenError(f"cannot be read: {exc.strerror or exc}", Where(label)) from None
    return Manifest.from_json(text, Where(label))


def _per_page(path: Path, read: Callable[[Any, int], tuple[float, float]]) -> list[tuple[float, float]]:
    """``read(pdf, i)`` for each page of a PDF; raises ValueError when it is unreadable.

    Read with pypdfium2, which cardgen already needs for its PNG exports, so that
    checking a kit needs nothing beyond what ``pip install cardgen`` brings."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except (pdfium.PdfiumError, OSError, ValueError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None
    try:
        return [read(pdf, i) for i in range(len(pdf))]
    except (pdfium.PdfiumError, ValueError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None
    finally:
        pdf.close()


def _pdf_pages(path: Path) -> list[tuple[float, float]]:
    """Page sizes (width, height in points) of a PDF."""
    def size(pdf, i: int) -> tuple[float, float]:
        w, h = pdf.get_page_size(i)
        return (float(w), float(h))

    return _per_page(path, size)


def _pdf_bleed_sizes(path: Path) -> list[tuple[float, float]]:
    """The width and height (points) of each page's BleedBox: a print-shop page's piece
    with its bleed, whatever paper a shop's crop marks add around it."""
    def bleed(pdf, i: int) -> tuple[float, float]:
        x0, y0, x1, y1 = pdf[i].get_bleedbox()
        return (float(x1 - x0), float(y1 - y0))

    return _per_page(path, bleed)


def _pdf_trim_sizes(path: Path) -> list[tuple[float, float]]:
    """The width and height (points) of each page's TrimBox."""
    def trim(pdf, i: int) -> tuple[float, float]:
        x0, y0, x1, y1 = pdf[i].get_trimbox()
        return (float(x1 - x0), float(y1 - y0))

    return _per_page(path, trim)


# -- the kit as a whole ------------------------------------------------------------------


def check_kit(game: Game, folder: Path, langs: tuple[str, ...] = ()) -> KitResult:
    """Check a built kit folder against the game; every problem is one line naming its file."""
    manifest = read_manifest(folder)
    res = KitResult(display_path(folder))
    label = display_path(folder / "manifest.json")
    if not _same_game(game, manifest, label, res):
        return res  # every card and page would differ for this one reason: say it once
    _check_decks(game, manifest, label, res)
    present = _check_files(game, folder, manifest, label, res)
    want_langs = langs or tuple(lang for lang in game.languages if lang not in game.unfinished)
    papers = _check_coverage(game, manifest, present, want_langs, label, res)
    same_inputs = _check_inputs(game, folder, manifest, label, res)
    shop = preflight_kit(folder, manifest)
    res.problems += [f"{display_path(folder)}/{line}" for line in shop.problems]
    res.warnings += [f"{display_path(folder)}/{line}" for line in shop.warnings]
    if res.ok:
        _summarise(game, manifest, want_langs, papers, res)
        res.passed += same_inputs
        if shop.files:
            res.passed.append(f"preflight of {shop.files} print-shop file(s): CMYK only, total ink within the limit, "
                              "TrimBox and BleedBox on every page, every font embedded")
    return res


def _check_inputs(game: Game, folder: Path, manifest: Manifest, label: str, res: KitResult) -> list[str]:
    """Every file was built from the inputs the game folder holds now: a kit that
    mixes designs (a partial rebuild after a change) or predates a change is stale.
    Returns the line that says it holds, if it does."""
    groups: dict[str | None, list[str]] = {}
    for entry in manifest.files:
        groups.setdefault(entry.inputs, []).append(entry.file)
    if not groups:
        return []
    now = inputs_digest(game, exclude=[folder.parent])

    def some(names: list[str]) -> str:
        return ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")

    if None in groups:
        res.problems.append(f"{label}: {len(groups[None])} file(s) record no fingerprint of their inputs (built by "
                            f"an older cardgen): {some(groups[None])}; rebuild the kit")
    stale = sorted(name for key, names in groups.items() if key is not None and key != now for name in names)
    if stale:
        mixed = len([k for k in groups if k is not None]) > 1
        what = ("were built from other inputs than the rest of the kit (a partial rebuild after a change)" if mixed
                and now in groups else "were built from other inputs than the game folder holds now")
        res.problems.append(f"{label}: {len(stale)} file(s) {what}: {some(stale)}; rebuild without --lang and "
                            "--paper")
    elif None not in groups:
        return [f"every file built from the game folder as it is now (inputs {now})"]
    return []


def _same_game(game: Game, manifest: Manifest, label: str, res: KitResult) -> bool:
    """The kit is of this game; False when it was built with other variants."""
    if manifest.game != game.id:
        res.problems.append(f"{label}: the kit is of game {manifest.game!r}, not '{game.id}'")
    built = list(manifest.variants)
    if sorted(built) != sorted(game.variants):
        hint = " ".join(f"--variant {v}" for v in built) if built else "no --variant"
        res.problems.append(f"{label}: the kit was built with variants {built!r}, this check expects"
                            f" {sorted(game.variants)!r} (validate with {hint})")
        return False
    return True


def _check_decks(game: Game, manifest: Manifest, label: str, res: KitResult) -> None:
    """The manifest's record of each deck against the game's."""
    for comp in game.decks:
        rec = manifest.decks.get(comp.id)
        if rec is None:
            res.problems.append(f"{label}: deck '{comp.id}' is not recorded")
            continue
        want = {k.id: k.quantity for k in comp.cards}
        for cid in sorted(set(want) | set(rec.cards)):
            if rec.cards.get(cid) != want.get(cid):
                res.problems.append(f"{label}: deck '{comp.id}' records card '{cid}' ×{rec.cards.get(cid, 0)}, the"
                                    f" game has ×{want.get(cid, 0)}")
    for extra in sorted(set(manifest.decks) - {c.id for c in game.decks}):
        res.problems.append(f"{label}: records a deck '{extra}' the game does not have")


def _check_files(game: Game, folder: Path, manifest: Manifest, label: str, res: KitResult) -> Counter:
    """Each file the manifest lists; the count of files per (language, paper, kind)."""
    present: Counter = Counter()
    names: Counter = Counter()
    for i, entry in enumerate(manifest.files):
        names[entry.file] += 1
        if names[entry.file] > 1:
            res.problems.append(f"{label}: '{entry.file}' is listed twice")
            continue
        try:
            if "/" in entry.file or "\\" in entry.file or entry.file.startswith(".."):
                raise _Bad(f"file name {entry.file!r} must be a plain name inside the kit folder")
            present[(entry.lang, entry.paper, entry.kind)] += 1
            problems_before = len(res.problems)
            pages = _FileCheck(game, folder, entry, res).run()
            res.files.append({"file": entry.file, "kind": entry.kind, "lang": entry.lang, "paper": entry.paper,
                              "pages": pages, "ok": len(res.problems) == problems_before})
        except _Bad as exc:
            res.problems.append(f"{label}: files[{i}]: {exc}")
    return present


def _check_coverage(game: Game, manifest: Manifest, present: Counter, want_langs: tuple[str, ...], label: str,
                    res: KitResult) -> list[str]:
    """Every language has its files on every paper the kit was built for; the papers."""
    for lang in sorted({k[0] for k in present} - set(game.languages)):
        res.problems.append(f"{label}: files in language '{lang}', which the game does not have")
    papers = sorted({k[1] for k in present if k[1] is not None and k[0] in game.languages})
    needs = _kinds_per_paper(game)
    if not papers and needs:
        res.problems.append(f"{label}: the kit has no files for any paper")
    shop_decks = {(e.lang, c) for e in manifest.files if e.kind == "printshop" and e.printshop is not None
                  for c in e.printshop.components}
    for lang in want_langs:
        res.problems += _missing_files(game, present, lang, papers, needs, res.folder)
        if present[(lang, None, "printshop")]:
            res.problems += [f"{res.folder}: language '{lang}' has no print-shop file for deck '{c.id}'"
                             for c in game.decks if c.printshop and (lang, c.id) not in shop_decks]
    return papers


def _kinds_per_paper(game: Game) -> list[str]:
    """The files each paper needs: cards for two-sided decks, sheets for the rest."""
    needs = []
    if any(c.back for c in game.decks):
        needs.append("cards")
    if any(not c.back for c in game.decks) or game.sheets or game.boards:
        needs.append("sheets")
    return needs


def _missing_files(game: Game, present: Counter, lang: str, papers: list[str], needs: list[str],
                   folder: str) -> list[str]:
    """The files one language lacks: per paper, then its print-shop and full-size board files."""
    out = [f"{folder}: language '{lang}' has no {kind} file for {paper}"
           for paper in papers for kind in needs if not present[(lang, paper, kind)]]
    if any(c.printshop for c in game.decks) and not present[(lang, None, "printshop")]:
        out.append(f"{folder}: language '{lang}' has no print-shop file")
    if game.boards and present[(lang, None, "board")] < len(game.boards):
        out.append(f"{folder}: language '{lang}' lacks a full-size board file")
    return out


def _summarise(game: Game, manifest: Manifest, want_langs: tuple[str, ...], papers: list[str],
               res: KitResult) -> None:
    pages = sum(f["pages"] or 0 for f in res.files)
    res.passed.append(f"{len(res.files)} file(s), {pages} page(s): every file present, page counts and sizes"
                      " as the manifest says")
    res.passed.append(f"every card printed as many times as its deck says, in every file"
                      f" ({', '.join(f'{c.id} ×{c.count}' for c in game.decks)})")
    if any(c.back for c in game.decks):
        res.passed.append("every front has its back at the mirrored place (on the next page, or across the fold)")
    shops = [f for f in res.files if f["kind"] == "printshop"]
    if shops:
        orders = sorted({e.printshop.order for e in manifest.files if e.kind == "printshop" and e.printshop}
                        or {"alternating"})
        said = ", ".join(_ORDER_WORDS.get(o, o) for o in orders)
        res.passed.append(f"{len(shops)} print-shop file(s), one trim size each; two-sided ones {said},"
                          " one-sided ones fronts only")
    res.passed.append(f"languages {', '.join(want_langs)}; papers {', '.join(papers) or '—'}")


# -- one file ------------------------------------------------------------------------------


class _FileCheck:
    """One file of the kit: its PDF, and each page of it against the deck."""

    def __init__(self, game: Game, folder: Path, entry: FileEntry, res: KitResult):
        self.game, self.folder, self.entry, self.res = game, folder, entry, res
        self.name = entry.file
        self.where = display_path(folder / entry.file)
        self.decks = {c.id: c for c in game.decks}
        self.sizes: list[tuple[float, float]] | None = None
        self.counts: Counter = Counter()  # (component, card) -> fronts
        self.fronts: dict[int, PageEntry] = {}  # pages of fronts still waiting for their backs
        self.sheet_pages: Counter = Counter()  # component -> whole pages

    def problem(self, text: str) -> None:
        self.res.problems.append(f"{self.where}: {text}")

    def run(self) -> int:
        """Check the file; its number of pages. Raises _Bad for a file that cannot be checked."""
        entry = self.entry
        if entry.kind in ("cards", "sheets"):
            if entry.paper not in PAPERS_MM:
                raise _Bad(f"'{self.name}': unknown paper {entry.paper!r}")
        elif entry.kind not in ("printshop", "board"):
            raise _Bad(f"'{self.name}': unknown kind {entry.kind!r}")
        if entry.lang not in self.game.languages:
            return len(entry.pages)
        self._check_pdf()
        expected, back_rule = self._expected_decks(), self._back_rule()
        walk = _front_then_back(entry)
        if walk != list(range(len(entry.pages))) and self.sizes is not None and len(self.sizes) == len(walk):
            self.sizes = [self.sizes[n] for n in walk]  # each page's size beside it in the walk
        for i, n in enumerate(walk):
            self._check_page(i, entry.pages[n], back_rule)
        self._check_unpaired_fronts()
        if entry.kind == "printshop":
            self._check_shop_file()
        self._check_counts(expected)
        if entry.kind == "sheets":
            self._check_board_tiles()
            self._check_sheets_present()
        return len(entry.pages)

    def _check_pdf(self) -> None:
        """The PDF exists, can be read and has the pages the manifest lists, numbered in order."""
        path, pages = self.folder / self.name, self.entry.pages
        if not path.is_file():
            self.problem("listed in the manifest but missing from the kit")
        else:
            try:
                self.sizes = (_pdf_bleed_sizes if self.entry.kind == "printshop" else _pdf_pages)(path)
            except ValueError as exc:
                self.problem(f"cannot be read as a PDF ({exc})")
        if self.sizes is not None and len(self.sizes) != len(pages):
            self.problem(f"the PDF has {len(self.sizes)} page(s), the manifest lists {len(pages)}")
        if [p.page for p in pages] != list(range(1, len(pages) + 1)):
            self.problem(f"the manifest's pages are not numbered 1 to {len(pages)}")

    def _expected_decks(self) -> list[Deck]:
        """The decks whose every card this file must print."""
        kind, decks = self.entry.kind, self.game.decks
        if kind == "cards":
            return [c for c in decks if c.back]
        if kind == "sheets":
            return [c for c in decks if not c.back]
        if kind == "board":
            return []
        shop = self.entry.printshop
        if shop is None:
            return [c for c in decks if c.printshop]
        return [c for c in decks if c.id in shop.components]

    def _back_rule(self) -> tuple[BackRule, str] | None:
        """Where a duplex cards file puts each back, and how to say it; None for other files."""
        entry = self.entry
        if entry.kind != "cards" or entry.layout == "gutterfold":
            return None
        if (entry.layout or "duplex") != "duplex":
            raise _Bad(f"'{self.name}': unknown layout {entry.layout!r}")
        if entry.duplex not in ("long", "short"):
            raise _Bad(f"'{self.name}': duplex must be 'long' or 'short', found {entry.duplex!r}")
        assert entry.paper is not None  # a cards file's paper is known (checked in run)
        return _duplex_rule(PAPERS_MM[entry.paper], entry.duplex, entry.back_offset or (0.0, 0.0))

    def _check_page(self, i: int, page: PageEntry, back_rule: tuple[BackRule, str] | None) -> None:
        if page.side == "sheet":
            self._check_whole_page(i, page)
            return
        comp = self.decks.get(page.component)
        if comp is None:
            self.problem(f"page {i + 1} prints component '{page.component}', which is not a deck of the game")
            return
        if self.sizes is not None and i < len(self.sizes):
            size_kind = "gutterfold" if page.side == "gutterfold" else self.entry.kind
            self._check_page_size(comp, size_kind, self.sizes[i], i + 1)
        if page.side == "gutterfold":
            self._check_gutterfold_page(i, page, comp)
        elif page.side == "front":
            self._count_fronts(i, page.items, comp)
            self.fronts[i] = page
        elif page.side == "back":
            self._check_back_page(i, page, comp, back_rule)
        else:
            raise _Bad(f"'{self.name}' page {i + 1}: side must be front, back or sheet, found {page.side!r}")

    def _check_whole_page(self, i: int, page: PageEntry) -> None:
        """A page of a sheet or board; in a full-size board file, sized as the board."""
        self.sheet_pages[page.component] += 1
        if self.entry.kind == "board" and self.sizes is not None and i < len(self.sizes):
            board = next((b for b in self.game.boards if b.id == page.component), None)
            if board is None:
                self.problem(f"page {i + 1} prints '{page.component}', which is not a board of the game")
            else:
                self._check_page_size(board, "board", self.sizes[i], i + 1)

    def _count_fronts(self, i: int, items: Iterable[PlacedItem], comp: Deck) -> None:
        """Each piece's front counted for its deck: the page's, or the one the piece names
        (decks of one size sharing a sheet, on the same plan)."""
        for it in items:
            deck = comp if it.component is None else self.decks.get(it.component)
            if deck is None:
                self.problem(f"page {i + 1} prints '{it.card}' of component '{it.component}', which is not a deck of"
                             " the game")
                continue
            if deck is not comp and (deck.size, deck.bleed, deck.shape, bool(deck.back)) != \
                    (comp.size, comp.bleed, comp.shape, bool(comp.back)):
                self.problem(f"page {i + 1} prints '{it.card}' of '{deck.id}' on a sheet of '{comp.id}', whose pieces"
                             " differ in size, bleed, shape or sides")
            if it.card not in {k.id for k in deck.cards}:
                self.problem(f"page {i + 1} prints '{it.card}', which is not in deck '{deck.id}'")
            self.counts[(deck.id, it.card)] += 1

    def _check_gutterfold_page(self, i: int, page: PageEntry, comp: Deck) -> None:
        """Fronts on one half, their backs mirrored across the fold on the other."""
        pw = f"'{self.name}' page {i + 1}"
        if self.entry.kind != "cards" or self.entry.layout != "gutterfold":
            raise _Bad(f"{pw}: a gutterfold page in a file that is not a gutterfold cards file")
        front_items = [it for it in page.items if it.side == "front"]
        back_items = [it for it in page.items if it.side == "back"]
        if len(front_items) + len(back_items) != len(page.items):
            raise _Bad(f"{pw}: every gutterfold item must say side front or back")
        self._count_fronts(i, front_items, comp)
        if page.fold_x is None:
            raise _Bad(f"{pw} has no 'fold_x'")
        fold_x = page.fold_x
        _pair_mirrored(front_items, back_items, self.where, i + 1, i + 1,
                       lambda x, y, w, h, rot: (2 * fold_x - x - w, y, rot % 360), f"folding at x {fold_x:g}",
                       self.res)

    def _check_back_page(self, i: int, page: PageEntry, comp: Deck, back_rule: tuple[BackRule, str] | None) -> None:
        """A page of backs right after the page of their fronts, each back behind its front."""
        if not comp.back:
            self.problem(f"page {i + 1} prints backs for one-sided deck '{comp.id}'")
            return
        front = self.fronts.pop(i - 1, None)
        if front is None or front.component != comp.id:
            self.problem(f"page {i + 1} holds backs of '{comp.id}' that follow no page of its fronts")
            return
        if self.entry.kind == "printshop":
            _pair_printshop(front, page, self.where, i, self.res)
            return
        if back_rule is None:  # backs on their own page outside a duplex cards file: paired as printed duplex
            if self.entry.paper not in PAPERS_MM:
                raise _Bad(f"'{self.name}' page {i + 1}: a page of backs in a file with no paper")
            back_rule = _duplex_rule(PAPERS_MM[self.entry.paper], self.entry.duplex, (0.0, 0.0))
        rule, text = back_rule
        _pair_mirrored(list(front.items), list(page.items), self.where, i, i + 1, rule, text, self.res)

    def _check_unpaired_fronts(self) -> None:
        for i, page in sorted(self.fronts.items()):
            comp = self.decks.get(page.component)
            if comp is not None and comp.back:
                self.problem(f"page {i + 1} holds fronts of '{comp.id}' with no page of backs after it")

    def _check_counts(self, expected: list[Deck]) -> None:
        """Every card of the expected decks as often as its quantity, and no card of another deck."""
        for comp in expected:
            for card in comp.cards:
                n = self.counts[(comp.id, card.id)]
                if n != card.quantity:
                    self.problem(f"card '{card.id}' of '{comp.id}' is printed {n} time(s), the deck says"
                                 f" {card.quantity}")
        expected_ids = {c.id for c in expected}
        for comp_id, card_id in self.counts:
            if comp_id in self.decks and comp_id not in expected_ids:
                self.problem(f"prints '{card_id}' of '{comp_id}', which belongs in another file")
                break

    def _check_shop_file(self) -> None:
        """A print-shop file is one product: its decks share the trim size and sides the
        manifest gives, every TrimBox is that size, and a two-sided file is front, back,
        front, back … to the end (a one-sided file fronts only)."""
        shop, pages = self.entry.printshop, self.entry.pages
        if shop is None:
            self.problem("the manifest gives no print-shop details (decks, trim, sides, page count): rebuild the kit")
            return
        for cid in shop.components:
            deck = self.decks.get(cid)
            if deck is None or not deck.printshop:
                self.problem(f"lists deck '{cid}', which is not a print-shop deck of the game")
            elif any(abs(a - b) > TOL_MM for a, b in zip(trim_of(deck), shop.trim)):
                self.problem(f"deck '{cid}' is trimmed {trim_of(deck)[0]:g}×{trim_of(deck)[1]:g} mm, the file"
                             f" {shop.trim[0]:g}×{shop.trim[1]:g} mm")
            elif bool(deck.back) != shop.two_sided:
                self.problem(f"deck '{cid}' is {'two' if deck.back else 'one'}-sided, the file"
                             f" {'two' if shop.two_sided else 'one'}-sided")
        if shop.page_count != len(pages):
            self.problem(f"the manifest gives {shop.page_count} page(s) and lists {len(pages)}")
        unlisted = [i for i, page in enumerate(pages) if page.component not in shop.components]
        if unlisted:
            self.problem(f"page {unlisted[0] + 1} prints '{pages[unlisted[0]].component}', which the file does not"
                         f" list ({len(unlisted)} such page(s))")
        for i, page in enumerate(pages):
            want = _shop_side(i, len(pages), shop.order) if shop.two_sided else "front"
            if page.side != want:
                self.problem(f"page {i + 1} is a {page.side}; in a {'two' if shop.two_sided else 'one'}-sided"
                             f" print-shop file it must be a {want}")
                break
        if shop.two_sided and len(pages) % 2:
            self.problem(f"a two-sided print-shop file with an odd number of pages ({len(pages)})")
        self._check_trim_boxes(shop.trim)

    def _check_trim_boxes(self, trim: tuple[float, float]) -> None:
        """Every page's TrimBox, read from the PDF, is the file's one trim size."""
        path = self.folder / self.name
        if self.sizes is None:
            return  # missing or unreadable: said already
        try:
            boxes = _pdf_trim_sizes(path)
        except ValueError:
            return
        want = (mm_to_pt(trim[0]), mm_to_pt(trim[1]))
        for n, (w, h) in enumerate(boxes, start=1):
            if abs(w - want[0]) > TOL_PT or abs(h - want[1]) > TOL_PT:
                self.problem(f"page {n}'s TrimBox is {w:.1f}×{h:.1f} pt, the file's trim {want[0]:.1f}×{want[1]:.1f}"
                             " pt: one print-shop file holds one trim size")
                return

    def _check_board_tiles(self) -> None:
        """A board in the sheets file has one page for each piece of its grid."""
        for board in self.game.boards:
            tiles = [p.tile for p in self.entry.pages if p.component == board.id]
            if not tiles:
                continue
            grid = tiles[0].grid if tiles[0] is not None else None
            labels = {t.label if t is not None else None for t in tiles}
            if grid is None or grid[0] * grid[1] != len(tiles) or len(labels) != len(tiles):
                shown = list(grid) if grid is not None else None
                self.problem(f"board '{board.id}' has {len(tiles)} page(s), not one for each piece of its {shown}"
                             " grid")

    def _check_sheets_present(self) -> None:
        for comp in self.game.components:
            if not isinstance(comp, Deck) and not self.sheet_pages[comp.id]:  # sheets, and boards tiled here
                self.problem(f"sheet '{comp.id}' is missing")

    def _check_page_size(self, comp: Deck | Board, kind: str, size: tuple[float, float], n: int) -> None:
        """A page is the size of its paper (landscape for gutterfold), or of its piece with
        bleed (print-shop and full-size board pages)."""
        if kind in ("printshop", "board"):
            w, h = comp.size
            shop = self.entry.printshop if kind == "printshop" else None
            bleed = shop.bleed if shop is not None and shop.bleed is not None else comp.bleed
            want = (mm_to_pt(w + 2 * bleed), mm_to_pt(h + 2 * bleed))
        else:
            pw, ph = PAPERS_MM[self.entry.paper or ""]
            if kind == "gutterfold":
                pw, ph = max(pw, ph), min(pw, ph)
            want = (mm_to_pt(pw), mm_to_pt(ph))
        if abs(size[0] - want[0]) > TOL_PT or abs(size[1] - want[1]) > TOL_PT:
            self.problem(f"page {n} is {size[0]:.1f}×{size[1]:.1f} pt, should be {want[0]:.1f}×{want[1]:.1f} pt")


# -- fronts and backs ------------------------------------------------------------------


def _key(item: PlacedItem) -> tuple[str, int, int, str | None]:
    """What pairs a back with its front: the card, its copy and slot, and its deck where
    the piece names one (a sheet decks share)."""
    return (item.card, item.copy, item.slot, item.component)


def _duplex_rule(paper_mm: tuple[float, float], duplex: str | None,
                 offset: tuple[float, float]) -> tuple[BackRule, str]:
    """Where a duplex printer puts the back of a card printed at (x, y, w, h, rotation)."""
    pw, ph = paper_mm
    dx, dy = offset

    def long_edge(x: float, y: float, w: float, h: float, rot: int) -> tuple[float, float, int]:
        return (pw - x - w + dx, y + dy, rot % 360)

    def short_edge(x: float, y: float, w: float, h: float, rot: int) -> tuple[float, float, int]:
        return (x + dx, ph - y - h + dy, (rot + 180) % 360)

    text = "a long-edge flip" if duplex == "long" else "a short-edge flip"
    if offset != (0.0, 0.0):
        text += f" (backs shifted by {dx:g}, {dy:g} mm)"
    return (long_edge if duplex == "long" else short_edge), text


def _pair_mirrored(front: list[PlacedItem], back: list[PlacedItem], where: str, front_page: int, back_page: int,
                   rule: BackRule, rule_text: str, res: KitResult) -> None:
    """Each front item has its back where ``rule`` puts it, and no back lacks its front."""
    f_items = {_key(it): it for it in front}
    b_items = {_key(it): it for it in back}
    on = f"page {back_page}" if back_page != front_page else f"page {back_page} (the other half)"
    for key, f in f_items.items():
        card, copy, _slot, deck = key
        label = f"'{card}' (copy {copy + 1})" + (f" of '{deck}'" if deck else "")
        b = b_items.pop(key, None)
        if b is None:
            res.problems.append(f"{where}: page {front_page} prints the front of {label}; its back is missing"
                                f" from {on}")
            continue
        want = rule(f.x, f.y, f.w, f.h, int(f.rotation))
        brot = int(b.rotation) % 360
        if abs(b.x - want[0]) > TOL_MM or abs(b.y - want[1]) > TOL_MM or brot != want[2] or \
                abs(b.w - f.w) > TOL_MM or abs(b.h - f.h) > TOL_MM:
            res.problems.append(f"{where}: {on}: the back of {label} is at x {b.x:g}, y {b.y:g}, turned {brot}°;"
                                f" {rule_text} needs x {want[0]:g}, y {want[1]:g}, turned {want[2]}°, behind its"
                                f" front at x {f.x:g}, y {f.y:g} on page {front_page}")
    for card, copy, _slot, deck in b_items:
        of = f" of '{deck}'" if deck else ""
        res.problems.append(f"{where}: {on} prints the back of '{card}' (copy {copy + 1}){of} with no front on page"
                            f" {front_page}")


_ORDER_WORDS = {
    "alternating": "front, back, front, back …",
    "back-first": "back, front, back, front …",
    "fronts-then-backs": "every front, then every back",
}


def _shop_side(i: int, count: int, order: str) -> str:
    """The side page ``i`` (0-based) of a two-sided print-shop file of ``count`` pages
    holds in a shop profile's page ``order``."""
    if order == "fronts-then-backs":
        return "front" if i < count // 2 else "back"
    first, second = ("back", "front") if order == "back-first" else ("front", "back")
    return first if i % 2 == 0 else second


def _front_then_back(entry: FileEntry) -> list[int]:
    """The pages of a file (0-based) in the order the pairing walk reads them, each
    front before its back: as they are, except in a print-shop file a shop profile
    ordered otherwise (back first, or every front and then every back)."""
    count = len(entry.pages)
    order = entry.printshop.order if entry.kind == "printshop" and entry.printshop is not None else "alternating"
    if order == "back-first":
        return [n ^ 1 if (n ^ 1) < count else n for n in range(count)]
    if order == "fronts-then-backs" and count % 2 == 0:
        half = count // 2
        return [n for k in range(half) for n in (k, half + k)]
    return list(range(count))


def _pair_printshop(front: PageEntry, back: PageEntry, where: str, i: int, res: KitResult) -> None:
    f_keys = sorted(_key(it)[:2] for it in front.items)
    b_keys = sorted(_key(it)[:2] for it in back.items)
    if f_keys != b_keys:
        res.problems.append(f"{where}: page {i + 1} is the back of {b_keys or 'nothing'}, but page {i} is the front"
                            f" of {f_keys}")
