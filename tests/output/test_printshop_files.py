"""The print-shop files of every shipped kit, read from the PDFs and the manifest: one
trim size per file, two-sided files front, back, front, back … with each back behind
its own front, one-sided pieces in files of their own, and the manifest listing exactly
the files on disk with what a shop orders them by. And a rebuild over a kit whose
print-shop files were split otherwise leaves none of the old ones behind."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pypdf
import pytest

from cardgen.impose.labels import sheet_words
from cardgen.load.game import load_game

GAMES = ("hapy", "egypt", "farao", "horus")
MM = 72 / 25.4
DATA = Path(__file__).parents[1] / "data"


@pytest.fixture(scope="module", params=GAMES)
def built(request, shared_kit):
    """(game, kit folder, manifest) of each shipped game's kit as `cardgen build GAME` makes it."""
    folder = shared_kit(request.param).folder
    return load_game(request.param), folder, json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def shops(manifest: dict) -> list[dict]:
    return [f for f in manifest["files"] if f["kind"] == "printshop"]


def box_size(box) -> tuple[float, float]:
    return (round(float(box.width) / MM, 2), round(float(box.height) / MM, 2))


def test_the_manifest_lists_exactly_the_files_on_disk(built):
    _, folder, manifest = built
    listed = [f["file"] for f in manifest["files"]]
    assert len(listed) == len(set(listed))
    assert set(listed) == {p.name for p in folder.iterdir() if p.is_file()} - {"manifest.json"}


def test_each_print_shop_file_holds_one_trim_size_which_its_name_and_the_manifest_give(built):
    game, folder, manifest = built
    assert shops(manifest), "no print-shop file"
    for f in shops(manifest):
        pages = pypdf.PdfReader(folder / f["file"]).pages
        trims = {box_size(p.trimbox) for p in pages}
        media = {box_size(p.mediabox) for p in pages}
        assert len(trims) == 1 and len(media) == 1, (f["file"], trims, media)
        details = f["printshop"]
        assert trims == {tuple(details["trim"])}, f["file"]
        assert details["page_count"] == len(pages) == len(f["pages"]), f["file"]
        w, h = details["trim"]
        assert re.fullmatch(rf"{game.id}-{f['lang']}-printshop-{w:g}(x{h:g})?mm(-[a-z]+)*\.pdf", f["file"]), f["file"]
        for cid in details["components"]:
            assert game.component(cid).size == (w, h), (f["file"], cid)


def test_two_sided_files_put_each_back_right_after_its_own_front(built):
    game, folder, manifest = built
    for f in (f for f in shops(manifest) if f["printshop"]["two_sided"]):
        pages = f["pages"]
        assert len(pages) % 2 == 0 and len(pypdf.PdfReader(folder / f["file"]).pages) == len(pages), f["file"]
        for front, back in zip(pages[0::2], pages[1::2]):
            assert (front["side"], back["side"]) == ("front", "back"), (f["file"], front["page"])
            assert back["page"] == front["page"] + 1 and front["page"] % 2 == 1
            (fi,), (bi,) = front["items"], back["items"]
            assert (front["component"], fi["card"], fi["copy"]) == (back["component"], bi["card"], bi["copy"])
        for cid in f["printshop"]["components"]:
            assert game.component(cid).back, (f["file"], cid)


def test_one_sided_pieces_are_in_files_of_their_own_with_no_backs(built):
    game, _, manifest = built
    for f in shops(manifest):
        one_sided = [cid for cid in f["printshop"]["components"] if not game.component(cid).back]
        if f["printshop"]["two_sided"]:
            assert not one_sided and "one-sided" not in f["file"], f["file"]
        else:
            assert one_sided == f["printshop"]["components"] and f["file"].endswith("-one-sided.pdf")
            assert {p["side"] for p in f["pages"]} == {"front"}, f["file"]


def test_every_print_shop_deck_is_in_exactly_one_file_of_each_language(built):
    game, _, manifest = built
    want = sorted(d.id for d in game.decks if d.printshop)
    for lang in game.languages:
        held = sorted(c for f in shops(manifest) if f["lang"] == lang for c in f["printshop"]["components"])
        assert held == want, lang


