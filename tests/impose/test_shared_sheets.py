"""Decks of one size share sheets: which decks do (``share_groups``), the Horus kit's
sheets (its tiles, and its Nile cards on the last sheet of Horus cards), and a shared
sheet printed duplex on both flips and as gutterfold, with every back behind its own
front, read back from the manifest and from the rendered pages."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from test_impose_kit import Options, measure, pieces, rendered

from cardgen.cli import main
from cardgen.impose import impose_kit
from cardgen.impose.duplex import back_slots
from cardgen.impose.kitplan import plan_decks, share_groups
from cardgen.impose.marks import EDGE_CLEARANCE
from cardgen.impose.papers import PAPERS_MM
from cardgen.load.game import load_game

GAME = Path(__file__).resolve().parents[1] / "data" / "shared_game"
PAPERS = ("a4", "letter")
CARDS, AIDS = [f"card-{n}" for n in range(1, 6)], [f"aid-{n}" for n in range(1, 4)]

# their module-scoped builds must not see the user's saved settings (see conftest)
pytestmark = pytest.mark.usefixtures("isolated_settings")


@pytest.fixture(scope="module")
def horus():
    return load_game("horus")


# --- which decks share ---------------------------------------------------------------------------


def test_decks_share_sheets_only_with_the_same_plan_and_sides(horus):
    tiles, horus_cards, nile, stones, aids = (horus.component(c) for c in
                                             ("tiles", "horus-cards", "nile-cards", "stones", "aids"))

    def groups(*decks, per=9):
        return [tuple(d.id for d in g) for g in share_groups(decks, lambda d: per)]

    assert groups(tiles, horus_cards, nile, aids) == [("tiles",), ("horus-cards", "nile-cards"), ("aids",)]
    # another bleed, another shape, no backs: a plan or a file of its own
    for other in (dataclasses.replace(nile, bleed=2.0), dataclasses.replace(nile, shape="rounded", corner_radius=3),
                  dataclasses.replace(nile, back=None)):
        assert groups(horus_cards, other) == [("horus-cards",), ("nile-cards",)]
    # rows of its own (new_row_per) or a header of its own: sheets of its own
    assert groups(stones, dataclasses.replace(stones, id="more")) == [("stones",), ("more",)]
    assert groups(dataclasses.replace(horus_cards, header="sticker_sheet.yaml.j2"), nile) == [("horus-cards",),
                                                                                               ("nile-cards",)]
    # a deck of the same size further on joins the run where its first deck is
    assert groups(horus_cards, tiles, nile) == [("horus-cards", "nile-cards"), ("tiles",)]
    # only where that saves a sheet: 50 + 4 at 9 a sheet is 6 sheets, not 7; at 10 a sheet
    # 5 + 1 either way, so the Nile cards keep theirs (they are not split for nothing)
    assert groups(horus_cards, nile, per=10) == [("horus-cards",), ("nile-cards",)]
    more = dataclasses.replace(nile, id="more-nile")
    assert groups(horus_cards, nile, more) == [("horus-cards", "nile-cards"), ("more-nile",)]  # 58: 7 sheets


# --- the Horus kit ---------------------------------------------------------------------------------


def test_horus_tiles_take_five_sheets_on_a4_and_four_on_letter(horus):
    out = impose_kit(horus, Options(papers=PAPERS), rendered(horus, papers=PAPERS), measure)
    for sheets, per_sheet, full in zip(out, (28, 30), (4, 3)):
        fronts = pieces(sheets.files[0], "tiles", "front")
        assert [len(p.faces) for p in fronts] == [per_sheet] * full + [120 - full * per_sheet], sheets.paper
    # A4: 4 columns, their bleed well clear of the printer's band (5 would put the trim on its edge)
    a4 = plan_decks(horus, ("a4",))["a4"]["tiles"]
    assert (a4.cols, a4.rows) == (4, 7)
    assert min(s.x for s in a4.slots) - 3 > EDGE_CLEARANCE


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_nile_cards_fill_the_last_sheet_of_horus_cards(horus, duplex):
    cards = impose_kit(horus, Options(duplex=duplex), rendered(horus), measure)[0].files[0]
    assert not pieces(cards, "nile-cards"), "no sheet of Nile cards alone"
    shared = [p for p in cards.pages if "nile-cards" in {f.component for f in p.faces}]
    front, back = shared
    assert cards.pages.index(back) == cards.pages.index(front) + 1
    assert (front.component, front.side, front.sheet, back.side, back.sheet) == ("horus-cards", "front", 6,
                                                                                 "back", 6)
    assert [f.component for f in front.faces] == ["horus-cards"] * 5 + ["nile-cards"] * 4
    # each back behind its own front, by the same mirroring as every sheet
    plan = plan_decks(horus, ("a4",))["a4"]["horus-cards"]
    mirrored = back_slots(plan, duplex)
    assert [(b.component, b.card, b.copy, b.slot) for b in back.faces] == \
        [(f.component, f.card, f.copy, mirrored[f.slot.index]) for f in front.faces]
    # the label names both decks with how many of each the sheet holds; other sheets name one
    for page, side in ((front, "front"), (back, "back")):
        text = " ".join(line.text for line in page.label)
        assert "Horus cards\u00a0×5 + Nile cards\u00a0×4" in text and f"{side} 6/6" in text, text
    first = " ".join(line.text for line in pieces(cards, "horus-cards", "front")[0].label)
    assert "Horus cards · front 1/6" in first and "×" not in first
    # the aids (95 × 130 mm) keep their own sheet
    assert [{f.component for f in p.faces} for p in pieces(cards, "aids")] == [{"aids"}] * 2


# --- a shared sheet, built ---------------------------------------------------------------------------


def _build(out: Path, *args: str) -> Path:
    from click.testing import CliRunner

    result = CliRunner().invoke(main, ["build", str(GAME), "--paper", "a4", "--paper", "letter", *args, "--out",
                                       str(out)])
    assert result.exit_code == 0, result.output
    return out / "shared"


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """The shared game (5 cards and 3 aids, one 3 × 3 sheet) for both flips and as gutterfold."""
    return {how: _build(tmp_path_factory.mktemp(f"shared-{how}"), *args)
            for how, args in (("long", ("--duplex", "long")), ("short", ("--duplex", "short")),
                              ("gutterfold", ("--layout", "gutterfold")))}


def _entry(folder: Path, name: str) -> dict:
    doc = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = [e for e in doc["files"] if e["file"] == name]
    return entry


def _who(item: dict, page: dict) -> tuple[str, str, int]:
    return (item.get("component", page["component"]), item["card"], item["copy"])


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_shared_sheet_puts_each_back_behind_its_own_front(kits, duplex, paper):
    pw, ph = PAPERS_MM[paper]
    name = f"shared-en-{paper}-cards{'-short-edge' if duplex == 'short' else ''}.pdf"
    front, back = _entry(kits[duplex], name)["pages"]  # one sheet holds both decks
    assert (front["side"], back["side"]) == ("front", "back")
    assert [_who(i, front) for i in front["items"]] == [("cards", c, 0) for c in CARDS] + [("aids", a, 0)
                                                                                            for a in AIDS]
    assert "component" not in front["items"][0] and front["items"][5]["component"] == "aids"
    backs = {_who(b, back): b for b in back["items"]}
    assert sorted(backs) == sorted(_who(f, front) for f in front["items"])
    for f in front["items"]:
        b = backs[_who(f, front)]
        want = (pw - f["x"] - f["w"], f["y"], 0) if duplex == "long" else (f["x"], ph - f["y"] - f["h"], 180)
        assert (b["x"], b["y"], b["rotation"]) == pytest.approx(want, abs=0.001), (f, b)


DPI = 50


def _raster(path: Path, index: int) -> np.ndarray:
    pdf = pdfium.PdfDocument(str(path))
    try:
        image = pdf[index].render(scale=DPI / 72).to_pil().convert("L")
    finally:
        pdf.close()
    return np.asarray(image, dtype=np.int16)


def _trim_mask(entry_page: dict, shape: tuple[int, int]) -> np.ndarray:
    """The trim boxes of the page's pieces, 1 mm inside, in pixels."""
    px = lambda mm: int(round(mm / 25.4 * DPI))  # noqa: E731
    mask = np.zeros(shape, dtype=bool)
    for it in entry_page["items"]:
        mask[px(it["y"] + 1):px(it["y"] + it["h"] - 1), px(it["x"] + 1):px(it["x"] + it["w"] - 1)] = True
    return mask


