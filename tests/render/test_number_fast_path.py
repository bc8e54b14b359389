"""``*``, ``**`` and ``%`` of two plain numbers of bounded size run as Python runs them,
without the sandbox's call (art-heavy templates do a million of them a kit); anything
else (a string, a list, a huge number, a big exponent) still goes through
``LimitedSandbox.call_binop`` and its budget, so a hostile template is still stopped."""

from __future__ import annotations

import pytest

from cardgen.base.errors import CardgenError
from cardgen.render.sandbox import TemplateLimitError, TemplateRenderer


@pytest.fixture
def renderer(tmp_path):
    folder = tmp_path / "tpl"
    folder.mkdir()
    return TemplateRenderer((folder,), {})


@pytest.fixture
def render(renderer):
    """render(template text, **context) → (the text or the CardgenError, the operators
    that went through call_binop)."""
    folder = renderer.dirs[0]
    seen: list[str] = []
    inner = renderer.env.call_binop

    def counted(context, op, left, right):
        seen.append(op)
        return inner(context, op, left, right)

    renderer.env.call_binop = counted

    def run(text: str, **context):
        seen.clear()
        name = f"t{len(list(folder.iterdir()))}.j2"
        (folder / name).write_text(text, encoding="utf-8")
        try:
            result = renderer.render_text(name, dict(context), "L")
        except CardgenError as exc:
            result = exc
        return result, list(seen)

    return run


def test_products_powers_and_remainders_of_plain_numbers_skip_the_sandbox_call(render):
    text, calls = render("{{ a * b }} {{ a * a }} {{ b * 2 }} {{ a % 2 }} {{ b % 1.5 }} {{ a ** 2 }} {{ b ** 0.5 }} "
                         "{{ -a * 3 }} {{ a ** -1 }}", a=3, b=4.5)
    assert text == "13.5 9 9.0 1 0.0 9 2.1213203435596424 -9 0.3333333333333333"
    assert calls == []


@pytest.mark.parametrize(("expr", "expected"), [
    ("'ab' * n", "ababab"),            # a string repeated: measured
    ("[0] * n", "[0, 0, 0]"),
    ("'%03d' % n", "003"),             # a format: measured
    ("true * n", "3"),                 # a boolean is not a plain number here
    ("n * 2**70", str(3 * 2**70)),     # a number beyond the bound
])
def test_strings_lists_booleans_and_big_numbers_still_go_through_the_sandbox(render, expr, expected):
    text, calls = render("{{ " + expr + " }}", n=3)
    assert text == expected
    assert calls, expr


def test_the_bound_holds_on_the_fast_path_a_number_squared_again_and_again_is_stopped(render):
    """Squaring starts on the fast path; once the number passes the bound it is checked
    again, and stopped at the size limit as it always was."""
    result, calls = render("{% set ns = namespace(x=3) %}{% for i in range(40) %}{% set ns.x = ns.x * ns.x %}"
                           "{% endfor %}{{ ns.x }}")
    assert isinstance(result, TemplateLimitError), result
    assert "'*' result too large" in result.message
    assert "*" in calls  # the last, too large, product went through the check


@pytest.mark.parametrize("expr", ["{% set ns = namespace(x=3) %}{% for i in range(40) %}"
                                  "{% set ns.x = ns.x ** 2 %}{% endfor %}{{ ns.x }}",
                                  "{% set e = 5000 %}{{ 2 ** e }}",
                                  "{% set e = 99 %}{{ e ** e ** e }}"])
def test_a_power_too_large_is_stopped_from_variables_too(render, expr):
    result, _ = render(expr)
    assert isinstance(result, TemplateLimitError), result
    assert "'**' result too large" in result.message or "'*' result too large" in result.message


def test_a_zero_division_is_the_same_error_at_the_same_line(render):
    result, _ = render("line one\n{{ a % b }}", a=3, b=0)
    assert isinstance(result, CardgenError) and result.where.line == 2
    assert "ZeroDivisionError" in result.message
