"""game.yaml's keys, described once: the game, its components (decks, sheets, boards),
card entries, icons and data file entries, each key with its type, default, allowed
values and what it is for.

The loader checks a game.yaml against these tables (:func:`.schema.read_section`) and
the reference tables of the documentation are rendered from them (:mod:`.gamedoc`),
so that what cardgen accepts and what the pages say cannot drift apart. What no table
can say (an id's spelling, a template that exists, a colour that is in the palette) is
checked by the loader's own code, which reads its limits from here.
"""

from __future__ import annotations

from types import MappingProxyType

from .schema import Key, Range, Section

PIECE_MM = Range(5, 600, "mm")  # each side of a card, tile or token
BOARD_MM = Range(20, 2000, "mm")  # each side of a board (A0 is 841 × 1189 mm)
BLEED_MM = Range(0, 20, "mm")
MAX_QUANTITY = 1000  # copies of one card
MAX_ICON_SCALE = 5.0

TEMPLATE = "a template file name"


def _choices(**meanings: str) -> MappingProxyType[str, str]:
    return MappingProxyType(meanings)


CARD = Section("card", "card entry", (
    Key("id", (str,), "The card's id, unique in the game. Placeholders such as `{suit.id}` or `{rank}` are "
        "filled from the entry's `for_each` values and `fields`. An id becomes part of file names (the PNG "
        "export), so it may not hold `/`, `\\`, `:`, `*`, `?`, `\"`, `<`, `>`, a vertical bar or a control "
        "character, start with `.`, start or end with a space, or be longer than 100 characters.",
        required=True),
    Key("quantity", (int, str), "Copies of each card, or a placeholder that reads the count from the data: a "
        "field of a `for_each` item (`\"{plant.count}\"`) or a number straight under `data` "
        "(`\"{token_count}\"`), or a spreadsheet's column (`\"{row.copies}\"`).",
        default=1, expect=f"a whole number from 1 to {MAX_QUANTITY:,}, or a placeholder such as \"{{plant.count}}\""),
    Key("for_each", (dict,), "A mapping of names to values: the name of a list under `data`, a list written "
        "out, or `{range: [first, last]}` (whole numbers, both included). One card is made for each "
        "combination; each card gets every name as a field."),
    Key("fields", (dict,), "More fields for the templates, the same for every card of the entry."),
    Key("variant", (), "The [variant](variants.md) the entry's cards belong to (a name, or a placeholder); "
        "they are printed only when the build asks for it.", expect="a name such as jokers"),
    Key("front", (), "The template of these cards' fronts, instead of the deck's: a file name, or a "
        "placeholder that reads it from the data (`\"{row.front}\"`, a column of a spreadsheet). A "
        "placeholder whose field a row leaves empty keeps the deck's front.", expect=TEMPLATE),
    Key("back", (), "The same for the backs; only in a deck with a `back`.", expect=TEMPLATE),
))

DECK = Section("deck", "deck", (
    Key("id", (str,), "The component's id (lower-case, as for the game); unique in the game.", required=True),
    Key("kind", (), "What the component is.", required=True, expect="`deck`"),
    Key("size", (), "The trim, each side within the range. For round pieces, `[diameter, diameter]`; for `shape: hex`, one number: the "
        "flat-to-flat width.", required=True, expect="[width, height] in mm", range=PIECE_MM),
    Key("front", (), "The template of the front of every card.", required=True, expect=TEMPLATE),
    Key("cards", (), "The [card entries](#card-entries).", required=True, expect="a list of card entries",
        entries=(CARD,)),
    Key("name", (str,), "A locale key: the deck's name on sheet labels and in `cardgen list`."),
    Key("bleed", (float,), "How far the art runs past the trim: what a cut slightly off shows instead of "
        "white paper. Less than the piece.", default=3.0, range=BLEED_MM),
    Key("safe", (float,), "How far inside the trim text should stay. cardgen does not enforce it: templates "
        "read it as `safe`, and `--proof` draws it.", default=3.0, range=BLEED_MM),
    Key("back", (), "The template of the back. Without one the deck is one-sided.", expect=TEMPLATE),
    Key("printshop", (bool,), "Whether the deck goes into the print-shop file of its trim size.", default=True),
    Key("shape", (str,), "The pieces' outline, with `top`, `radius` or `outline`; see "
        "[Piece shapes](shapes.md).", default="rect",
        choices=_choices(rect="", circle="", hex="", rounded="", path="")),
    Key("top", (str,), "Which way a hex stands.", default="pointy",
        choices=_choices(pointy="a corner at the top", flat="an edge at the top"), only=("shape", "hex")),
    Key("radius", (float,), "The corners' radius, at most half the shorter side; required with this shape.",
        range=Range(0, unit="mm"), only=("shape", "rounded")),
    Key("outline", (), "SVG path data of the die-cut outline, stretched to fill `size`; required with this "
        "shape.", expect="SVG path data", only=("shape", "path")),
    Key("new_row_per", (str,), "Each card entry starts a new row of the sheet; see [Rows of their "
        "own](shapes.md#rows-of-their-own-new_row_per). Such a deck keeps sheets of its own, where decks of "
        "one size otherwise [share sheets](../printing/home.md#5-print-the-cards) when that saves one.",
        choices=_choices(card="each card entry starts a new row")),
    Key("header", (), "One-sided decks only: a template drawn on each sheet of the deck, for a title or "
        "instructions; see [below](#a-title-on-a-sheet-of-pieces-header). Such a deck keeps sheets of its own.",
        expect=TEMPLATE),
), tag=("kind", "deck"))

