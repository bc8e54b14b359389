"""Broken files in a game folder (and the files cardgen reads beside it): each is one
``error: path:line[:col]: what`` line, exit status 1, no traceback, nothing written.

YAML nested too deep or holding a number too long for Python, legal merge keys,
files that are not UTF-8, the lines of include errors, and the other smaller
defects of issue 15. The hostile folders of ``tests/data/hostile/`` run some of the
same as real processes under a memory limit (test_hostile_templates.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_user_error, edit_file, game_label

from cardgen.base.errors import CardgenError, display_path
from cardgen.load.yamlsrc import MAX_USER_NESTING, parse_yaml


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """An output folder that already holds a file: a failed command must leave it as it was."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "keep.txt").write_text("was here\n", encoding="utf-8")
    return folder


def build_fails(cli, game: Path, out: Path, *extra: object) -> list[str]:
    """Build ``game`` expecting a user error; its error lines, the output folder untouched."""
    before = snapshot(out)
    result = cli("build", game, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1", *extra)
    lines = assert_user_error(result)
    assert snapshot(out) == before
    return lines


def yaml_error(text: str) -> str:
    with pytest.raises(CardgenError) as exc:
        parse_yaml(text, "F")
    return str(exc.value)


def front(root: Path) -> Path:
    return root / "templates" / "front.yaml.j2"


# -- YAML: nesting, long numbers, merge keys ---------------------------------------------------------


def test_nesting_is_refused_at_the_line_where_it_goes_too_deep():
    deep = "a: 1\nb:\n  c: " + "[" * 500 + "]" * 500 + "\n"
    # the top mapping and b are two levels: the 99th bracket is the 101st level
    assert yaml_error(deep) == f"F:3:{5 + 99}: the file nests lists and mappings more than 100 deep"
    assert yaml_error("- " * 300 + "x\n").startswith("F:1:201: the file nests lists and mappings more than 100 deep")
    fine = "x: " + "[" * (MAX_USER_NESTING - 1) + "]" * (MAX_USER_NESTING - 1) + "\n"
    assert parse_yaml(fine, "F")["x"] is not None  # 100 deep (with the top mapping): allowed


def test_nesting_through_aliases_is_refused_too():
    """Each anchor wraps the one before: the text is flat, what it means is 150 deep."""
    text = "a0: &a0 [1]\n" + "".join(f"a{n}: &a{n} [*a{n - 1}]\n" for n in range(1, 150))
    assert yaml_error(text) == ("F:1:5: the file nests lists and mappings more than 100 deep through its aliases "
                                "(*name)")


@pytest.mark.parametrize("number", ["7" * 5000, "-" + "7" * 5000])
def test_a_number_too_long_for_python_is_one_line(number):
    assert yaml_error(f"a: 1\nb: {number}\n") == "F:2:4: a whole number of 5,000 digits: cardgen reads at most 4,300"
    assert parse_yaml(f"b: {'7' * 4000}\n", "F")["b"] == int("7" * 4000)


def test_a_merge_key_and_an_override_are_accepted():
    doc = parse_yaml("base: &base {x: 1, y: 2}\n"
                     "card: &card\n  <<: *base\n  x: 3\n"
                     "again: *card\n"
                     "both: {<<: [{x: 10, z: 0}, *base], y: 20}\n", "F")
    assert doc["card"] == {"x": 3, "y": 2} and doc["again"] == {"x": 3, "y": 2}
    assert doc["both"] == {"x": 10, "z": 0, "y": 20}  # the first merged mapping wins, the mapping's own key over all
    assert doc["card"].at("x").line == 4  # the override's line, not the base's
    assert doc["card"].at("y").line == 1


@pytest.mark.parametrize("text, message", [
    ("a: {x: 1, x: 2}\n", "F:1:11: duplicate key 'x' (first at line 1)"),
    ("b: &b {x: 1}\nc:\n  <<: *b\n  x: 2\n  x: 3\n", "F:5:3: duplicate key 'x' (first at line 4)"),
    ("c: {<<: 1}\n", "F:1:9: a merge (<<) takes a mapping or a list of mappings"),
])
def test_real_duplicate_keys_and_bad_merges_stay_refused(text, message):
    assert yaml_error(text) == message


def test_a_merge_override_builds(game_copy, cli, tmp_path):
    """In a game: a card entry's settings merged from an anchor, one of them overridden."""
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", '      - id: joker\n        quantity: 2\n',
              '      - &joker\n        id: joker\n        quantity: 2\n      - <<: *joker\n        id: joker-b\n')
    result = cli("build", root, "--out", tmp_path / "o", "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("where", ["game.yaml", "locales/en.yaml", "data.yaml"])
def test_deep_nesting_in_any_game_file(game_copy, cli, out, where):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "palette:", "data_files: [data.yaml]\npalette:")
    (root / "data.yaml").write_text("extra: 1\n", encoding="utf-8")
    path = root / where
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines, "zz: " + "[" * 300 + "]" * 300]) + "\n", encoding="utf-8")
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root, where)}:{len(lines) + 1}:{4 + 100}: the file nests lists and mappings more " \
                   f"than 100 deep"


