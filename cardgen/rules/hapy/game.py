"""Hâpy Families: the rules bound to one game's cards, a player count and a setup layout.

:class:`HapyGame` is what :meth:`HapyRules.load <cardgen.rules.hapy.HapyRules.load>`
returns (the API's ``GameDef``): everything about a configuration that does not
change during a game, worked out once (the deal order, the cover graph, the
request tables), and the factory of its states and checkers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...base.errors import CardgenError, Where
from ...model.fields import field_value
from ..tableau import Layout
from .checker import HapyChecker
from .codec import request_tables
from .spec import HIDDEN, MAX_TURNS, N_CARDS, SETS_TO_WIN, HapyOptions, deck_cards, read_layout
from .state import HapyState


class HapyGame:
    """The rules bound to a game's data, a player count and a setup layout."""

    def __init__(self, families: Sequence[str], card_names: Sequence[str], card_fields: Sequence[Mapping[str, Any]],
                 layout: Layout, num_players: int, max_turns: int = MAX_TURNS,
                 options: HapyOptions | None = None):
        if num_players not in SETS_TO_WIN:
            raise CardgenError(f"Hâpy Families is for 2 to 4 players, not {num_players}")
        if layout.places != N_CARDS:
            raise CardgenError(f"layout '{layout.name}' has {layout.places} places for {N_CARDS} cards")
        self.families = tuple(families)
        self.card_names = tuple(card_names)
        self.num_players = num_players
        self.setup = layout.name
        self.layout = layout
        self.win_sets = SETS_TO_WIN[num_players]
        self.max_turns = max_turns
        self.options = options = options or HapyOptions()
        self.ban_survives_passes = options.request_ban == "last_other_request"
        # deal: places with a 'need' first (from the cards that meet it), then the rest
        pools: list[tuple[int, frozenset[int] | None]] = []
        for place, need in enumerate(layout.need):
            if need:
                pool = frozenset(c for c in range(N_CARDS)
                                 if all(field_value(card_fields[c], k) == v for k, v in need.items()))
                pools.append((place, pool))
        constrained = {p for p, _ in pools}
        self.deal_order = tuple([p for p, _ in pools] + [p for p in range(N_CARDS) if p not in constrained])
        self.deal_pool = tuple([pool for _, pool in pools] + [None] * (N_CARDS - len(pools)))
        self.covers = layout.covers
        self.covered_by = layout.covered_by
        self.face_up = layout.face_up
        self.cover_count = tuple(len(c) for c in layout.covered_by)
        self.next_seat = tuple((s + 1) % num_players for s in range(num_players))
        self.others = tuple(tuple(q for q in range(num_players) if q != s) for s in range(num_players))
        self.initial_avail = tuple(p for p in range(N_CARDS) if not layout.covered_by[p])  # after the deal
        self.free_deal = not pools  # no place needs particular cards: the deal lays places in order
        self.face_or = tuple(0 if up else HIDDEN for up in layout.face_up)  # card | face_or: what a place shows
        # per seat: the request tables of the other seats, in seat order, three slices each (see legal_actions)
        self.request_tables = request_tables(num_players)

    # OpenSpiel-style
    def new_initial_state(self) -> HapyState:
        return HapyState(self)

    def max_game_length(self) -> int:
        return N_CARDS + 3 * self.max_turns

    def checker(self) -> HapyChecker:
        return HapyChecker(self)

    def card_index(self, name: str) -> int:
        return self.card_names.index(name)

    def card_name(self, card: int) -> str:
        return self.card_names[card] if 0 <= card < N_CARDS else f"card {card}"


def bind(game, num_players: int, setup: str, max_turns: int = MAX_TURNS) -> HapyGame:
    """Bind the rules to a game whose data passed :func:`~.spec.static_spec_of`'s checks."""
    families, names, fields = deck_cards(game)
    layout, problems = read_layout(setup, game.data["layouts"], lambda *p: Where())
    if layout is None:
        raise CardgenError(f"layout '{setup}' cannot be read: {problems[0].message}")
    options, wrong = HapyOptions.from_data(game.data.get("house_rules"))
    if wrong:
        raise CardgenError(f"house rules: {wrong[0].message}")
    return HapyGame(families, names, fields, layout, num_players, max_turns, options)
