"""Images from the same renderer as the PDFs: PNG per card face, Tabletop Simulator
deck sheets, and a labelled contact sheet of every distinct face.

Faces are drawn into a one-face-per-page PDF exactly as for print shops, then
rasterised with pypdfium2, so a PNG and a PDF of the same card match.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .base.errors import CardgenError, Collector
from .base.files import csv_text, naming, replacing
from .base.paths import shipped_fonts_dir
from .impose.shapes import shape_for, shape_of
from .model.components import Board, Deck
from .model.game import Game
from .output.commit import kit_lock
from .output.shops import ShopProfile
from .pipeline import BuildOptions, Face, KitBuilder, LangKit

TTS_COLS, TTS_ROWS = 10, 7  # Tabletop Simulator's largest deck sheet
TTS_PER_SHEET = TTS_COLS * TTS_ROWS - 1  # the last slot is left for the hidden card
TTS_CARD_PX = 409  # 10 cards across stay within TTS's 4096-pixel limit
TTS_BOARD_PX = 4096  # a board's longer side
PREVIEW_BOARD_PX = 720  # a board's longer side in the preview


MAX_BOARD_PIXELS = 64_000_000  # a board's image, at most (a 600 mm board at 300 dpi is 50 million)


@dataclass(frozen=True)
class FaceImage:
    component: Deck | Board
    card_id: str
    index: int  # position of the card in its component (1-based)
    side: str
    image: Image.Image


class _MaskPen:
    """Traces an outline (pixel coordinates, ends inclusive) as the opaque part of a mask."""

    def __init__(self, draw: ImageDraw.ImageDraw, px_per_mm: float = 1.0):
        self.draw = draw
        self.k = px_per_mm  # outlines with settings in mm (corner radii, paths) are traced in mm
        self.points: list[tuple[float, float]] = []

    def rect(self, x: float, y: float, w: float, h: float) -> None:
        self.draw.rectangle((x, y, x + w, y + h), fill=255)

    def circle(self, cx: float, cy: float, r: float) -> None:
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)

    def moveTo(self, x: float, y: float) -> None:  # noqa: N802 - ReportLab's path method names
        self.close()
        self.points = [(x * self.k, y * self.k)]

    def lineTo(self, x: float, y: float) -> None:  # noqa: N802
        self.points.append((x * self.k, y * self.k))

    def curveTo(self, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float) -> None:  # noqa: N802
        (x0, y0), k = self.points[-1], self.k
        for n in range(1, 17):
            t, u = n / 16, 1 - n / 16
            self.points.append(((u ** 3 * x0 / k + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3) * k,
                                (u ** 3 * y0 / k + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3) * k))

    def close(self) -> None:
        if len(self.points) >= 3:
            self.draw.polygon(self.points, fill=255)
        self.points = []


def board_dpi(board: Board, dpi: float) -> float:
    """``dpi``, or less for a board so large that its image would pass MAX_BOARD_PIXELS."""
    w, h = ((side + 2 * board.bleed) / 25.4 for side in board.size)
    return min(dpi, math.sqrt(MAX_BOARD_PIXELS / (w * h)))


def as_cut(img: Image.Image, comp: Deck | Board, dpi: float) -> Image.Image:
    """A face drawn with its bleed, as the piece will be cut: the bleed cropped off, and
    white paper outside the trim outline of a piece that is not rectangular."""
    b = comp.bleed / 25.4 * dpi
    img = img.crop((round(b), round(b), img.width - round(b), img.height - round(b)))
    shape = shape_for(comp) if isinstance(comp, Deck) else shape_of("rect")
    if not shape.fills_trim_box:
        mask = Image.new("L", img.size, 0)
        if shape.cut_contour:  # outlines with settings in mm, traced in mm and scaled
            pen = _MaskPen(ImageDraw.Draw(mask), dpi / 25.4)
            shape.outline(0, 0, *comp.size).trace(pen)
            pen.close()
        else:
            shape.outline(0, 0, img.width - 1, img.height - 1).trace(_MaskPen(ImageDraw.Draw(mask)))
        img = Image.composite(img, Image.new("RGB", img.size, "white"), mask)
    return img


def _render(game: Game, lang: str, options: BuildOptions) -> tuple[KitBuilder, LangKit]:
    builder = KitBuilder(game, options)
    errors = Collector()
    kit = builder.render_lang(lang, errors)
    errors.raise_if_any()
    return builder, kit


def face_images(game: Game, lang: str, dpi: float, trim_only: bool = False, distinct: bool = False,
                options: BuildOptions | None = None, component: str | None = None,
                boards: bool = False) -> list[FaceImage]:
    """Every card face of ``lang`` as an image at ``dpi`` (with bleed unless ``trim_only``).

    ``distinct`` keeps only the first of identical faces (one back for a whole deck)."""
    import pypdfium2 as pdfium

    builder, kit = _render(game, lang, options or BuildOptions(langs=(lang,), variants=game.variants))
    pages: list[tuple[Deck, str, int, str, Face]] = []
    meta: list[int] = []
    seen: set[str] = set()
    for comp in game.decks:
        if component is not None and comp.id != component:
            continue
        for i, card in enumerate(comp.cards, start=1):
            for side, faces in (("front", kit.fronts), ("back", kit.backs)):
                face = faces.get((comp.id, card.id))
                if face is None or (distinct and face.key in seen):
                    continue
                seen.add(face.key)
                pages.append((comp, card.id, 0, side, face))
                meta.append(i)
    for board in game.boards if boards else ():
        if component is None or board.id == component:
            pages.append((board, board.id, 0, "board", kit.boards[board.id]))  # type: ignore[arg-type]
            meta.append(1)
    out: list[FaceImage] = []
    with tempfile.TemporaryDirectory() as tmp:
        pdf_path = Path(tmp) / "faces.pdf"
        builder.write_face_pages(pdf_path, pages, f"{game.name(lang)} — faces")
        pdf = pdfium.PdfDocument(str(pdf_path))
        try:
            for n, (comp, card_id, _, side, _face) in enumerate(pages):
                page_dpi = board_dpi(comp, dpi) if isinstance(comp, Board) else dpi
                img = pdf[n].render(scale=page_dpi / 72.0).to_pil().convert("RGB")
                if trim_only:
                    img = as_cut(img, comp, page_dpi)
                out.append(FaceImage(comp, card_id, meta[n], side, img))
        finally:
            pdf.close()
    return out


class _Staging:
    """Temporary sibling folders whose contents replace their final folders only when
    every language succeeded; on failure they go, and so does every folder made for
    them, so a failed export leaves the output folder as it was."""

    def __init__(self) -> None:
        self.pairs: list[tuple[Path, Path]] = []
        self.made: list[Path] = []

    def dir(self, final: Path) -> Path:
        missing = [p for p in (final.parent, *final.parent.parents) if not p.exists()]
        final.parent.mkdir(parents=True, exist_ok=True)
        self.made += reversed(missing)  # outermost first
        tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=final.parent))
        self.pairs.append((tmp, final))
        return tmp

    def publish(self) -> list[Path]:
        moved = []
        for tmp, final in self.pairs:
            final.mkdir(parents=True, exist_ok=True)
            for f in sorted(tmp.iterdir()):
                os.replace(f, final / f.name)
                moved.append(final / f.name)
        return moved

    def cleanup(self) -> None:
        for tmp, _ in self.pairs:
            shutil.rmtree(tmp, ignore_errors=True)

    def discard(self) -> None:
        self.cleanup()
        for folder in reversed(self.made):  # innermost first; only the ones still empty
            try:
                folder.rmdir()
            except OSError:
                pass


def _save(image: Image.Image, path: Path, **options: Any) -> None:
    """Save an image; a write the system refuses (a full disk) names the file."""
    with naming(path):
        image.save(path, **options)


def _staged(write_lang, langs: tuple[str, ...], out_dir: Path, game_id: str) -> list[Path]:
    """Write every language into its staging folder, then publish them all at once,
    holding the kit's lock: the exports live inside the kit folder, which a build
    replaces as a whole, keeping what is in it when it commits."""
    made = [p for p in (out_dir, *out_dir.parents) if not p.exists()]  # innermost first
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        with kit_lock(out_dir, game_id):
            return _staged_locked(write_lang, langs)
    except BaseException:
        for folder in made:  # a failed export leaves no folder it made for its lock
            try:
                folder.rmdir()
            except OSError:
                break
        raise


def _staged_locked(write_lang, langs: tuple[str, ...]) -> list[Path]:
    staging = _Staging()
    try:
        for lang in langs:
            write_lang(lang, staging)
        written = staging.publish()
    except BaseException:
        staging.discard()
        raise
    staging.cleanup()
    return written


def export_png(game: Game, langs: tuple[str, ...], out_dir: Path, dpi: int = 300,
               options: BuildOptions | None = None) -> list[Path]:
    """One PNG per distinct card with its bleed, named so fronts and backs sort in pairs
    (``<game>-<lang>-<component>-<NNN>-<card>-a-front.png`` / ``…-b-back.png``), one
    per board (``<game>-<lang>-<board>-board.png``), and ``quantities.csv``: how many
    copies of each to print, the list a print service's order asks for."""
    if not 72 <= dpi <= 1200:
        raise CardgenError(f"--dpi must be between 72 and 1200, found {dpi}")

    def write(lang: str, staging: _Staging) -> None:
        tmp = staging.dir(out_dir / game.id / "png" / lang)
        rows: dict[tuple[str, str], list[str]] = {}
        for f in face_images(game, lang, dpi, options=options, boards=True):
            if isinstance(f.component, Board):
                name = f"{game.id}-{lang}-{f.component.id}-board.png"
                rows[(f.component.id, f.card_id)] = [name, "", "1", f.component.id, ""]
                shown = round(board_dpi(f.component, dpi))
                _save(f.image, tmp / name, dpi=(shown, shown), optimize=False)
                continue
            tag = "a-front" if f.side == "front" else "b-back"
            name = f"{game.id}-{lang}-{f.component.id}-{f.index:03d}-{f.card_id}-{tag}.png"
            card = next(c for c in f.component.cards if c.id == f.card_id)
            row = rows.setdefault((f.component.id, f.card_id), ["", "", str(card.quantity), f.component.id, f.card_id])
            row[0 if f.side == "front" else 1] = name
            _save(f.image, tmp / name, dpi=(dpi, dpi), optimize=False)
        _write_quantities(tmp / QUANTITIES, list(rows.values()))

    return _staged(write, langs or game.languages, out_dir, game.id)