# -- text that is not UTF-8: the line and column, never a byte offset ----------------------------------


@pytest.mark.parametrize("where", ["game.yaml", "locales/en.yaml", "templates/front.yaml.j2", "templates/part.j2"])
def test_not_utf8_is_one_line_at_its_line(game_copy, cli, out, where):
    root = game_copy("mini_game")
    if where == "templates/part.j2":
        edit_file(front(root), "- {text:", '{% include "part.j2" %}\n- {text:')
        (root / where).write_text("# a macro file\n", encoding="utf-8")
    path = root / where
    path.write_bytes(path.read_bytes() + "# Café crème\n".encode("latin-1"))
    line = len(path.read_bytes().splitlines())
    lines = build_fails(cli, root, out)
    included = f" (included from {game_label(root, 'templates', 'front.yaml.j2')}:2)" if where.endswith("part.j2") else ""
    assert lines[0] == f"{game_label(root, where)}:{line}:6{included}: not UTF-8 text (byte 0xE9)", lines


def test_not_utf8_settings_file(cli, out, tmp_path, monkeypatch):
    settings = tmp_path / "settings.cfg"
    settings.write_bytes("paper = a4\n# crème\n".encode("latin-1"))
    monkeypatch.setenv("CARDGEN_CONFIG", str(settings))
    (line,) = build_fails(cli, "hapy", out)
    assert line == f"{settings}:2:5: not UTF-8 text (byte 0xE8)"


# -- include, import and extends: the line that names the file -----------------------------------------


@pytest.mark.parametrize("statement, message", [
    ('{% include "nope.j2" %}', "template 'nope.j2' not found"),
    ('{% import "nope.j2" as m %}', "template 'nope.j2' not found"),
    ('{% from "nope.j2" import x %}', "template 'nope.j2' not found"),
    ('{% include "../../secret.j2" %}',
     "template '../../secret.j2' must be a file inside the game's templates folder (no '..', no absolute path)"),
    ('{% include "/etc/passwd" %}',
     "template '/etc/passwd' must be a file inside the game's templates folder (no '..', no absolute path)"),
])
def test_an_include_error_names_the_line_of_the_include(game_copy, cli, out, statement, message):
    root = game_copy("mini_game")
    edit_file(front(root), "- {text:", f"{statement}\n- {{text:")
    lines = build_fails(cli, root, out)
    assert lines[0] == f"{game_label(root, 'templates', 'front.yaml.j2')}:2: cards/card-1 front [en]: {message}"


def test_extends_of_a_missing_file_names_its_line(game_copy, cli, out):
    root = game_copy("mini_game")
    front(root).write_text("{# a layout built on another #}\n{% extends 'base.yaml.j2' %}\n", encoding="utf-8")
    lines = build_fails(cli, root, out)
    assert lines[0] == f"{game_label(root, 'templates', 'front.yaml.j2')}:2: cards/card-1 front [en]: " \
                       "template 'base.yaml.j2' not found"


def test_a_syntax_error_inside_an_included_file_names_both_lines(game_copy, cli, out):
    root = game_copy("mini_game")
    edit_file(front(root), "- {text:", '{% import "macros.j2" as m %}\n- {text:')
    (root / "templates" / "macros.j2").write_text("{# macros #}\n{% macro x() %}\n{% if %}\n{% endmacro %}\n")
    lines = build_fails(cli, root, out)
    assert lines[0] == (f"{game_label(root, 'templates', 'macros.j2')}:3 (included from "
                        f"{game_label(root, 'templates', 'front.yaml.j2')}:2): template syntax error: Expected an "
                        "expression, got 'end of statement block'")


