"""The native extractor (rust/core/src/extract.rs, rejoin.rs) against its oracle, extract.py and
rejoin.py: the same matches, field for field and verdict for verdict, on hypothesis soups, on every
corpus file and on windows; the readings left to Python's judge; the deferred verdicts."""

from __future__ import annotations

import copy
import io
import pickle
import sys
from collections.abc import Iterator
from dataclasses import FrozenInstanceError, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scan.test_core_scan import MORE
from scan.test_extract_properties import any_url, messy
from scan.test_fuzz import OPAQUE, PIECES, REGRESSIONS

import urlsift
from urlsift import _select
from urlsift._model import Match, Verdict
from urlsift.extract import (
    Extraction,
    _DeferredVerdict,
    _extraction_for,
    _judge,
    _judge_deferred,
    _judge_plan,
    extract_each,
)
from urlsift.grammar import get_profile
from urlsift.grammar.export import POSSESSIVE_ONLY
from urlsift.scanner import KNOWN_SCHEMES
from urlsift.validate import validate

ROOT = Path(__file__).resolve().parents[2]
native = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")

# Beyond the scanner's pieces, what steers the stages after it: hyphen breaks (D24, more than
# MAX_HYPHEN_BREAKS of them too), quote prefixes inside wrappers (D25), whitespace (D23), tel: and
# its shape (export.POSSESSIVE_ONLY: Python's judge), fragments (D4), D33's empty scheme part.
STAGES = [
    "-\n", "-\n> ", "-\n  ", "- \n", "-\r\n", "<URL:http://a-\nb-\nc-\nd-\ne-\nf.example/>", "#", "#f",
    "#%zz", "tel:+1-555-0100", "tel:555", "TEL:+1", "urn:isbn:0", "sip:a@b.example", "https:",
    "<news:>", "\u00a0", "mailto:a at b.example", "http://h.example/~u", "www.h.example/x",
]  # fmt: skip
soup = st.lists(
    st.one_of(st.sampled_from(PIECES + OPAQUE + MORE + STAGES), st.text(max_size=8), any_url), max_size=60
).map("".join)
OPTIONS = [
    {"profile": profile, "naked": naked, "invalid": invalid, "pipermail": pipermail}
    for profile in ("strict", "modern")
    for naked in (True, False)
    for invalid in (False, True)
    for pipermail in (False, True)
]


def fields(match: Match) -> tuple[Any, ...]:
    """A match with its verdict as plain values (a deferred verdict is worked out here)."""
    verdict = match.verdict
    plain = tuple(getattr(verdict, name) for name in ("url", "valid", "scheme", "parts", "error", "warnings"))
    return (*match[:7], plain, verdict.profile)


def both(text: str, **options: Any) -> tuple[list[Match], list[Match]]:
    found = []
    for core in _select.CORES:
        with _select.using(core):
            found.append(list(urlsift.extract(text, **options)))
    return found[0], found[1]


def assert_same(text: str) -> None:
    for options in OPTIONS:
        python, rust = both(text, **options)
        assert [fields(m) for m in rust] == [fields(m) for m in python], options
        assert rust == python, options  # a deferred verdict equals the plain one


def corpus_files() -> Iterator[Path]:
    yield from sorted(p for p in (ROOT / "corpora").rglob("*") if p.is_file() and p.suffix != ".md")


@native
@given(soup)
def test_soups_give_the_same_matches_in_both_cores(text: str) -> None:
    assert_same(text)


@native
@given(st.lists(st.one_of(messy, any_url), max_size=6).map(" ".join))
def test_messy_texts_give_the_same_matches_in_both_cores(text: str) -> None:
    assert_same(text)


@native
@pytest.mark.parametrize("path", list(corpus_files()), ids=lambda p: str(p.relative_to(ROOT / "corpora")))
def test_every_corpus_file_gives_the_same_matches_in_both_cores(path: Path) -> None:
    assert_same(path.read_bytes().decode("utf-8", "surrogateescape"))


