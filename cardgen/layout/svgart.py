"""SVG art, read as untrusted data: checked whole, then turned into a ReportLab drawing
(svglib) that the painter places as vectors.

A game folder may come from anyone, and an SVG is XML that can name other files, URLs
and entities. Before svglib sees it the file is parsed here with a parser that resolves
no entity, loads no DTD and reaches no network, and refused when it holds a DOCTYPE, a
reference to anything but a fragment of itself (``href="#id"``, ``url(#id)``) or an
embedded PNG/JPEG, a CSS ``@import``, text (drawn in fonts cardgen cannot check or
embed: convert it to paths), or more elements than any card art needs once every
``<use>`` is expanded. svglib therefore never opens a file or a URL.
"""

from __future__ import annotations

import base64
import binascii
import io
import logging
import re
from pathlib import Path
from typing import Any

from ..base.errors import CardgenError
from .raster import check_image
from .svgopacity import fold_opacity
from .svgpaint import check_paints, describe

MAX_SVG_BYTES = 8_000_000
MAX_SVG_ELEMENTS = 20_000  # counted with every <use> expanded; svglib reads some 1,000 a second

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK = "{http://www.w3.org/1999/xlink}href"
_REFUSED = {"text": "text", "tspan": "text", "textPath": "text", "foreignObject": "a foreignObject",
            "script": "a script", "iframe": "an iframe", "video": "a video", "audio": "audio"}
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.I)
_DATA_IMAGE = re.compile(r"^data:image/(png|jpe?g);base64,", re.I)


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _parse(path: Path) -> Any:
    from lxml import etree

    size = path.stat().st_size
    if size > MAX_SVG_BYTES:  # before reading it: a huge file is never read whole
        raise CardgenError(f"the SVG is {size:,} bytes; an SVG may have at most {MAX_SVG_BYTES:,}")
    with path.open("rb") as f:
        data = f.read(MAX_SVG_BYTES + 1)
    if len(data) > MAX_SVG_BYTES:
        raise CardgenError(f"the SVG is more than {MAX_SVG_BYTES:,} bytes; an SVG may have at most {MAX_SVG_BYTES:,}")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False, remove_comments=True, remove_pis=True, recover=False)
    try:
        tree = etree.parse(io.BytesIO(data), parser)
    except etree.XMLSyntaxError as exc:
        msg = re.sub(r", line \d+, column \d+$", "", (exc.msg or "").splitlines()[0] if exc.msg else "")
        line, column = exc.position if exc.position else (0, 0)
        raise CardgenError(f"the SVG is not well-formed XML at line {line}, column {column}: {msg[:160]}") from None
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        raise CardgenError("the SVG has a DOCTYPE; cardgen reads no DTD or entity (remove the <!DOCTYPE …> line)")
    root = tree.getroot()
    if root.tag != f"{{{_SVG_NS}}}svg":
        raise CardgenError(f"the file is XML but not an SVG (its root is <{_local(root.tag)}>, not <svg> "
                           f"in the SVG namespace)")
    return root


def _check_reference(ref: str, what: str, el: Any) -> None:
    ref = ref.strip()
    if not ref or ref.startswith("#"):
        return
    if _DATA_IMAGE.match(ref):
        _check_embedded(ref, el)
        return
    raise CardgenError(f"the SVG refers to {ref[:80]!r} ({what}); an SVG may refer only to its own "
                       f"parts ('#id') or embed a PNG or JPEG: cardgen opens no other file or URL")


def _check_embedded(ref: str, el: Any) -> None:
    """An embedded PNG or JPEG, checked as an image file is (raster.check_image: the same
    pixel limit, read from its header before any pixel is decoded)."""
    try:
        raw = base64.b64decode(ref.split(",", 1)[1], validate=False)
    except (ValueError, binascii.Error):
        raw = b""
    try:
        check_image(io.BytesIO(raw))
    except CardgenError as exc:
        raise CardgenError(f"the SVG's {describe(el)} embeds a picture: {exc}") from None


def _check_tree(root: Any) -> int:
    ids: dict[str, Any] = {}
    count = 0
    for el in root.iter():
        count += 1
        if count > MAX_SVG_ELEMENTS:
            break
        name = _local(el.tag)
        if name in _REFUSED:
            hint = ": convert the text to paths" if _REFUSED[name] == "text" else ""
            raise CardgenError(f"the SVG holds {_REFUSED[name]} (<{name}>), which cardgen does not draw{hint}")
        if el.get("id"):
            ids[el.get("id")] = el
        for attr in (_XLINK, "href"):
            if el.get(attr) is not None:
                _check_reference(el.get(attr), f"<{name} href>", el)
        style = " ".join(filter(None, [el.get("style"), el.text if name == "style" else None,
                                       *(el.get(a) for a in ("fill", "stroke", "filter", "clip-path", "mask",
                                                             "marker-start", "marker-mid", "marker-end"))]))
        if "@import" in style.lower():
            raise CardgenError("the SVG's style has an @import; cardgen opens no other file or URL")
        for m in _URL.finditer(style):
            _check_reference(m.group(1), "a url() in its style", el)
    elements = _expanded_size(root, ids)
    if elements > MAX_SVG_ELEMENTS:
        raise CardgenError(f"the SVG has more than {MAX_SVG_ELEMENTS:,} elements once every <use> is expanded")
    check_paints(root, ids)
    return elements


def _expanded_size(root: Any, ids: dict[str, Any]) -> int:
    """Elements drawn once each <use> stands for what it names (a use of a use of … grows
    exponentially in a file of a few lines); a reference loop counts as too many."""
    memo: dict[Any, int] = {}  # keyed by the element itself: it keeps lxml's proxy alive
    busy: set[Any] = set()
    limit = MAX_SVG_ELEMENTS + 1

    def size(el: Any) -> int:
        key = el
        if key in memo:
            return memo[key]
        if key in busy:
            return limit
        busy.add(key)
        total = 1
        if _local(el.tag) == "use":
            ref = (el.get(_XLINK) or el.get("href") or "").strip()
            target = ids.get(ref[1:]) if ref.startswith("#") else None
            if target is not None:
                total += size(target)
        for child in el:
            total = min(limit, total + size(child))
            if total >= limit:
                break
        busy.discard(key)
        memo[key] = total
        return total

    return size(root)


MAX_FACE_SVG_ELEMENTS = 200_000  # SVG elements one face or page may draw, all its SVGs and icons together


def load_svg(path: Path) -> tuple[Any, int]:
    """The checked SVG as a ReportLab Drawing (y up, in points) and the number of
    elements it draws; CardgenError without a place (the caller names the file and the
    face) when it is refused or cannot be drawn."""
    root = _parse(path)
    elements = _check_tree(root)
    fold_opacity(root)  # svglib draws fill and stroke opacity, not opacity
    from .svggradient import GradientRenderer

    quiet = logging.getLogger("svglib.svglib")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # svglib logs what it skips; the checks above are cardgen's word
    try:
        drawing = GradientRenderer(str(path), root, external_reference_root=str(path.parent)).render(root)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError) as exc:
        raise CardgenError(f"the SVG cannot be drawn: {(str(exc) or type(exc).__name__).splitlines()[0][:160]}") \
            from None
    finally:
        quiet.setLevel(level)
    width, height = float(drawing.width or 0), float(drawing.height or 0)
    if not (width > 0 and height > 0) or width * height > 1e12:
        raise CardgenError("the SVG has no usable size (give its <svg> a viewBox or a width and a height)")
    return drawing, elements