# -- images: broken, truncated, or a few bytes claiming billions of pixels ----------------------------


def _png(width: int, height: int, rows: bytes) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _image_bytes(kind: str) -> bytes:
    import io

    from PIL import Image

    picture = Image.new("RGB", (64, 64), "#c04020")
    for x in range(64):
        picture.putpixel((x, x), (x * 4, 255 - x * 4, 7 * x % 256))
    saved = io.BytesIO()
    picture.save(saved, "JPEG" if kind.endswith("jpeg") else "GIF" if kind == "gif" else "PNG")
    data = saved.getvalue()
    return data[: len(data) // 2] if kind.startswith("truncated") else data


def _with_image(root: Path, data: bytes, name: str = "art.png") -> None:
    (root / "assets").mkdir(exist_ok=True)
    (root / "assets" / name).write_bytes(data)
    edit_file(front(root), "- {text:", f"- {{image: {{x: 5, y: 20, w: 20, h: 20, src: {name}}}}}\n- {{text:")


@pytest.mark.parametrize("kind, problem", [
    ("bomb", "the image is 100,000 × 100,000 pixels; an image may have at most 50,000,000 pixels"),
    ("truncated png", "the image cannot be read: "),
    ("truncated jpeg", "the image cannot be read: "),
    ("gif", "the image is GIF; an image must be a PNG or a JPEG"),
    ("empty", "the image cannot be read: not a PNG or JPEG file"),
])
def test_a_bad_image_names_the_file_and_the_face(game_copy, cli, out, kind, problem):
    root = game_copy("mini_game")
    made = {"bomb": _png(100_000, 100_000, b"\0" * 100_001), "empty": b""}
    data = made[kind] if kind in made else _image_bytes(kind)
    _with_image(root, data)
    lines = build_fails(cli, root, out)
    assert lines[0].startswith(f"{game_label(root, 'assets', 'art.png')}: {game_label(root, 'templates', 'front.yaml.j2')}"
                               f" [cards/card-1 front [en]]: {problem}"), lines
    assert len(lines) == 2 and lines[1] == "(the same template errors recur on 3 more face(s) in [en], not listed)"
    assert str(root.parent) not in lines[0].split(": ", 2)[2]  # Pillow's words, without the file's full path


@pytest.mark.parametrize("command", ["preview", "export"])
def test_a_bad_image_stops_an_export_too(game_copy, cli, tmp_path, command):
    root = game_copy("mini_game")
    _with_image(root, _png(100_000, 100_000, b"\0" * 100_001))
    target = tmp_path / "images"
    args = ("--out", target / "p.png") if command == "preview" else ("--png", "--lang", "en", "--out", target)
    lines = assert_user_error(cli(command, root, *args))
    assert any("the image is 100,000 × 100,000 pixels" in line for line in lines), lines
    assert not target.exists()


@pytest.mark.parametrize("kind", ["png", "jpeg"])
def test_a_good_image_still_builds(game_copy, cli, tmp_path, kind):
    root = game_copy("mini_game")
    _with_image(root, _image_bytes(kind), f"art.{kind}")
    result = cli("build", root, "--out", tmp_path / "o", "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert result.exit_code == 0, result.output


def _svg_embedding(png: bytes) -> str:
    import base64

    return ("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' viewBox='0 0 9 9'>\n"
            f"<image width='9' height='9' xlink:href='data:image/png;base64,{base64.b64encode(png).decode()}'/>\n"
            "</svg>")


@pytest.mark.parametrize("side", [20_000, 8_000])  # beyond Pillow's own bomb limit, and beyond cardgen's only
@pytest.mark.parametrize("use", ["art", "icon"])
def test_a_huge_png_inside_an_svg_is_refused_like_an_image_file(game_copy, cli, out, side, use):
    """A PNG of a few kilobytes claiming side × side pixels, embedded as a data: URI: the
    same 50,000,000-pixel limit as an image file, in one line naming the SVG and the face."""
    root = game_copy("mini_game")
    png = _png(side, side, b"\0" * 100_001)
    assert len(png) < 2_000
    (root / "assets").mkdir()
    (root / "assets" / "art.svg").write_text(_svg_embedding(png), encoding="utf-8")
    if use == "art":
        edit_file(front(root), "- {text:", "- {image: {x: 5, y: 20, w: 20, h: 20, src: art.svg}}\n- {text:")
    else:
        edit_file(root / "game.yaml", "palette:", "icons:\n  art: {src: art.svg}\npalette:")
        edit_file(front(root), "text: {{ card.id|q }}", "text: 'pay :art:'")
    lines = build_fails(cli, root, out)
    assert lines[0] == (f"{game_label(root, 'assets', 'art.svg')}: {game_label(root, 'templates', 'front.yaml.j2')}"
                        f" [cards/card-1 front [en]]: the SVG's <image> at line 2 embeds a picture: the image is "
                        f"{side:,} × {side:,} pixels; an image may have at most 50,000,000 pixels"), lines
    assert not (out / "mini").exists()


@pytest.mark.parametrize("href, shown", [
    ("art.png", "art.png"),  # beside the SVG, in the game's assets: still not opened
    ("../game.yaml", "../game.yaml"),
    ("file:///etc/hostname", "file:///etc/hostname"),
])
def test_an_svg_image_naming_a_file_is_refused_and_the_file_never_read(game_copy, cli, out, href, shown):
    root = game_copy("mini_game")
    _with_image(root, _image_bytes("png"))
    (root / "assets" / "art.svg").write_text(
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'>"
        f"<image width='9' height='9' href='{href}'/></svg>", encoding="utf-8")
    edit_file(front(root), "src: art.png", "src: art.svg")
    lines = build_fails(cli, root, out)
    assert lines[0].endswith(f": the SVG refers to {shown!r} (<image href>); an SVG may refer only to its own parts "
                             f"('#id') or embed a PNG or JPEG: cardgen opens no other file or URL"), lines


# -- a kit's manifest.json: whatever is in it, one line naming it ----------------------------------------


@pytest.mark.parametrize("content, problem", [
    (b"[" * 100_000 + b"]" * 100_000, "not a cardgen kit manifest: arrays and objects nested too deeply"),
    (b'{"format": ' + b"7" * 5000 + b"}", "not a cardgen kit manifest: a number too long to read"),
    (b'{"game": "caf\xe9"}', "1:14: not UTF-8 text (byte 0xE9)"),
    (b'{"game": [}', "1:11: not valid JSON: Expecting value"),
    (b"[]", "not a cardgen kit manifest (it needs 'game', 'decks' and 'files')"),
])
def test_a_malformed_manifest_is_one_line_naming_it(cli, tmp_path, content, problem):
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / "manifest.json").write_bytes(content)
    result = cli("validate", "hapy", "--games", "1", "--kit", kit)
    lines = assert_user_error(result)
    shown = game_label(kit, "manifest.json")
    assert lines == [f"{shown}:{problem}" if problem[0].isdigit() else f"{shown}: {problem}"], lines


# -- a NaN or an infinity in the data: its own line, not the op it would reach --------------------------


@pytest.mark.parametrize("value, shown", [(".nan", "nan"), ("-.inf", "-inf"), (".Inf", "inf")])
def test_a_non_finite_data_value_is_reported_at_its_line(hapy_copy, cli, out, value, shown):
    """hapy's setup sheet draws each layout's positions: a NaN there once reached three
    ops of the rendered sheet, reported at the sheet, far from layouts.yaml."""
    edit_file(hapy_copy / "layouts.yaml", "x: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5]}", f"x: [0.5, 1.5, {value}, 3.5, 4.5, 5.5, 6.5]}}")
    row = next(n for n, line in enumerate((hapy_copy / "layouts.yaml").read_text().splitlines(), 1) if value in line)
    col = (hapy_copy / "layouts.yaml").read_text().splitlines()[row - 1].index(value) + 1
    lines = build_fails(cli, hapy_copy, out)
    assert lines == [f"{game_label(hapy_copy, 'layouts.yaml')}:{row}:{col}: data value 'layouts.pyramid.rows[6].x[2]' "
                     f"is {shown}: a number in the data must be finite"]


def test_a_non_finite_value_under_data_in_game_yaml_is_said_once(game_copy, cli, out):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "palette:", "data:\n  one: &nan .nan\n  again: [*nan, *nan]\npalette:")
    lines = build_fails(cli, root, out)
    assert lines == [f"{game_label(root)}:9:8: data value 'one' is nan: a number in the data must be finite"]


