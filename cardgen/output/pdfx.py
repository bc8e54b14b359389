"""A drawn print-shop PDF made a PDF/X-4 file: its colours in CMYK through the output
profile, the profile embedded as the output intent, and the keys a preflight reads.

The painter draws a print-shop file's faces in the profile's inks already
(:mod:`cardgen.output.inkcolours`: screen colours, SVG art, gradient stops), so what
is left to convert is what no content stream says: this module opens the file with
pikepdf and walks every page's resources, so every colour that reaches the page is
CMYK, whoever drew it:

* RGB images (and the palette of indexed ones) become CMYK images, Flate-compressed,
  their soft mask kept; RGB shadings get CMYK end colours;
* transparency groups blend in DeviceCMYK;
* a content stream whose bytes hold a colour operator (``rg``/``RG``, ``cs``/``sc``…:
  a page's proof lines or spot colours, anything not drawn by the painter) is parsed,
  and ``rg``/``RG`` and ``sc``/``scn`` in an RGB colour space become ``k``/``K`` (or
  ``sc`` in DeviceCMYK) with the inks of :class:`~cardgen.output.cmyk.OutputProfile`;
  ink colours (``cmyk(…)``, drawn as ``k``), greys (``g``) and spot colours (the
  CutContour, the registration colour) stay as drawn. A stream without one (every face
  the painter drew in inks) is not parsed.

Then the PDF/X-4 parts (ISO 15930-7): an ``/OutputIntents`` entry (``/S /GTS_PDFX``,
the output condition, the ICC profile embedded as ``/DestOutputProfile``), the
``GTS_PDFXVersion`` and ``Trapped /False`` in the Info dictionary and the same in an
XMP metadata packet with the title, dates and document ids, PDF 1.6, and a document
ID made from the content (a rebuild writes the same bytes). Page boxes (TrimBox,
BleedBox) are set when the pages are drawn (``output/kit.py``); :func:`require_boxes`
checks them here before the file claims PDF/X.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, Operator, String

from ..base.errors import CardgenError
from .cmyk import OutputProfile

PDFX_VERSION = "PDF/X-4"
FIXED_DATE = "D:20000101000000+00'00'"  # ReportLab's invariant-mode date: the same bytes build after build
FIXED_XMP_DATE = "2000-01-01T00:00:00+00:00"
RGB_NAMES = ("/DeviceRGB", "/CalRGB")
# every operator the rewriter changes holds one of these pairs of letters (rg, RG, cs, CS, sc,
# scn, SC, SCN): a stream whose bytes hold none has nothing to convert and is not parsed
_COLOUR_LETTERS = re.compile(rb"rg|RG|cs|CS|sc|SC")


def has_colour_operators(data: bytes) -> bool:
    """Whether a content stream's (decoded) bytes may hold an operator that sets an RGB
    colour or colour space; never False for one that does (a string or a name that
    looks like one makes it True, and the stream is parsed to be sure)."""
    return _COLOUR_LETTERS.search(data) is not None


def _content_bytes(holder, is_page: bool) -> bytes:
    """The decoded bytes of a page's content streams (in order) or of a form's stream."""
    contents = holder.get("/Contents") if is_page else holder
    if contents is None:
        return b""
    if isinstance(contents, Array):
        return b"\n".join(part.read_bytes() for part in contents)
    return contents.read_bytes()


def make_pdfx(path: Path, profile: OutputProfile, title: str, lang: str) -> None:
    """Rewrite the PDF at ``path`` in place as a PDF/X-4 file for ``profile``."""
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        Rewriter(pdf, profile).run()
        require_boxes(pdf, path.name)
        _output_intent(pdf, profile)
        _info_and_xmp(pdf, title, lang, path.name)
        pdf.trailer.Info.CardgenInkLimit = round(profile.ink_limit, 2)  # the limit the preflight holds it to
        pdf.save(path, deterministic_id=True, min_version="1.6", compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable, linearize=False)


def require_boxes(pdf: pikepdf.Pdf, label: str) -> None:
    """Every page has a TrimBox inside its BleedBox inside its MediaBox, and no ArtBox:
    PDF/X gives a page a TrimBox or an ArtBox, never both (the ArtBox ReportLab's pages
    carry for other tools equals the TrimBox, and goes)."""
    for n, page in enumerate(pdf.pages, start=1):
        if "/ArtBox" in page.obj:
            del page.obj["/ArtBox"]
        trim, bleed, media = (page.obj.get(k) for k in ("/TrimBox", "/BleedBox", "/MediaBox"))
        if trim is None or bleed is None:
            raise CardgenError(f"{label}: page {n} has no TrimBox or BleedBox (a PDF/X file needs both)")
        if not (_inside(trim, bleed) and _inside(bleed, media)):
            raise CardgenError(f"{label}: page {n}: TrimBox, BleedBox and MediaBox are not nested")


def _inside(inner, outer, tol: float = 0.01) -> bool:
    a, b = [float(v) for v in inner], [float(v) for v in outer]
    return a[0] >= b[0] - tol and a[1] >= b[1] - tol and a[2] <= b[2] + tol and a[3] <= b[3] + tol


def is_rgb_space(space) -> bool:
    """A colour space object (a name or an array) that holds RGB values."""
    if isinstance(space, Name):
        return str(space) in RGB_NAMES
    if isinstance(space, Array) and len(space) >= 2 and str(space[0]) == "/ICCBased":
        return int(space[1].get("/N", 0)) == 3
    if isinstance(space, Array) and len(space) >= 1 and str(space[0]) == "/CalRGB":
        return True
    return False


class Rewriter:
    """Every content stream, image and shading of a PDF turned from RGB into CMYK."""

    def __init__(self, pdf: pikepdf.Pdf, profile: OutputProfile):
        self.pdf = pdf
        self.profile = profile
        self.done: set[tuple[int, int]] = set()

    def run(self) -> None:
        for page in self.pdf.pages:
            self._group(page.obj)
            self._stream(page.obj, page.obj.get("/Resources"), is_page=True)

    def _seen(self, obj) -> bool:
        key = obj.objgen
        if key == (0, 0):
            return False
        if key in self.done:
            return True
        self.done.add(key)
        return False

    def _group(self, holder) -> None:
        group = holder.get("/Group")
        if group is not None and is_rgb_space(group.get("/CS")):
            group.CS = Name.DeviceCMYK

    def _inks(self, values) -> list[float]:
        return [round(v, 4) for v in self.profile.rgb(*(float(v) for v in values[:3]))]

    def _resources(self, resources) -> None:
        """The images, forms, shadings and patterns a stream's resources name."""
        if resources is None:
            return
        for obj in (resources.get("/XObject") or {}).values():
            if self._seen(obj):
                continue
            if obj.get("/Subtype") == Name.Form:
                self._group(obj)
                self._stream(obj, obj.get("/Resources"), is_page=False)
            elif obj.get("/Subtype") == Name.Image:
                self._image(obj)
        for obj in (resources.get("/Shading") or {}).values():
            if not self._seen(obj):
                self._shading(obj)
        for obj in (resources.get("/Pattern") or {}).values():
            if self._seen(obj):
                continue
            if int(obj.get("/PatternType", 0)) == 2 and "/Shading" in obj:
                self._shading(obj.Shading)
            elif int(obj.get("/PatternType", 0)) == 1:
                self._stream(obj, obj.get("/Resources"), is_page=False)
        for gs in (resources.get("/ExtGState") or {}).values():
            mask = gs.get("/SMask")
            if isinstance(mask, Dictionary) and "/G" in mask and not self._seen(mask.G):
                self._group(mask.G)
                self._stream(mask.G, mask.G.get("/Resources"), is_page=False)

    def _stream(self, holder, resources, is_page: bool) -> None:
        self._resources(resources)
        if not has_colour_operators(_content_bytes(holder, is_page)):
            return  # drawn in inks (the print-shop files' faces) or only placing forms: left as drawn
        named = (resources.get("/ColorSpace") if resources is not None else None) or {}
        rgb_names = {str(k) for k, v in named.items() if is_rgb_space(v)}
        fill_rgb = stroke_rgb = False
        stack: list[tuple[bool, bool]] = []
        out: list = []
        changed = False
        for ins in pikepdf.parse_content_stream(holder):
            if isinstance(ins, pikepdf.ContentStreamInlineImage):
                out.append(ins)  # cardgen draws none; the preflight names any that is left
                continue
            op, args = str(ins.operator), list(ins.operands)
            if op == "q":
                stack.append((fill_rgb, stroke_rgb))
            elif op == "Q" and stack:
                fill_rgb, stroke_rgb = stack.pop()
            elif op in ("rg", "RG"):
                out.append((self._inks(args), Operator("k" if op == "rg" else "K")))
                changed = True
                continue
            elif op in ("cs", "CS"):
                rgb = str(args[0]) in RGB_NAMES or str(args[0]) in rgb_names
                if op == "cs":
                    fill_rgb = rgb
                else:
                    stroke_rgb = rgb
                if rgb:
                    out.append(([Name.DeviceCMYK], ins.operator))
                    changed = True
                    continue
            elif op in ("sc", "scn", "SC", "SCN") and (fill_rgb if op in ("sc", "scn") else stroke_rgb):
                out.append((self._inks(args), ins.operator))
                changed = True
                continue
            out.append(ins)
        if changed:
            data = pikepdf.unparse_content_stream(out)
            if is_page:
                contents = self.pdf.make_stream(b"")
                contents.write(zlib.compress(data, 6), filter=Name.FlateDecode)
                holder.Contents = contents
            else:
                holder.write(zlib.compress(data, 6), filter=Name.FlateDecode)

    def _image(self, image) -> None:
        space = image.get("/ColorSpace")
        if isinstance(space, Array) and len(space) == 4 and str(space[0]) == "/Indexed" and is_rgb_space(space[1]):
            lookup = bytes(space[3].read_bytes() if isinstance(space[3], pikepdf.Stream) else space[3])
            quads = bytearray()
            for i in range(0, len(lookup) - 2, 3):
                quads.extend(round(v * 255) for v in self.profile.rgb(*(b / 255 for b in lookup[i:i + 3])))
            image.ColorSpace = Array([Name.Indexed, Name.DeviceCMYK, space[2], String(bytes(quads))])
            return
        if not is_rgb_space(space):
            return
        picture = picture_of(image, "RGB")
        cmyk = self.profile.image(picture)
        image.write(zlib.compress(cmyk.tobytes(), 6), filter=Name.FlateDecode)
        image.ColorSpace = Name.DeviceCMYK
        image.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode"):
            if key in image:
                del image[key]

    def _shading(self, shading) -> None:
        if not is_rgb_space(shading.get("/ColorSpace")):
            return
        shading.ColorSpace = Name.DeviceCMYK
        if "/Background" in shading:
            shading.Background = Array(self._inks(shading.Background))
        self._function(shading.get("/Function"))

    def _function(self, function) -> None:
        """Exponential functions' end colours converted (stitching functions: each part);
        a sampled function cannot be rewritten colour by colour and is refused."""
        if function is None:
            return
        if isinstance(function, Array):
            for f in function:
                self._function(f)
            return
        kind = int(function.get("/FunctionType", -1))
        if kind == 2:
            function.C0 = Array(self._inks(function.get("/C0", Array([0, 0, 0]))))
            function.C1 = Array(self._inks(function.get("/C1", Array([1, 1, 1]))))
        elif kind == 3:
            for f in function.Functions:
                self._function(f)
        else:
            raise CardgenError(f"a gradient drawn with a type {kind} function cannot be converted to CMYK")