SHEET = Section("sheet", "sheet", (
    Key("id", (str,), "The component's id.", required=True),
    Key("kind", (), "What the component is.", required=True, expect="`sheet`"),
    Key("template", (), "The template; it may draw [several pages](templates.md#several-pages).",
        required=True, expect=TEMPLATE),
    Key("name", (str,), "A locale key: the sheet's name."),
), tag=("kind", "sheet"))

BOARD = Section("board", "board", (
    Key("id", (str,), "The component's id.", required=True),
    Key("kind", (), "What the component is.", required=True, expect="`board`"),
    Key("size", (), "The trim, each side within the range.", required=True, expect="[width, height] in mm", range=BOARD_MM),
    Key("template", (), "The template, drawn like a card face of that size.", required=True, expect=TEMPLATE),
    Key("name", (str,), "A locale key: the board's name."),
    Key("bleed", (float,), "Art beyond the trim.", default=3.0, range=BLEED_MM),
    Key("overlap", (float,), "Width of the glue strip neighbouring pages share.", default=10.0,
        range=Range(3, 40, "mm", note="(the glue margin)")),
), tag=("kind", "board"))

ICON = Section("icon", "icon", (
    Key("char", (str,), "One character; exactly one of `char` and `src`.", expect="one character"),
    Key("font", (str,), expect="a font role or file name", doc="The font of a `char` icon: a role or a font file name; left out, the font of the "
        "surrounding words and then the symbol fonts."),
    Key("src", (str,), "A `.png`, `.jpg` or `.svg` file inside `assets/`, checked like any image "
        "([SVG art](svg-art.md)); exactly one of `char` and `src`.", expect="a file name"),
    Key("color", (str,), "The colour of a `char` icon; left out, the colour of the words around it.",
        expect="a colour"),
    Key("scale", (float,), "A factor on the icon's size.", default=1.0,
        range=Range(0, MAX_ICON_SCALE, low_open=True)),
))

DATA_FILE = Section("data_file", "data file entry", (
    Key("file", (), "The data file, a name inside the game folder.", required=True, expect="a file name"),
    Key("sheet", (str,), "The one sheet of a workbook to read, under the sheet's name.", expect="a name"),
    Key("name", (str,), "The data key the CSV or the sheet is put under instead.", expect="a name"),
))

MAX_DECK = 10_000  # cards of one deck, every copy counted (as load.cards.MAX_PIECES)

EXPECT_VALUES = Section("expect_values", "values read from the data", (
    Key("data", (str,), "The name of a list under `data`, a data file's rows included.", required=True,
        expect="a name"),
    Key("field", (str,), "The field of each item that holds the value (a column of a spreadsheet); left out, "
        "the items themselves.", expect="a field name"),
))

EXPECT = Section("expect", "expectation", (
    Key("key", (list,), "The card fields that tell the cards of this expectation apart, dotted for a field of a "
        "field (`suit.id`, `row.kind`). A card belongs to the expectation when it has every one of them.",
        expect="a list of card fields such as [suit.id, value]"),
    Key("values", (dict,), "The values each key field takes, each a list, a range of whole numbers such as "
        "`1..10`, or [values read from the data](#values-read-from-the-data). Every combination must be in "
        "the deck, and a card with another value is one the deck should not hold. It names every key field.",
        expect="a mapping of the key fields to a list, a range such as 1..10, or {data: …}",
        entries=(EXPECT_VALUES,)),
    Key("copies", (int, dict), "How many cards of each combination the deck holds, copies counted: one number "
        "for every combination, or (for a key of one field) a mapping of values to numbers, whose values "
        "are then the key's values when `values` does not give them; a value it leaves out takes 1.",
        default=1, expect="a whole number, or a mapping of values to whole numbers", range=Range(1, MAX_QUANTITY)),
    Key("total", (int,), "How many cards the expectation's cards come to, copies counted; without a `key`, the "
        "whole deck (of its `variant`).", range=Range(1, MAX_DECK)),
    Key("unique", (list,), "Card fields no two cards of the expectation share (a card's copies are one card "
        "here: `copies` counts them); without a `key`, across the whole deck.", expect="a list of card fields"),
    Key("variant", (str,), "The [variant](../design/variants.md) whose cards the expectation is about; checked "
        "when `cardgen validate` is given `--variant` with it. Left out: the cards of no variant.",
        expect="a variant name"),
))

MAX_ICC_BYTES = 16 << 20  # a game's output profile (output/cmyk.py holds every profile to the same)
INK_LIMIT = Range(100, 400, "%")

