"""Linked flows: one text poured through several boxes, on one page or across pages.

A ``flow`` op with a ``name`` holds the text; a later ``flow`` with ``continues: name``
is a further box for it, in drawing order (page by page). The blocks fill the boxes in
turn at one size, the largest from ``size`` down to ``min_size`` at which they all fit,
so a long text takes the next box, and the next page, instead of shrinking. A block is
never split between boxes, nor a heading parted from the block after it, and numbered
steps count on across boxes.

A page that holds a continuing box the text did not reach is left out: a sheet template
can offer a second page that only a long text (a language, a paper) uses.

Resolved here, before the checks: every box becomes a plain ``flow`` op with its share
of the blocks at the chosen size, so the checker, the painter and the exports see
ordinary flows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..base.errors import Collector
from .flow import HEADINGS, NUMBER_FROM, STEP_PT, FlowResult
from .ops import Op

Measure = Callable[[Op], FlowResult]  # a plain flow op -> its layout (the text engine's, memoised)
Page = tuple[Op, ...]
Path = tuple[int, ...]  # an op's place: its page, then its index in each group down to it


@dataclass
class _Chain:
    head: Op
    head_at: Path
    more: list[tuple[Path, Op]] = field(default_factory=list)


def _walk(ops: tuple[Op, ...], at: Path):
    for i, op in enumerate(ops):
        if op.kind == "group":
            yield from _walk(op.children, (*at, i))
        elif op.kind == "flow" and ("name" in op.args or "continues" in op.args):
            yield (*at, i), op


def _chains(pages: list[Page], label: str, errors: Collector) -> dict[str, _Chain]:
    chains: dict[str, _Chain] = {}
    for n, page in enumerate(pages):
        for at, op in _walk(page, (n,)):
            where = f"{label}{f' page {n + 1}' if len(pages) > 1 else ''}"
            if "continues" in op.args:
                name = op.args["continues"]
                chain = chains.get(name)
                if chain is None:
                    errors.add(f"{where}: flow continues '{name}', but no flow named '{name}' comes before it")
                else:
                    chain.more.append((at, op))
            else:
                name = op.args["name"]
                if name in chains:
                    errors.add(f"{where}: two flows are named '{name}'; each text needs a name of its own")
                else:
                    chains[name] = _Chain(op, at)
    return chains


def _steps_before(blocks: list[tuple[str, str]]) -> int:
    """Numbered steps since the last heading: where a box that follows ``blocks`` counts on from."""
    count = 0
    for kind, _ in blocks:
        count = 0 if kind in HEADINGS else count + (kind == "num")
    return count


def _box(head: Op, frame: Op | None, blocks, size: float, first_number: int) -> Op:
    """The plain flow op of one box: the head's text settings, the frame's own box and columns."""
    args = {k: v for k, v in head.args.items() if k != "name"}
    if frame is not None:
        for key in ("columns", "gap"):
            args.pop(key, None)
        args.update({k: v for k, v in frame.args.items() if k != "continues"})
    args.update(blocks=list(blocks), size=size, min_size=size)
    if first_number:
        args[NUMBER_FROM] = first_number
    return Op("flow", args)


def _split(chain: _Chain, size: float, measure: Measure, force: bool = False) -> list[list] | None:
    """The blocks of each box at ``size``, each box taking all it can; None when they do
    not all fit (with ``force``, the last box takes whatever is left)."""
    blocks = list(chain.head.args.get("blocks") or [])
    frames: list[Op | None] = [None, *(op for _, op in chain.more)]
    parts: list[list] = []
    start = 0
    for i, frame in enumerate(frames):
        rest = blocks[start:]
        first = _steps_before(blocks[:start])

        def fits(k: int, frame=frame, rest=rest, first=first) -> bool:
            return measure(_box(chain.head, frame, rest[:k], size, first)).fits

        if not rest or fits(len(rest)):
            parts.append(rest)
            start = len(blocks)
            continue
        if i == len(frames) - 1:
            if not force:
                return None
            parts.append(rest)
            break
        lo, hi = 0, len(rest)  # fits(lo), not fits(hi): the longest start of the rest that fits
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if fits(mid):
                lo = mid
            else:
                hi = mid
        while lo > 0 and rest[lo - 1][0] in (*HEADINGS, "space"):  # a heading goes with its text
            lo -= 1
        parts.append(rest[:lo])
        start += lo
    return parts


def _resolve(chain: _Chain, measure: Measure) -> tuple[float, list[list]]:
    """The largest size on the 0.25 pt grid, from ``size`` to ``min_size``, at which the blocks
    fit the boxes, and each box's share; too long even at ``min_size``, the last box takes
    what is left (and the check reports it)."""
    a = chain.head.args
    size = a.get("size") or 9.0
    low = min(a.get("min_size") or size, size)
    split = _split(chain, size, measure)
    if split is not None:
        return size, split
    at_low = _split(chain, low, measure)
    if at_low is None:
        return low, _split(chain, low, measure, force=True) or []
    best = (low, at_low)
    lo, hi = 0, int(round((size - low) / STEP_PT))  # index 0 = size (does not fit), hi = min_size (fits)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        parts = _split(chain, size - mid * STEP_PT, measure)
        if parts is not None:
            hi, best = mid, (size - mid * STEP_PT, parts)
        else:
            lo = mid
    return best


_GONE = Op("flow", {})  # marks a box the text did not reach, taken out once every chain is resolved


def _rebuild(ops: tuple[Op, ...], at: Path, new: dict[Path, Op]) -> tuple[Op, ...]:
    out: list[Op] = []
    for i, op in enumerate(ops):
        here = (*at, i)
        if op.kind == "group":
            op = Op(op.kind, op.args, _rebuild(op.children, here, new))
        op = new.get(here, op)
        if op is not _GONE:
            out.append(op)
    return tuple(out)


def link_flows(pages: list[Page], measure: Measure, label: str, errors: Collector) -> list[Page]:
    """The pages with every linked flow resolved into plain flows, and the pages whose
    continuing boxes the text did not reach left out."""
    if not any(True for page in pages for _ in _walk(page, ())):
        return pages
    found = Collector()
    chains = _chains(pages, label, found)
    new: dict[Path, Op] = {}
    if found.errors:  # nothing half-linked is measured or drawn: the mistake is reported
        errors.errors.extend(found.errors)
        new = {at: _GONE for n, page in enumerate(pages) for at, _ in _walk(page, (n,))}
        return [_rebuild(page, (n,), new) for n, page in enumerate(pages)]
    unreached: set[int] = set()
    reached: set[int] = set()
    for chain in chains.values():
        size, parts = _resolve(chain, measure)
        frames: list[tuple[Path, Op | None]] = [(chain.head_at, None), *chain.more]
        before: list = []
        for (at, frame), part in zip(frames, parts):
            if frame is not None:
                (reached if part else unreached).add(at[0])
            keep = part or frame is None
            new[at] = _box(chain.head, frame, part, size, _steps_before(before)) if keep else _GONE
            before += part
    out = [_rebuild(page, (n,), new) for n, page in enumerate(pages)]
    drop = unreached - reached
    return [page for n, page in enumerate(out) if n not in drop] or out[:1]


