"""cardgen: turn a game folder (YAML data + Jinja layouts) into print-ready PDFs.

The public API, the same one the command line uses::

    import cardgen

    game = cardgen.load_game("hapy")                    # a shipped game id or a folder
    built = cardgen.build(game, cardgen.BuildOptions(langs=("en",), papers=("a4",)))
    print(built.folder, len(built.files), [str(w) for w in built.warnings])
    report = cardgen.validate(game, cardgen.ValidateOptions(games=200))
    print(report["ok"])

Every user mistake is a :class:`CardgenError` (an :class:`ErrorList` when there are
several), whose ``lines()`` name the file, line and what is wrong; what a build says
and goes on is a :class:`CardgenWarning` in its result (an error with ``strict=True``). Heavy modules
(ReportLab, the rules engines) load on first use, so ``import cardgen`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .base.errors import CardgenError, CardgenWarning, ErrorList, Where
from .version import __version__

if TYPE_CHECKING:
    from .model.build import BuildOptions, Built
    from .model.game import Game
    from .validation.runner import ValidateOptions

__all__ = ["BuildOptions", "Built", "CardgenError", "CardgenWarning", "ErrorList", "Game", "ValidateOptions", "Where",
           "__version__", "build", "load_game", "validate"]

_LAZY = {  # public name -> the module that defines it
    "BuildOptions": "model.build",
    "Built": "model.build",
    "ValidateOptions": "validation.runner",
    "Game": "model.game",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'cardgen' has no attribute {name!r}")


def load_game(game: str | Path, variants: Iterable[str] = (), *, every_variant: bool = False,
              fallback: bool = False) -> Game:
    """Load and check a game folder (or a shipped game id); raises CardgenError with
    every problem found. Cards of an optional variant are kept only if named. With
    ``fallback``, a language's missing strings take the first language's text."""
    from .load.game import load_game as load

    return load(game, variants, every_variant=every_variant, fallback=fallback)


def build(game: Game, options: BuildOptions | None = None,
          progress: Callable[[str], None] | None = None) -> Built:
    """Build a loaded game's kit into ``options.out_dir/<game id>/``: every face rendered
    and checked first, the files made current only if every language succeeded (and,
    with ``options.strict``, only if there was no warning). Returns the kit folder, the
    files written and the warnings given. A build whose every input equals the one
    that left the kit stops before loading a font or the renderer."""
    from .load.inputs import inputs_digest
    from .model.build import BuildOptions
    from .output.unchanged import kit_left_unchanged

    opts = options or BuildOptions()
    kept = kit_left_unchanged(game, opts, lambda: inputs_digest(game, exclude=[opts.out_dir]), progress)
    if kept is not None:
        return kept
    from .pipeline import build_game

    return build_game(game, opts, progress)


def validate(game: Game, options: ValidateOptions | None = None,
             progress: Callable[[str, int, int], None] | None = None) -> dict[str, Any]:
    """Check a loaded game: its deck against its rules, seeded plays, and (with
    ``options.kit``) a built kit. Returns the report as a plain dict (``report["ok"]``)."""
    from .validation.runner import ValidateOptions
    from .validation.runner import validate as run

    return run(game, options or ValidateOptions(), progress)
