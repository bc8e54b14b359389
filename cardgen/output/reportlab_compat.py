"""Every place cardgen reaches into ReportLab's internals, in one module, guarded by the
ReportLab versions it was checked with.

Three ReportLab shortcomings are worked around here:

* a form XObject's resources are written without its graphics states (ExtGState),
  colour spaces and shadings, so an opacity drawn inside a form names a state the form
  does not have, and viewers and printers draw it fully opaque, and an SVG gradient
  names a shading the form does not have, which viewers paint black (every card face
  is a form);
* the ToUnicode CMap of an embedded TrueType subset writes a code point above U+FFFF
  as it is (``<13143>`` for the falcon) instead of as a UTF-16 surrogate pair, so
  pdftotext and pypdf cannot extract hieroglyphs;
* ``renderPDF.draw`` starts every drawing by setting its default font (Helvetica, a
  base-14 font that is never embedded) even when the drawing holds no text, which an SVG
  never does here (svgart refuses SVG text): :func:`draw_vector_art` leaves the font out.
* every embedded TrueType subset is tagged by its number alone, so the first subset
  of every font is ``AAAAAA+``: print-shop software that merges fonts by tag takes
  NotoSans-Bold's subset for NotoSans-Regular's, or one file's subset for another's.
  Each subset's tag is a hash of its font and of the characters it holds, so equal
  tags mean equal font programs, across files and games (and build after build).

All lean on names ReportLab does not promise to keep (the canvas's ``_doc``, a form's
``_colorsUsed``, the canvas's ``_shadingUsed``, ``ttfonts.makeToUnicodeCMap`` and ``ttfonts.SUBSETN`` looked up as module globals at
write time, ``TTFont.addObjects``), so :func:`prepare_reportlab`, which every cardgen canvas goes through, refuses a
ReportLab outside :data:`CHECKED_WITH` with a clear error rather than writing PDFs that
silently lose opacities or text.
"""

from __future__ import annotations

import hashlib
import re
import zlib

import reportlab
from reportlab import rl_config
from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.pdfdoc import PDFResourceDictionary, PDFStream, xObjectName

from ..base.errors import CardgenError

CHECKED_WITH = ((4, 2), (6, 0))
"""ReportLab versions from the first (included) to the second (excluded) the workarounds
were checked with (4.2.0 and 5.1.0); ``pyproject.toml`` asks for the same range."""


def version_tuple(version: str) -> tuple[int, ...]:
    """'5.1.0' → (5, 1, 0); a suffix such as 'rc1' or '.post2' is ignored."""
    match = re.match(r"\d+(?:\.\d+)*", version)
    if not match:
        raise ValueError(f"not a version: {version!r}")
    return tuple(int(part) for part in match.group().split("."))


def require_checked_version(version: str | None = None) -> None:
    """Raise CardgenError unless ``version`` (default: the installed ReportLab) is one
    the workarounds were checked with."""
    version = reportlab.Version if version is None else version
    low, high = CHECKED_WITH
    if not low <= version_tuple(version) < high:
        raise CardgenError(
            f"ReportLab {version} is installed, but cardgen's workarounds for ReportLab's internals "
            f"(cardgen/output/reportlab_compat.py) were checked with ReportLab {_dotted(low)} up to, not "
            f"including, {_dotted(high)}: install one of those (pip install 'reportlab>={_dotted(low)},"
            f"<{_dotted(high)}')"
        )


def _dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def prepare_reportlab() -> None:
    """Check the ReportLab version and install the ToUnicode fix: called before any
    cardgen canvas is made."""
    require_checked_version()
    install_tounicode_fix()
    install_subset_tags()


# --- form resources -------------------------------------------------------------

def end_form(c, name: str) -> None:
    """``c.endForm()``, then the form's resources written whole, as ReportLab writes a
    page's. ReportLab writes a form's resources without its graphics states (ExtGState),
    colour spaces and shadings, so an opacity drawn inside a form names a state the form
    does not have (viewers and printers draw it fully opaque), and a gradient (``/Sh0 sh``)
    names a shading it does not have (viewers paint it black). Every card face is a form."""
    shadings = dict(c._shadingUsed)  # endForm forgets them before the form is written
    c.endForm()
    give_form_its_graphics_states(c, name, shadings)
    compress_form_now(c._doc.idToObject[xObjectName(name)])