QUANTITIES = "quantities.csv"
QUANTITY_COLUMNS = ("front", "back", "quantity", "component", "card")


def export_shop_images(game: Game, langs: tuple[str, ...], out_dir: Path, shop: ShopProfile,
                       options: BuildOptions | None = None) -> list[Path]:
    """An image shop's files (``output: images`` profile) in ``OUT/<game>/<shop>/<lang>/``:
    each card face of the decks that go to a shop, at the profile's exact pixel size with
    its bleed (the faces rendered with the shop's bleed, so the art reaches every edge),
    one file per copy (``copies: each``, ``…-<NNN>-<card>-<copy>-a-front.png``) or per
    card (``counted``), and ``quantities.csv``: how many of each to print."""
    spec = shop.image
    assert spec is not None, "an image shop profile has its image spec (checked when read)"
    if shop.bleed is not None:  # templates draw into ``bleed``: render with the shop's own
        game = replace(game, components=tuple(replace(c, bleed=shop.bleed) if isinstance(c, Deck) else c
                                              for c in game.components))
    ext = "jpg" if spec.format == "jpeg" else "png"

    def write(lang: str, staging: _Staging) -> None:
        tmp = staging.dir(out_dir / game.id / shop.name / lang)
        rows: dict[tuple[str, str, int], list[str]] = {}
        for f in face_images(game, lang, spec.dpi, options=options):
            assert isinstance(f.component, Deck)
            if not f.component.printshop:
                continue
            card = next(c for c in f.component.cards if c.id == f.card_id)
            image = _exact(f.image, spec.pixels(f.component.size, f.component.bleed))
            copies = range(1, card.quantity + 1) if spec.copies == "each" else [0]
            for copy in copies:
                tag = "a-front" if f.side == "front" else "b-back"
                name = f"{game.id}-{lang}-{f.component.id}-{f.index:03d}-{f.card_id}"
                name += (f"-{copy}" if copy else "") + f"-{tag}.{ext}"
                row = rows.setdefault((f.component.id, f.card_id, copy),
                                      ["", "", "1" if copy else str(card.quantity), f.component.id, f.card_id])
                row[0 if f.side == "front" else 1] = name
                if spec.format == "jpeg":
                    _save(image, tmp / name, format="JPEG", quality=95, subsampling=0, dpi=(spec.dpi, spec.dpi))
                else:
                    _save(image, tmp / name, format="PNG", dpi=(spec.dpi, spec.dpi), optimize=False)
        if not rows:
            raise CardgenError(f"game '{game.id}' has no deck that goes to a print shop (every deck has "
                               "printshop: false)")
        _write_quantities(tmp / QUANTITIES, list(rows.values()))

    return _staged(write, langs or game.languages, out_dir, game.id)


