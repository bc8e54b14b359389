"""A kit that is always whole (issue 15): a build killed at any step of writing the
kit leaves the old kit or the new one, never a mix; what killed builds leave is
removed by the next build; workers die with their parent; Ctrl-C prints one line;
two builds into one folder take turns; every file records the inputs it was built
from, and a partial rebuild after a change says which files it left stale.

Builds run as real processes (``tests/faulty_build.py`` stops one at a chosen step).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import DATA, edit_file

HERE = Path(__file__).resolve().parents[1]
REPO = HERE.parent
TIMEOUT = 120
STEPS_BEFORE_SWAP = ["staging ready", "files written", "locked", "carried", "manifest written"]
STEPS_AFTER_SWAP = ["swapped", "done"]
BUILD = ["--lang", "en", "--paper", "a4", "--jobs", "1"]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def cardgen(*args: object, faulty: tuple[str, ...] = (), **kw) -> subprocess.CompletedProcess:
    cmd = ([sys.executable, str(HERE / "faulty_build.py"), *faulty, "--"] if faulty
           else [sys.executable, "-m", "cardgen"])
    return subprocess.run([*cmd, *map(str, args)], capture_output=True, text=True, env=env(), timeout=TIMEOUT, **kw)


def snapshot(kit: Path) -> dict[str, str]:
    """Every file of a kit folder and its content's hash."""
    return {str(p.relative_to(kit)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(kit.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, object]:
    """The game before and after a change, and the kit each builds (the references)."""
    root = tmp_path_factory.mktemp("atomic")
    game = root / "game"
    shutil.copytree(DATA / "mini_game", game)
    ref = root / "ref"
    assert cardgen("build", game, "--out", ref / "old", *BUILD).returncode == 0
    old = snapshot(ref / "old" / "mini")
    edit_file(game / "locales" / "en.yaml", 'title: "Card {n}"', 'title: "Karte {n}"')
    assert cardgen("build", game, "--out", ref / "new", *BUILD).returncode == 0
    new = snapshot(ref / "new" / "mini")
    assert old != new and old.keys() == new.keys()
    return {"game": game, "old_kit": ref / "old" / "mini", "old": old, "new": new}


def old_kit_in(tmp_path: Path, kits) -> Path:
    out = tmp_path / "out"
    shutil.copytree(kits["old_kit"], out / "mini")
    return out


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name != "mini")


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "SIGINT"])
@pytest.mark.parametrize("step", STEPS_BEFORE_SWAP + STEPS_AFTER_SWAP)
def test_a_build_stopped_at_any_step_leaves_a_whole_kit(tmp_path, kits, step, how):
    out = old_kit_in(tmp_path, kits)
    stopped = cardgen("build", kits["game"], "--out", out, *BUILD, faulty=(step, how))
    kit = snapshot(out / "mini")
    assert kit == (kits["old"] if step in STEPS_BEFORE_SWAP else kits["new"]), step
    if how == "SIGKILL":
        assert stopped.returncode == -signal.SIGKILL
    else:
        number = getattr(signal, how)
        assert stopped.returncode == 128 + number, stopped.stderr
        errors = [line for line in stopped.stderr.splitlines() if line.startswith("error:")]
        what = "is as it was" if step in STEPS_BEFORE_SWAP else "holds the new kit, whole"
        name = "Ctrl-C" if how == "SIGINT" else how
        assert errors == [f"error: stopped by {name}; {out / 'mini'}/ {what}"], stopped.stderr
        assert "Traceback" not in stopped.stderr
        assert leftovers(out) == []  # a handled stop cleans up after itself
    again = cardgen("build", kits["game"], "--out", out, *BUILD)  # the next build tidies and finishes
    assert again.returncode == 0, again.stderr
    assert snapshot(out / "mini") == kits["new"]
    assert leftovers(out) == []