def _mismatch(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> float:
    return float((np.abs(a - b)[mask] > 64).mean())


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_shared_sheet_printed_duplex_lines_up_on_both_flips(kits, duplex, paper):
    name = f"shared-en-{paper}-cards{'-short-edge' if duplex == 'short' else ''}.pdf"
    path = kits[duplex] / name
    front, back = _raster(path, 0), _raster(path, 1)
    mask = _trim_mask(_entry(kits[duplex], name)["pages"][0], front.shape)
    turned = back[:, ::-1] if duplex == "long" else back[::-1, :]
    assert _mismatch(front, turned, mask) < 0.005
    # with teeth: a card's back behind an aid (or the wrong flip) does not line up
    wrong = back[::-1, :] if duplex == "long" else back[:, ::-1]
    assert _mismatch(front, wrong, mask) > 0.02
    assert _mismatch(front, back, mask) > 0.02


@pytest.mark.parametrize("paper", PAPERS)
def test_a_shared_gutterfold_sheet_folds_each_back_onto_its_front(kits, paper):
    (page,) = _entry(kits["gutterfold"], f"shared-en-{paper}-cards-gutterfold.pdf")["pages"][:1]
    fronts = [i for i in page["items"] if i["side"] == "front"]
    backs = {_who(i, page): i for i in page["items"] if i["side"] == "back"}
    assert {_who(f, page)[0] for f in fronts} == {"cards"}  # 2 × 2 a half sheet: the first holds cards only
    entry = _entry(kits["gutterfold"], f"shared-en-{paper}-cards-gutterfold.pdf")
    seen = []
    for page in entry["pages"]:
        backs = {_who(i, page): i for i in page["items"] if i["side"] == "back"}
        for f in (i for i in page["items"] if i["side"] == "front"):
            b = backs.pop(_who(f, page))
            assert (b["x"], b["y"]) == pytest.approx((2 * page["fold_x"] - f["x"] - f["w"], f["y"]), abs=0.001)
            seen.append(_who(f, page)[:2])
        assert not backs
    assert seen == [("cards", c) for c in CARDS] + [("aids", a) for a in AIDS]
    # the sheet the decks share holds both
    assert any({_who(i, p)[0] for i in p["items"]} == {"cards", "aids"} for p in entry["pages"])


@pytest.mark.parametrize("how", ["long", "short", "gutterfold"])
def test_validate_kit_counts_and_pairs_the_pieces_of_a_shared_sheet(kits, how):
    from click.testing import CliRunner

    r = CliRunner().invoke(main, ["validate", str(GAME), "--kit", str(kits[how])])
    assert r.exit_code == 0, r.output
    assert "every card printed as many times as its deck says, in every file (cards ×5, aids ×3)" in r.output
    assert "every front has its back at the mirrored place" in r.output


def test_validate_kit_finds_a_back_behind_another_decks_front(kits, tmp_path):
    import shutil

    from click.testing import CliRunner

    kit = tmp_path / "shared"
    shutil.copytree(kits["long"], kit)
    doc = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    entry = next(e for e in doc["files"] if e["file"] == "shared-en-a4-cards.pdf")
    back = entry["pages"][1]["items"]
    aid = next(i for i in back if i.get("component") == "aids")
    del aid["component"]  # the aid's back now claims to be a card's
    (kit / "manifest.json").write_text(json.dumps(doc), encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(GAME), "--kit", str(kit)])
    assert r.exit_code == 1
    assert f"prints the back of '{aid['card']}' (copy 1) with no front on page 1" in r.output, r.output
