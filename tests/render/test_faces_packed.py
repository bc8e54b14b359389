"""A language's rendered faces wait for the files that draw them packed, not as live
layout ops (issue 32: a deck ten times larger must not need ten times the memory):
each face's ops come back, equal to what was rendered, when a file draws it."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

from cardgen.base.errors import Collector
from cardgen.layout.ops import Op
from cardgen.load.game import load_game
from cardgen.pipeline import BuildOptions, KitBuilder
from cardgen.render.faces import Face

PLAIN = Path(__file__).parents[2] / "bench" / "plain-deck"


def _live_ops() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Op))


def test_a_rendered_language_holds_no_live_ops_per_card(tmp_path):
    folder = tmp_path / "plain"
    shutil.copytree(PLAIN, folder)
    game = load_game(folder)
    builder = KitBuilder(game, BuildOptions(out_dir=tmp_path / "out", jobs=1, papers=("a4",)))
    before = _live_ops()
    kit = builder.render_lang("en", Collector())
    held = _live_ops() - before
    assert len(kit.fronts) == 120 and len(kit.backs) == 120
    # every front has a title, a frame and its text (and a background): hundreds of ops
    # if the faces were held as ops; packed, none stays alive once rendering is done
    assert sum(len(f.ops) for f in kit.fronts.values()) >= 4 * 120
    assert held < 10, f"{held} live layout ops held by a rendered language of 120 cards"


def test_a_packed_face_gives_back_the_ops_it_was_made_with():
    child = Op("rect", {"x": 1.0, "y": 2.5, "w": 3.0, "h": 4.0, "fill": "#102030"})
    ops = (Op("text", {"text": "Zoë — ☥", "x": 0.0, "size": 9.0, "lines": [1, 2]}), Op("group", {}, (child,)))
    face = Face("the text it was rendered from", ops)
    assert face.key == "the text it was rendered from"
    assert face.ops == ops
    assert face.ops == ops  # as often as it is asked for
    assert face == Face("the text it was rendered from", ops)
    assert face != Face("the text it was rendered from", ops[:1])
    assert hash(face) == hash(Face("the text it was rendered from", ops))


def test_the_fit_memo_stays_bounded_and_drawing_fits_no_text_again(tmp_path, monkeypatch):
    import cardgen.layout.text as text_module

    folder = tmp_path / "plain"
    shutil.copytree(PLAIN, folder)
    game = load_game(folder)
    monkeypatch.setattr(text_module, "FIT_MEMO_MAX", 8, raising=False)
    builder = KitBuilder(game, BuildOptions(out_dir=tmp_path / "out", jobs=1, papers=("a4",)))
    kit = builder.render_lang("en", Collector())
    assert len(kit.fronts) == 120
    assert len(builder.text._fits) <= 8  # 120 fronts of two texts each, and the backs' title: not all kept
    fitted = []
    real = text_module.fit_runs

    def counted(*args, **kwargs):
        fitted.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(text_module, "fit_runs", counted)
    manifest: list = []
    written = builder.writer.write_face_pages(tmp_path / "faces.pdf", [
        (deck, card.id, 0, side, faces[(deck.id, card.id)])
        for deck in game.decks for card in deck.cards
        for side, faces in (("front", kit.fronts), ("back", kit.backs))], "faces")
    assert len(written) == 240 and not manifest
    assert fitted == []  # each face's texts were drawn as they were fitted when it was rendered
