"""No paragraph of any shipped kit ends in a lone short word ("Mummy side / up."), in
any language, on either paper, with every card variant: the layout engine run over
every text and flow op of every face, the way the build checks them (no PDF is written).

What counts: a paragraph of two lines or more (a text op's paragraph, or a flow block)
whose last line holds no ordinary space (one word, or words tied by no-break spaces or
a hyphen) of fewer than LONE_WORD_CHARS characters (an icon counts as one) and narrower
than LONE_WORD_SHARE of its line. The fitter avoids those by pulling a word down or
shrinking a step (docs/design/layout.md, "Text fitting"); none is left in the kits.
"""

from __future__ import annotations

import pytest

from cardgen.base.errors import Collector
from cardgen.base.paths import shipped_games_dir
from cardgen.layout.ops import leaf_ops
from cardgen.layout.textfit import LONE_WORD_CHARS, LONE_WORD_SHARE, Line, line_text, line_width
from cardgen.load.game import load_game
from cardgen.pipeline import BuildOptions, KitBuilder


def _lone(width, paragraph: tuple[Line, ...], size: float, box_w: float) -> bool:
    if len(paragraph) < 2:
        return False
    last = paragraph[-1]
    chars = sum(len(run.text) + (run.icon is not None) for run in last)
    return " " not in line_text(last) and chars < LONE_WORD_CHARS and \
        line_width(width, last, size) < LONE_WORD_SHARE * box_w


def lone_last_lines(game_id: str) -> tuple[list[str], int]:
    """Every paragraph of the game's kit (all languages, both papers) that ends in a lone
    short word, as 'face: …last two lines', and how many paragraphs were read."""
    game = load_game(shipped_games_dir() / game_id, every_variant=True)  # the variants' cards too
    builder = KitBuilder(game, BuildOptions(variants=game.variants))
    engine = builder.text
    found: list[str] = []
    read = 0
    for lang in game.languages:
        errors = Collector()
        kit = builder.render_lang(lang, errors)
        assert not errors.errors, errors.errors
        faces = {**{f"{k} front": f for k, f in kit.fronts.items()}, **{f"{k} back": f for k, f in kit.backs.items()},
                 **{f"{k} page {i + 1}": f for k, fs in kit.sheets.items() for i, f in enumerate(fs)},
                 **{f"{k} board": f for k, f in kit.boards.items()},
                 **{f"{k} header {i + 1}": f for k, fs in kit.headers.items() for i, f in enumerate(fs)}}
        seen: set[str] = set()
        for label, face in faces.items():
            if face.key in seen:
                continue
            seen.add(face.key)
            for op in leaf_ops(face.ops):
                paragraphs: list[tuple[tuple[Line, ...], float, float]] = []
                if op.kind == "text":
                    fitted = engine.fit_op(op)
                    assert sum(fitted.paragraphs) == len(fitted.runs)
                    at = 0
                    for n in fitted.paragraphs:
                        paragraphs.append((fitted.runs[at:at + n], fitted.size, op.args["w"]))
                        at += n
                elif op.kind == "flow":
                    flowed = engine.flow_op(op)
                    assert len(flowed.blocks) == sum(1 for kind, _ in op.args["blocks"] if kind != "space")
                    paragraphs += [(block.lines, block.size, block.width) for block in flowed.blocks]
                for lines, size, box_w in paragraphs:
                    read += 1
                    if _lone(engine.run_width, lines, size, box_w):
                        found.append(f"[{lang}] {label}: {' / '.join(line_text(l) for l in lines[-2:])!r}")
    return found, read


@pytest.mark.parametrize("game_id", ["hapy", "egypt", "horus", "farao"])
def test_no_paragraph_ends_in_a_lone_short_word(game_id):
    found, read = lone_last_lines(game_id)
    assert read > 100  # the walk reached the texts
    assert found == [], f"{len(found)} paragraph(s) end in a lone short word:\n" + "\n".join(found)