PRINT = Section("print", "print settings", (
    Key("profile", (str,), "The CMYK output profile (an `.icc` file inside the game folder, at most "
        f"{MAX_ICC_BYTES >> 20} MiB) the print-shop files are converted through and carry as their "
        "OutputIntent, such as the profile of the press the game is printed on. Left out: the shop's, else "
        "the shipped ISO Coated v2 300 % (FOGRA39).", expect="a file name"),
    Key("ink_limit", (float,), "Most total ink (C+M+Y+K) any converted colour of the print-shop files may "
        "have. Left out: the shop's, else 300 %.", range=INK_LIMIT),
    Key("shop", (str,), "The [shop profile](../printing/shops-and-images.md) the game's print-shop files are "
        "made for when the command line names none (`cardgen shops` lists them).", expect="a shop name"),
))

GAME = Section("game", "the game", (
    Key("id", (str,), "The game's id: lower-case letters, digits, `-` and `_`, starting with a letter or "
        "digit. The kit is written to `output/<id>/` and its files are named `<id>-…`.", required=True),
    Key("name", (str,), "A locale key: the game's name in each language, as printed on sheet labels and shown "
        "by `cardgen list`.", required=True),
    Key("languages", (list,), "The language codes the game comes in, such as `[en, fr, nl]`; each needs "
        "`locales/<code>.yaml`. A build makes every language unless `--lang` says otherwise.", required=True,
        expect="a list of language codes"),
    Key("components", (list,), "What gets printed: a list of [decks](#decks), [sheets](#sheets) and "
        "[boards](#boards), at least one.", required=True, expect="a list of decks, sheets and boards",
        entries=(DECK, SHEET, BOARD)),
    Key("players", (), "The fewest and most players. Templates see it as `game.players`; a rules module may "
        "use it.", default=(1, 1), expect="[fewest, most], whole numbers"),
    Key("fonts", (dict,), "Font roles: a name for templates (`title`, `text`, `bold`, anything you like) mapped "
        "to a font file name without `.ttf`. The `text` role is the font of any text op that names none, so "
        "a game that prints text needs it. Only TrueType fonts can be embedded: an `.otf` file is refused with "
        "a message saying so.", values=(str,)),
    Key("icons", (dict,), "Icons the texts name as `:name:`, each [an icon entry](rich-text.md#icons) such as "
        "`{char: \"★\", color: sun}` or `{src: coin.svg}`. See [rich text and icons](rich-text.md).",
        expect="a mapping of names to {char: …} or {src: …}", entries=(ICON,)),
    Key("palette", (dict,), "Colour names mapped to `#rrggbb` values, or to printing inks `cmyk(c,m,y,k)` in "
        "percent (`cmyk(0,60,100,0)`), which the print-shop files print as they are. Wherever an op takes a "
        "colour it takes one of these names, a `#rrggbb` or `cmyk(…)` value, or `none`.", values=(str,)),
    Key("data", (dict,), "Anything: lists and mappings the templates read as `game.data`, and that `for_each` "
        "and `quantity` can name. A rules module reads its facts from here too."),
    Key("data_files", (list,), "More data files in the folder, each a file name or [an entry](#data-file-entries). A "
        "YAML (or JSON) file holds a mapping whose keys are added to `data`. A spreadsheet, `.csv`, `.xlsx` or "
        "`.ods`, adds a list of rows (each a mapping of the first row's column names to the row's cells): a "
        "CSV under its file name without `.csv`, a workbook each sheet under the sheet's name; "
        "[From a spreadsheet](spreadsheets.md) says how cells are read. A key defined twice (in `game.yaml` "
        "and a file, or in two files) is an error. Every number of the data must be finite: `.nan` or `.inf` "
        "is an error at its line.", expect="a list of file names or entries", entries=(DATA_FILE,)),
    Key("expect", (dict,), "What each deck must hold, checked by `cardgen validate`: a deck's id mapped to a "
        "list of [expectations](../validator/deck-expectations.md), each the cards of one kind.",
        expect="a mapping of deck ids to lists of expectations", entries=(EXPECT,)),
    Key("ink_saver", (dict,), "Colours that a build with `--ink-saver` draws instead of others: a palette "
        "name or `#rrggbb` mapped to a palette name, `#rrggbb` or `none`. They apply wherever a colour is "
        "drawn, so templates need not read `ink_saver`.", values=(str,)),
    Key("print", (dict,), "The game's own [print settings](#print-settings) for its print-shop files: an "
        "output profile, an ink limit and a shop. The command line's `--profile`, `--ink-limit` and `--shop` "
        "win over them.", expect="a mapping with profile, ink_limit, shop", entries=(PRINT,)),
))

SECTIONS = (GAME, DECK, CARD, SHEET, BOARD, ICON, DATA_FILE, EXPECT, EXPECT_VALUES, PRINT)
COMPONENTS = {s.tag[1]: s for s in (DECK, SHEET, BOARD) if s.tag}
