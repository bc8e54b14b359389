"""Checks every shipped kit's tests make: fonts embedded, French typography, the same
bytes from the same inputs. One copy here, so the kits are held to one standard."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.base.errors import Collector
from cardgen.cli import main
from cardgen.pipeline import BuildOptions, KitBuilder


def shows_text(page) -> bool:
    """Whether a PDF page (or a form it draws) has a text object (a ``BT`` operator)."""
    streams = [page.get_contents()] + [x.get_object() for x in page["/Resources"].get("/XObject", {}).values()]
    return any(re.search(rb"(^|\s)BT(\s|$)", s.get_data()) for s in streams if s is not None)


def assert_fonts_embedded(folder: Path, pages: int = 4) -> None:
    """Every font on the first ``pages`` pages of every PDF in ``folder`` (forms included)
    carries its font file: nothing depends on the fonts of the printing machine. A page
    without fonts must show no text (the print-shop file of plain round stones)."""
    for path in sorted(folder.glob("*.pdf")):
        reader = PdfReader(path)
        for i, page in enumerate(reader.pages[:pages]):
            fonts = dict(page["/Resources"].get("/Font", {}))
            for x in page["/Resources"].get("/XObject", {}).values():
                fonts.update(x.get_object().get("/Resources", {}).get("/Font", {}))
            assert fonts or not shows_text(page), f"{path.name} page {i + 1} shows text but has no fonts"
            for ref in fonts.values():
                font = ref.get_object()
                desc = font.get("/FontDescriptor")
                if desc is None:  # a composite font: its descendant carries the descriptor
                    desc = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                desc = desc.get_object()
                assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")), \
                    f"{path.name} page {i + 1}: font {font.get('/BaseFont')} is not embedded"


def _strings(node, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, f"{key}.{k}" if key else str(k))
    else:
        yield key, str(node)


def assert_french_typography(locale: Path, keep: tuple[str, ...] = ()) -> None:
    """A no-break space before : ; ! ? » and after «, and the typographic apostrophe.
    ``keep``: published titles left as they are (e.g. "O, Farao!")."""
    doc = yaml.safe_load(locale.read_text(encoding="utf-8"))
    for key, text in _strings(doc):
        for title in keep:
            text = text.replace(title, "")
        for m in re.finditer(r"[:;!?»]", text):
            assert m.start() > 0 and text[m.start() - 1] in "\u00a0\u202f", f"fr {key}: {text!r}"
        for m in re.finditer(r"«", text):
            assert text[m.start() + 1] in "\u00a0\u202f", f"fr {key}: {text!r}"
        assert "'" not in text, f"fr {key}: use the typographic apostrophe ’"


# A number, then an ordinary space, then a word: "10 tribute", "hold 7 cards", "{n} tiles".
_NUMBER_THEN_SPACE = re.compile(r"(?<![\w{}\-–])(\d+(?:st|nd|rd|th|e|re|er)?|\{[a-z_]+\}|[IVX]+(?:e|re)) (?=([^\W\d_][\w’'-]*))")
# Words after a number that may start the next line ("2 or more", "1 à 5", "1 tot 5").
_LINKING = {"to", "or", "and", "à", "et", "ou", "tot", "of", "en", "again", "heeft", "hebt", "waard", "au"}


def assert_numbers_keep_their_words(strings: Mapping[str, Mapping[str, str]]) -> None:
    """A number and the word it counts are joined by a no-break space (U+00A0), so no
    line ends on "10" with "tribute" below it. ``strings``: language → key → text."""
    for lang, table in strings.items():
        for key, text in table.items():
            for m in _NUMBER_THEN_SPACE.finditer(text):
                assert m.group(2).lower() in _LINKING, f"{lang} {key}: {m.group(0)!r} + {m.group(2)!r} in {text!r}"


def assert_dutch_quotes(table: Mapping[str, str]) -> None:
    """Dutch quotes open low and close high („…”), the same in every kit."""
    for key, text in table.items():
        assert "“" not in text and '"' not in text, f"nl {key}: quote it „like this”: {text!r}"


@dataclass(frozen=True)
class BuiltKit:
    folder: Path  # the kit's folder
    stdout: str   # what `cardgen build` printed: the files and their page counts


def build(out: Path, game: str, *options: str) -> BuiltKit:
    """``cardgen build GAME --out OUT OPTIONS``, in this process (``--jobs 1``) unless
    ``options`` set ``--jobs``."""
    jobs = () if "--jobs" in options else ("--jobs", "1")
    r = CliRunner().invoke(main, ["build", game, "--out", str(out), *jobs, *options])
    assert r.exit_code == 0, r.output
    return BuiltKit(out / game, r.stdout)


def build_kit(out: Path, game: str, *options: str) -> Path:
    """Build ``game`` into ``out`` in this process (``--jobs 1``); the kit's folder."""
    return build(out, game, *options).folder


# The English Hâpy kit on A4 that test_validate and test_export read (one build for both).
HAPY_EN_A4 = ("hapy", "--lang", "en", "--paper", "a4")

# The Hâpy kit test_pdf_output and test_hapy_sheets_look read (one build for both): every
# language on both papers, the languages built in parallel processes as a user's build
# is (test_pdf_output compares it with a build of one language in one process).
HAPY_EVERY_LANGUAGE = ("hapy", "--lang", "en", "--lang", "fr", "--lang", "nl", "--paper", "a4", "--paper", "letter",
                       "--jobs", "0")


def read_manifest(kit: Path) -> dict:
    return json.loads((kit / "manifest.json").read_text(encoding="utf-8"))


def assert_reproducible(tmp_path: Path, game: str, *options: str) -> None:
    """Two builds of the same inputs give byte-identical PDFs."""
    outs = [build_kit(tmp_path / f"b{k}", game, *options) for k in range(2)]
    pdfs = sorted(outs[0].glob("*.pdf"))
    assert pdfs
    for path in pdfs:
        assert path.read_bytes() == (outs[1] / path.name).read_bytes(), path.name


def assert_kit_validates(game: str, kit: Path) -> None:
    """``cardgen validate GAME --kit KIT`` passes, the kit's count and mirror checks included."""
    r = CliRunner().invoke(main, ["validate", game, "--games", "2", "--kit", str(kit)])
    assert r.exit_code == 0, r.output
    assert "every card printed as many times as its deck says" in r.output, r.output
    assert "every front has its back at the mirrored place" in r.output, r.output
    assert ": OK" in r.output.split("Kit ", 1)[1].splitlines()[0], r.output


def render_kits(game, langs, papers) -> tuple[KitBuilder, dict]:
    """(builder, {lang: LangKit}): every face and sheet laid out and checked in each
    language on each paper, no files written; fails on any layout error."""
    builder = KitBuilder(game, BuildOptions(langs=tuple(langs), papers=tuple(papers)))
    kits = {}
    for lang in langs:
        errors = Collector()
        kits[lang] = builder.render_lang(lang, errors)
        assert errors.errors == [], errors.errors
    return builder, kits
