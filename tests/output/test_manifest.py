"""The kit manifest as typed values: written as the JSON cardgen has always written,
read back with every key's type checked, and a bad key named with its place."""

from __future__ import annotations

import json

import pytest

from cardgen.base.errors import CardgenError, Where
from cardgen.model.manifest import BoardTile, DeckRecord, FileEntry, Manifest, PageEntry, PlacedItem, ShopDetails

WHERE = Where("kit/manifest.json")


def sample() -> Manifest:
    """One file of each kind, with every optional key somewhere."""
    front = PlacedItem(card="a", copy=0, side="front", slot=0, col=0, row=0, x=10.5, y=20.0, w=63.0, h=88.0,
                       rotation=0)
    back = PlacedItem(card="a", copy=0, side="back", slot=0, col=0, row=0, x=136.5, y=20.0, w=63.0, h=88.0,
                      rotation=0)
    shop = PlacedItem(card="a", copy=0, side="front", slot=0, x=3.0, y=3.0, w=63.0, h=88.0, rotation=0)
    tile = BoardTile(label="A1", col=0, row=0, grid=(2, 1), rotated=False, region=(0.0, 0.0, 200.0, 280.0),
                     visible=(0.0, 0.0, 190.0, 280.0))
    return Manifest(
        game="mini", variants=("jokers",),
        decks={"cards": DeckRecord(cards={"a": 1, "b": 2}, two_sided=True)},
        files=(
            FileEntry(file="mini-en-a4-cards.pdf", lang="en", paper="a4", kind="cards", duplex="long",
                      back_offset=(0.5, -1.0), pages=(PageEntry(page=1, component="cards", side="front", sheet=1,
                                                                items=(front,)),
                                                      PageEntry(page=2, component="cards", side="back", sheet=1,
                                                                items=(back,)))),
            FileEntry(file="mini-en-a4-cards-gutterfold.pdf", lang="en", paper="a4", kind="cards", layout="gutterfold",
                      duplex=None, pages=(PageEntry(page=1, component="cards", side="gutterfold", sheet=1,
                                                    fold_x=148.5, items=(front, back)),)),
            FileEntry(file="mini-en-a4-sheets.pdf", lang="en", paper="a4", kind="sheets", duplex=None,
                      pages=(PageEntry(page=1, component="rules", side="sheet"),
                             PageEntry(page=2, component="board", side="sheet", tile=tile))),
            FileEntry(file="mini-en-printshop-63x88mm.pdf", lang="en", paper=None, kind="printshop", duplex=None,
                      pages=(PageEntry(page=1, component="cards", side="front", items=(shop,)),),
                      printshop=ShopDetails(components=("cards",), trim=(63.0, 88.0), two_sided=False, page_count=1)),
        ),
    )


def test_the_json_is_the_one_cardgen_writes():
    doc = json.loads(sample().to_json())
    assert doc["format"] == 1 and doc["variants"] == ["jokers"]
    assert doc["decks"] == {"cards": {"cards": {"a": 1, "b": 2}, "two_sided": True}}
    cards, fold, sheets, shop = doc["files"]
    assert cards == {"file": "mini-en-a4-cards.pdf", "lang": "en", "paper": "a4", "kind": "cards", "duplex": "long",
                     "back_offset": [0.5, -1.0], "pages": [
                         {"page": 1, "component": "cards", "side": "front", "sheet": 1, "items": [
                             {"card": "a", "copy": 0, "side": "front", "slot": 0, "col": 0, "row": 0, "x": 10.5,
                              "y": 20.0, "w": 63.0, "h": 88.0, "rotation": 0}]},
                         {"page": 2, "component": "cards", "side": "back", "sheet": 1, "items": [
                             {"card": "a", "copy": 0, "side": "back", "slot": 0, "col": 0, "row": 0, "x": 136.5,
                              "y": 20.0, "w": 63.0, "h": 88.0, "rotation": 0}]}]}
    assert fold["layout"] == "gutterfold" and fold["duplex"] is None and "back_offset" not in fold
    assert fold["pages"][0]["fold_x"] == 148.5
    assert sheets["pages"][0] == {"page": 1, "component": "rules", "side": "sheet", "items": []}
    assert sheets["pages"][1] == {"page": 2, "component": "board", "side": "sheet", "items": [], "tile": "A1",
                                  "col": 0, "row": 0, "tiles": [2, 1], "rotated": False,
                                  "region": [0.0, 0.0, 200.0, 280.0], "visible": [0.0, 0.0, 190.0, 280.0]}
    assert shop["paper"] is None and shop["pages"][0]["items"][0] == {
        "card": "a", "copy": 0, "side": "front", "slot": 0, "x": 3.0, "y": 3.0, "w": 63.0, "h": 88.0, "rotation": 0}
    assert shop["printshop"] == {"components": ["cards"], "trim": [63.0, 88.0], "two_sided": False, "page_count": 1}
    assert all("printshop" not in f for f in (cards, fold, sheets))
    text = sample().to_json()
    assert text == json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def test_read_and_written_again_it_is_the_same_text():
    text = sample().to_json()
    assert Manifest.from_json(text, WHERE) == sample()
    assert Manifest.from_json(text, WHERE).to_json() == text
    # numbers are kept as read: a whole-number position written by hand stays whole
    doc = json.loads(text)
    doc["files"][0]["pages"][0]["items"][0]["x"] = 10
    again = Manifest.from_json(json.dumps(doc), WHERE).to_json()
    assert '"x": 10,' in again and json.loads(again) == doc