def picture_of(image, mode: str):
    """An image XObject's pixels as a Pillow image of ``mode`` (``RGB``, ``CMYK``), its
    soft mask left out (it stays the image's own, unchanged)."""
    from PIL import Image

    if int(image.get("/BitsPerComponent", 8)) == 8 and image.get("/Filter") in (None, Name.FlateDecode,
                                                                               Array([Name.FlateDecode])):
        data = image.read_bytes()  # decoded
        size = (int(image.Width), int(image.Height))
        if len(data) == size[0] * size[1] * len(mode):
            return Image.frombytes(mode, size, data)
    return pikepdf.PdfImage(image).as_pil_image().convert(mode)


def _output_intent(pdf: pikepdf.Pdf, profile: OutputProfile) -> None:
    icc = pdf.make_stream(b"")
    icc.write(profile.compressed, filter=Name.FlateDecode)
    icc.N = 4
    intent = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=String(profile.condition),
                        OutputCondition=String(profile.condition_text), RegistryName=String("http://www.color.org"),
                        Info=String(profile.description), DestOutputProfile=icc)
    pdf.Root.OutputIntents = Array([pdf.make_indirect(intent)])


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _info_and_xmp(pdf: pikepdf.Pdf, title: str, lang: str, seed: str) -> None:
    info = pdf.trailer.get("/Info")
    if info is None:
        info = pdf.make_indirect(Dictionary())
        pdf.trailer.Info = info
    info.Title = String(title)
    info.GTS_PDFXVersion = String(PDFX_VERSION)
    info.Trapped = Name("/False")
    info.CreationDate = String(FIXED_DATE)
    info.ModDate = String(FIXED_DATE)
    producer = str(info.get("/Producer", "cardgen"))
    uid = "uuid:" + _uuid(seed + "\n" + title)
    xmp = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="{_xml(lang)}">{_xml(title)}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>cardgen</rdf:li></rdf:Seq></dc:creator>
   <xmp:CreatorTool>cardgen</xmp:CreatorTool>
   <xmp:CreateDate>{FIXED_XMP_DATE}</xmp:CreateDate>
   <xmp:ModifyDate>{FIXED_XMP_DATE}</xmp:ModifyDate>
   <xmp:MetadataDate>{FIXED_XMP_DATE}</xmp:MetadataDate>
   <pdf:Producer>{_xml(producer)}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>{uid}</xmpMM:DocumentID>
   <xmpMM:InstanceID>{uid}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{PDFX_VERSION}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    meta = pdf.make_stream(xmp.encode("utf-8"))
    meta.Type = Name.Metadata
    meta.Subtype = Name.XML
    pdf.Root.Metadata = meta


def _uuid(seed: str) -> str:
    h = hashlib.sha256(seed.encode("utf-8")).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
