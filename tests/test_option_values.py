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
])
def test_a_bad_option_value_exits_2_naming_the_option(cli, tmp_path, args, option):
    r = cli(*args, "--out", tmp_path) if args[0] in ("build", "export") else cli(*args)
    assert r.exit_code == 2, r.output + r.stderr
    assert f"Error: Invalid value for '{option}': " in r.stderr
    assert not any(tmp_path.iterdir())  # nothing written


def test_a_good_back_offset_still_builds(cli, tmp_path):
    r = cli("build", "hapy", "--lang", "en", "--paper", "a4", "--back-offset", "0.5,-1", "--out", tmp_path)
    assert r.exit_code == 0, r.output + r.stderr
