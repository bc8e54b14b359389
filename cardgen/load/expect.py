"""game.yaml's ``expect``: what each deck must hold, read and checked against the decks.

Everything that can be told without counting cards is an error here, at its line: a
deck the game lacks, a key field no card of the deck has, a range such as ``1..x``,
copies of a value the expectation does not list, a variant no card belongs to. The
validator (:mod:`cardgen.validation.expect`) then counts the cards.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ..base.errors import Collector, Where
from ..model.components import Card, Component, Deck
from ..model.expect import Expectation, ValueSet, field_value, has_field
from .gameschema import EXPECT, EXPECT_VALUES, MAX_DECK, MAX_QUANTITY
from .schema import Checked, check_mapping, describe, read_section
from .yamlsrc import YDict, YList

RANGE_RE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
SCALARS = (str, int, float, bool)
SHOWN_FIELDS = 8  # a deck's field names listed in a message, at most


def read_expect(table: YDict, components: list[Component], data: Mapping[str, Any],
                errors: Collector) -> dict[str, tuple[Expectation, ...]]:
    """``expect``'s deck ids → their checked expectations; ``components`` hold every
    card, of every variant."""
    decks = {c.id: c for c in components if isinstance(c, Deck)}
    out: dict[str, tuple[Expectation, ...]] = {}
    for deck_id, rules in table.items():
        deck = decks.get(deck_id)
        if deck is None:
            what = "a deck" if any(c.id == deck_id for c in components) else "which the game does not have"
            known = ", ".join(decks) or "none"
            if what == "a deck":
                errors.add(f"'expect' names '{deck_id}', which is not a deck (decks: {known})", table.key_at(deck_id))
            else:
                errors.add(f"'expect' names deck '{deck_id}', {what} (decks: {known})", table.key_at(deck_id))
            continue
        if not isinstance(rules, YList):
            errors.add(f"'expect.{deck_id}' must be a list of expectations, found {describe(rules)}",
                       table.at(deck_id))
            continue
        if not rules:
            errors.add(f"'expect.{deck_id}' is empty: list at least one expectation", table.at(deck_id))
            continue
        read = [_expectation(rule, n, deck, rules.at(n - 1), data, errors) for n, rule in enumerate(rules, 1)]
        out[str(deck_id)] = tuple(r for r in read if r is not None)
    return out


def _expectation(rule: Any, number: int, deck: Deck, where: Where, data: Mapping[str, Any],
                 errors: Collector) -> Expectation | None:
    what = f"expectation {number} of deck '{deck.id}'"
    if not check_mapping(rule, where, what, errors):
        return None
    before = len(errors.errors)
    keys = read_section(rule, EXPECT, what, errors)
    if not {"key", "total", "unique"} & set(rule):
        errors.add(f"{what} says nothing: give it a 'key', a 'total' or 'unique'", rule.where)
    for needs_key in ("values", "copies"):
        if needs_key in rule and "key" not in rule:
            errors.add(f"'{needs_key}' in {what} needs a 'key': the card fields whose values it gives",
                       rule.key_at(needs_key))
    variant = keys["variant"]
    cards = deck.cards
    if variant is not None:
        known = sorted({c.variant for c in deck.cards if c.variant})
        if variant not in known:
            has = f"its variants: {', '.join(known)}" if known else "it has no variants"
            errors.add(f"'variant' in {what}: no card of deck '{deck.id}' belongs to variant '{variant}' ({has})",
                       rule.at("variant"))
    key = _fields(rule, "key", keys, what, cards, deck, errors)
    unique = _fields(rule, "unique", keys, what, cards, deck, errors)
    key_ok = len(key) == len(keys["key"])  # else its values are not checked against the fields left
    values = _values(rule, keys, key, what, data, errors) if key and key_ok and "values" in keys.given else None
    copies, copies_of = _copies(rule, keys, key, values, what, errors)
    if values is None and copies_of:
        places = tuple(keys["copies"].key_at(v) for v in copies_of)
        values = (ValueSet(tuple(copies_of), ", ".join(map(str, copies_of)), places),)
    total = keys["total"]
    if total is not None and values is not None and not errors.errors[before:]:
        count = (sum(copies_of.get(v, copies) for v in values[0].values) if copies_of
                 else copies * math.prod(len(v.values) for v in values))
        if count != total:
            errors.add(f"'total' in {what} is {total}, but its values and copies make {count} cards",
                       rule.at("total"))
    if len(errors.errors) > before:
        return None
    return Expectation(deck=deck.id, number=number, where=rule.where, key=key, values=values, copies=copies,
                       copies_of=MappingProxyType(copies_of), total=total, unique=unique, variant=variant,
                       values_where=rule.at("values"), copies_where=rule.at("copies"), total_where=rule.at("total"),
                       unique_where=rule.at("unique"))


def _fields(rule: YDict, name: str, keys: Checked, what: str, cards: tuple[Card, ...], deck: Deck,
            errors: Collector) -> tuple[str, ...]:
    """The card fields ``rule[name]`` lists (``key`` or ``unique``): dotted names, each
    held by some card of the deck as a plain value (not a mapping or a list)."""
    items = keys[name]
    if name not in keys.given:
        return ()
    if not items:
        errors.add(f"'{name}' in {what} is empty: list at least one card field", rule.at(name))
        return ()
    out: list[str] = []
    for i, dotted in enumerate(items):
        at = items.at(i)
        if not isinstance(dotted, str) or not dotted.strip():
            errors.add(f"'{name}' in {what}: item {i + 1} must be a card field such as suit.id, found "
                       f"{describe(dotted)}", at)
            continue
        if dotted in out:
            errors.add(f"'{name}' in {what} lists the field '{dotted}' twice", at)
            continue
        holders = [c for c in cards if has_field(c.fields, dotted)]
        if not holders:
            errors.add(f"'{name}' in {what} names the field '{dotted}', which no card of deck '{deck.id}' has "
                       f"(their fields: {_field_names(cards)})", at)
            continue
        odd = next((c for c in holders if not isinstance(field_value(c.fields, dotted), SCALARS)), None)
        if odd is not None:
            inner = field_value(odd.fields, dotted)
            hint = (f"; name one of its fields, such as {dotted}.{next(iter(inner))}"
                    if isinstance(inner, Mapping) and inner else "")
            errors.add(f"'{name}' in {what} names the field '{dotted}', which holds {describe(_plain(inner))} "
                       f"on card '{odd.id}'{hint}", at)
            continue
        out.append(dotted)
    return tuple(out)


def _plain(value: Any) -> Any:
    """A frozen mapping or tuple as the dict or list :func:`describe` names."""
    return {} if isinstance(value, Mapping) else [] if isinstance(value, tuple) else value


def _field_names(cards: tuple[Card, ...]) -> str:
    names = list(dict.fromkeys(k for c in cards for k in c.fields))
    shown = ", ".join(names[:SHOWN_FIELDS])
    return shown + (", …" if len(names) > SHOWN_FIELDS else "") if names else "none"


def _values(rule: YDict, keys: Checked, key: tuple[str, ...], what: str, data: Mapping[str, Any],
            errors: Collector) -> tuple[ValueSet, ...] | None:
    """One set of values per key field, from ``values``; None after an error."""
    table: YDict = keys["values"]
    ok = True
    for name in table:
        if name not in key:
            errors.add(f"'values' in {what} names '{name}', which is not a field of its key "
                       f"[{', '.join(key)}]", table.key_at(name))
            ok = False
    sets = []
    for name in key:
        if name not in table:
            errors.add(f"'values' in {what} gives no values for the key field '{name}'", rule.key_at("values"))
            ok = False
            continue
        one = _value_set(table, name, what, data, errors)
        ok = ok and one is not None
        sets.append(one)
    if not ok:
        return None
    combos = math.prod(len(s.values) for s in sets if s is not None)
    if combos > MAX_DECK:
        errors.add(f"'values' in {what} make {combos:,} combinations; a deck holds at most {MAX_DECK:,} cards",
                   rule.at("values"))
        return None
    return tuple(s for s in sets if s is not None)


def _value_set(table: YDict, name: str, what: str, data: Mapping[str, Any], errors: Collector) -> ValueSet | None:
    source = table[name]
    at = table.at(name)
    said = f"'values.{name}' in {what}"
    if isinstance(source, str):
        m = RANGE_RE.match(source)
        if m is None:
            errors.add(f"{said} must be a list, a range of whole numbers such as 1..10, or {{data: NAME}}, "
                       f"found {source!r}", at)
            return None
        first, last = int(m.group(1)), int(m.group(2))
        if first > last or last - first >= MAX_DECK:
            errors.add(f"{said}: the range {source.strip()} must run from a first to a last whole number, "
                       f"at most {MAX_DECK:,} of them", at)
            return None
        return ValueSet(tuple(range(first, last + 1)), f"{first}..{last}", where=at)
    if isinstance(source, YList):
        seen: list[Any] = []
        for i, value in enumerate(source):
            if not isinstance(value, SCALARS):
                errors.add(f"{said}: item {i + 1} must be text or a number, found {describe(value)}", source.at(i))
                return None
            if value in seen:
                errors.add(f"{said} lists {value!r} twice", source.at(i))
                return None
            seen.append(value)
        if not seen:
            errors.add(f"{said} is empty", at)
            return None
        return ValueSet(tuple(seen), ", ".join(map(str, seen)), tuple(source.at(i) for i in range(len(seen))),
                        where=at)
    if isinstance(source, YDict):
        found = _data_values(source, said, data, errors)
        return replace(found, where=at) if found is not None else None
    errors.add(f"{said} must be a list, a range of whole numbers such as 1..10, or {{data: NAME}}, "
               f"found {describe(source)}", at)
    return None


def _data_values(source: YDict, said: str, data: Mapping[str, Any], errors: Collector) -> ValueSet | None:
    """The values of a list under ``data`` (or of one field of its items): each once, in order."""
    before = len(errors.errors)
    keys = read_section(source, EXPECT_VALUES, said, errors)
    if len(errors.errors) > before:
        return None
    name, column = keys["data"], keys["field"]
    items = data.get(name)
    if not isinstance(items, list) or not items:
        lists = ", ".join(k for k, v in data.items() if isinstance(v, list)) or "none"
        errors.add(f"{said} names data '{name}', which is not a list under 'data' (lists: {lists})",
                   source.at("data"))
        return None
    out: dict[Any, None] = {}
    for i, item in enumerate(items):
        value = item
        if column is not None:
            if not isinstance(item, Mapping) or column not in item:
                errors.add(f"{said}: item {i + 1} of data '{name}' has no field '{column}'", source.at("field"))
                return None
            value = item[column]
        if not isinstance(value, SCALARS):
            where = item.at(column) if column is not None and isinstance(item, YDict) else source.at("data")
            errors.add(f"{said}: item {i + 1} of data '{name}' gives {describe(value)}, not text or a number", where)
            return None
        out[value] = None
    return ValueSet(tuple(out), ", ".join(map(str, out)), data=name)


def _copies(rule: YDict, keys: Checked, key: tuple[str, ...], values: tuple[ValueSet, ...] | None, what: str,
            errors: Collector) -> tuple[int, dict[Any, int]]:
    """The copies of every combination, and (a key of one field) those of each value."""
    copies = keys["copies"]
    if not isinstance(copies, YDict):
        return copies, {}
    if len(key) != 1:
        if key:
            errors.add(f"'copies' in {what} gives copies per value, which needs a key of one field; this key has "
                       f"{len(key)}: give one number of copies for every combination", rule.at("copies"))
        return 1, {}
    out: dict[Any, int] = {}
    allowed = values[0] if values else None
    for value, n in copies.items():
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_QUANTITY:
            errors.add(f"'copies.{value}' in {what} must be a whole number from 1 to {MAX_QUANTITY:,}, found "
                       f"{describe(n)}", copies.at(value))
            continue
        if allowed is not None and value not in allowed.values:
            errors.add(f"'copies' in {what} names {value!r}, which is not among the values of {key[0]} "
                       f"({allowed.text})", copies.key_at(value))
            continue
        out[value] = n
    if not copies:
        errors.add(f"'copies' in {what} is empty", rule.at("copies"))
    return 1, out