def broken(change) -> str:
    doc = json.loads(sample().to_json())
    change(doc)
    return json.dumps(doc)


def item(doc, f=0, p=0, i=0):
    return doc["files"][f]["pages"][p]["items"][i]


@pytest.mark.parametrize("change, message", [
    (lambda d: d["files"][0].pop("lang"), "files[0] ('mini-en-a4-cards.pdf') has no 'lang'"),
    (lambda d: d["files"][1].pop("file"), "files[1] has no 'file'"),
    (lambda d: item(d).update(x="10"),
     "files[0] ('mini-en-a4-cards.pdf'), page 1, item 1: 'x' must be a number, found text '10'"),
    (lambda d: item(d, p=1).update(copy=True),
     "files[0] ('mini-en-a4-cards.pdf'), page 2, item 1: 'copy' must be a whole number, found true"),
    (lambda d: item(d, f=3).pop("card"), "files[3] ('mini-en-printshop-63x88mm.pdf'), page 1, item 1 has no 'card'"),
    (lambda d: d["files"][0]["pages"].__setitem__(1, 3),
     "files[0] ('mini-en-a4-cards.pdf'), page 2 must be a mapping, found the number 3"),
    (lambda d: d["files"][2]["pages"][1].update(tiles=[2, 1.5]),
     "files[2] ('mini-en-a4-sheets.pdf'), page 2: 'tiles' must be [columns, rows], whole numbers, found a list"),
    (lambda d: d["files"][0].update(back_offset=[1]),
     "files[0] ('mini-en-a4-cards.pdf'): 'back_offset' must be [x, y] in mm, found a list"),
    (lambda d: d["files"][0].update(paper=4), "files[0] ('mini-en-a4-cards.pdf'): 'paper' must be text or null,"
                                              " found the number 4"),
    (lambda d: d["files"][1]["pages"][0].update(fold_x=None),
     "files[1] ('mini-en-a4-cards-gutterfold.pdf'), page 1: 'fold_x' must be a number, found null"),
    (lambda d: d["decks"]["cards"]["cards"].update(b="2"), "decks['cards'].cards: 'b' must be a whole number,"
                                                           " found text '2'"),
    (lambda d: d["decks"]["cards"].pop("two_sided"), "decks['cards'] has no 'two_sided'"),
    (lambda d: d["files"][3]["printshop"].update(trim=[63]),
     "files[3] ('mini-en-printshop-63x88mm.pdf').printshop: 'trim' must be [width, height] in mm, found a list"),
    (lambda d: d["files"][3]["printshop"].pop("two_sided"),
     "files[3] ('mini-en-printshop-63x88mm.pdf').printshop has no 'two_sided'"),
    (lambda d: d.update(variants=["jokers", 1]), "the manifest: 'variants' must be a list of text, found a list"),
    (lambda d: d.pop("game"), "the manifest has no 'game'"),
    (lambda d: d.update(format=2), "manifest format 2 is not one this cardgen reads (1)"),
    (lambda d: d.update(files={}), "not a cardgen kit manifest (it needs 'game', 'decks' and 'files')"),
])
def test_a_bad_key_is_named_with_its_place(change, message):
    with pytest.raises(CardgenError) as exc:
        Manifest.from_json(broken(change), WHERE)
    assert str(exc.value) == f"kit/manifest.json: {message}"


def test_what_the_writer_may_leave_out_reads_as_absent():
    """Optional keys (variants, a file's paper and duplex, an item's col and row) may be
    missing; every other key must be there."""
    doc = json.loads(sample().to_json())
    del doc["variants"], doc["files"][3]["paper"], doc["files"][3]["duplex"]
    read = Manifest.from_json(json.dumps(doc), WHERE)
    assert read.variants == () and read.files[3].paper is None and read.files[3].duplex is None
    assert read.files[3].pages[0].items[0].col is None


def test_text_that_is_not_json_names_its_line():
    with pytest.raises(CardgenError) as exc:
        Manifest.from_json('{"game": "mini",\n "files": [}', WHERE)
    assert exc.value.where.path == "kit/manifest.json" and exc.value.where.line == 2
    assert "not valid JSON" in exc.value.message


def test_the_model_is_read_only():
    for m in (sample(), Manifest.from_json(sample().to_json(), WHERE)):
        with pytest.raises(TypeError):
            m.decks["cards"].cards["a"] = 5  # type: ignore[index]
        with pytest.raises(TypeError):
            m.decks["other"] = m.decks["cards"]  # type: ignore[index]


def test_page_records_are_slotted_a_build_keeps_one_per_piece_and_page():
    """A build keeps every page's record until the manifest is written: two per card in
    the sheets and two more in the print-shop file, so each is a plain slotted record
    (no dictionary of its own), and it still pickles and compares as before."""
    import pickle

    item = PlacedItem(card="c1", copy=0, side="front", slot=0, x=1.5, y=2.0, w=63, h=88, rotation=0)
    page = PageEntry(page=1, component="deck", side="front", items=(item,))
    assert not hasattr(item, "__dict__") and not hasattr(page, "__dict__")
    assert pickle.loads(pickle.dumps(page)) == page
    with pytest.raises(AttributeError):
        item.x = 3.0  # type: ignore[misc]
