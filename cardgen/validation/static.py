"""Deck completeness: the game's data against what its rules declare they need.

Generic: the rules module hands over a :class:`~cardgen.rules.api.StaticSpec`;
nothing here knows any game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.errors import Where, display_path
from ..model.components import Card, Deck
from ..model.fields import field_value
from ..model.game import Game
from ..rules.api import GroupSpec, Problem, StaticSpec

HEX_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass
class StaticResult:
    passed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    deck_ok: bool = True  # the cards match the rules (simulation can bind them)
    bad_setups: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not self.problems


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def check_static(game: Game, spec: StaticSpec, locate: Callable[..., Where]) -> StaticResult:
    """Compare the game's deck, groups and layouts with what the rules need."""
    res = StaticResult()
    deck = _check_deck(game, spec, locate, res)
    if deck is None:
        return res
    _check_groups(game, spec, deck, locate, res)
    for one in spec.also:
        comp = _check_deck(game, one, locate, res)
        if comp is not None:
            _check_groups(game, one, comp, locate, res)
    _check_players(game, spec, res)
    _check_arrangements(spec, deck, res)
    res.problems.extend(spec.problems)
    if spec.problems and not spec.expected:
        res.deck_ok = False
    return res


def _check_players(game: Game, spec: StaticSpec, res: StaticResult) -> None:
    """The game's ``players`` against the range the rules allow: outside it, no game is played."""
    if spec.players is None:
        return
    lo, hi = spec.players
    have = game.players
    allowed = f"{lo} to {hi}" if lo != hi else str(lo)
    if have[0] < lo or have[1] > hi:
        why = f" ({spec.players_text})" if spec.players_text else ""
        res.problems.append(Problem(f"'players' is [{have[0]}, {have[1]}]; the rules are for {allowed} players{why}",
                                    game.players_where))
        res.deck_ok = False
    else:
        res.passed.append(f"players [{have[0]}, {have[1]}] within the {allowed} the rules allow")


def _check_deck(game: Game, spec: StaticSpec, locate: Callable[..., Where], res: StaticResult) -> Deck | None:
    """The cards of one deck against the keys (and copies) the rules need; the deck, or None."""
    comp = _find_deck(game, spec, res)
    if comp is None:
        return None
    found = _cards_by_key(comp, spec, res)
    card_problems = len(res.problems)  # the checks of the keys the rules need, apart from cards without a key
    for key in spec.expected:
        cards = found.get(key, [])
        if spec.wanted(key) != 1:  # a card the rules need several copies of
            _check_copies(comp, spec, key, cards, res)
        else:
            _check_once(comp, spec, key, cards, res)
    _check_unused(spec, found, res)
    if len(res.problems) == card_problems:
        if spec.quantities:
            res.passed.append(f"{spec.total} cards in deck '{comp.id}' = {spec.expected_text}, each as often as"
                              " the rules need")
        else:
            res.passed.append(f"{len(spec.expected)} cards in deck '{comp.id}' = {spec.expected_text},"
                              " each exactly once")
    else:
        res.deck_ok = False
    return comp


def _find_deck(game: Game, spec: StaticSpec, res: StaticResult) -> Deck | None:
    """The deck the rules play with, or None (reported) if the game has none by that name."""
    try:
        comp = game.component(spec.component)
    except KeyError:
        res.problems.append(Problem(f"the rules play with a deck '{spec.component}', which the game does not have",
                                    game.where))
        res.deck_ok = False
        return None
    if not isinstance(comp, Deck):
        res.problems.append(Problem(f"component '{spec.component}' must be a deck of cards for the rules", comp.where))
        res.deck_ok = False
        return None
    return comp


def _cards_by_key(comp: Deck, spec: StaticSpec, res: StaticResult) -> dict[Any, list[Card]]:
    """The deck's cards by the key the rules tell them apart by; a card without one is reported."""
    found: dict[Any, list[Card]] = {}
    for card in comp.cards:
        if spec.key_of is not None:
            key = spec.key_of(card.fields)
            if key is None:
                res.problems.append(Problem(f"card '{card.id}' is not one the rules use: they need"
                                            f" {spec.expected_text}", card.where))
                continue
            found.setdefault(key, []).append(card)
            continue
        key = tuple(field_value(card.fields, f) for f in spec.key_fields)
        missing = [f for f, v in zip(spec.key_fields, key) if v is None]
        if missing:
            res.problems.append(Problem(f"card '{card.id}' has no {' or '.join(repr(m) for m in missing)}: the rules"
                                        f" tell cards apart by {' and '.join(spec.key_fields)}", card.where))
            continue
        found.setdefault(key, []).append(card)
    return found


