"""Bad option values are usage errors (exit 2) in every command, as a bad --paper is."""

import pytest


@pytest.mark.parametrize("args, option", [
    (("build", "hapy", "--lang", "xx"), "--lang"),
    (("build", "hapy", "--back-offset", "garbage"), "--back-offset"),
    (("build", "hapy", "--variant", "unknown"), "--variant"),
    (("export", "hapy", "--png", "--lang", "xx"), "--lang"),
    (("export", "hapy", "--png", "--variant", "unknown"), "--variant"),
    (("preview", "hapy", "--lang", "xx"), "--lang"),
    (("preview", "hapy", "--variant", "unknown"), "--variant"),
    (("validate", "hapy", "--lang", "xx"), "--lang"),
    (("validate", "hapy", "--variant", "unknown"), "--variant"),
    (("build", "hapy", "--paper", "bogus"), "--paper"),
    (("build", "hapy", "--jobs", "999"), "--jobs"),
    (("build", "hapy", "--duplex", "sideways"), "--duplex"),
    (("build", "hapy", "--watch", "--lang", "xx"), "--lang"),
    (("export", "hapy", "--png", "--dpi", "30"), "--dpi"),
    (("export", "hapy", "--png", "--dpi", "5000"), "--dpi"),
    (("export", "hapy", "--png", "--dpi", "many"), "--dpi"),
    (("validate", "hapy", "--games", "0"), "--games"),
    (("validate", "hapy", "--games", "1000000000"), "--games"),
    (("validate", "hapy", "--players", "9"), "--players"),
    (("validate", "hapy", "--players", "two"), "--players"),
    (("validate", "hapy", "--setup", "nosuch"), "--setup"),
    (("validate", "hapy", "--agents", "nosuch"), "--agents"),
    (("validate", "hapy", "--check-every", "0"), "--check-every"),
    (("validate", "hapy", "--jobs", "999"), "--jobs"),
    (("calibrate", "--paper", "bogus"), "--paper"),
    (("calibrate", "--lang", "xx"), "--lang"),
    (("calibrate", "--duplex", "sideways"), "--duplex"),
])
def test_a_bad_option_value_exits_2_naming_the_option(cli, tmp_path, args, option):
    out = {"build": tmp_path, "export": tmp_path, "calibrate": tmp_path / "sheet.pdf"}.get(args[0])
    r = cli(*args, "--out", out) if out is not None else cli(*args)
    assert r.exit_code == 2, r.output + r.stderr
    assert f"Error: Invalid value for '{option}': " in r.stderr
    assert not any(tmp_path.iterdir())  # nothing written


def test_a_good_back_offset_still_builds(cli, tmp_path):
    r = cli("build", "hapy", "--lang", "en", "--paper", "a4", "--back-offset", "0.5,-1", "--out", tmp_path)
    assert r.exit_code == 0, r.output + r.stderr
