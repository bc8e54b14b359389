"""``cardgen validate --sweep`` and ``--cluster``: the options read and checked, as usage errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..base.errors import CardgenError
from .exits import fail

# the options a swept name replaces: both at once would say two things
_REPLACES = {"players": "--players", "agents": "--agents", "setup": "--setup"}


def sweep_axes(model: Any, rules: Any, specs: tuple[str, ...], given: dict[str, bool]) -> list:
    """The axes of ``--sweep NAME=A,B,…``; a usage error for a name or value the game does
    not offer, or a name also set by its own option (``given``: option → set?)."""
    from ..rules.guard import call_rules
    from ..validation.sweep import SweepError, read_axes

    if not specs:
        return []
    if rules is None:
        raise click.BadParameter(f"game '{model.id}' has no rules module: there are no games to sweep",
                                 param_hint="'--sweep'")
    try:
        counts = call_rules("player_counts()", lambda: tuple(rules.player_counts(model)), owner=rules.player_counts)
        setups = call_rules("setups()", lambda: tuple(rules.setups(model)), owner=rules.setups)
    except CardgenError as exc:
        fail(exc)
        raise  # (fail exits)
    try:
        axes = read_axes(model, rules, specs, counts, setups)
    except SweepError as exc:
        raise click.BadParameter(str(exc), param_hint="'--sweep'") from None
    for axis in axes:
        option = _REPLACES.get(axis.name)
        if option and given.get(option):
            raise click.BadParameter(f"give {option} or --sweep {axis.name}=…, not both", param_hint="'--sweep'")
    return axes


@contextmanager
def cluster_session(address: str | None) -> Iterator[Any]:
    """The Dask cluster at ``address`` for the games (None: none asked), closed afterwards;
    a usage error without dask.distributed, one error line (exit 1) if it cannot be reached."""
    if address is None:
        yield None
        return
    from ..validation import cluster

    if not cluster.available():
        raise click.UsageError(f"--cluster needs dask.distributed: pip install '{cluster.EXTRA}'")
    if not cluster.well_formed(address):
        raise click.BadParameter(f"'{address}' is not a Dask scheduler address such as tcp://192.168.1.5:8786",
                                 param_hint="'--cluster'")
    try:
        session = cluster.connect(address)
    except CardgenError as exc:
        fail(exc)
        return
    try:
        yield session
    finally:
        session.close()
