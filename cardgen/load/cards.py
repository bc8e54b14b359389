"""A deck's card entries → its cards: ``for_each`` expansion over the data, ids with
placeholders, quantities (given or read from the data) and variants.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from typing import Any, Literal

from ..base.errors import Collector, Where
from ..model.components import Card, SourceRow
from ..model.fields import field_value, has_field
from .data import check_finite, freeze
from .gameschema import CARD, MAX_QUANTITY
from .schema import ID_RE, check_mapping, describe, read_section
from .tables import CellWhere, TableRow
from .yamlsrc import YDict, YList

# Sane bounds, so that a slip in the data is a clear error rather than a build that
# imposes millions of pieces or pages and never ends.
MAX_PIECES = 10_000  # cards of one component, every copy counted
PLACEHOLDER_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")


MAX_ID_LENGTH = 100  # a card id is part of the file name of each image exported for it
_NOT_IN_FILE_NAMES = set('/\\:*?"<>|')  # separators, and what Windows refuses in a name


def id_problem(card_id: str) -> str | None:
    """What keeps ``card_id`` from being part of a file name on any system, or None."""
    if not card_id:
        return "is empty"
    if card_id.startswith("."):
        return "starts with '.'"
    if card_id != card_id.strip():
        return "starts or ends with a space"
    if len(card_id) > MAX_ID_LENGTH:
        return f"is longer than {MAX_ID_LENGTH} characters"
    for char in card_id:
        if char in _NOT_IN_FILE_NAMES:
            return f"holds {char!r}"
        if ord(char) < 32 or 0x7F <= ord(char) < 0xA0:
            return f"holds the control character U+{ord(char):04X}"
    return None


def _lookup(binding: dict[str, Any], dotted: str) -> Any:
    """A placeholder's value; KeyError naming it when the binding has none."""
    if not has_field(binding, dotted):
        raise KeyError(dotted)
    return field_value(binding, dotted)


def _expand_id(template: str, binding: dict[str, Any]) -> str:
    return PLACEHOLDER_RE.sub(lambda m: str(_lookup(binding, m.group(1))), template)


def _for_each_values(spec: YDict, data: dict, what: str, errors: Collector) -> list[tuple[str, list]]:
    axes = []
    for key, source in spec.items():
        where = spec.at(key)
        if isinstance(source, str):
            values = data.get(source)
            if not isinstance(values, list):
                errors.add(f"{what}: for_each '{key}' names '{source}', which is not a list under 'data'", where)
                return []
            axes.append((key, list(values)))
        elif isinstance(source, YDict) and set(source) == {"range"}:
            rng = source["range"]
            if (
                isinstance(rng, list)
                and len(rng) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in rng)
                and rng[0] <= rng[1]
            ):
                if rng[1] - rng[0] >= MAX_PIECES:
                    errors.add(f"{what}: for_each '{key}' range makes {rng[1] - rng[0] + 1:,} cards; a component"
                               f" may have at most {MAX_PIECES:,}", where)
                    return []
                axes.append((key, list(range(rng[0], rng[1] + 1))))
            else:
                errors.add(f"{what}: for_each '{key}' range must be [first, last] whole numbers", where)
                return []
        elif isinstance(source, YList):
            check_finite(source, where, f"{what}: for_each value", key, errors)
            axes.append((key, list(source)))
        else:
            errors.add(
                f"{what}: for_each '{key}' must name a list in 'data', give a list, or {{range: [first, last]}}", where
            )
            return []
    return axes


def _quantity(name: str, template: str, binding: dict[str, Any], entry: YDict, errors: Collector,
              data: dict) -> int | None:
    """A quantity read from the data (``"{tile.count}"``, a for_each item's field, or
    ``"{nile_cards}"``, a key under ``data``), so counts live in one place; ``name``
    is the field the ``template`` names."""
    where = entry.at("quantity")
    try:
        value = _lookup(binding, name)
    except KeyError:
        try:
            value = _lookup(dict(data), name)
        except KeyError:
            errors.add(f"'quantity' refers to unknown field '{name}'", where)
            return None
    where = where_of(binding, name) or where  # the cell or line the count was read from
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        errors.add(f"'quantity' \"{template}\" gives {value!r}; it must be a whole number, 1 or more", where)
        return None
    if value > MAX_QUANTITY:
        errors.add(f"'quantity' \"{template}\" gives {value:,}; at most {MAX_QUANTITY:,} copies are allowed", where)
        return None
    return value


def _variant(entry: YDict, binding: dict[str, Any], errors: Collector) -> str | None | Literal[False]:
    """The variant a card belongs to (``variant: jokers`` or ``"{v.variant}"``); None for
    every build, False after an error."""
    if "variant" not in entry:
        return None
    template = entry["variant"]
    where = entry.at("variant")
    if not isinstance(template, str):
        errors.add(f"'variant' must be a name such as jokers, found {describe(template)}", where)
        return False
    try:
        name = _expand_id(template, binding)
    except KeyError as exc:
        errors.add(f"'variant' \"{template}\" refers to unknown field {exc}", where)
        return False
    if not ID_RE.match(name):
        placeholder = PLACEHOLDER_RE.fullmatch(template.strip())
        where = (where_of(binding, placeholder.group(1)) if placeholder else None) or where
        errors.add(f"variant name {name!r} must be lower-case letters, digits, '-' or '_'", where)
        return False
    return name