def test_the_pdf_title_says_the_trim_the_sides_and_the_decks(built):
    game, folder, manifest = built
    for f in shops(manifest):
        words = sheet_words(game.strings[f["lang"]])
        title = pypdf.PdfReader(folder / f["file"]).metadata.title
        sides = words["two_sided"] if f["printshop"]["two_sided"] else words["one_sided"]
        w = f"{f['printshop']['trim'][0]:g}".replace(".", words["decimal"])
        assert title.startswith(f"{game.name(f['lang'])} — {words['file_printshop']} · ") and f" · {sides} · " in title
        assert w in title, title
        for cid in f["printshop"]["components"]:
            key = game.component(cid).name_key
            assert (game.strings[f["lang"]].get(key, cid) if key else cid) in title, (title, cid)


def test_horus_has_four_files_and_the_stones_apart(shared_kit):
    manifest = json.loads((shared_kit("horus").folder / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(f["file"] for f in shops(manifest) if f["lang"] == "en") == [
        "horus-en-printshop-16mm-round-one-sided.pdf", "horus-en-printshop-40x40mm.pdf",
        "horus-en-printshop-63x88mm.pdf", "horus-en-printshop-95x130mm.pdf"]


# --------------------------------------------------------------------------- a rebuild
def test_a_rebuild_replaces_print_shop_files_split_otherwise(cli, tmp_path):
    """An older kit's print-shop file of another name (one file for every trim size, or
    a size since changed) goes when the same language and mode is built again; another
    language's, and another mode's, stay."""
    out = tmp_path / "out"
    assert cli("build", DATA / "mini_game", "--out", out).exit_code == 0
    kit = out / "mini"
    doc = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    for lang in ("en", "fr"):
        new = next(f for f in doc["files"] if f["kind"] == "printshop" and f["lang"] == lang)
        old = dict(new, file=f"mini-{lang}-printshop.pdf")
        del old["printshop"]  # as an older cardgen wrote it
        shutil.copy(kit / new["file"], kit / old["file"])
        doc["files"].append(old)
    ink = dict(new, file="mini-fr-printshop-ink-saver.pdf")
    shutil.copy(kit / new["file"], kit / ink["file"])
    doc["files"].append(ink)
    (kit / "manifest.json").write_text(json.dumps(doc), encoding="utf-8")

    r = cli("build", DATA / "mini_game", "--out", out, "--lang", "en")
    assert r.exit_code == 0, r.output
    assert "removed mini-en-printshop.pdf (replaced by the print-shop files of this build)" in r.output
    names = {p.name for p in kit.iterdir()}
    assert "mini-en-printshop.pdf" not in names
    assert {"mini-en-printshop-63x88mm.pdf", "mini-fr-printshop.pdf", "mini-fr-printshop-ink-saver.pdf"} <= names
    listed = {f["file"] for f in json.loads((kit / "manifest.json").read_text(encoding="utf-8"))["files"]}
    assert listed == names - {"manifest.json"}


# --------------------------------------------------------------------------- the plan
def test_the_plan_groups_decks_by_trim_shape_bleed_and_sides_in_the_games_order():
    from dataclasses import replace

    from cardgen.impose.printshop import mode_of, plan_printshop

    deck = load_game(DATA / "mini_game").decks[0]
    assert deck.back and deck.size == (63, 88)
    decks = [replace(deck, id="a"), replace(deck, id="tokens", size=(18, 18), shape="circle", back=None),
             replace(deck, id="b"), replace(deck, id="c", back=None), replace(deck, id="d", bleed=2.0),
             replace(deck, id="e", printshop=False), replace(deck, id="f", size=(63.5, 88.25))]
    plan = plan_printshop(decks)
    assert [([d.id for d in f.decks], f.name("g", "en")) for f in plan] == [
        (["a", "b"], "g-en-printshop-63x88mm-a.pdf"),  # same trim and shape as d, another bleed: ids added
        (["tokens"], "g-en-printshop-18mm-round-one-sided.pdf"),
        (["c"], "g-en-printshop-63x88mm-one-sided.pdf"),
        (["d"], "g-en-printshop-63x88mm-d.pdf"),
        (["f"], "g-en-printshop-63.5x88.2mm.pdf")]
    assert [f.two_sided for f in plan] == [True, False, False, True, True]
    assert plan[4].trim == (63.5, 88.25)
    assert [mode_of(f.name("g", "en", m)) for f in plan[:1] for m in ("", "-proof", "-ink-saver-proof")] == \
        ["", "-proof", "-ink-saver-proof"]
