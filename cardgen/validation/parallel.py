"""Play a validation's configurations on several cores, with the same report as on one.

Every game is seeded on its own (game ``i`` of a configuration uses ``seed + i``), so
a configuration's games can be cut into chunks, played in worker processes and put
back together in seed order: the figures, failures and per-game samples are those
of the one-core run; only the timings differ. On Linux and the BSDs workers are
forked, so they share the loaded game, its rules (a designer's own rules module
included) and the game definitions without reloading or pickling them. Where the
platform cannot fork safely (macOS, Windows) they are spawned: each new interpreter
imports cardgen and is handed the game definitions pickled, once; game definitions
that cannot be pickled are played in this process.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..base.errors import CardgenError
from ..base.workers import init_worker, signals_held, stop
from ..rules.guard import RulesCrash
from . import cardstats, chance
from .simulate import KEEP_FAILURES, ConfigResult, run_config

CHUNK_GAMES = 50  # games a worker plays per task at most: small enough to balance the workers
MIN_CHUNK_GAMES = 5  # … and at least, where there are that many: large enough to be worth a task


@dataclass
class Config:
    """One setup × player count × player kind to play."""

    label: str
    gamedef: Any
    make_agent: Callable
    kind: str
    must_finish: bool


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the platform says)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Fork where it is safe for a process that has loaded C libraries: Linux and the BSDs.
    macOS offers fork but its system frameworks may crash in a forked child, and
    Windows has none: there the games are played in this process."""
    return sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")) \
        and "fork" in multiprocessing.get_all_start_methods()


def start_method() -> str | None:
    """How workers start here: "fork" where it is safe, else "spawn" (macOS, Windows);
    None where the platform offers neither (the games are then played in this process)."""
    if can_fork():
        return "fork"
    return "spawn" if "spawn" in multiprocessing.get_all_start_methods() else None


