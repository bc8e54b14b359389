"""An SVG's ``opacity`` (which svglib drops) is folded into the fill and stroke
opacities of the shapes under it (layout/svgopacity.py), and drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from cardgen.layout.svgart import load_svg
from cardgen.layout.svgopacity import fold_opacity

SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">
  <g opacity="0.5">
    <rect id="a" x="0" y="0" width="5" height="5" fill="#ff0000" opacity="0.5"/>
    <g style="opacity:40%">
      <circle id="b" cx="7" cy="7" r="2" fill="#00ff00" fill-opacity="0.5"/>
    </g>
  </g>
  <path id="c" d="M0 9 L9 9" stroke="#0000ff" style="stroke-opacity:0.8;opacity:0.5"/>
  <rect id="d" x="8" y="0" width="2" height="2" fill="#123456"/>
</svg>"""


def _styles(root) -> dict[str, str]:
    return {el.get("id"): el.get("style") or "" for el in root.iter() if el.get("id")}


def test_opacity_is_multiplied_down_into_fill_and_stroke_opacity():
    root = etree.fromstring(SVG.encode())
    fold_opacity(root)
    styles = _styles(root)
    assert "fill-opacity:0.25" in styles["a"] and "stroke-opacity:0.25" in styles["a"]
    assert "fill-opacity:0.1" in styles["b"]  # 0.5 (its own fill-opacity) × 0.4 × 0.5
    assert "stroke-opacity:0.4" in styles["c"]  # 0.8 × 0.5
    assert styles["d"] == ""  # fully opaque: left as it was
    assert not any(el.get("opacity") for el in root.iter())
    assert not any(part.split(":")[0] == "opacity" for style in styles.values() for part in style.split(";"))


def test_the_drawing_svglib_makes_carries_the_opacities(tmp_path: Path):
    path = tmp_path / "art.svg"
    path.write_text(SVG, encoding="utf-8")
    drawing, _ = load_svg(path)
    found = {}
    todo = [drawing]
    while todo:
        node = todo.pop()
        todo.extend(getattr(node, "contents", []))
        colour = getattr(node, "fillColor", None)
        if colour is not None and getattr(node, "fillOpacity", None) is not None:
            found[colour.hexval()] = round(node.fillOpacity, 3)
    assert found["0xff0000"] == pytest.approx(0.25) and found["0x00ff00"] == pytest.approx(0.1)
    assert found["0x123456"] == 1
