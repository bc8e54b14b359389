"""Play a validation's games on a Dask distributed cluster (``cardgen validate --cluster
ADDRESS``) instead of worker processes on this machine.

The games are cut into the same chunks as on local workers and put back together in seed
order by the same code (:func:`.parallel.play_chunks`): only the executor differs, so the
report is the local one, seed for seed. The configurations (the rules bound to each setup
and player count, the player factories) are pickled once with cloudpickle, sent to every
worker once, and unpickled there once per worker thread; a rules file named with
``--rules`` travels inside them by value, so the workers need cardgen (the same version,
which is checked) but not the file. Modules that file imports, and rules from an installed
package, must be installed on the workers too.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base.errors import CardgenError, Where, display_path
from ..rules.guard import RulesCrash
from ..version import __version__
from .parallel import ChunkLost, Config, play_chunks
from .simulate import ConfigResult, run_config

EXTRA = "cardgen[cluster]"
CONNECT_TIMEOUT = 15.0  # seconds to reach the scheduler, and for a first worker to be there
_ADDRESS = re.compile(r"^(?:(tcp|tls)://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")
_BY_VALUE_FILE = "<dynamic-code>"  # the file cloudpickle gives the code it sends by value
_PLUGIN_PREFIX = "cardgen_rules_file_"  # the modules of rules files named with --rules (see rules.plugins)


class ClusterError(CardgenError):
    """The cluster cannot be reached or cannot play: one line naming its address."""


def available() -> bool:
    """Whether dask.distributed is installed (the optional extra ``cardgen[cluster]``)."""
    return importlib.util.find_spec("distributed") is not None


def well_formed(address: str) -> bool:
    """An address as ``dask scheduler`` prints it: tcp://HOST:PORT (or tls://, or HOST:PORT)."""
    return _ADDRESS.match(address) is not None


def connect(address: str, timeout: float | None = None) -> Session:
    """A session on the cluster whose scheduler is at ``address``, with at least one worker
    running this cardgen; :class:`ClusterError` otherwise, within about ``timeout`` seconds
    (default :data:`CONNECT_TIMEOUT`)."""
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    match = _ADDRESS.match(address)
    if match is None:
        raise ClusterError(f"'{address}' is not a Dask scheduler address such as tcp://192.168.1.5:8786")
    scheme, host, port = match.groups()
    if scheme != "tls":  # fail at once where nothing listens or nothing answers, within the timeout
        _reachable(address, host.strip("[]"), int(port), timeout)
        _answers(address if scheme else f"tcp://{address}", address, timeout)
    from distributed import Client

    try:
        client = Client(address if scheme else f"tcp://{address}", timeout=timeout, set_as_default=False)
    except (OSError, ValueError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(f"no worker joined the Dask scheduler at {address} within {timeout:g} s"
                               f" (start some with: dask worker {address} --nthreads 1)") from None
        _check_versions(client, address)
        return Session(client, address)
    except BaseException:
        client.close()
        raise


def _reachable(address: str, host: str, port: int, timeout: float) -> None:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}") from None


def _answers(url: str, address: str, timeout: float) -> None:
    """The scheduler answers a question within the timeout (Dask's own client waits for ever
    on a peer that takes the connection and says nothing)."""
    import asyncio

    async def identity() -> Any:
        from distributed.comm import connect as open_comm

        comm = await asyncio.wait_for(open_comm(url, timeout=timeout), timeout)
        try:
            await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), timeout)
            return await asyncio.wait_for(comm.read(), timeout)
        finally:
            comm.abort()

    try:
        reply = asyncio.run(identity())
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}") from None
    except Exception as exc:  # whatever a peer that is no Dask scheduler makes the protocol raise
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: it does not answer as one"
                           f" ({type(exc).__name__})") from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: what answers there is not a Dask"
                           " scheduler")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (is 'dask scheduler' running there?)"
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return "no answer (timed out)"
    text = getattr(exc, "strerror", None) or str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return str(text)


def _worker_version() -> str:
    """Run on each worker: the cardgen it has."""
    from cardgen.version import __version__ as theirs

    return theirs


def _check_versions(client: Any, address: str) -> None:
    """Every worker runs this cardgen (another version could play other games)."""
    try:
        versions = client.run(_worker_version)
    except Exception as exc:  # the workers cannot unpickle a function of cardgen's: it is not installed there
        raise ClusterError(f"the workers of the Dask cluster at {address} cannot run cardgen"
                           f" ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}):"
                           f" install cardgen {__version__} on every worker") from None
    other = sorted({v for v in versions.values() if v != __version__})
    if other:
        raise ClusterError(f"the workers of the Dask cluster at {address} run cardgen {', '.join(other)}, this is"
                           f" {__version__}: install the same version on every worker")