TemplateCheck = Callable[[str, str, Where, Collector], bool]  # (key, template name, where, errors) → found


def read_cards(items: Any, where: Where, data: dict, cid: str, errors: Collector, ids: dict[str, Where],
               check_template: TemplateCheck | None = None, one_sided: bool = False) -> list[Card]:
    """The cards of deck ``cid`` from its ``cards:`` list; ``ids`` holds every card id of
    the game so far (ids are unique across decks); ``check_template`` says whether a
    card's own front or back template exists (and reports it when not); a card of a
    ``one_sided`` deck may not set a back."""
    what = f"component '{cid}'"
    if not isinstance(items, YList):
        errors.add(f"'cards' in {what} must be a list of card entries, found {describe(items)}", where)
        return []
    out: list[Card] = []
    for i, entry in enumerate(items):
        ewhat = f"card entry {i + 1} of {what}"
        if check_mapping(entry, items.at(i), ewhat, errors):
            out += _entry_cards(entry, ewhat, data, errors, ids, check_template, what if one_sided else None)
    pieces = sum(max(card.quantity, 0) for card in out)
    if pieces > MAX_PIECES:
        errors.add(f"{what} has {pieces:,} cards, every copy counted; at most {MAX_PIECES:,} are allowed", where)
    return out


def _quantity_source(quantity: Any, ewhat: str, entry: YDict, errors: Collector) -> tuple[bool, str | None]:
    """Whether an entry's ``quantity`` lets its cards be made, and the data field that
    gives it when it is a placeholder (``"{kind.count}"``). A number under 1 is an
    error, but the entry's cards are still made, to find their own mistakes."""
    if isinstance(quantity, int) and quantity < 1:
        errors.add(f"'quantity' in {ewhat} must be 1 or more, found {quantity}", entry.at("quantity"))
    elif isinstance(quantity, int) and quantity > MAX_QUANTITY:
        errors.add(f"'quantity' in {ewhat} must be at most {MAX_QUANTITY:,} copies, found {quantity:,}",
                   entry.at("quantity"))
        return False, None
    elif isinstance(quantity, str):
        placeholder = PLACEHOLDER_RE.fullmatch(quantity.strip())
        if placeholder is None:
            errors.add(f"'quantity' in {ewhat} must be a whole number (or a placeholder such as"
                       f" \"{{kind.count}}\"), found str '{quantity}'", entry.at("quantity"))
            return False, None
        return True, placeholder.group(1)
    return True, None


def _entry_cards(entry: YDict, ewhat: str, data: dict, errors: Collector, ids: dict[str, Where],
                 check_template: TemplateCheck | None = None, one_sided: str | None = None) -> list[Card]:
    """The cards of one entry: one, or one per combination of its ``for_each`` values
    (``one_sided``: the deck's name when it has no back, so no card may set one).
    At the first card that cannot be made, the entry's later cards are not tried."""
    keys = read_section(entry, CARD, ewhat, errors)
    id_template, quantity = keys["id"], keys["quantity"]
    usable, quantity_field = _quantity_source(quantity, ewhat, entry, errors)
    if not usable:
        return []
    fields = keys["fields"]
    check_finite(fields, entry.at("fields"), f"{ewhat}: field", "", errors)
    spec = keys["for_each"]
    if "for_each" in keys.refused:
        return []
    axes = _for_each_values(spec, data, ewhat, errors) if spec else []
    if id_template is None or (spec and not axes):
        return []
    names = [name for name, _ in axes]
    combos = math.prod(len(values) for _, values in axes)
    if combos > MAX_PIECES:
        errors.add(f"for_each in {ewhat} makes {combos:,} cards; a component may have at most {MAX_PIECES:,}",
                   entry.at("for_each"))
        return []
    out: list[Card] = []
    checked: dict[str, bool] = {}  # template names of this entry already looked up
    numeric = _numeric_columns(axes)
    for combo in itertools.product(*(values for _, values in axes)) if axes else [()]:
        binding = dict(zip(names, combo))
        binding.update(fields)
        try:
            card_id = _expand_id(id_template, binding)
        except KeyError as exc:
            errors.add(f"card id '{id_template}' refers to unknown field {exc}", entry.at("id"))
            break
        unsafe = id_problem(card_id)
        if unsafe is not None:
            placeholder = PLACEHOLDER_RE.fullmatch(id_template.strip())
            at = (where_of(binding, placeholder.group(1)) if placeholder else None) or entry.at("id")
            errors.add(f"card id {card_id!r} {unsafe} (card ids become file names)", at)
            break
        rows = _source_rows(binding, names)
        where = _card_where(id_template, binding, rows) or entry.at("id")
        if card_id in ids:
            first = ids[card_id]
            said = f"line {first.line}" if first.path == where.path and not isinstance(first, CellWhere) \
                else first.prefix()
            errors.add(f"duplicate card id '{card_id}' (first at {said})", where)
            continue
        ids[card_id] = where
        copies = (quantity if quantity_field is None
                  else _quantity(quantity_field, quantity, binding, entry, errors, data))
        if copies is None:
            break
        variant = _variant(entry, binding, errors)
        if variant is False:
            break
        sides = [_side(entry, key, binding, errors, check_template, checked) for key in ("front", "back")]
        if False in sides:
            break
        if sides[1] and one_sided is not None:
            placeholder = PLACEHOLDER_RE.fullmatch(str(entry["back"]).strip())
            at = (where_of(binding, placeholder.group(1)) if placeholder else None) or entry.at("back")
            errors.add(f"card '{card_id}' sets its own 'back', but {one_sided} is one-sided: give the deck a "
                       f"'back' too", at)
            break
        out.append(Card(id=card_id, fields=freeze(binding), quantity=copies, where=where, variant=variant,
                        front=sides[0] or None, back=sides[1] or None, cells=_cells(binding, numeric), rows=rows))
    return out


