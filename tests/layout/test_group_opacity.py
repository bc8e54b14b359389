"""A group's `opacity` fades everything drawn inside it (the layout language accepts it
on `group`; it used to be ignored), multiplied into each op's own opacity and nested
groups' opacities. Checked on the face as drawn (raster)."""

from __future__ import annotations

from PIL import Image

FRONT = """\
- {rect: {x: {{ -bleed }}, y: {{ -bleed }}, w: {{ w + 2 * bleed }}, h: {{ h + 2 * bleed }}, fill: "#ffffff"}}
- {rect: {x: 5, y: 5, w: 10, h: 10, fill: "#000000"}}
- group:
    opacity: 0.5
    ops:
      - {rect: {x: 20, y: 5, w: 10, h: 10, fill: "#000000"}}
      - {rect: {x: 35, y: 5, w: 10, h: 10, fill: "#000000", opacity: 0.5}}
      - {circle: {cx: 10, cy: 30, r: 5, stroke: "#000000", stroke_width: 4}}
      - {glyph: {x: 20, y: 40, w: 20, h: 20, char: "l", color: "#000000"}}
      - group:
          opacity: 0.5
          ops:
            - {rect: {x: 50, y: 5, w: 10, h: 10, fill: "#000000"}}
- {rect: {x: 35, y: 20, w: 10, h: 10, fill: "#000000"}}
"""

SCALE = 8  # px per mm


def grey(img, x_mm: float, y_mm: float, bleed: float = 3.0) -> int:
    return img.getpixel((round((x_mm + bleed) * SCALE), round((y_mm + bleed) * SCALE)))


def test_a_groups_opacity_fades_what_it_draws(game_copy, cli):
    folder = game_copy("mini_game")
    (folder / "templates" / "front.yaml.j2").write_text(FRONT, encoding="utf-8")
    # the face as drawn, in RGB with its bleed (the print-shop file holds it converted to CMYK inks)
    r = cli("export", folder, "--png", "--lang", "en", "--dpi", round(SCALE * 25.4), "--out", folder / "out")
    assert r.exit_code == 0, r.output
    face = next((folder / "out").rglob("*card-1*front*.png"))
    img = Image.open(face).convert("L")  # 203 dpi: SCALE px per mm within half a pixel over the card
    assert grey(img, 10, 10) < 10  # outside the group: black
    assert 115 <= grey(img, 25, 10) <= 140  # in the group: half
    assert 180 <= grey(img, 40, 10) <= 200  # its own 0.5 times the group's: a quarter
    assert 180 <= grey(img, 55, 10) <= 200  # a group in a group: a quarter
    assert 115 <= grey(img, 10, 25.5) <= 140  # a stroke: half
    assert 115 <= grey(img, 30, 50) <= 140  # a glyph: half
    assert grey(img, 40, 25) < 10  # after the group: opaque again
