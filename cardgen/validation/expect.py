"""The decks against game.yaml's ``expect``: what a designer says each deck holds.

An expectation is about the cards of its variant (or of none) that have every field
of its key; it accepts those whose values are among its ``values``. A card no
expectation of its deck accepts, or one an expectation is about but whose values it
does not list, is one the deck should not hold; a combination of
values with no card is missing; a combination printed more or fewer times than its
``copies`` is named at its card. Nothing here knows a game: it runs for games with
rules and without.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from ..model.components import Card, Deck
from ..model.expect import Expectation, field_value, has_field
from ..model.game import Game
from ..rules.api import Problem
from .static import StaticResult


def check_expectations(game: Game) -> StaticResult:
    """Every deck that has expectations, against them (the variants chosen for this run)."""
    res = StaticResult()
    for deck_id, rules in game.expect.items():
        deck = game.component(deck_id)
        assert isinstance(deck, Deck)  # the loader checked it
        _check_deck(deck, [r for r in rules if r.variant is None or r.variant in game.variants], res)
    return res


def _check_deck(deck: Deck, rules: list[Expectation], res: StaticResult) -> None:
    before = len(res.problems)
    accepted: set[str] = set()
    summaries = []
    for rule in rules:
        cards = _accepted(rule, deck.cards)
        accepted.update(c.id for c in cards)
        summaries.append(_check_rule(deck, rule, cards, res))
    for card in deck.cards:
        if card.id not in accepted or any(_rejects(r, card) for r in rules):
            res.problems.append(Problem(f"card '{card.id}'{_described(card, rules)} is not one deck '{deck.id}'"
                                        f" expects: {_why_not(card, rules)}", card.where))
    if len(res.problems) == before:
        res.passed.append(f"deck '{deck.id}' holds what game.yaml expects: {deck.count} cards"
                          f" ({'; '.join(summaries)})")


def _in_scope(rule: Expectation, card: Card) -> bool:
    return card.variant == rule.variant and all(has_field(card.fields, f) for f in rule.key)


def _combination(rule: Expectation, card: Card) -> tuple[Any, ...]:
    return tuple(field_value(card.fields, f) for f in rule.key)


def _rejects(rule: Expectation, card: Card) -> bool:
    """The expectation is about the card, but does not list its values."""
    return (_in_scope(rule, card) and rule.values is not None
            and not all(_among(v, s.values) for v, s in zip(_combination(rule, card), rule.values)))


def _accepted(rule: Expectation, cards: Iterable[Card]) -> list[Card]:
    """The cards the expectation is about whose values it lists."""
    return [card for card in cards if _in_scope(rule, card) and not _rejects(rule, card)]


def _among(value: Any, values: tuple[Any, ...]) -> bool:
    """``value`` is one of ``values``, true not being 1 (YAML keeps them apart, Python not)."""
    return any(value == v and isinstance(value, bool) == isinstance(v, bool) for v in values)


def _check_rule(deck: Deck, rule: Expectation, cards: list[Card], res: StaticResult) -> str:
    """Problems of one expectation's copies, total and unique fields; its summary."""
    count = sum(c.quantity for c in cards)
    if rule.key:
        _check_copies(deck, rule, cards, res)
    if rule.total is not None and count != rule.total:
        res.problems.append(Problem(f"deck '{deck.id}' has {count} {_cards_of(rule)}; expected {rule.total}",
                                    rule.total_where))
    for name in rule.unique:
        _check_unique(deck, name, cards, res)
    what = f"{count} {_cards_of(rule)}"
    if rule.key and rule.values is not None:
        sizes = " × ".join(str(len(s.values)) for s in rule.values)
        what += f", {sizes} {'combinations' if len(rule.values) > 1 else 'values'}"
    return what


def _cards_of(rule: Expectation) -> str:
    text = "cards"
    if rule.variant is not None:
        text += f" of variant '{rule.variant}'"
    if rule.key:
        text += f" with {_and(rule.key)}"
    return text


