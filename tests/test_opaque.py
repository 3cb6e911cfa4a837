"""The modern profile judges tel, urn, sip/sips and cid/mid by their own RFCs (grammar/opaque.py).

The examples are those the RFCs write in their text (section given); the refusals are written by
hand from the RFCs' rules, each with where it fails.
"""

from __future__ import annotations

import pytest

import urlsift

VALID = [
    # RFC 3966 3 (the ABNF's comments) and 6
    ("tel:+1-201-555-0123", {"number": "+1-201-555-0123", "context": None}),
    ("tel:7042;phone-context=example.com", {"number": "7042", "context": "example.com"}),
    ("tel:863-1234;phone-context=+1-914-555", {"number": "863-1234", "context": "+1-914-555"}),
    # RFC 8141 2 and 3.2 (equivalence examples, each a valid URN)
    ("urn:example:a123,z456", {"nid": "example", "nss": "a123,z456"}),
    ("URN:example:a123,z456", {"nid": "example", "nss": "a123,z456"}),
    ("urn:EXAMPLE:a123,z456", {"nid": "EXAMPLE", "nss": "a123,z456"}),
    ("urn:example:a123,z456?+abc", {"r_component": "abc", "q_component": None}),
    ("urn:example:a123,z456?=xyz", {"r_component": None, "q_component": "xyz"}),
    ("urn:example:a123,z456#789", {"nss": "a123,z456", "fragment": "789"}),
    ("urn:example:a123,z456/foo", {"nss": "a123,z456/foo"}),
    ("urn:example:a123%2Cz456", {"nss": "a123,z456"}),
    ("urn:example:1/406/47452/2", {"nss": "1/406/47452/2"}),  # 2.2
    ("urn:example:foo-bar-baz-qux?+CCResolve:cc=uk", {"r_component": "CCResolve:cc=uk"}),  # 2.3.1
    (
        "urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z",  # 2.3.2
        {"nss": "weather", "q_component": "op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z"},
    ),
    ("urn:example:foo-bar-baz-qux#somepart", {"fragment": "somepart"}),  # 2.3.3
    # RFC 3261 19.1.3
    ("sip:alice@atlanta.com", {"user": "alice", "password": None, "host": "atlanta.com", "port": None}),
    ("sip:alice:secretword@atlanta.com;transport=tcp", {"user": "alice", "password": "secretword"}),
    ("sips:alice@atlanta.com?subject=project%20x&priority=urgent", {"host": "atlanta.com"}),
    ("sip:+1-212-555-1212:1234@gateway.com;user=phone", {"user": "+1-212-555-1212", "password": "1234"}),
    ("sips:1212@gateway.com", {"user": "1212", "host": "gateway.com"}),
    ("sip:alice@192.0.2.4", {"host": "192.0.2.4"}),
    ("sip:atlanta.com;method=REGISTER?to=alice%40atlanta.com", {"user": None, "host": "atlanta.com"}),
    ("sip:alice;day=tuesday@atlanta.com", {"user": "alice;day=tuesday", "host": "atlanta.com"}),
    # RFC 3261 19.1.4 (comparison examples)
    ("sip:%61lice@atlanta.com;transport=TCP", {"user": "alice"}),
    ("sip:carol@chicago.com;security=on", {"host": "chicago.com"}),
    ("sip:biloxi.com;transport=tcp;method=REGISTER?to=sip:bob%40biloxi.com", {"host": "biloxi.com"}),
    ("sip:alice@AtLanTa.CoM;Transport=tcp", {"host": "AtLanTa.CoM"}),
    ("sip:bob@biloxi.com:6000;transport=tcp", {"port": 6000}),
    # RFC 2392 2 and 3
    ("mid:960830.1639@XIson.com/partA.960830.1639@XIson.com", {"content_id": "partA.960830.1639@XIson.com"}),
    ("cid:foo4*foo1@bar.net", {"content_id": "foo4*foo1@bar.net"}),
    ("cid:foo4%25foo1@bar.net", {"content_id": "foo4%foo1@bar.net"}),
    ("mid:960830.1639@XIson.com", {"message_id": "960830.1639@XIson.com", "content_id": None}),
]