def _check_copies(comp: Deck, spec: StaticSpec, key: Any, cards: list[Card], res: StaticResult) -> None:
    """A card the rules need several copies of: printed exactly that often."""
    total = sum(c.quantity for c in cards)
    want = spec.wanted(key)
    here = spec.where_of(key) if spec.where_of is not None else None
    if total == 0:
        res.problems.append(Problem(f"card {spec.name(key)} is missing from deck '{comp.id}': the rules need"
                                    f" {want} of it ({spec.expected_text})", here or comp.where))
    elif total != want:
        how = (f"in {len(cards)} entries ({', '.join(repr(c.id) for c in cards)})" if len(cards) > 1
               else f"as '{cards[0].id}' (quantity {total})")
        res.problems.append(Problem(f"card {spec.name(key)} is printed {total} times {how}; the rules need"
                                    f" {want}", here or cards[0].where))


def _check_once(comp: Deck, spec: StaticSpec, key: Any, cards: list[Card], res: StaticResult) -> None:
    """A card the rules need once: one entry, printed once."""
    total = sum(c.quantity for c in cards)
    if total == 0:
        res.problems.append(Problem(f"card {spec.name(key)} is missing from deck '{comp.id}': the rules need"
                                    f" {spec.expected_text}, each once", comp.where))
    elif len(cards) > 1:
        others = ", ".join(f"'{c.id}'" for c in cards)
        res.problems.append(Problem(f"card {spec.name(key)} is in deck '{comp.id}' {total} times (cards {others});"
                                    " the rules need it once", cards[1].where))
    elif total > 1:
        res.problems.append(Problem(f"card '{cards[0].id}' is printed {total} times (quantity {total}); the rules"
                                    f" need {spec.name(key)} once", cards[0].where))


def _check_unused(spec: StaticSpec, found: dict[Any, list[Card]], res: StaticResult) -> None:
    """Cards whose key the rules do not use."""
    expected = set(spec.expected)
    for key, cards in found.items():
        if key not in expected:
            for card in cards:
                res.problems.append(Problem(f"card '{card.id}' ({spec.name(key)}) is not one the rules use: they need"
                                            f" {spec.expected_text}", card.where))


def _check_groups(game: Game, spec: StaticSpec, comp: Deck, locate: Callable[..., Where], res: StaticResult) -> None:
    """The groups the rules need (e.g. families): their count, fields, colours, strings and
    the values each must have of its own."""
    for g in spec.groups:
        before = len(res.problems)
        groups = _collect_groups(comp, g, res)
        where_of = _group_locator(game, g, comp, locate)
        if g.count is not None and len(groups) != g.count:
            res.deck_ok = False
            res.problems.append(Problem(f"the rules need {g.count} {g.plural or g.label + 's'}; deck '{comp.id}'"
                                        f" has {len(groups)}"
                                        f" ({', '.join(map(str, groups)) or 'none'})",
                                        locate(g.data_list) if g.data_list else comp.where))
        for gid, mapping in groups.items():
            _check_group_fields(game, g, gid, mapping, where_of, res)
        _check_distinct(g, groups, where_of, res)
        if len(res.problems) == before:
            res.passed.append(_groups_passed(game, g, groups))


GroupWhere = Callable[..., Where]  # (group id, *path in its data entry) -> where to report


def _collect_groups(comp: Deck, g: GroupSpec, res: StaticResult) -> dict[Any, Mapping[str, Any]]:
    """The groups the deck's cards name, by id (the first card's mapping of each); a card
    without its group is reported."""
    groups: dict[Any, Mapping[str, Any]] = {}
    for card in comp.cards:
        value = card.fields.get(g.field)
        if not isinstance(value, Mapping):
            res.problems.append(Problem(f"card '{card.id}' has no {g.label} ('{g.field}')", card.where))
            continue
        gid = value.get(g.id_key)
        if gid is not None and gid not in groups:
            groups[gid] = value
    return groups


