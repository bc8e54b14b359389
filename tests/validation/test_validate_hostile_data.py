"""Hostile data: every numeric field of every shipped game's data (the first entries of
each list), set to 0, a negative number, a huge number or a word, goes through the
whole validation (deck check, binding the rules, one game per configuration) without
a traceback: each mistake is a problem in the report or a one-line error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from cardgen.base.errors import CardgenError
from cardgen.load.data import freeze
from cardgen.load.game import load_game
from cardgen.validation.runner import ValidateOptions, validate

HOSTILE = (0, -3, 10 ** 9, "many")
FIRST = 2  # entries of each list swept (the others are alike)


def numeric_paths(value: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [path]
    if isinstance(value, Mapping):
        return [p for k, v in value.items() for p in numeric_paths(v, (*path, k))]
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value[:FIRST]) for p in numeric_paths(v, (*path, i))]
    return []


def thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def with_value(data: Mapping, path: tuple, new: Any) -> Any:
    out = thaw(data)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return freeze(out)


@pytest.mark.parametrize("game_id", ["hapy", "egypt", "horus", "farao"])
def test_every_numeric_field_set_to_nonsense_is_reported_not_a_traceback(game_id):
    game = load_game(game_id)
    paths = numeric_paths(game.data)
    assert paths, "the sweep must find the numeric fields"
    crashes = []
    for path in paths:
        for bad in HOSTILE:
            broken = replace(game, data=with_value(game.data, path, bad))
            try:
                validate(broken, ValidateOptions(games=1, jobs=1, agents=("random",), players=()))
            except CardgenError:
                pass  # a one-line error: fine
            except Exception as exc:  # noqa: BLE001 - any other exception is the bug looked for
                crashes.append(f"data.{'.'.join(map(str, path))} = {bad!r}: {type(exc).__name__}: {exc}")
    assert not crashes, "\n".join(crashes[:20])