# -- card ids: they become file names --------------------------------------------------------------------


@pytest.mark.parametrize("card_id, problem", [
    ('"a/b"', "'a/b' holds '/'"),
    ('"..\\\\x"', "'..\\\\x' starts with '.'"),
    ('"x\\\\y"', "'x\\\\y' holds '\\\\'"),
    ('"nul\\0here"', "'nul\\x00here' holds the control character U+0000"),
    ('"."', "'.' starts with '.'"),
    ('".."', "'..' starts with '.'"),
    ('".hidden"', "'.hidden' starts with '.'"),
    ('"c:d"', "'c:d' holds ':'"),
    ('" pad"', "' pad' starts or ends with a space"),
    ('""', "'' is empty"),
    ('"' + "x" * 101 + '"', f"'{'x' * 101}' is longer than 100 characters"),
])
def test_a_card_id_that_is_no_file_name_is_refused_at_its_line(game_copy, cli, out, card_id, problem):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "      - id: joker\n", f"      - id: {card_id}\n")
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:21:13: card id {problem} (card ids become file names)"


def test_an_id_made_from_the_data_is_checked_too(game_copy, cli, out):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", 'id: "card-{n}"', 'id: "card-{n}"\n        fields: {n: "1/2"}')
    (line,) = build_fails(cli, root, out)
    assert line == f"{game_label(root)}:18:13: card id 'card-1/2' holds '/' (card ids become file names)"