def _group_locator(game: Game, g: GroupSpec, comp: Deck, locate: Callable[..., Where]) -> GroupWhere:
    """Where a group's problems are reported: its entry in the game's data list, else the deck."""
    data_list = game.data.get(g.data_list) if g.data_list else None

    def where_of(gid: Any, *path: Any) -> Where:
        if isinstance(data_list, (list, tuple)):
            for i, item in enumerate(data_list):
                if isinstance(item, Mapping) and item.get(g.id_key) == gid:
                    return locate(g.data_list, i, *path)
        return comp.where

    return where_of


def _check_group_fields(game: Game, g: GroupSpec, gid: Any, mapping: Mapping[str, Any], where_of: GroupWhere,
                        res: StaticResult) -> None:
    """One group's required fields, palette colours and strings in every language."""
    for key, what in g.required.items():
        value = mapping.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            res.problems.append(Problem(f"{g.label} '{gid}' has no {what} ('{key}')", where_of(gid)))
    for key in g.palette:
        value = mapping.get(key)
        if isinstance(value, str) and value and value not in game.palette and not HEX_RE.match(value):
            res.problems.append(Problem(f"{g.label} '{gid}': {key} '{value}' is not a colour of the palette"
                                        " (nor a #rrggbb value)", where_of(gid, key)))
    for template, what in g.strings.items():
        try:
            skey = template.format(**mapping)
        except (KeyError, IndexError, ValueError):
            continue  # the field itself is missing: reported above
        for lang in game.languages:
            if skey not in game.strings.get(lang, {}):
                loc = Where(display_path(game.root / "locales" / f"{lang}.yaml"))
                res.problems.append(Problem(f"{g.label} '{gid}' has no {what} in '{lang}' (string '{skey}')", loc))


def _check_distinct(g: GroupSpec, groups: dict[Any, Mapping[str, Any]], where_of: GroupWhere, res: StaticResult) -> None:
    """The values each group must have of its own (e.g. a colour)."""
    for key in g.distinct:
        owners: dict[Any, Any] = {}
        for gid, mapping in groups.items():
            value = mapping.get(key)
            if value is None:
                continue
            if value in owners:
                res.problems.append(Problem(f"{g.plural or g.label + 's'} '{owners[value]}' and '{gid}' share"
                                            f" the {key} {value!r};"
                                            f" each {g.label} needs its own", where_of(gid, key)))
            else:
                owners[value] = gid


def _groups_passed(game: Game, g: GroupSpec, groups: dict[Any, Mapping[str, Any]]) -> str:
    whats = list(g.required.values())
    strings = list(dict.fromkeys(g.strings.values()))
    plural = g.plural or f"{g.label}s"
    text = f"{len(groups)} {g.label if len(groups) == 1 else plural}, each with its own {_and(whats)}"
    if strings:
        text += f"; a {_and(strings)} in {_and(list(game.languages))}"
    return text


def _check_arrangements(spec: StaticSpec, comp: Deck, res: StaticResult) -> None:
    """Each layout's places against the cards the rules need and against the cards the deck
    holds: "each card exactly once" is said only when both agree (a deck short of cards
    must not pass its layout; the deck check names the cards that differ)."""
    total = spec.total
    held = comp.count
    for arr in spec.arrangements:
        before = len(res.problems)
        res.problems.extend(arr.problems)
        if arr.places and arr.places != total:
            res.problems.append(Problem(f"layout '{arr.name}' has {arr.places} places for {total} cards: a layout must"
                                        " use each card exactly once", arr.where))
        short = bool(arr.places) and arr.places != held  # the deck check names the cards
        for (fname, value), k in arr.fixed.items():
            have = sum(c.quantity for c in comp.cards if field_value(c.fields, fname) == value)
            if have != k:
                res.problems.append(Problem(f"layout '{arr.name}' has {k} places for the cards with {fname} {value!r};"
                                            f" the deck has {have} such cards", arr.where))
        if len(res.problems) == before and not short:
            fixed = "".join(f", {k} of them for {fname} {value!r}" for (fname, value), k in arr.fixed.items())
            detail = f" = {arr.detail}" if arr.detail else ""
            res.passed.append(f"layout '{arr.name}': {arr.places} places{detail}{fixed}; each card exactly once")
        else:
            res.bad_setups.add(arr.name)


def check_generic(game: Game) -> StaticResult:
    """What can be checked without rules: every deck has cards."""
    res = StaticResult()
    for comp in game.decks:
        if comp.count == 0:
            res.problems.append(Problem(f"deck '{comp.id}' has no cards", comp.where))
        else:
            res.passed.append(f"deck '{comp.id}': {comp.count} card(s) of {len(comp.cards)} kind(s)")
    return res