def worker_count(jobs: int, games: int, configs: int) -> int:
    """Processes to use: ``jobs`` (0 = one per usable core), never more than there are
    chunks of games, and 1 where no worker can start."""
    wanted = jobs or usable_cores()
    if configs < 1 or games < 1:
        return 1
    chunks = configs * -(-games // chunk_size(games, configs, wanted))
    return max(1, min(wanted, chunks)) if start_method() else 1


def chunk_size(games: int, configs: int, jobs: int) -> int:
    """Games per task: at most CHUNK_GAMES, and small enough that there are about four
    tasks per worker, so that a slow configuration (greedy players, more seats) does
    not leave the other workers idle at the end."""
    per_config = max(1, -(-4 * jobs // configs))  # chunks wanted per configuration
    return max(min(MIN_CHUNK_GAMES, games), min(CHUNK_GAMES, -(-games // per_config)))


_CONFIGS: list[Config] = []  # set before the workers fork (or unpickled in a spawned one); read, never written


def _start_spawned(payload: bytes, parent: int) -> None:
    """A spawned worker's start: the configurations, pickled by the parent once."""
    global _CONFIGS
    init_worker(parent)
    _CONFIGS = pickle.loads(payload)


def _pickled(configs: list[Config]) -> bytes | None:
    """The configurations for spawned workers; None if something in them cannot be pickled
    (e.g. a rules module made on the fly, not importable by name)."""
    try:
        return pickle.dumps(configs, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, AttributeError, TypeError):
        return None


def workers_can_play(configs: list[Config]) -> bool:
    """Whether worker processes can be handed these configurations: always when forked,
    when they can be pickled when spawned."""
    method = start_method()
    return method == "fork" or (method is not None and _pickled(configs) is not None)


def _play_chunk(index: int, games: int, seed: int, check_every: int) -> ConfigResult:
    c = _CONFIGS[index]
    return run_config(c.gamedef, c.make_agent, c.kind, c.must_finish, games, seed, check_every)


def merge(parts: list[ConfigResult]) -> ConfigResult:
    """One configuration's result from its chunks, given in seed order."""
    first = parts[0]
    out = ConfigResult(first.setup, first.players, first.agents, first.must_finish)
    out.wins = [0] * len(first.wins)
    for part in parts:
        out.games += part.games
        out.completed += part.completed
        out.lengths += part.lengths
        out.wins = [a + b for a, b in zip(out.wins, part.wins)]
        out.draws += part.draws
        out.nonterminating += part.nonterminating
        out.failures += part.failures
        out.failure_count += part.failure_count
        out.elapsed += part.elapsed
        for name, values in part.samples.items():
            out.samples.setdefault(name, []).extend(values)
        chance.merge(out.chance, part.chance)
        cardstats.merge(out.cards, part.cards)
    out.failures = out.failures[:KEEP_FAILURES]
    return out


Task = tuple[int, int, int]  # (configuration, first game, games): one chunk's games
Submit = Callable[[int, int, int], Future]  # (configuration, games, first seed) → the chunk's ConfigResult, to come


class ChunkLost(CardgenError):
    """A chunk's future was cancelled by the executor (not after a rules crash): its games
    were never played (e.g. a cluster that lost its workers or its scheduler)."""


def chunk_tasks(games: int, configs: int, jobs: int) -> tuple[list[int], list[Task]]:
    """How a validation's games are cut for ``jobs`` workers: the first game of each chunk,
    and every chunk of every configuration (configuration, first game, games)."""
    size = chunk_size(games, configs, jobs)
    starts = list(range(0, games, size))
    return starts, [(i, start, min(size, games - start)) for i in range(configs) for start in starts]


def play_chunks(submit: Submit, configs: list[Config], games: int, seed: int, jobs: int,
                progress: Callable[[str, int], None] | None = None) -> list[ConfigResult]:
    """Every configuration's result from its chunks, played by whatever executor ``submit``
    hands them to (worker processes here, a cluster's workers), merged in seed order, so
    that the report is the one-process report whoever played them. A rules crash stops
    the run with the earliest chunk's crash, however the workers ran."""
    starts, tasks = chunk_tasks(games, len(configs), jobs)
    with signals_held():  # Ctrl-C waits until every local worker has its own handlers
        futures = {submit(i, n, seed + start): (i, start, n) for i, start, n in tasks}
    parts: dict[tuple[int, int], ConfigResult] = {}
    crashes: dict[tuple[int, int], RulesCrash] = {}
    pending = set(futures)
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in finished:
            i, start, n = futures[future]
            if future.cancelled():
                if not crashes:
                    raise ChunkLost(f"the games of {configs[i].label} from seed {seed + start} were cancelled"
                                    " before they were played")
                continue
            try:
                parts[(i, start)] = future.result()
            except RulesCrash as exc:  # the earliest chunk's crash is said, however the workers ran
                crashes[(i, start)] = exc
                first = min(crashes)
                for later, (j, later_start, _) in futures.items():
                    if (j, later_start) > first:
                        later.cancel()
                # only an earlier chunk can still change what is said: the later ones are not
                # waited for (a cluster's executor may never settle a future it was asked to cancel)
                pending = {f for f in pending if futures[f][:2] < first}
                continue
            if progress is not None:
                progress(configs[i].label, n)
    if crashes:
        raise crashes[min(crashes)]
    return [merge([parts[(i, start)] for start in starts]) for i in range(len(configs))]


def play_all(configs: list[Config], games: int, seed: int, check_every: int, jobs: int,
             progress: Callable[[str, int], None] | None = None, method: str | None = None) -> list[ConfigResult]:
    """Every configuration's result, in the order given, played by ``jobs`` processes
    started by ``method`` (default: :func:`start_method`).

    ``progress(label, games)`` is called as chunks finish (in whatever order they do)."""
    with workers(configs, jobs, method) as play:
        return play(list(range(len(configs))), games, seed, check_every, progress)


Batch = Callable[..., list[ConfigResult]]  # (indices, games, first seed, check_every, progress) → their results


@contextmanager
def workers(configs: list[Config], jobs: int, method: str | None = None) -> Iterator[Batch]:
    """One pool of ``jobs`` worker processes for several batches of games (the adaptive
    pass's rounds: the workers start once, not once a round, and keep what they have
    loaded). Yields ``play(indices, games, seed, check_every, progress=None)``: the
    results of the configurations ``configs[i]`` listed, each playing ``games`` games
    from ``seed``, in that order, as :func:`play_all` gives them. Where no worker can be
    handed the configurations they are played in this process."""
    global _CONFIGS
    method = method or start_method()
    if method == "fork":
        how: dict[str, Any] = {"initializer": init_worker, "initargs": (os.getpid(),)}
    else:
        payload = _pickled(configs) if method else None
        if payload is None:
            def here(indices: list[int], games: int, seed: int, check_every: int,
                     progress: Callable[[str, int], None] | None = None) -> list[ConfigResult]:
                return play_here([configs[i] for i in indices], games, seed, check_every, progress)

            yield here
            return
        how = {"initializer": _start_spawned, "initargs": (payload, os.getpid())}
    _CONFIGS = configs
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(method), **how) as pool:
            def play(indices: list[int], games: int, seed: int, check_every: int,
                     progress: Callable[[str, int], None] | None = None) -> list[ConfigResult]:
                chosen = [configs[i] for i in indices]
                try:
                    return play_chunks(lambda i, n, first: pool.submit(_play_chunk, indices[i], n, first, check_every),
                                       chosen, games, seed, jobs, progress)
                except BrokenProcessPool:  # a worker killed (out of memory, a crash in C code)
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise CardgenError("a worker process playing the games died (killed, or a crash outside Python);"
                                       " run again with --jobs 1 to play them in one process") from None
                except BaseException:  # Ctrl-C: drop the chunks not started, stop the running ones
                    stop(pool)
                    raise

            yield play
    finally:
        _CONFIGS = []


def play_here(configs: list[Config], games: int, seed: int, check_every: int,
              progress: Callable[[str, int], None] | None = None, trace: Any = None) -> list[ConfigResult]:
    """The same in this process, one configuration after the other (and traceable)."""
    results = []
    for c in configs:
        tick = None
        if progress is not None:
            progress(c.label, 0)

            def tick(k: int, label=c.label) -> None:
                progress(label, k)
        results.append(run_config(c.gamedef, c.make_agent, c.kind, c.must_finish, games, seed, check_every,
                                  tick, trace))
    return results