@native
@pytest.mark.parametrize(
    "text",
    [
        *REGRESSIONS,
        "<URL:http://h.example/a-\n  b-\n  c>",  # three breaks: eight readings, itertools' order
        "<URL:http://a-\nb-\nc-\nd-\ne.example/>",  # MAX_HYPHEN_BREAKS: every combination
        "<URL:http://a-\nb-\nc-\nd-\ne-\nf.example/>",  # past MAX_HYPHEN_BREAKS: the two extremes
        "<URL:http://h.example/x-\n>",  # a break right before the bracket
        "<URL:http://h.ex-\n> > ample/>",  # a quote prefix after the break (D25)
        "> <URL:http://h.example/a\n> b>",
        "<URL:http://h.\u00a0example/\u3000a>",  # D23: every Unicode space
        "<URL:http://h.example/a\x1cb>",  # D23: U+001C is str.isspace's
        "mailto:user at h.example and tel:+1-555-0100 tel:555 <tel:555>",
        "\u00e9 http://h.example/\u00e9 <URL:http://\u00e9.example/a-\n b>\n\n x",  # positions are characters
        "\udce9 <URL:http://h.example/\udcff> http://h.example/\ud800x",  # lone surrogates: Python's stages
        "<URL:http://h.example/a\n\nb>" * 3,  # D21: blank line
        "https: <news:> <URL:>",  # D33
    ],
)
def test_the_cases_that_tell_the_stages_apart(text: str) -> None:
    assert_same(text)


@native
@given(st.lists(soup, max_size=4))
def test_extract_each_is_the_same_in_both_cores(texts: list[str]) -> None:
    found = []
    for core in _select.CORES:
        with _select.using(core):
            found.append([(k, fields(m)) for k, m in extract_each(texts, invalid=True)])
    assert found[1] == found[0]


@native
@given(soup, st.integers(1, 400))
def test_windows_are_the_same_in_both_cores(text: str, chunk: int) -> None:
    text = "\n".join([text] * 3)
    found = []
    for core in _select.CORES:
        with _select.using(core):
            stream = urlsift.extract_stream(io.StringIO(text), invalid=True, chunk_chars=chunk)
            found.append([fields(m) for m in stream])
    assert found[1] == found[0]


def native_items(text: str, **options: Any) -> list[Any] | None:
    extraction = _extraction_for(
        options.get("profile", "strict"), options.get("naked", True), options.get("invalid", False),
        frozenset(KNOWN_SCHEMES), options.get("pipermail", False),
    )  # fmt: skip
    assert _select.NATIVE is not None
    found = extraction._extractor(_select.NATIVE).extract(text)
    return None if found is None else list(found)


@native
@pytest.mark.parametrize("profile", ["strict", "modern"])
def test_a_reading_the_core_cannot_judge_is_left_to_python(profile: str) -> None:
    # tel: is export.POSSESSIVE_ONLY (its shape in both profiles, its production in the modern one).
    assert "telephone-subscriber" in POSSESSIVE_ONLY
    text = "call tel:+1-555-0100 or tel:555 (<tel:555-\n  0100>) http://h.example/"
    items = native_items(text, profile=profile, invalid=True)
    assert items is not None
    undecided = [item for item in items if not isinstance(item, Match)]
    assert [item[0] for item in undecided][:2] == ["tel:+1-555-0100", "tel:555"]
    assert items[-1][0] == "http://h.example/"
    assert isinstance(items[-1], Match)
    assert items[-1].valid
    with _select.using("rust"):
        matches = list(urlsift.extract(text, profile=profile, invalid=True))
    assert [(m.url, m.valid) for m in matches][:2] == [("tel:+1-555-0100", True), ("tel:555", False)]
    assert_same(text)