def test_ordinary_ids_are_file_names(game_copy, cli, tmp_path):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "      - id: joker\n", "      - id: Jöker_2.b-x\n")
    result = cli("export", root, "--png", "--lang", "en", "--dpi", "72", "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    assert any(p.name.endswith("-Jöker_2.b-x-a-front.png") for p in (tmp_path / "o").rglob("*.png"))


# -- a deck with no cards: an error, not a PDF of no pages ------------------------------------------------


def test_an_empty_deck_is_an_error_at_its_line(game_copy, cli, out):
    root = game_copy("mini_game")
    text = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(text[: text.index("    cards:\n")] + "    cards: []\n", encoding="utf-8")
    assert build_fails(cli, root, out) == [f"{game_label(root)}:17:12: deck 'cards' has no cards"]


def test_a_deck_whose_cards_are_all_variants_says_which(game_copy, cli, out, tmp_path):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "          n: {range: [1, 3]}\n", "          n: {range: [1, 3]}\n        variant: extra\n")
    edit_file(root / "game.yaml", "        quantity: 2\n", "        quantity: 2\n        variant: jokers\n")
    assert build_fails(cli, root, out) == [f"{game_label(root)}:18:7: deck 'cards' has no cards: its cards are all "
                                           "in variants extra, jokers (build with --variant extra)"]
    result = cli("build", root, "--out", tmp_path / "o", "--lang", "en", "--paper", "a4", "--jobs", "1",
                 "--variant", "jokers")
    assert result.exit_code == 0, result.output


# -- files cardgen writes: the mode the umask gives ---------------------------------------------------


REPO = Path(__file__).resolve().parents[2]


