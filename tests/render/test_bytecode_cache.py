"""Compiled templates kept between builds (render/bytecode.py): a hit renders the same
text without compiling, and an entry that is not exactly what this user's cardgen
wrote (a changed byte, a forged signature, another template's entry) is never loaded:
the template is compiled afresh and renders as it should."""

from __future__ import annotations

import hashlib
import hmac
import json
import marshal
from pathlib import Path

import pytest

from cardgen.render.bytecode import SignedBytecodeCache
from cardgen.render.facestore import FaceStore
from cardgen.render.sandbox import TemplateRenderer

SOURCE = "{% set w = 63 %}- {rect: {x: 0, w: {{ w * 2 }}, fill: {{ colour|q }}}}\n"
OTHER = "- {text: {x: 1, text: {{ colour|q }}}}\n"
EVIL = "- {text: {x: 1, text: \"EVIL {{ colour }}\"}}\n"


@pytest.fixture
def setup(tmp_path):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "front.yaml.j2").write_text(SOURCE, encoding="utf-8")
    (folder / "back.yaml.j2").write_text(OTHER, encoding="utf-8")
    (folder / "evil.yaml.j2").write_text(EVIL, encoding="utf-8")
    store = FaceStore(tmp_path / "cache")
    return folder, store


def fresh(folder: Path, store: FaceStore, monkeypatch=None, compiles: list | None = None) -> tuple[TemplateRenderer, SignedBytecodeCache]:
    """A renderer as a new process has it, with the bytecode cache; ``compiles`` hears
    every template Jinja compiles."""
    renderer = TemplateRenderer((folder,), {})
    cache = SignedBytecodeCache(store, renderer.env.facts)
    renderer.env.bytecode_cache = cache
    if compiles is not None:
        inner = renderer.env.compile

        def compile(source, name=None, filename=None, *args, **kwargs):
            compiles.append(name)
            return inner(source, name, filename, *args, **kwargs)

        renderer.env.compile = compile
    return renderer, cache


def render(renderer: TemplateRenderer, name: str = "front.yaml.j2") -> str:
    return renderer.render_text(name, {"colour": "#123456"}, "L")


def entries(store: FaceStore) -> list[Path]:
    return sorted(store.root.rglob("*.jinja"))


def test_a_cache_hit_renders_the_same_text_without_compiling(setup):
    folder, store = setup
    first, _ = fresh(folder, store)
    text = render(first)
    assert text == '- {rect: {x: 0, w: 126, fill: "#123456"}}\n'
    assert len(entries(store)) == 1
    compiles: list = []
    second, cache = fresh(folder, store, compiles=compiles)
    assert render(second) == text
    assert compiles == [] and cache.loads == 1
    assert second.env.facts["front.yaml.j2"] == first.env.facts["front.yaml.j2"]  # the face's memo key is the same


def test_an_edited_template_is_compiled_again(setup):
    folder, store = setup
    render(fresh(folder, store)[0])
    (folder / "front.yaml.j2").write_text(SOURCE.replace("63", "60"), encoding="utf-8")
    compiles: list = []
    renderer, cache = fresh(folder, store, compiles=compiles)
    assert render(renderer) == '- {rect: {x: 0, w: 120, fill: "#123456"}}\n'
    assert compiles == ["front.yaml.j2"] and cache.loads == 0


def test_a_changed_byte_is_not_loaded_and_the_template_compiles_afresh(setup):
    folder, store = setup
    text = render(fresh(folder, store)[0])
    (entry,) = entries(store)
    data = bytearray(entry.read_bytes())
    data[-20] ^= 0x01  # in the marshalled code
    entry.write_bytes(bytes(data))
    compiles: list = []
    renderer, cache = fresh(folder, store, compiles=compiles)
    assert render(renderer) == text
    assert compiles == ["front.yaml.j2"] and cache.loads == 0
    third, cache = fresh(folder, store)  # written again, whole: loaded next time
    assert render(third) == text and cache.loads == 1


def _forged(store: FaceStore, entry: Path, code_of: str, folder: Path, sign) -> None:
    """``entry`` rewritten to hold the compiled code of template ``code_of``, its header
    kept (its key, digest and facts), signed by ``sign``."""
    head = entry.read_bytes().partition(b"\n")[2].partition(b"\n")[0]
    renderer = TemplateRenderer((folder,), {})
    code = renderer.env.compile((folder / code_of).read_text(encoding="utf-8"), code_of, str(folder / code_of))
    body = head + b"\n" + marshal.dumps(code)
    entry.write_bytes(sign(body) + b"\n" + body)


@pytest.mark.parametrize("sign", [
    lambda body: hashlib.sha256(body).hexdigest().encode(),  # a plain checksum
    lambda body: hmac.new(b"not the user's key" * 2, body, hashlib.sha256).hexdigest().encode(),  # another key
], ids=["sha256", "another-key"])
def test_code_signed_without_the_users_key_never_runs(setup, sign):
    folder, store = setup
    text = render(fresh(folder, store)[0])
    (entry,) = entries(store)
    _forged(store, entry, "evil.yaml.j2", folder, sign)
    renderer, cache = fresh(folder, store)
    got = render(renderer)
    assert got == text and "EVIL" not in got and cache.loads == 0


def test_the_users_own_entry_of_another_template_is_not_loaded_under_this_ones_name(setup):
    folder, store = setup
    render(fresh(folder, store)[0], "front.yaml.j2")
    (front,) = entries(store)
    render(fresh(folder, store)[0], "back.yaml.j2")
    (back,) = [e for e in entries(store) if e != front]
    back.write_bytes(front.read_bytes())  # signed by the user, but the front's code
    renderer, cache = fresh(folder, store)
    assert render(renderer, "back.yaml.j2") == '- {text: {x: 1, text: "#123456"}}\n'
    assert cache.loads == 0


def test_an_entry_is_kept_with_its_key_and_facts_in_a_header(setup):
    folder, store = setup
    render(fresh(folder, store)[0])
    (entry,) = entries(store)
    signature, _, body = entry.read_bytes().partition(b"\n")
    header = json.loads(body.partition(b"\n")[0])
    assert entry.name == f"{header['key']}.jinja" and len(signature) == 64
    assert header["digest"] == hashlib.sha256(SOURCE.encode()).hexdigest()
    assert "colour" in header["facts"]["whole"]