class _Compressed:
    """The FlateDecode filter of a stream whose content is compressed already."""

    pdfname = "FlateDecode"

    @staticmethod
    def encode(data: bytes) -> bytes:
        return data


def compress_form_now(form) -> None:
    """Compress a form's content when it ends, not when the file is saved: a file holds
    every face it draws as a form until then (the print-shop file, thousands), and holds
    them compressed. The bytes written are the same: ReportLab would compress the same
    content the same way (zlib's default level) and name the same filter."""
    if _compress_now(form, "xobject form stream"):
        form.compression = 0  # its filter is named already


def compress_page_now(page) -> None:
    """A page's content compressed as the page ends (:func:`compress_form_now`)."""
    _compress_now(page, "page stream")


def _compress_now(holder, comment: str) -> bool:
    stream = holder.stream
    if not stream or holder.Contents or not holder.compression or rl_config.useA85:
        return False
    contents = PDFStream()
    contents.content = zlib.compress(stream.encode("utf8") if isinstance(stream, str) else stream)
    contents.filters = [_Compressed]
    contents.__Comment__ = comment
    holder.Contents = contents
    holder.stream = None
    return True


def give_form_its_graphics_states(c, name: str, shadings: dict | None = None) -> None:
    """Write the resources of the form ``name`` that ReportLab leaves out: its graphics
    states, colour spaces and ``shadings`` (the canvas's ``_shadingUsed`` while the form
    was open). Call it right after ``endForm`` (:func:`end_form` does both)."""
    form = c._doc.idToObject[xObjectName(name)]
    if not form.ExtGState and not getattr(form, "_colorsUsed", None) and not shadings:
        return
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if form.ExtGState:
        resources.ExtGState = form.ExtGState
    resources.setColorSpace(getattr(form, "_colorsUsed", {}) or {})
    resources.setShading(shadings or {})
    form.Resources = resources


# --- ToUnicode CMaps ----------------------------------------------------------------

def _to_utf16_hex(code: int) -> str:
    """A code point as the UTF-16BE hex a ToUnicode CMap expects."""
    if code > 0xFFFF:
        code -= 0x10000
        return "%04X%04X" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))
    return "%04X" % code


def _make_to_unicode_cmap(fontname, subset):
    """ReportLab's makeToUnicodeCMap, but astral code points become surrogate pairs.

    ReportLab 5 writes e.g. <13143> for the falcon, which is not UTF-16, so
    pdftotext and pypdf cannot extract hieroglyphs. Same output otherwise.
    """
    cmap = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo",
        "<< /Registry (%s)" % fontname,
        "/Ordering (%s)" % fontname,
        "/Supplement 0",
        ">> def",
        "/CMapName /%s def" % fontname,
        "/CMapType 2 def",
        "1 begincodespacerange",
        "<00> <%02X>" % (len(subset) - 1),
        "endcodespacerange",
        "%d beginbfchar" % len(subset),
    ] + ["<%02X> <%s>" % (i, _to_utf16_hex(v)) for i, v in enumerate(subset)] + [
        "endbfchar",
        "endcmap",
        "CMapName currentdict /CMap defineresource pop",
        "end",
        "end",
    ]
    return "\n".join(cmap)


_make_to_unicode_cmap._cardgen_fix = True  # type: ignore[attr-defined]

REPORTLAB_MAKE_TO_UNICODE_CMAP = ttfonts.makeToUnicodeCMap
"""ReportLab's own function (this module is the only one that replaces it), kept so a
test can tell when ReportLab no longer needs the fix."""


def install_tounicode_fix() -> None:
    """Patch reportlab.pdfbase.ttfonts so hieroglyphs survive text extraction.

    ttfonts looks the function up as a module global at write time, so replacing
    the attribute is enough. Idempotent.
    """
    if not getattr(ttfonts.makeToUnicodeCMap, "_cardgen_fix", False):
        ttfonts.makeToUnicodeCMap = _make_to_unicode_cmap