@pytest.mark.parametrize("step", ["old kit aside", "swapped"])
@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_the_two_rename_fallback_is_recovered(tmp_path, kits, step, how):
    """Where folders cannot be exchanged in one step, a kill between the two renames
    leaves the old kit aside, and the next build puts it back before reading it; a
    handled stop puts it back at once."""
    out = old_kit_in(tmp_path, kits)
    stopped = cardgen("build", kits["game"], "--out", out, *BUILD, faulty=(step, how, "--no-exchange"))
    if how == "SIGTERM":
        assert stopped.returncode == 128 + signal.SIGTERM, stopped.stderr
        assert snapshot(out / "mini") == (kits["old"] if step == "old kit aside" else kits["new"])
        assert leftovers(out) == []
    elif step == "old kit aside":
        assert not (out / "mini").exists()
        assert snapshot(out / ".mini-previous-kit") == kits["old"]
    else:
        assert snapshot(out / "mini") == kits["new"]
    again = cardgen("build", kits["game"], "--out", out, *BUILD, faulty=("no step", "SIGKILL", "--no-exchange"))
    assert again.returncode == 0, again.stderr
    assert snapshot(out / "mini") == kits["new"]
    assert leftovers(out) == []


def test_a_running_builds_staging_folder_is_not_taken_for_a_leftover(tmp_path, kits):
    """Two builds at once: the second waits for the first's commit and keeps its files."""
    out = tmp_path / "out"
    release = tmp_path / "release"
    first = subprocess.Popen([sys.executable, str(HERE / "faulty_build.py"), "locked", f"wait:{release}", "--",
                              "build", str(kits["game"]), "--out", str(out), *BUILD],
                             stderr=subprocess.PIPE, text=True, env=env())
    second = None
    try:
        assert first.stderr is not None
        for line in first.stderr:  # the first holds the kit's lock
            if line.startswith("paused at locked"):
                break
        second = subprocess.Popen([sys.executable, "-m", "cardgen", "build", str(kits["game"]), "--out", str(out),
                                   "--lang", "fr", "--paper", "a4", "--jobs", "1"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env())
        assert second.stderr is not None
        waited = ""
        for line in second.stderr:
            if "waiting for another cardgen" in line:
                waited = line.strip()
                break
        release.touch()
        assert first.wait(TIMEOUT) == 0
        assert second.wait(TIMEOUT) == 0
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
    assert waited == f"waiting for another cardgen writing {out / 'mini'}…"
    names = set(snapshot(out / "mini"))
    assert {"mini-en-a4-cards.pdf", "mini-fr-a4-cards.pdf", "manifest.json"} <= names
    checked = cardgen("validate", kits["game"], "--kit", out / "mini", "--lang", "en", "--lang", "fr",
                      "--games", "5")
    assert checked.returncode == 0 and "✓ every file built from the game folder as it is now" in checked.stdout, \
        checked.stdout
    assert leftovers(out) == []


def _finish(process: subprocess.Popen) -> str:
    """The stderr of a process told to stop; if it does not, it and its group are killed."""
    try:
        return process.communicate(timeout=TIMEOUT)[1]
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise


def _processes_mentioning(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace") and \
                        (entry / "stat").read_text().split(") ")[-1][0] != "Z":
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; the kernel's parent-death signal")
def test_workers_die_with_a_killed_build(tmp_path):
    """kill -9 of cardgen while its workers render: the workers go too, and the next
    build removes the staging folder they were writing into."""
    out = tmp_path / "out-workers"
    marker = str(out)
    build = subprocess.Popen([sys.executable, "-m", "cardgen", "build", "hapy", "--out", marker, "--paper", "a4",
                              "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    deadline = time.monotonic() + TIMEOUT
    while len(_processes_mentioning(marker)) < 3:  # cardgen and its two workers
        assert build.poll() is None, "the build ended before its workers were seen"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    build.kill()
    build.wait()
    while _processes_mentioning(marker):
        assert time.monotonic() < deadline, "workers outlived the build"
        time.sleep(0.05)
    assert [p.name for p in out.iterdir() if p.name.startswith(".hapy-building-")]
    assert not (out / "hapy").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_with_workers_is_one_line(tmp_path):
    out = tmp_path / "out-ctrl-c"
    marker = str(out)
    build = subprocess.Popen([sys.executable, "-m", "cardgen", "build", "hapy", "--out", marker, "--paper", "a4",
                              "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(),
                             start_new_session=True)
    deadline = time.monotonic() + TIMEOUT
    while len(_processes_mentioning(marker)) < 3:
        assert build.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    os.killpg(build.pid, signal.SIGINT)  # what the terminal does: every process of the group
    err = _finish(build)
    assert build.returncode == 128 + signal.SIGINT, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert [line for line in err.splitlines() if line.startswith("error:")] == [
        f"error: stopped by Ctrl-C; {out / 'hapy'}/ is as it was"]
    assert list(out.iterdir()) == []
    while _processes_mentioning(marker):
        assert time.monotonic() < deadline, "workers outlived the build"
        time.sleep(0.05)


def test_a_partial_rebuild_names_the_stale_files_and_validate_refuses_them(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(DATA / "mini_game", game)
    out = tmp_path / "out"
    assert cardgen("build", game, "--out", out, "--jobs", "1").returncode == 0
    whole = cardgen("validate", game, "--kit", out / "mini", "--games", "5")
    assert whole.returncode == 0, whole.stdout
    assert "every file built from the game folder as it is now" in whole.stdout
    edit_file(game / "locales" / "en.yaml", 'title: "Card {n}"', 'title: "Karte {n}"')
    partial = cardgen("build", game, "--out", out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    assert partial.returncode == 0, partial.stderr
    stale = ["mini-en-letter-cards.pdf", "mini-fr-a4-cards.pdf", "mini-fr-letter-cards.pdf", "mini-fr-printshop-63x88mm.pdf"]
    assert (f"note: 4 file(s) of the kit were built from other inputs (an older design, another cardgen) and were "
            f"kept as they were: {', '.join(stale)}; build without --lang and --paper to rebuild every file"
            in partial.stderr), partial.stderr
    mixed = cardgen("validate", game, "--kit", out / "mini", "--games", "5")
    assert mixed.returncode == 1
    assert (f"4 file(s) were built from other inputs than the rest of the kit (a partial rebuild after a change): "
            f"{', '.join(stale[:4])}; rebuild without --lang and --paper") in mixed.stdout, mixed.stdout
    assert cardgen("build", game, "--out", out, "--jobs", "1").returncode == 0
    assert cardgen("validate", game, "--kit", out / "mini", "--games", "5").returncode == 0


def test_validate_finds_a_kit_older_than_the_game(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(DATA / "mini_game", game)
    out = tmp_path / "out"
    assert cardgen("build", game, "--out", out, "--jobs", "1").returncode == 0
    assert cardgen("validate", game, "--kit", out / "mini", "--games", "5").returncode == 0
    (game / "templates" / "front.yaml.j2").write_text(
        (game / "templates" / "front.yaml.j2").read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    stale = cardgen("validate", game, "--kit", out / "mini", "--games", "5")
    assert stale.returncode == 1
    assert "6 file(s) were built from other inputs than the game folder holds now" in stale.stdout, stale.stdout


def test_hidden_files_and_the_output_folder_do_not_change_the_fingerprint(tmp_path):
    from cardgen import load_game
    from cardgen.load.inputs import inputs_digest

    game_dir = tmp_path / "game"
    shutil.copytree(DATA / "mini_game", game_dir)
    game = load_game(game_dir)
    before = inputs_digest(game, exclude=[game_dir / "output"])
    (game_dir / ".git").mkdir()
    (game_dir / ".git" / "HEAD").write_text("ref\n", encoding="utf-8")
    (game_dir / "output").mkdir()
    (game_dir / "output" / "x.pdf").write_bytes(b"%PDF")
    (game_dir / "notes.swp~").write_text("x", encoding="utf-8")
    assert inputs_digest(game, exclude=[game_dir / "output"]) == before
    os.mkfifo(game_dir / "a-pipe")  # read, it would stall the build
    (game_dir / "assets").mkdir()
    (game_dir / "assets" / "new.txt").write_text("x", encoding="utf-8")
    assert inputs_digest(game, exclude=[game_dir / "output"]) != before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_during_validate_is_one_line(tmp_path):
    """Every command stops the same way: the validator's workers too."""
    marker = str(tmp_path / "never-written.json")
    run = subprocess.Popen([sys.executable, "-m", "cardgen", "validate", "horus", "--games", "100000", "--jobs", "2",
                            "--json", marker], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(),
                           start_new_session=True)
    deadline = time.monotonic() + TIMEOUT
    while len(_processes_mentioning(marker)) < 3:
        assert run.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.5)
    os.killpg(run.pid, signal.SIGINT)
    err = _finish(run)
    assert run.returncode == 128 + signal.SIGINT, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert [line for line in err.splitlines() if line.startswith("error:")] == ["error: stopped by Ctrl-C"]
    assert not Path(marker).exists()
    while _processes_mentioning(marker):
        assert time.monotonic() < deadline, "workers outlived the validator"
        time.sleep(0.05)
