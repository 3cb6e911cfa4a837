"""The Verdict record's public face: frozen, a dataclass, equal by value, and picklable (``-j`` and
Dask workers send verdicts between processes), whatever its ``__init__`` does to be cheap."""

from __future__ import annotations

import dataclasses
import pickle
from types import MappingProxyType

import pytest

import urlsift

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
