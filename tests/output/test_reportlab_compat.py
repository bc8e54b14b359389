"""The ReportLab workarounds (output.reportlab_compat): refused outside the ReportLab
versions they were checked with, and still needed and working inside them."""

from __future__ import annotations

import pypdf
import pytest
import reportlab
from reportlab.lib.colors import blue, red

from cardgen.base.errors import CardgenError
from cardgen.output import reportlab_compat as compat
from cardgen.output.canvas import new_canvas


def test_the_installed_reportlab_is_one_the_workarounds_were_checked_with():
    compat.require_checked_version()
    low, high = compat.CHECKED_WITH
    assert low <= compat.version_tuple(reportlab.Version) < high


@pytest.mark.parametrize("version", ["4.2.0", "4.5.1", "5.1.0", "5.99.3"])
def test_versions_in_the_checked_range_pass(version):
    compat.require_checked_version(version)


@pytest.mark.parametrize("version", ["3.6.13", "4.1.0", "6.0", "6.0.0rc1", "7.2.1"])
def test_versions_outside_the_checked_range_are_refused_with_what_to_install(version):
    with pytest.raises(CardgenError) as caught:
        compat.require_checked_version(version)
    message = str(caught.value)
    assert f"ReportLab {version} is installed" in message
    assert "checked with ReportLab 4.2 up to, not including, 6.0" in message
    assert "pip install 'reportlab>=4.2,<6.0'" in message


def test_version_tuples_ignore_suffixes():
    assert compat.version_tuple("5.1.0") == (5, 1, 0)
    assert compat.version_tuple("6.0.0rc1") == (6, 0, 0)
    assert compat.version_tuple("4.2") == (4, 2)
    with pytest.raises(ValueError):
        compat.version_tuple("five")


def test_no_canvas_is_made_with_an_unchecked_reportlab(monkeypatch, tmp_path):
    monkeypatch.setattr(reportlab, "Version", "6.1.0")
    with pytest.raises(CardgenError, match="ReportLab 6.1.0 is installed"):
        new_canvas(tmp_path / "t.pdf", (50, 50), "Helvetica", "t", None)
    assert not (tmp_path / "t.pdf").exists()


def test_reportlab_still_writes_astral_code_points_unpaired_so_the_fix_is_needed():
    # If this fails, ReportLab writes surrogate pairs itself: the ToUnicode fix can go.
    assert "<00> <13143>" in compat.REPORTLAB_MAKE_TO_UNICODE_CMAP("X", [0x13143])
    assert "<00> <D80CDD43>" in compat._make_to_unicode_cmap("X", [0x13143])


def test_a_canvas_writes_with_the_tounicode_fix_installed(tmp_path):
    from reportlab.pdfbase import ttfonts

    new_canvas(tmp_path / "t.pdf", (50, 50), "Helvetica", "t", None)
    assert ttfonts.makeToUnicodeCMap is compat._make_to_unicode_cmap


def _form_resources(tmp_path, fix: bool):
    """A page showing one form that draws at half opacity; the form's /Resources."""
    path = tmp_path / f"form-{fix}.pdf"
    c = new_canvas(path, (50, 50), "Helvetica", "t", None)
    c.beginForm("F1", 0, 0, 20, 20)
    c.setFillAlpha(0.5)
    c.rect(0, 0, 20, 20, stroke=0, fill=1)
    c.endForm()
    if fix:
        compat.give_form_its_graphics_states(c, "F1")
    c.doForm("F1")
    c.showPage()
    c.save()
    page = pypdf.PdfReader(str(path)).pages[0]
    (form,) = (x.get_object() for x in page["/Resources"]["/XObject"].values())
    return form.get("/Resources", {})


def test_a_form_lacks_its_shadings_unless_end_form_ends_it(tmp_path):
    """A gradient in a form: ReportLab writes '/Sh0 sh' into the form but no /Shading
    resource, and viewers paint it black."""

    def form_resources(fix: bool):
        path = tmp_path / f"shade-{fix}.pdf"
        c = new_canvas(path, (50, 50), "Helvetica", "t", None)
        c.beginForm("F1", 0, 0, 20, 20)
        c.linearGradient(0, 0, 20, 0, [red, blue])
        if fix:
            compat.end_form(c, "F1")
        else:
            c.endForm()
        c.doForm("F1")
        c.showPage()
        c.save()
        page = pypdf.PdfReader(str(path)).pages[0]
        (form,) = (x.get_object() for x in page["/Resources"]["/XObject"].values())
        assert b"/Sh" in form.get_data()
        return form.get("/Resources", {})

    # If the first assertion fails, ReportLab writes a form's shadings itself: the fix can go.
    assert "/Shading" not in form_resources(fix=False)
    (shading,) = form_resources(fix=True)["/Shading"].values()
    assert shading.get_object()["/ShadingType"] == 2


def test_a_form_lacks_its_graphics_states_unless_they_are_given_to_it(tmp_path):
    # If the first assertion fails, ReportLab writes a form's ExtGState itself: the fix can go.
    assert "/ExtGState" not in _form_resources(tmp_path, fix=False)
    states = _form_resources(tmp_path, fix=True)["/ExtGState"]
    assert any(s.get_object().get("/ca") == 0.5 for s in states.values())


def _drawn_file(path, early: bool, monkeypatch):
    """A file of three pages, each placing a form of text and shapes; with ``early`` off,
    nothing is compressed before ReportLab saves (as ReportLab alone does it)."""
    from cardgen.impose.outlines import RectOutline
    from cardgen.output import canvas as pdfout

    if not early:
        monkeypatch.setattr(compat, "_compress_now", lambda holder, comment: False)
    c = new_canvas(path, (60, 60), "Helvetica", "t", None)
    forms = pdfout.FormCache(c)
    held = []
    for n in range(3):
        def draw(n=n):
            c.setFillColorRGB(0.2, 0.4, 0.6)
            c.rect(1, 1, 20 + n, 10, stroke=1, fill=1)
            c.drawString(2, 15, f"face {n} — Zoë")
        with pdfout.page(c, 60):
            name = forms.form(f"face {n}", (0, 0, 30, 30), draw)
            pdfout.place(c, name, 5, 5, 30, 30, 0, RectOutline.spanning(0, 0, 60, 60))
        held.append((c._doc.Pages.pages[-1], c._doc.idToObject[compat.xObjectName(name)]))
    c.save()
    monkeypatch.undo()
    return held


def test_pages_and_forms_are_held_compressed_once_they_end(tmp_path, monkeypatch):
    held = _drawn_file(tmp_path / "early.pdf", True, monkeypatch)
    for page, form in held:  # what a file keeps until it is saved: compressed bytes, not the drawing's text
        assert page.stream is None and form.stream is None
        assert isinstance(page.Contents.content, bytes) and isinstance(form.Contents.content, bytes)


def test_compressing_early_writes_the_very_bytes_reportlab_writes(tmp_path, monkeypatch):
    _drawn_file(tmp_path / "early.pdf", True, monkeypatch)
    _drawn_file(tmp_path / "late.pdf", False, monkeypatch)
    assert (tmp_path / "early.pdf").read_bytes() == (tmp_path / "late.pdf").read_bytes()
    page = pypdf.PdfReader(str(tmp_path / "early.pdf")).pages[0]
    assert "face 0" in page.extract_text()