def _run_with_umask(umask: int, cwd: Path, *args: str):
    import os
    import subprocess
    import sys

    env = {**os.environ, "CARDGEN_CONFIG": str(cwd / "settings.cfg"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "cardgen", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          preexec_fn=lambda: os.umask(umask), timeout=120)


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_written_files_follow_the_umask(tmp_path, umask, mode):
    """The calibration sheet (written through mkstemp, once always 0600) and a new
    settings file (once always 0644) get 0666 less the umask, as any file would."""
    calibrated = _run_with_umask(umask, tmp_path, "calibrate", "--out", "cal.pdf")
    assert calibrated.returncode == 0, calibrated.stderr
    configured = _run_with_umask(umask, tmp_path, "config", "set", "paper", "letter")
    assert configured.returncode == 0, configured.stderr
    project = _run_with_umask(umask, tmp_path, "config", "set", "--project", "duplex", "short")
    assert project.returncode == 0, project.stderr
    modes = {name: oct((tmp_path / name).stat().st_mode & 0o777) for name in ("cal.pdf", "settings.cfg", "cardgen.cfg")}
    assert modes == dict.fromkeys(modes, oct(mode))


def test_a_replaced_file_keeps_its_mode(tmp_path):
    (tmp_path / "cal.pdf").write_bytes(b"old")
    (tmp_path / "cal.pdf").chmod(0o640)
    (tmp_path / "settings.cfg").write_text("paper = a4\n", encoding="utf-8")
    (tmp_path / "settings.cfg").chmod(0o600)
    assert _run_with_umask(0o022, tmp_path, "calibrate", "--out", "cal.pdf").returncode == 0
    assert _run_with_umask(0o022, tmp_path, "config", "set", "paper", "letter").returncode == 0
    assert (tmp_path / "cal.pdf").read_bytes().startswith(b"%PDF")
    assert [oct((tmp_path / n).stat().st_mode & 0o777) for n in ("cal.pdf", "settings.cfg")] == [oct(0o640), oct(0o600)]


# -- a full disk: the message names the file, and nothing is left behind -----------------------------


def _disk_full(*args, **kwargs):
    import errno

    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_during_a_build_names_the_file(game_copy, cli, out, monkeypatch):
    from reportlab.pdfbase import pdfdoc

    monkeypatch.setattr(pdfdoc.PDFDocument, "SaveToFile", _disk_full)
    (line,) = build_fails(cli, game_copy("mini_game"), out)
    assert line.endswith("/mini-en-a4-cards.pdf: No space left on device: the disk is full"), line
    assert line.startswith(display_path(out) + "/"), line


def test_a_full_disk_during_calibrate_names_the_file(cli, tmp_path, monkeypatch):
    from reportlab.pdfbase import pdfdoc

    monkeypatch.setattr(pdfdoc.PDFDocument, "SaveToFile", _disk_full)
    target = tmp_path / "cal" / "sheet.pdf"
    (line,) = assert_user_error(cli("calibrate", "--out", target))
    assert line == f"{game_label(target.parent, 'sheet.pdf')}: cannot be written: No space left on device"
    assert list(target.parent.iterdir()) == []


@pytest.mark.parametrize("what", ["--png", "--tts"])
def test_a_full_disk_during_an_export_names_the_file(game_copy, cli, out, monkeypatch, what):
    from PIL import Image

    monkeypatch.setattr(Image.Image, "save", _disk_full)
    before = snapshot(out)
    (line,) = assert_user_error(cli("export", game_copy("mini_game"), what, "--lang", "en", "--out", out))
    assert line.startswith(display_path(out) + "/") and ".png: No space left on device: the disk is full" in line, line
    assert snapshot(out) == before and sorted(p.name for p in out.iterdir()) == ["keep.txt"]


def test_a_full_disk_during_a_preview_names_the_file(game_copy, cli, tmp_path, monkeypatch):
    from PIL import Image

    monkeypatch.setattr(Image.Image, "save", _disk_full)
    target = tmp_path / "preview" / "p.png"
    (line,) = assert_user_error(cli("preview", game_copy("mini_game"), "--out", target))
    assert line == f"{game_label(target.parent, 'p.png')}: No space left on device: the disk is full"
    assert list(target.parent.iterdir()) == []


@pytest.mark.parametrize("old, new, line, message", [
    ('      - id: joker\n', '      - id: joker\n        fields: {x: .nan}\n', "22:21",
     "card entry 2 of component 'cards': field 'x' is nan"),
    ("          n: {range: [1, 3]}\n", "          n: [1, .inf]\n", "20:18",
     "card entry 1 of component 'cards': for_each value 'n[1]' is inf"),
])
def test_a_non_finite_card_field_is_reported_at_its_line(game_copy, cli, out, old, new, line, message):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", old, new)
    lines = build_fails(cli, root, out)
    assert lines == [f"{game_label(root)}:{line}: {message}: a number in the data must be finite"]


def test_a_number_too_long_in_a_rendered_layout_is_one_line(game_copy, cli, out):
    root = game_copy("mini_game")
    edit_file(front(root), "- {text: {x: 5,", "- {text: {x: " + "7" * 5000 + ",")
    lines = build_fails(cli, root, out)
    assert lines[0] == (f"{game_label(root, 'templates', 'front.yaml.j2')} (rendered for cards/card-1 front [en]):2:14: "
                        "a whole number of 5,000 digits: cardgen reads at most 4,300")


def test_nesting_by_indentation_alone_is_measured_too():
    """Block mappings nested one a line (no bracket, dash or question mark) reach the
    nesting limit as flow collections do: each level starts a line."""
    deep = "".join(" " * i + f"k{i}:\n" for i in range(150)) + " " * 150 + "x\n"
    assert yaml_error(deep).startswith("F:101:101: the file nests lists and mappings more than 100 deep")
    assert yaml_error("- " * 60 + "\n" + "".join(" " * (120 + i) + f"k{i}:\n" for i in range(50))).endswith(
        "more than 100 deep")