def _faded(drawing, opacity: float):
    """A copy of ``drawing`` with every fill and stroke ``opacity`` times as opaque.
    renderPDF sets each shape's own alpha, so an alpha set on the canvas before it
    would be lost; like a faded ``group``, overlapping shapes show a little darker."""
    import copy

    from reportlab.lib.colors import Color

    drawing = copy.deepcopy(drawing)
    todo = [drawing]
    while todo:
        node = todo.pop()
        for side in ("fill", "stroke"):
            colour = getattr(node, side + "Color", None)
            if isinstance(colour, Color):
                colour = copy.copy(colour)
                colour.alpha = (colour.alpha if colour.alpha is not None else 1) * opacity
                setattr(node, side + "Color", colour)
            if hasattr(node, side + "Color") or hasattr(node, side + "Opacity"):
                own = getattr(node, side + "Opacity", None)
                setattr(node, side + "Opacity", (1 if own is None else own) * opacity)
        todo.extend(getattr(node, "contents", []))
    return drawing


def draw_vector_art(drawing, c, x: float = 0, y: float = 0, opacity: float | None = None,
                    ink=None) -> None:
    """A ReportLab Drawing (an SVG, as svglib turns it) onto the canvas, as vectors,
    without the Helvetica that ``renderPDF.draw`` would set first, faded by ``opacity``;
    ``ink`` (a Color → Color function) turns the renderer's starting fill and stroke
    (black) into what the drawing's own colours were turned into (a print-shop file's inks)."""
    from reportlab.graphics import renderPDF

    if opacity is not None and opacity < 1:
        drawing = _faded(drawing, opacity)

    class _NoDefaultFont(renderPDF._PDFRenderer):
        def initState(self, x, y):  # as renderbase.Renderer.initState, minus the font
            deltas = self._tracker._combined[-1]
            deltas["transform"] = tuple(list(deltas["transform"])[:4]) + (x, y)
            if ink is not None:
                for key in ("fillColor", "strokeColor"):
                    if deltas.get(key) is not None:
                        deltas[key] = ink(deltas[key])
            self._tracker.push(deltas)
            self.applyStateChanges({k: v for k, v in deltas.items() if k not in ("fontName", "fontSize")}, {})

    _NoDefaultFont().draw(renderPDF.renderScaledDrawing(drawing), c, x, y, showBoundary=False)


# --- subset tags ------------------------------------------------------------------

_tagging: list[tuple[bytes, list]] = []  # the font whose subsets ReportLab is writing: its identity, its subsets
_font_ids: dict[int, bytes] = {}  # id(face) → the font's identity: its name and the digest of its file


def subset_tag(font_id: bytes, subset: list[int] | tuple[int, ...]) -> bytes:
    """Six capital letters naming one font program: a hash of the font (its name and
    file) and of the subset's characters in their order (code i draws the glyph of
    ``subset[i]``), so that two files' subsets share a tag exactly when they embed the
    same program, and a rebuild gives the same bytes."""
    digest = hashlib.sha256(font_id + b"\0" + ",".join(map(str, subset)).encode()).digest()
    return bytes(65 + b % 26 for b in digest[:6])


def _font_id(face) -> bytes:
    key = id(face)
    found = _font_ids.get(key)
    if found is None:
        data = getattr(face, "_ttf_data", b"") or b""
        found = bytes(face.name) + bytes(getattr(face, "subfontNameX", b"") or b"") + b"\0" + \
            hashlib.sha256(data).hexdigest().encode()
        _font_ids[key] = found
    return found


def _subset_name(n: int) -> bytes:
    """ReportLab's SUBSETN(n), but naming the subset's program (see :func:`install_subset_tags`)."""
    if not _tagging:
        return subset_tag(b"", [n])
    font_id, subsets = _tagging[-1]
    return subset_tag(font_id, subsets[n])


def install_subset_tags() -> None:
    """Patch reportlab.pdfbase.ttfonts so each font subset's tag names its program.

    ``TTFont.addObjects`` names each subset ``SUBSETN(n) + "+" + face name``, SUBSETN
    looked up as a module global: replacing it, and telling it which font and which
    subsets are being written, is enough. Idempotent."""
    if getattr(ttfonts.TTFont.addObjects, "_cardgen_fix", False):
        return
    original = ttfonts.TTFont.addObjects

    def add_objects(self, doc):
        state = self.state.get(doc)
        _tagging.append((_font_id(self.face), list(state.subsets) if state is not None else []))
        try:
            return original(self, doc)
        finally:
            _tagging.pop()

    add_objects._cardgen_fix = True  # type: ignore[attr-defined]
    ttfonts.TTFont.addObjects = add_objects
    ttfonts.SUBSETN = _subset_name