@native
@pytest.mark.parametrize(
    "other", ["", "\xe9", "\u4e2d", "\U0001f600"], ids=["ascii", "latin-1", "bmp", "astral"]
)
def test_a_text_with_a_lone_surrogate_goes_through_pythons_stages(other: str) -> None:
    # In each kind of units: a lone surrogate makes a Latin-1 text UTF-16 units, and a character
    # beyond the BMP makes it code points.
    text = f"{other} <URL:http://h.example/\udcff> http://h.example/a {other}"
    assert native_items(text) is None
    clean = native_items(text.replace("\udcff", "x"))
    assert clean is not None
    assert [item[0] for item in clean] == ["http://h.example/x", "http://h.example/a"]
    assert_same(text)


@native
def test_the_two_halves_of_a_surrogate_pair_are_two_lone_surrogates() -> None:
    # Two characters of a str (as UTF-16 units they look like the pair of one beyond the BMP).
    text = "<URL:http://h.example/\ud83d\ude00> http://h.example/a"
    assert native_items(text) is None
    assert native_items(text.replace("\ud83d\ude00", "\U0001f600")) is not None
    assert_same(text)


@native
@pytest.mark.parametrize("at", [10, 70_000, 150_000], ids=["near-the-start", "in-the-middle", "near-the-end"])
def test_a_lone_surrogate_is_seen_anywhere_in_a_long_text(at: int) -> None:
    # The units of a text of the BMP are made by one strict encode of it, which refuses a lone
    # surrogate anywhere: one in any part of a long text, the rest clean, sends it to Python.
    line = "\u4e2d\ud7ff\ue000 http://h.example/a\n"  # the units either side of the surrogates
    text = line * (160_000 // len(line))
    marked = f"{text[:at]}\udcff{text[at + 1 :]}"
    assert native_items(marked) is None
    assert native_items(text) is not None


@native
@pytest.mark.parametrize("wide", ["\u4e2d", "\udcff"], ids=["bmp", "lone-surrogate"])
def test_ascii_slices_and_wide_ones_make_one_texts_units(wide: str) -> None:
    # The units are made 65,536 characters at a time, an ASCII slice widened and a wide one
    # encoded: a URL across the line between an ASCII slice and a wide one, and a wide character
    # (or a lone surrogate: then the text is Python's) only in the second slice.
    head = "x " * 32_760 + "<URL:http://h.example/a"  # the wrapper crosses character 65,536
    text = f"{head}bc> http://h.example/{wide}d " + "y " * 40_000 + "http://h.example/e"
    items = native_items(text)
    if wide == "\udcff":
        assert items is None
    else:
        assert items is not None
        assert [item[0] for item in items] == ["http://h.example/abc", "http://h.example/e"]
    for options in ({}, {"invalid": True, "profile": "modern"}):
        python, rust = both(text, **options)
        assert [fields(m) for m in rust] == [fields(m) for m in python]


@native
@pytest.mark.parametrize("profile", ["strict", "modern"])
def test_the_judge_plan_names_the_profiles_own_productions(profile: str) -> None:
    judge = get_profile(profile)
    _, by_scheme, generic, fragment, _, _, _ = _judge_plan(judge)
    table = dict(by_scheme)
    for scheme in sorted(KNOWN_SCHEMES | {"x-unknown", "http", "tel"}):
        assert table.get(scheme, generic) == judge.syntax(scheme).rule.name, scheme
    assert fragment == judge.fragment.rule.name


# --- the deferred verdict -----------------------------------------------------------------------


def deferred(url: str = "http://h.example:81/a") -> tuple[Verdict, Verdict]:
    """A verdict of the native path, not yet worked out, and the plain one of the Python path."""
    with _select.using("python"):
        (plain,) = urlsift.extract(f"see {url} now")
    _judge.cache_clear()
    _judge_deferred.cache_clear()  # a fresh one, not yet worked out
    with _select.using("rust"):
        (match,) = urlsift.extract(f"see {url} now")
    assert isinstance(match.verdict, _DeferredVerdict)
    return match.verdict, plain.verdict


@native
def test_a_deferred_verdict_is_worked_out_only_when_read() -> None:
    verdict, plain = deferred()
    assert "parts" not in vars(verdict)
    assert _judge.cache_info().currsize == 0
    assert verdict.url == plain.url
    assert verdict.valid
    assert verdict.profile == "strict"
    assert "parts" not in vars(verdict)
    assert verdict.warnings == plain.warnings != ()  # a non-default port
    assert verdict.parts == plain.parts
    assert verdict.scheme == "http"
    assert verdict.error is None


@native
def test_a_deferred_verdict_reads_as_the_plain_one() -> None:
    verdict, plain = deferred()
    assert verdict == plain
    assert plain == verdict
    assert (verdict != plain) is False
    assert repr(verdict) == repr(plain)
    assert verdict.as_dict() == plain.as_dict()
    assert verdict.uri == plain.uri
    other, _ = deferred("http://h.example/b")
    assert other != plain
    assert plain != other


@native
def test_a_deferred_verdict_pickles_copies_and_replaces_as_a_plain_one() -> None:
    verdict, plain = deferred()
    for made in (pickle.loads(pickle.dumps(verdict)), copy.copy(verdict), copy.deepcopy(verdict)):
        assert type(made) is Verdict
        assert made == plain
    fresh, _ = deferred()
    replaced = replace(fresh, valid=False)
    assert replaced.valid is False
    assert replaced.parts == plain.parts
    assert replaced.warnings == plain.warnings
    with pytest.raises(FrozenInstanceError):
        fresh.valid = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(fresh)  # as a plain one: its parts are a mapping
    with pytest.raises(AttributeError):
        fresh.no_such_field  # type: ignore[attr-defined]  # noqa: B018


@native
def test_a_deferred_invalid_verdict_says_why_as_validate_does() -> None:
    with _select.using("rust"):
        (match,) = urlsift.extract("<URL:http://h.example/~u>", invalid=True)
    assert match.verdict == validate("http://h.example/~u")
    assert match.verdict.error is not None
    assert match.verdict.error.production == "hsegment"


@native
def test_a_url_met_again_in_a_text_is_judged_by_python_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The binding keeps the verdicts made for a text's matches: the factory is called once for
    # each URL and way of judging it (naked "urn:x" has no shape of its own, D35: wrapped it is
    # valid), however often it recurs; the matches are still the Python core's.
    calls: list[tuple[Any, ...]] = []

    def counted(*arguments: Any) -> _DeferredVerdict:
        calls.append(arguments[1:])
        return _judge_deferred(*arguments)

    monkeypatch.setattr(sys.modules["urlsift.extract"], "_judge_deferred", counted)
    text = "urn:x <URL:urn:x> http://h.example/a\n" * 50 + "http://h.example/b"
    with _select.using("rust"):
        matches = list(Extraction(invalid=True).whole(text))
    assert len(matches) == 151
    assert sorted(calls, key=repr) == [
        ("http://h.example/a", True, 0, True, None),
        ("http://h.example/b", True, 0, True, None),
        ("urn:x", False, 0, True, None),
        ("urn:x", True, 0, False, None),
    ]
    assert [m.verdict.valid for m in matches[:3]] == [False, True, True]
    with _select.using("python"):
        assert matches == list(urlsift.extract(text, invalid=True))


@native
def test_a_text_of_more_urls_than_the_binding_keeps_gives_the_same_matches() -> None:
    # 5,000 URLs, each met twice, past the 4,096 verdicts the binding keeps for a text.
    urls = [f"http://h.example/{k}" for k in range(5000)]
    text = " ".join(urls * 2)
    for options in ({}, {"profile": "modern", "invalid": True}):
        python, rust = both(text, **options)
        assert [m.url for m in rust] == urls * 2
        assert rust == python


def test_the_extraction_keeps_the_python_path_when_the_core_is_python() -> None:
    with _select.using("python"):
        extraction = Extraction()
        (match,) = extraction.whole("http://h.example/")
    assert type(match.verdict) is Verdict
    assert extraction._native is None