def _exact(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` at exactly ``size`` pixels (a rendering rounds its size to the pixel)."""
    return image if image.size == size else image.resize(size, Image.Resampling.LANCZOS)


def _write_quantities(path: Path, rows: list[list[str]]) -> None:
    """The copies of each exported image: front file, back file (empty for one-sided
    pieces and boards), copies, component and card. UTF-8 with a byte-order mark,
    so that Excel reads accented card names right; a card id such as ``=1+2`` is
    written ``'=1+2`` (:func:`~cardgen.base.files.inert_cell`)."""
    text = csv_text(QUANTITY_COLUMNS, rows)
    with naming(path):
        path.write_text(text, encoding="utf-8-sig")


TTS_NOTE = """Tabletop Simulator decks for {game} ({lang})

In Tabletop Simulator: Objects > Components > Custom > Deck. For each deck below:
  Face:   the *-faces-N.png file (upload it, or use a file:/// path for a local game)
  Back:   the file named after it, then tick "Unique backs" if it is a sheet
  Width / Height: the grid given below;  Number: the card count given below
  The last slot of each face sheet is TTS's "hidden card" image (cards seen in
  another player's hand); it holds the card back when the deck has one back.

{decks}
"""


def export_tts(game: Game, langs: tuple[str, ...], out_dir: Path, options: BuildOptions | None = None) -> list[Path]:
    """Deck sheets of at most 10 × 7 cards (69 per sheet, the last slot kept for the
    hidden card), a back image (or back sheets when backs differ), and a how-to note."""
    def write(lang: str, staging: _Staging) -> None:
        tmp = staging.dir(out_dir / game.id / "tts" / lang)
        lines = []
        for comp in game.decks:
            w_mm, h_mm = comp.size
            dpi = TTS_CARD_PX / (w_mm / 25.4)
            images = face_images(game, lang, dpi, trim_only=True, options=options, component=comp.id)
            fronts = {f.card_id: f.image for f in images if f.side == "front"}
            backs = {f.card_id: f.image for f in images if f.side == "back"}
            order = [card.id for card in comp.cards for _ in range(card.quantity)]
            single_back = len({img.tobytes() for img in backs.values()}) <= 1
            cw, ch = TTS_CARD_PX, round(TTS_CARD_PX * h_mm / w_mm)  # exact, whatever the rounding
            for s, start in enumerate(range(0, len(order), TTS_PER_SHEET), start=1):
                chunk = order[start : start + TTS_PER_SHEET]
                cols = min(TTS_COLS, max(2, len(chunk) + 1))  # TTS grids are 2–10 wide, 2–7 high
                rows = max(2, math.ceil((len(chunk) + 1) / cols))
                base = f"{game.id}-{lang}-{comp.id}-faces-{s}"
                sheet = Image.new("RGB", (cols * cw, rows * ch), "white")
                for i, card_id in enumerate(chunk):
                    sheet.paste(fronts[card_id].resize((cw, ch)), ((i % cols) * cw, (i // cols) * ch))
                _save(sheet, tmp / f"{base}.png")
                back_note = "none (one-sided)"
                if backs and single_back:
                    back_name = f"{game.id}-{lang}-{comp.id}-back.png"
                    back = next(iter(backs.values())).resize((cw, ch))
                    _save(back, tmp / back_name)
                    sheet.paste(back, ((cols - 1) * cw, (rows - 1) * ch))  # the hidden-card slot
                    _save(sheet, tmp / f"{base}.png")
                    back_note = back_name
                elif backs:
                    back_name = f"{base}-backs.png"
                    bsheet = Image.new("RGB", sheet.size, "white")
                    for i, card_id in enumerate(chunk):
                        bsheet.paste(backs[card_id].resize((cw, ch)), ((i % cols) * cw, (i // cols) * ch))
                    _save(bsheet, tmp / back_name)
                    back_note = f"{back_name} (unique backs)"
                lines.append(f"{base}.png: {len(chunk)} cards, width {cols}, height {rows}; back: {back_note}")
        for board in game.boards:
            board_px = TTS_BOARD_PX / (max(board.size) / 25.4)
            (image,) = face_images(game, lang, board_px, trim_only=True, options=options, component=board.id,
                                   boards=True)
            name = f"{game.id}-{lang}-{board.id}-board.png"
            _save(image.image, tmp / name)
            lines.append(f"{name}: a board; Objects > Components > Custom > Board, image {name}")
        with naming(tmp / "TTS-IMPORT.txt"):
            (tmp / "TTS-IMPORT.txt").write_text(
                TTS_NOTE.format(game=game.name(lang), lang=lang, decks="\n".join(lines)), encoding="utf-8")

    return _staged(write, langs or game.languages, out_dir, game.id)


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(shipped_fonts_dir() / "NotoSans-Regular.ttf"), size)


def _cell_w(f: FaceImage) -> int:
    """A face's cell in the preview: its width, at least room for a short label."""
    return max(f.image.width, 64) + 16


def _preview_rows(faces: list[FaceImage], max_w: int) -> list[list[FaceImage]]:
    """Faces in rows at most ``max_w`` pixels wide, a new row for each deck, so a kit
    with pieces of several sizes (tiles, cards, tokens) packs without big holes."""
    rows: list[list[FaceImage]] = []
    width = 0
    for f in faces:
        cell = _cell_w(f)
        if not rows or width + cell > max_w or rows[-1][-1].component.id != f.component.id:
            rows.append([])
            width = 0
        rows[-1].append(f)
        width += cell
    return rows


def _smaller(f: FaceImage, longest: int) -> FaceImage:
    """A face image no longer than ``longest`` pixels on either side."""
    scale = longest / max(f.image.size)
    if scale >= 1:
        return f
    size = (max(1, round(f.image.width * scale)), max(1, round(f.image.height * scale)))
    return FaceImage(f.component, f.card_id, f.index, f.side, f.image.resize(size, Image.Resampling.LANCZOS))


def preview(game: Game, lang: str, out: Path, dpi: int = 60, options: BuildOptions | None = None) -> Path:
    """One contact-sheet PNG of every distinct face of the kit, each labelled, and of
    each board (made smaller to fit)."""
    faces = [_smaller(f, PREVIEW_BOARD_PX) if isinstance(f.component, Board) else f
             for f in face_images(game, lang, dpi, trim_only=True, distinct=True, options=options, boards=True)]
    if not faces:
        raise CardgenError(f"game '{game.id}' has no card faces to preview")
    area = sum(_cell_w(f) * (f.image.height + 34) for f in faces)
    max_w = max(max(_cell_w(f) for f in faces), round(math.sqrt(area * 1.6)), 6 * _cell_w(faces[0]))
    rows = _preview_rows(faces, max_w)
    title_h = 48
    sheet_w = max(sum(_cell_w(f) for f in row) for row in rows) + 16
    sheet_h = title_h + sum(max(f.image.height for f in row) + 34 for row in rows) + 8
    sheet = Image.new("RGB", (sheet_w, sheet_h), "#f4f1ea")
    draw = ImageDraw.Draw(sheet)
    boards = sum(isinstance(f.component, Board) for f in faces)
    also = f" and {boards} board{'s' if boards != 1 else ''}" if boards else ""
    draw.text((16, 12), f"{game.name(lang)} — {len(faces) - boards} distinct faces{also} ({lang})", fill="#1d1b24",
              font=_font(22))
    label_font = _font(11)
    y = title_h
    for row in rows:
        x = 16
        for f in row:
            cell_w = _cell_w(f)
            sheet.paste(f.image, (x, y))
            label = f"{f.card_id} · {f.side}"
            while draw.textlength(label, font=label_font) > cell_w - 6 and len(label) > 4:
                label = label[:-2] + "…"
            draw.text((x, y + f.image.height + 4), label, fill="#3a3a3a", font=label_font)
            x += cell_w
        y += max(f.image.height for f in row) + 34
    out.parent.mkdir(parents=True, exist_ok=True)
    with replacing(out) as tmp:  # a temporary file of its own: a write that fails half-way leaves nothing
        _save(sheet, tmp, format="PNG", dpi=(dpi, dpi))
    return out
