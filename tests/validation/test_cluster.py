"""``cardgen validate --cluster ADDRESS``: the games played on a Dask distributed cluster give
the report of a local run, seed for seed (timings aside).

A real scheduler and two workers are started as processes of their own on 127.0.0.1 (no
other network), once for the module."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardgen.rules
from cardgen.validation import cluster
from cardgen.validation.report import without_timings

pytestmark = pytest.mark.slow  # a cluster of three processes started, and a few hundred games played twice

ROOT = Path(__file__).resolve().parents[2]
FIRST_GAME = "docs/examples/first-game"
NIGHT_SKY = ROOT / "docs" / "examples" / "rules" / "night_sky.py"
START_WAIT = 120  # seconds a process of the cluster may take to start on a loaded machine (a bound, not a check)


def _scheduler_address(log: Path, process: subprocess.Popen) -> str:
    """The address the scheduler prints once it listens."""
    for _ in range(START_WAIT * 10):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            if "Scheduler at:" in line:
                return line.split("Scheduler at:")[1].strip()
        if process.poll() is not None:
            break
        time.sleep(0.1)
    raise RuntimeError(f"the Dask scheduler did not start:\n{log.read_text(encoding='utf-8', errors='replace')}")


@pytest.fixture(scope="module")
def address(tmp_path_factory):
    """A scheduler and two one-thread workers on 127.0.0.1, as a user starts them."""
    from distributed import Client

    folder = tmp_path_factory.mktemp("dask")  # where they keep their scratch files
    log = folder / "scheduler.log"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard"], cwd=folder, stdout=subprocess.DEVNULL,
                              stderr=log.open("w"))]
    try:
        addr = _scheduler_address(log, procs[0])
        for k in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads",
                                           "1", "--host", "127.0.0.1", "--no-dashboard"], cwd=folder,
                                          stdout=subprocess.DEVNULL, stderr=(folder / f"worker{k}.log").open("w")))
        with Client(addr, timeout=START_WAIT, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=START_WAIT)
        yield addr
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Rules files imported by a test leave the registry and sys.modules as they were."""
    cardgen.rules.rules_for("hapy")  # registered once for all (its module is imported once)
    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    monkeypatch.chdir(ROOT)
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("cardgen_rules_file_"):
            del sys.modules[name]


def report_of(cli, *args: str, code: int = 0) -> dict:
    r = cli("validate", *args, "--json", "-")
    assert r.exit_code == code, r.output
    return json.loads(r.stdout)


def test_the_cluster_plays_the_local_report_seed_for_seed(cli, address):
    args = ("hapy", "--games", "20", "--players", "2,3")
    remote = report_of(cli, *args, "--cluster", address)
    local = report_of(cli, *args, "--jobs", "1")
    assert remote["simulation"]["jobs"] == 2  # the cluster's two worker threads
    assert remote["simulation"]["games"] == 6 * 2 * 2 * 20
    assert without_timings(remote) == without_timings(local)


def test_a_rules_file_travels_to_the_workers(cli, address):
    args = (FIRST_GAME, "--rules", str(NIGHT_SKY), "--games", "30")
    remote = report_of(cli, *args, "--cluster", address)
    local = report_of(cli, *args, "--jobs", "1")
    assert remote["rules"].startswith("cardgen_rules_file_") and remote["simulation"]["games"] > 0
    assert without_timings(remote) == without_timings(local)


def test_a_sweep_on_the_cluster_is_the_local_sweep(cli, address):
    args = ("hapy", "--games", "10", "--setup", "pyramid", "--agents", "greedy",
            "--sweep", "request_ban=previous_player,last_other_request", "--sweep", "players=2,3")
    remote = report_of(cli, *args, "--cluster", address)
    local = report_of(cli, *args, "--jobs", "1")
    assert len(remote["sweep"]["runs"]) == 4
    assert without_timings(remote) == without_timings(local)


def test_rules_that_crash_on_a_worker_stop_with_one_line(cli, address, tmp_path, monkeypatch):
    """Named at the rules file's line, also when other rules files were loaded before in
    the same process (as a script validating several games does)."""
    from cardgen.rules.plugins import load_rules_file

    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    load_rules_file(ROOT / "docs" / "examples" / "rules" / "star_freight.py", "star-freight")
    text = NIGHT_SKY.read_text(encoding="utf-8")
    code = "    def new_initial_state(self) -> NightSkyState:\n"
    assert text.count(code) == 1
    path = tmp_path / "my_rules.py"
    path.write_text(text.replace(code, code + "        raise ValueError('the moon is missing')\n"),
                    encoding="utf-8")
    line = next(k for k, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "moon is" in ln)
    r = cli("validate", FIRST_GAME, "--rules", str(path), "--games", "10", "--cluster", address)
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1, r.stderr
    assert errors[0].startswith(f"error: {path.resolve()}:{line}: the rules crashed in new_initial_state()")
    assert "ValueError: the moon is missing" in errors[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_scheduler_at_the_address_is_one_line(cli):
    addr = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there now
    r = cli("validate", "hapy", "--games", "2", "--cluster", addr)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.stderr.splitlines() == [f"error: cannot reach the Dask scheduler at {addr}: connection refused"
                                     " (is 'dask scheduler' running there?)"]
    assert r.stdout == ""


def test_a_scheduler_that_never_answers_is_given_up_after_the_timeout(cli, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    with socket.socket() as silent:  # takes the connection, never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        addr = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        r = cli("validate", "hapy", "--games", "2", "--cluster", addr)
    assert r.exit_code == 1 and "Traceback" not in r.output
    errors = r.stderr.splitlines()
    assert len(errors) == 1 and errors[0].startswith(f"error: cannot reach the Dask scheduler at {addr}: ")
    assert "timed out" in errors[0].lower()


def test_a_malformed_address_is_a_usage_error(cli):
    r = cli("validate", "hapy", "--cluster", "http://127.0.0.1/scheduler")
    assert r.exit_code == 2
    assert "http://127.0.0.1/scheduler" in r.stderr and "tcp://" in r.stderr


def test_without_dask_distributed_the_option_says_what_to_install(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    r = cli("validate", "hapy", "--games", "2", "--cluster", "tcp://127.0.0.1:8786")
    assert r.exit_code == 2 and "Traceback" not in r.output
    error = [ln for ln in r.stderr.splitlines() if ln.startswith("Error:")]
    assert error == ["Error: --cluster needs dask.distributed: pip install 'cardgen[cluster]'"]