@pytest.mark.parametrize(("url", "parts"), VALID)
def test_the_rfcs_examples_are_valid(url: str, parts: dict[str, object]) -> None:
    verdict = urlsift.validate(url, "modern")
    assert verdict.valid, verdict.error
    assert {name: verdict.parts.get(name) for name in parts} == parts
    assert urlsift.canonical(urlsift.canonical(url, "modern"), "modern") == urlsift.canonical(url, "modern")


INVALID = [
    # RFC 3966 5.1.5: "Local numbers MUST have a 'phone-context' parameter" (a signature label)
    ("tel:(416)", 9, "context"),
    ("tel:5551234", 11, "context"),
    ("tel:863-1234;ext=1;isub=9", 25, "context"),
    # global-number-digits: "+" and at least one DIGIT
    ("tel:+", 5, "global-number-digits"),
    ("tel:+-.", 7, "global-number-digits"),
    ("tel:+1 201", 6, "global-number-digits"),  # a space is no phonedigit
    # extension = ";ext=" 1*phonedigit (and as a parameter, "=" needs a pvalue)
    ("tel:+1-201-555-0123;ext=", 24, "pvalue"),
    # context = ";phone-context=" descriptor; a toplabel starts with a letter, so "1com"
    # could only be a domainlabel, and a "." would have to follow it
    ("tel:7042;phone-context=example.1com", 35, "domainname"),
    # RFC 8141: NID is 2 to 32 letters, digits and inner hyphens; NSS starts with a pchar
    ("urn:a:b", 5, "NID"),
    ("urn:-example:b", 4, "NID"),
    ("urn:example-:b", 12, "NID"),
    ("urn:" + "n" * 33 + ":b", 36, "namestring"),  # ":" after 32
    ("urn:example", 11, "namestring"),
    ("urn:example:", 12, "NSS"),
    ("urn:example:/a", 12, "NSS"),
    ("urn:example:a b", 13, "NSS"),
    ("urn:example:a?+", 15, "r-component"),
    # RFC 3261: a host is required; a port is digits; a header is hname "=" hvalue
    ("sip:alice@", 10, "IPv4address"),
    ("sip:alice@atlanta.com:50x", 24, "port"),
    ("sip:alice@atlanta.com?subject", 29, "header"),
    ("sip:alice@-atlanta.com", 10, "host"),  # no host starts so
    # RFC 2392: an addr-spec has a local part, "@" and a domain; "/" in one is escaped
    ("cid:foo", 7, "url-addr-spec"),
    ("cid:@bar.net", 4, "local-part"),
    ("cid:a@b/c", 7, "domain"),
    ("mid:a@b/c", 9, "url-addr-spec"),
]


@pytest.mark.parametrize(("url", "position", "production"), INVALID)
def test_refusals_say_where(url: str, position: int, production: str) -> None:
    verdict = urlsift.validate(url, "modern")
    assert not verdict.valid
    error = verdict.error
    assert error is not None
    assert (error.position, error.production) == (position, production), error


@pytest.mark.parametrize(
    "url",
    ["tel:(416)", "urn:a:b", "sip:alice@", "cid:foo"],
)
def test_these_were_valid_as_generic_uris(url: str) -> None:
    """What RFC 3986 alone lets through and the scheme's own RFC does not (D35)."""
    generic = url.replace(url.split(":")[0], "x", 1)
    assert urlsift.validate(generic, "modern").valid
    assert not urlsift.validate(url, "modern").valid


def test_strict_profile_is_unchanged() -> None:
    # RFC 1738 knows none of these schemes: its generic syntax judges them, as before.
    assert urlsift.validate("tel:(416)").valid
    assert urlsift.validate("cid:foo").valid
