"""A drawn print-shop PDF made a PDF/X-1a:2003 file (ISO 15930-4), for shops that take
nothing else (DriveThruCards, GangRun).

The same conversion to CMYK as the PDF/X-4 file (:class:`~cardgen.output.pdfx.Rewriter`),
then every translucent op flattened into opaque CMYK (:mod:`cardgen.output.flatten`),
then the X-1a parts: the output intent with the embedded profile, ``GTS_PDFXVersion
(PDF/X-1:2001)`` and ``GTS_PDFXConformance (PDF/X-1a:2003)`` in the Info dictionary and
the XMP packet, ``Trapped``, a document ID, TrimBox and BleedBox on every page (no
ArtBox beside the TrimBox: X-1a asks for one of the two), PDF 1.4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
from pikepdf import Name, String

from .cmyk import OutputProfile
from .pdfx import PDFX_VERSION, Rewriter, _info_and_xmp, _output_intent, require_boxes

X1A_VERSION = "PDF/X-1:2001"
X1A_CONFORMANCE = "PDF/X-1a:2003"
X1A_PDF_VERSION = "1.4"


def make_pdfx1a(path: Path, profile: OutputProfile, title: str, lang: str, faces: list[str] | None = None) -> None:
    """Rewrite the PDF at ``path`` in place as a PDF/X-1a:2003 file for ``profile``;
    :class:`~cardgen.output.flatten.NotFlattenable` (naming the page and face of
    ``faces``) when a translucent op cannot be flattened exactly."""
    from .flatten import Flattener  # shapely and numpy: imported by a PDF/X-1a build only

    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        Rewriter(pdf, profile).run()
        Flattener(pdf, path.name, list(faces or [])).run()
        require_boxes(pdf, path.name)
        _output_intent(pdf, profile)
        _info_and_xmp(pdf, title, lang, path.name + "\n" + X1A_CONFORMANCE)
        info = pdf.trailer.Info
        info.GTS_PDFXVersion = String(X1A_VERSION)
        info.GTS_PDFXConformance = String(X1A_CONFORMANCE)
        info.CardgenInkLimit = round(profile.ink_limit, 2)
        _xmp_x1a(pdf)
        pdf.save(path, deterministic_id=True, force_version=X1A_PDF_VERSION, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable, linearize=False)


def face_label(page) -> str:
    """What a print-shop page prints, for messages ("anubis front"), from its manifest record."""
    card = page.items[0].card if page.items else page.component
    return f"{card} {page.side}"


def _xmp_x1a(pdf: pikepdf.Pdf) -> None:
    """The XMP packet says what the Info dictionary says (a preflight compares them)."""
    xmp = pdf.Root.Metadata.read_bytes().decode("utf-8")
    old = f"<pdfxid:GTS_PDFXVersion>{PDFX_VERSION}</pdfxid:GTS_PDFXVersion>"
    assert old in xmp
    xmp = xmp.replace('xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">',
                      'xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"\n    xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/">')
    xmp = xmp.replace(old, f"<pdfxid:GTS_PDFXVersion>{X1A_VERSION}</pdfxid:GTS_PDFXVersion>\n"
                           f"   <pdfx:GTS_PDFXVersion>{X1A_VERSION}</pdfx:GTS_PDFXVersion>\n"
                           f"   <pdfx:GTS_PDFXConformance>{X1A_CONFORMANCE}</pdfx:GTS_PDFXConformance>")
    meta = pdf.make_stream(xmp.encode("utf-8"))
    meta.Type = Name.Metadata
    meta.Subtype = Name.XML
    pdf.Root.Metadata = meta


def x1a_findings(pdf: pikepdf.Pdf) -> list[tuple[int, str]]:
    """What a PDF/X-1a preflight flags that the general preflight does not: transparency
    left (page by page, forms included), missing X-1a keys, a PDF version above 1.4.
    Page 0: the file as a whole."""
    found: list[tuple[int, str]] = []
    info: Any = pdf.trailer.get("/Info") or {}
    if pdf.pdf_version > X1A_PDF_VERSION:
        found.append((0, f"PDF {pdf.pdf_version}: PDF/X-1a needs 1.3 or 1.4"))
    for key, want in (("/GTS_PDFXVersion", X1A_VERSION), ("/GTS_PDFXConformance", X1A_CONFORMANCE)):
        if str(info.get(key, "")) != want:
            found.append((0, f"the Info dictionary has no {key.lstrip('/')} ({want})"))
    if info.get("/Trapped") not in (Name("/True"), Name("/False")):
        found.append((0, "the Info dictionary has no Trapped (True or False)"))
    if "/ID" not in pdf.trailer:
        found.append((0, "no document ID"))
    intents: Any = pdf.Root.get("/OutputIntents") or []
    if not any(i.get("/S") == Name.GTS_PDFX and ("/DestOutputProfile" in i or "/RegistryName" in i)
               for i in intents):
        found.append((0, "no PDF/X output intent with an output profile"))
    for n, page in enumerate(pdf.pages, start=1):
        left = sorted(_transparency(page.obj))
        if left:
            found.append((n, "transparency left in a PDF/X-1a file: " + ", ".join(left)))
    return found


def _transparency(page) -> set[str]:
    """What in a page (and the forms, patterns and images it draws) is transparent."""
    left: set[str] = set()
    seen: set = set()
    todo = [page]
    while todo:
        holder = todo.pop()
        if holder.objgen != (0, 0):
            if holder.objgen in seen:
                continue
            seen.add(holder.objgen)
        group = holder.get("/Group")
        if group is not None and group.get("/S") == Name.Transparency:
            left.add("a transparency group")
        res = holder.get("/Resources") or {}
        for state in (res.get("/ExtGState") or {}).values():
            if float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1:
                left.add("an opacity below 1 (ExtGState /ca or /CA)")
            mask = state.get("/SMask")
            if mask is not None and mask != Name("/None"):
                left.add("a soft mask (ExtGState /SMask)")
            mode = state.get("/BM")
            if mode is not None and str(mode) not in ("/Normal", "/Compatible"):
                left.add("a blend mode")
        for x in (res.get("/XObject") or {}).values():
            if "/SMask" in x:
                left.add("an image with a soft mask")
            if x.get("/Subtype") == Name.Form:
                todo.append(x)
        for p in (res.get("/Pattern") or {}).values():
            if int(p.get("/PatternType", 0)) == 1:
                todo.append(p)
    return left


def is_x1a(pdf: pikepdf.Pdf) -> bool:
    """Whether a file claims PDF/X-1a."""
    info: Any = pdf.trailer.get("/Info") or {}
    return str(info.get("/GTS_PDFXConformance", "")).startswith("PDF/X-1a") or \
        str(info.get("/GTS_PDFXVersion", "")).startswith("PDF/X-1")