class Session:
    """A connection to a cluster, kept for every validation of one command (a sweep's runs)."""

    def __init__(self, client: Any, address: str) -> None:
        self.client = client
        self.address = address

    @property
    def cores(self) -> int:
        """The worker threads of the cluster now: the chunks are cut for that many."""
        return max(1, sum(self.client.nthreads().values()))

    def play(self, configs: list[Config], games: int, seed: int, check_every: int,
             progress: Callable[[str, int], None] | None = None) -> tuple[list[ConfigResult], int]:
        """Every configuration's result, as :func:`.parallel.play_all` gives it, and the worker
        threads it was cut for."""
        from distributed import KilledWorker

        cores = self.cores
        payload, files = pickled(configs)
        token = hashlib.sha256(payload).hexdigest()
        shipped = self.client.scatter(payload, broadcast=True, hash=False)
        executor = self.client.get_executor(pure=False)
        try:
            return play_chunks(lambda i, n, first: executor.submit(_play_chunk, shipped, token, i, n, first,
                                                                   check_every),
                               configs, games, seed, cores, progress), cores
        except RulesCrash as exc:  # said at the rules file's line, which pickling by value leaves unnamed
            if exc.where.path == _BY_VALUE_FILE and len(files) == 1:
                raise RulesCrash(exc.message, Where(display_path(files[0]), exc.where.line)) from None
            raise
        except KilledWorker as exc:
            raise ClusterError(f"workers of the Dask cluster at {self.address} died playing the games"
                               f" ({exc}); run again, or without --cluster") from None
        except ChunkLost:
            raise ClusterError(f"the Dask cluster at {self.address} stopped playing the games (its scheduler or"
                               " workers went away)") from None
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"lost the Dask scheduler at {self.address}: {_reason(exc)}") from None
        finally:
            executor.shutdown(wait=False)  # whatever is left (a crash, Ctrl-C) is cancelled
            shipped.release()

    def close(self) -> None:
        try:
            self.client.close(timeout=5)
        except Exception:  # a scheduler already gone: nothing left to close
            pass


def pickled(configs: list[Config]) -> tuple[bytes, list[Path]]:
    """The configurations for the workers, a --rules file's module inside by value (the
    workers cannot import it by name), and the files of the modules sent so."""
    import cloudpickle

    modules = [m for name, m in list(sys.modules.items()) if name.startswith(_PLUGIN_PREFIX)]
    for module in modules:
        cloudpickle.register_pickle_by_value(module)
    # the file of the rules these games play (other rules files may have been loaded in this
    # process before): the module of their game, of its kit, or of their players
    used = {type(c.gamedef).__module__ for c in configs} | {type(getattr(c.gamedef, "kit", None)).__module__
                                                              for c in configs}
    used |= {getattr(c.make_agent, "__module__", "") for c in configs}
    playing = [m for m in modules if m.__name__ in used] or modules
    files = [Path(f) for m in playing if (f := getattr(m, "__file__", None))]
    try:
        return cloudpickle.dumps(configs), files
    except Exception as exc:
        raise ClusterError(f"the rules cannot be sent to the cluster's workers: {type(exc).__name__}: {exc}") from None
    finally:
        for module in modules:
            cloudpickle.unregister_pickle_by_value(module)


_UNPACKED: dict[tuple[str, int], list[Config]] = {}  # on a worker: the configurations, per validation and thread
_LOCK = threading.Lock()


def _play_chunk(payload: bytes, token: str, index: int, games: int, seed: int, check_every: int) -> ConfigResult:
    """On a worker: one chunk of one configuration's games. Each worker thread has its own
    copy of the configurations, so no two threads share a rules object's caches."""
    import pickle

    key = (token, threading.get_ident())
    configs = _UNPACKED.get(key)
    if configs is None:
        configs = pickle.loads(payload)
        with _LOCK:
            for old in [k for k in _UNPACKED if k[0] != token]:  # an earlier validation's: no longer played
                del _UNPACKED[old]
            _UNPACKED[key] = configs
    c = configs[index]
    return run_config(c.gamedef, c.make_agent, c.kind, c.must_finish, games, seed, check_every)