def _and(words: Iterable[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _named(rule: Expectation, combo: tuple[Any, ...]) -> str:
    """A combination as messages say it: "suit.id 'fuel' and value 3"."""
    return _and(f"{f} {v!r}" for f, v in zip(rule.key, combo))


def _check_copies(deck: Deck, rule: Expectation, cards: list[Card], res: StaticResult) -> None:
    found: dict[tuple[Any, ...], list[Card]] = {}
    for card in cards:
        found.setdefault(_combination(rule, card), []).append(card)
    if rule.values is not None:
        wanted = list(itertools.product(*(s.values for s in rule.values)))
    else:
        wanted = list(found)
    missing = [combo for combo in wanted if combo not in found]
    _report_missing(deck, rule, missing, res)
    for combo in wanted:
        have = found.get(combo)
        if not have:
            continue
        want = rule.wanted(combo)
        total = sum(c.quantity for c in have)
        if total == want:
            continue
        if len(have) == 1:
            card = have[0]
            res.problems.append(Problem(f"card '{card.id}' ({_named(rule, combo)}) is printed {_times(total)}"
                                        f" (quantity {card.quantity}); expected {want}", card.where))
        else:
            ids = ", ".join(f"'{c.id}'" for c in have)
            res.problems.append(Problem(f"the card with {_named(rule, combo)} is in deck '{deck.id}' {_times(total)}"
                                        f" (cards {ids}); expected {want}", have[-1].where))


def _times(n: int) -> str:
    return "1 time" if n == 1 else f"{n} times"


def _report_missing(deck: Deck, rule: Expectation, missing: list[tuple[Any, ...]], res: StaticResult) -> None:
    """Each missing combination at the expectation's values (or key); a value of a key
    of several fields whose every combination is missing, as one line."""
    where = rule.values_where if rule.values is not None else rule.where
    left = dict.fromkeys(missing)  # in order, and quick to look up
    if rule.values is not None and len(rule.key) > 1:
        gone = set(missing)
        for i, field in enumerate(rule.key):
            others = [s for j, s in enumerate(rule.values) if j != i]
            for value in rule.values[i].values:
                combos = [c for c in itertools.product(*(s.values for s in rule.values)) if c[i] == value]
                if not all(c in gone for c in combos) or not any(c in left for c in combos):
                    continue
                want = sum(rule.wanted(c) for c in combos)
                each = ", ".join(f"{f} {s.listed()}"
                                 for f, s in zip((f for j, f in enumerate(rule.key) if j != i), others))
                res.problems.append(Problem(f"the cards with {field} {value!r} are missing from deck '{deck.id}'"
                                            f" (expected {want}: {each}, {rule.copies} each)",
                                            rule.values[i].place(value, where)))
                for c in combos:
                    left.pop(c, None)
    for combo in left:
        here = rule.values[0].place(combo[0], where) if rule.values is not None and len(combo) == 1 else where
        res.problems.append(Problem(f"the card with {_named(rule, combo)} is missing from deck '{deck.id}'"
                                    f" (expected {rule.wanted(combo)})", here))


def _check_unique(deck: Deck, name: str, cards: list[Card], res: StaticResult) -> None:
    owners: dict[Any, Card] = {}
    for card in cards:
        if not has_field(card.fields, name):
            continue
        value = field_value(card.fields, name)
        try:
            first = owners.setdefault(value, card)
        except TypeError:  # a mapping or a list: the loader refuses such a field; nothing to compare
            continue
        if first is not card:
            res.problems.append(Problem(f"cards '{first.id}' and '{card.id}' of deck '{deck.id}' share the {name}"
                                        f" {value!r}; expected each {name} once", card.where))


def _described(card: Card, rules: list[Expectation]) -> str:
    """A card's values of the first key it has all the fields of, or its variant."""
    for rule in rules:
        if rule.key and _in_scope(rule, card):
            return f" ({_named(rule, _combination(rule, card))})"
    return f" (variant '{card.variant}')" if card.variant else ""


def _why_not(card: Card, rules: list[Expectation]) -> str:
    """Why the card is not one the deck holds: a value not among those an expectation
    about it lists, a field of every key it lacks, or no expectation of its variant."""
    mine = [r for r in rules if r.variant == card.variant]
    if not mine:
        return (f"no expectation is about variant '{card.variant}'" if card.variant
                else "every expectation is about a variant's cards")
    for rule in mine:
        if _in_scope(rule, card) and rule.values is not None:
            for f, v, s in zip(rule.key, _combination(rule, card), rule.values):
                if not _among(v, s.values):
                    return f"{f} {v!r} is not among {s.among()}"
    keys = " or ".join(f"[{', '.join(r.key)}]" for r in mine if r.key)
    return f"it lacks a field of every expectation's key ({keys})"
