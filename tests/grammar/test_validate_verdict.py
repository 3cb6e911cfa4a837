"""The Verdict record's public face: frozen, a dataclass, equal by value, and picklable (``-j`` and
Dask workers send verdicts between processes), whatever its ``__init__`` does to be cheap."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from types import MappingProxyType

import pytest

import urlsift

# Issue 31: every test here runs on each core (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("core")

URLS = [
    "http://a:8080/x?y#f",  # parts, a warning, a fragment
    "ftp://u:pw@h/a%2Fb;type=a",  # decoded segments, a password warning
    "gopher://h/1sel%09search",  # gopher's decoded parts
    "prospero://h/p;a=b",  # fields: a tuple of pairs
    "http:g",  # invalid: no parts, an error
    "no scheme",
]


@pytest.mark.parametrize("profile", ["strict", "modern"])
@pytest.mark.parametrize("url", URLS)
def test_pickled_verdict_is_equal_and_read_only(url: str, profile: str) -> None:
    verdict = urlsift.validate(url, profile)
    again = pickle.loads(pickle.dumps(verdict))
    assert again == verdict
    assert repr(again) == repr(verdict)
    assert isinstance(again.parts, MappingProxyType)  # the parts stay read-only


def test_verdict_is_frozen_and_a_dataclass() -> None:
    verdict = urlsift.validate("http://a/b")
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.valid = False  # type: ignore[misc]
    changed = dataclasses.replace(verdict, warnings=())
    assert changed == verdict
    assert changed is not verdict
    assert [field.name for field in dataclasses.fields(verdict)] == [
        "url",
        "valid",
        "scheme",
        "parts",
        "error",
        "warnings",
        "profile",
    ]
    by_keyword = urlsift.Verdict(
        url="http://a/b",
        valid=True,
        scheme="http",
        parts=verdict.parts,
        error=None,
        warnings=(),
        profile="strict",
    )
    assert by_keyword == verdict
    assert repr(by_keyword).startswith("Verdict(url='http://a/b', valid=True, scheme='http', parts=")
    assert dataclasses.replace(verdict, valid=False) != verdict


# --- numbers of any length (issue 28): the grammar's 1*digit has no bound -----------------------

HUGE = "9" * 5_000
"""More digits than CPython turns into an int (4,300 by default): int() raised ValueError here."""


@pytest.mark.parametrize(
    ("profile", "url", "part"),
    [
        ("strict", f"http://h.example:{HUGE}/", "port"),  # strict.py's hostport
        ("strict", f"ftp://u@h.example:{HUGE}/f", "port"),
        ("strict", f"x-y://h.example:{HUGE}/", "port"),  # D1's generic //-form
        ("strict", f"nntp://h.example/g/{HUGE}", "article"),
        ("modern", f"http://h.example:{HUGE}/", "port"),  # modern.py's server
        ("modern", f"x-y://h.example:{HUGE}/", "port"),
        ("modern", f"sip:a@h.example:{HUGE}", "port"),  # opaque.py's hostport
    ],
    ids=[
        "strict-http",
        "strict-ftp",
        "strict-generic",
        "strict-nntp",
        "modern-http",
        "modern-generic",
        "sip",
    ],
)
def test_a_number_of_any_length_is_judged_and_kept_as_its_digits(profile: str, url: str, part: str) -> None:
    verdict = urlsift.validate(url, profile)
    assert verdict.valid, verdict.error
    assert verdict.parts[part] == HUGE  # past 640 significant digits: the digits as written
    if part == "port" and verdict.scheme in ("http", "ftp", "sip"):
        (warning,) = (w for w in verdict.warnings if w.kind is urlsift.CaveatKind.PORT)
        assert len(warning.message) < 120  # the port is clipped in the sentence
    assert urlsift.canonical(url, profile) == url
    assert verdict.as_dict()["parts"][part] == HUGE


def test_a_number_is_an_int_up_to_640_significant_digits() -> None:
    for profile in ("strict", "modern"):
        most, more = "9" * 640, "9" * 641
        assert urlsift.validate(f"http://h.example:{most}/", profile).parts["port"] == int(most)
        assert urlsift.validate(f"http://h.example:{more}/", profile).parts["port"] == more
        zeros = "http://h.example:" + "0" * 5_000 + "80/"  # leading zeros are no digits of the value
        assert urlsift.validate(zeros, profile).parts["port"] == 80
        assert urlsift.canonical(zeros, profile) == "http://h.example/"  # the default port, dropped


def test_modern_article_numbers_are_bounded_by_the_grammar() -> None:
    # RFC 5538: article-number = 1*16DIGIT, so modern.py's int() never meets a long one.
    assert urlsift.validate("nntp://h.example/g/" + "9" * 16, "modern").parts["article"] == int("9" * 16)
    assert not urlsift.validate(f"nntp://h.example/g/{HUGE}", "modern").valid


@pytest.mark.parametrize("profile", ["strict", "modern"])
@pytest.mark.parametrize(
    "host", [f"{HUGE}.1.1.1", f"1.1.1.{HUGE}", f"{'0' * 5_000}1.2.3.4"], ids=["first", "last", "zeros"]
)
def test_a_host_number_of_any_length_gets_its_warning(profile: str, host: str) -> None:
    verdict = urlsift.validate(f"http://{host}/", profile)
    assert verdict.valid
    kinds = [w.kind for w in verdict.warnings]
    assert urlsift.CaveatKind.HOSTNUMBER_RANGE in kinds or (profile, host[0]) == ("strict", "0")
    assert all(len(w.message) < 200 for w in verdict.warnings)


def test_urlsift_validate_judges_every_line_after_a_huge_port() -> None:
    lines = f"http://h.example:{HUGE}/\nhttp://after.example/\n"
    command = [sys.executable, "-m", "urlsift", "validate", "--profile", "both", "-"]
    done = subprocess.run(command, input=lines, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert [line.split("\t")[:3] for line in done.stdout.splitlines()] == [
        ["strict:valid", "modern:valid", f"http://h.example:{HUGE}/"],
        ["strict:valid", "modern:valid", "http://after.example/"],
    ]
