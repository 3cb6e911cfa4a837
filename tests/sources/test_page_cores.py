"""The page reader of the core (rust/core/src/mime/html.rs) against ``sources/page.py``, its oracle
(issue 32): every HTML part of the corpora, hypothesis-made tag soups and the hostile pages give
the same text, links and base; what the core leaves to Python (D39's resolving against a
``<base href>``) it names."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sources.test_mime_cores import MAIL_FILES, _assert_same, _by_core, _file_messages

from urlsift import _html_tables, _select
from urlsift._model import Provenance
from urlsift.sources import mime, page

pytestmark = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")

ROOT = Path(__file__).parents[2]


def _core(text: str) -> page.Page | None:
    assert _select.NATIVE is not None
    found: tuple[str, list[str], str | None] | None = _select.NATIVE.page_read(text)
    return None if found is None else page.Page(*found)


def test_the_reference_tables_are_this_pythons() -> None:
    written = (ROOT / "rust/core/src/mime/html_tables.rs").read_text(encoding="utf-8")
    # If not: python -m urlsift._html_tables > rust/core/src/mime/html_tables.rs
    assert written == _html_tables.render()


def _corpus_pages(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every HTML part of the corpora, as the Python reader hands it to ``page.read``."""
    pages: list[str] = []
    read = page.read

    def kept(text: str) -> page.Page:
        pages.append(text)
        return read(text)

    monkeypatch.setattr(page, "read", kept)
    with _select.using("python"):
        for path in MAIL_FILES:
            for data in _file_messages(path):
                mime.read(data, Provenance("m", None, 0, 0))
    return pages


def test_every_page_of_the_corpora_reads_as_python_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = _corpus_pages(monkeypatch)
    monkeypatch.undo()
    assert len(pages) > 300
    for text in pages:
        assert _core(text) == page.read(text), text[:300]


_PIECES = [
    *("<", ">", "<a ", "<A\t", "<p>", "</p>", "</", "/", "=", "==", "'", '"', " ", "\n", "\t", "\x0c"),
    *("<!--", "-->", "<!", "<?", "<!doctype html>", "<script>", "</script>", "</SCRIPT \n>", "<style x=1>"),
    *(
        "</\u017ftyle>",
        "</scr\u0130pt>",
        "</scr\u0131pt>",
        "<base ",
        "href",
        "HREF",
        "src",
        "bac\u212aground",
        "action",
        "x.html",
    ),
    *("http://a.example/", "#top", "mailto:a@b", "&amp;", "&", "&#", "&#x", "41", "4", ";", "&lt", "&notit"),
    *("&#1114112;", "&#x0;", "&#128;", "&#xDFFF;", "&zwnj", "&AElig", "\u00e9", "\u2028", "\x00", "\u3000"),
]


# Where Python's str and re differ from ASCII: IGNORECASE's long s and dotted and dotless i, the
# Kelvin sign that lowers to "k", whitespace beyond ASCII, and references at their limits.
CASES = [
    "<style x=1>abc</\u017ftyle>def",
    "<script>a</scr\u0130pt>b</script>c",
    "<SCRIPT>a</scr\u0131pt \u3000\n>b",
    "<a bac\u212aground=x.png href\u3000=\u3000'y'>",
    "<a\u2028href=x>",
    "&" + "a" * 31 + "; &" + "b" * 32 + "; &" + "c" * 33 + ";",
    "&notin &notit; &amp &ampere; &AMP;x &#x110000; &#xffff; &#x10FFFE; &#13; &#x81;",
    "<a href='&quot'>&#x1F600;</a><img src=&lt;a&gt;>",
]


@pytest.mark.parametrize("text", CASES)
def test_pages_of_pythons_corner_cases_read_as_python_reads_them(text: str) -> None:
    assert _core(text) == page.read(text)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
def test_tag_soups_read_as_python_reads_them(text: str) -> None:
    assert _core(text) == page.read(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=20), st.text("&#x;a1<>='\" ", max_size=20))
def test_references_unescape_as_html_unescapes_them(noise: str, references: str) -> None:
    text = references + noise + references
    found = _core(text)
    assert found == page.read(text)
    assert found is not None
    if "<" not in text:
        assert found.text == html.unescape(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=16).map("".join))
def test_messages_with_made_pages_read_the_same_by_both_cores(text: str) -> None:
    data = b"Content-Type: text/html; charset=utf-8\n\n" + text.encode()
    _assert_same(data)
    assert _by_core(data) in (None, "html-base")


def test_what_the_core_leaves_to_python_it_names() -> None:
    based = b"Content-Type: text/html\n\n<base href='http://a.example/d/'><a href=x>x</a>"
    assert _by_core(based) == "html-base"
    assert _by_core(based.replace(b"href=x", b"href='#x'")) is None  # nothing to resolve
    assert _core("&#" + "1" * 4301) is None  # longer than int() reads: page.unescape's own step
    assert _core("&#" + "1" * 4300) == page.read("&#" + "1" * 4300)


def test_a_reference_longer_than_int_reads_loses_nothing() -> None:
    # html.unescape raises on it (int()'s 4,300 digits): read as the number it writes instead.
    assert page.read("&#" + "1" * 4301 + ";x").text == "\ufffdx"  # past U+10FFFF
    assert page.read("&#" + "0" * 4299 + "65;x").text == "Ax"
    data = b"Content-Type: text/html\n\n<a href='http://ok.example/'>&#" + b"1" * 4400 + b";</a>\n"
    message = mime.read(data, Provenance("made.eml"))
    assert message.defects == []
    assert "http://ok.example/" in message.texts[-1]