def _source_rows(binding: dict[str, Any], names: list[str]) -> tuple[SourceRow, ...]:
    """The spreadsheet rows among a card's ``for_each`` values, with their cells and
    their sheets' columns."""
    return tuple(SourceRow(name, row.where, tuple((col, row.at(col)) for col in row), row.columns)
                 for name in names if isinstance(row := binding.get(name), TableRow))


def _card_where(id_template: str, binding: dict[str, Any], rows: tuple[SourceRow, ...]) -> Where | None:
    """Where a card made from a spreadsheet row is: the cell its id reads (the first
    placeholder of the id that is a cell), else its row; None for a card of no row,
    which stands at its entry in game.yaml."""
    if not rows:
        return None
    for placeholder in PLACEHOLDER_RE.finditer(id_template):
        where = where_of(binding, placeholder.group(1))
        if isinstance(where, CellWhere) and where.col is not None:
            return where
    return rows[0].where


def _numeric_columns(axes: list[tuple[str, list]]) -> dict[str, frozenset[str]]:
    """For each for_each name over a table, the columns that hold a number in some row."""
    return {name: frozenset(col for row in values if isinstance(row, YDict) for col, v in row.items()
                            if isinstance(v, (int, float)) and not isinstance(v, bool))
            for name, values in axes}


def _cells(binding: dict[str, Any], numeric: dict[str, frozenset[str]]) -> tuple[tuple[str, Where], ...]:
    """The cells of a card's rows that hold text in a column of numbers, as ("row.cost",
    its cell): the likely mistake when a template fails on a value of the row."""
    return tuple((f"{name}.{col}", item.at(col)) for name, cols in numeric.items()
                 if isinstance(item := binding.get(name), YDict)
                 for col in item if col in cols and isinstance(item[col], str) and isinstance(item.at(col), CellWhere))


def where_of(binding: dict[str, Any], dotted: str) -> Where | None:
    """Where the value a placeholder names was read (a cell of a spreadsheet, a line of
    a data file), or None when it is not known."""
    value: Any = binding
    where = None
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        where = value.at(part) if isinstance(value, YDict) else None
        value = value[part]
    return where


def _side(entry: YDict, key: str, binding: dict[str, Any], errors: Collector, check: TemplateCheck | None,
          checked: dict[str, bool]) -> str | None | Literal[False]:
    """A card's own ``front`` or ``back`` template (a name, or a placeholder such as
    ``"{row.front}"`` that a spreadsheet column fills); None when it sets none, False
    after an error."""
    if key not in entry:
        return None
    template = entry[key]
    where = entry.at(key)
    if not isinstance(template, str):
        errors.add(f"'{key}' of a card must be a template file name, found {describe(template)}", where)
        return False
    placeholder = PLACEHOLDER_RE.fullmatch(template.strip())
    head = placeholder.group(1).rsplit(".", 1)[0] if placeholder and "." in placeholder.group(1) else None
    try:
        name = _expand_id(template, binding)
    except KeyError as exc:
        if head is not None and isinstance(_lookup_or_none(binding, head), dict):
            return None  # the row leaves the cell empty: the deck's template
        errors.add(f"'{key}' \"{template}\" refers to unknown field {exc}", where)
        return False
    cell = where_of(binding, placeholder.group(1)) if placeholder else None
    if not name:
        return None  # an empty cell: the deck's template
    if check is not None:
        if name not in checked:
            checked[name] = check(key, name, cell or where, errors)
        if not checked[name]:
            return False
    return name


def _lookup_or_none(binding: dict[str, Any], dotted: str) -> Any:
    try:
        return _lookup(binding, dotted)
    except KeyError:
        return None
