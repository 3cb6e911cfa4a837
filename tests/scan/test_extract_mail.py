"""Mail as people wrote it after 1994 (issue 19): D24 and D25 amended, D33-D36, one picture each
(see pictures.py), in both profiles unless a case says otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pictures import check_consistent, picture

import urlsift
from urlsift._iana import IANA_PERMANENT_SCHEMES

pytestmark = pytest.mark.usefixtures("core")  # issue 31: each test on both cores

BOTH = ["strict", "modern"]

CASES = [
    # D33: a scheme and its colon alone is no URL
    ('accept "https:" URLs', 'accept "https:" URLs'),
    ("<news:> and <URL:mailto:>", "<news:> and <URL:mailto:>"),
    ('"mailto:" and "tel:"', '"mailto:" and "tel:"'),
    # D34: backticks end a naked URL; Markdown inline, reference and autolinks
    ("run `https://a.example/x` now", "run `«https://a.example/x»` now"),
    ("run ``https://a.example/x`` now", "run ``«https://a.example/x»`` now"),
    ("(`https://a.example/x`)", "(`«https://a.example/x»`)"),
    (
        "[https://a.example/a](https://a.example/a)",
        "[«https://a.example/a»](«https://a.example/a»)",
    ),
    (
        "[see https://a.example/a here](https://a.example/b).",
        "[see «https://a.example/a» here](«https://a.example/b»).",
    ),
    ("[the docs](https://a.example/d), then", "[the docs](«https://a.example/d»), then"),
    ("[docs][1]\n\n[1]: https://a.example/ref", "[docs][1]\n\n[1]: «https://a.example/ref»"),
    ("an autolink <https://a.example/auto>.", "an autolink <«https://a.example/auto»>."),
    ("[x](<https://a.example/p>)", "[x](<«https://a.example/p»>)"),
    ("a [closed] bracket http://a.example/x]", "a [closed] bracket «http://a.example/x»]"),
    # D35: opaque schemes in running text have their RFC's shape
    ("Tel:(416) 324.8704", "Tel:(416) 324.8704"),
    ("Tel: (416) 324.8704\nFax:(416) 324.8705", "Tel: (416) 324.8704\nFax:(416) 324.8705"),
    ("call tel:+1-416-324-8704.", "call «tel:+1-416-324-8704»."),
    ("tel:7042;phone-context=example.com", "«tel:7042;phone-context=example.com»"),
    ("tel:7042 alone", "tel:7042 alone"),
    ("URN:12 and urn:ietf", "URN:12 and urn:ietf"),
    ("see urn:ietf:rfc:1738.", "see «urn:ietf:rfc:1738»."),
    ("sip:(x) sip:alice@atlanta.com", "sip:(x) «sip:alice@atlanta.com»"),
    # sip: needs RFC 3261's host, and a run of digits is none (its last label starts with a letter)
    (
        "<Identity>sip:6505550579 at ims.example</Identity>",
        "<Identity>sip:6505550579 at ims.example</Identity>",
    ),
    ("sip:6505550579@ims.example", "«sip:6505550579@ims.example»"),
    ("sips:alice@sip.example:5061;transport=tcp", "«sips:alice@sip.example:5061;transport=tcp»"),
    ("mid:x cid:foo4%25foo1@bar.net", "mid:x «cid:foo4%25foo1@bar.net»"),
    (
        "mid:960830.1639@XIson.com/partA.960830.1639@XIson.com",
        "«mid:960830.1639@XIson.com/partA.960830.1639@XIson.com»",
    ),
    # D36: glued words, shar lines, compound schemes
    ("Seehttps://a.example/x", "See«https://a.example/x»"),
    (
        "Xftp://ftp.example.org/pub/x.tar\nXhttp://h.example/",
        "X«ftp://ftp.example.org/pub/x.tar»\nX«http://h.example/»",
    ),
    (
        "git+https://github.com/a/b and svn+ssh://h.example/r",
        "«git+https://github.com/a/b» and «svn+ssh://h.example/r»",
    ),
    ("shttp://h.example/x", "«shttp://h.example/x»"),  # a registered scheme is no glued word
    ("see.http://h.example/ =09http://h.example/", "see.«http://h.example/» =09«http://h.example/»"),
    ("Xmailto:a@b.example", "Xmailto:a@b.example"),  # no "//": not taken apart
    # D25 (a): "<" ends a quoted line, the URL is on the next
    (
        "> see <\n> http://example.com/long/\n> path.html> end",
        "> see <\n> «http://example.com/long/»\n> «path.html»> end",
    ),
    ("> see <\n> URL:http://a.example/x> y", "> see <\n> URL:«http://a.example/x»> y"),
    ("> see <\n>> http://a.example/x> y", "> see <\n>> «http://a.example/x»> y"),
    # D25 (b): a continuation line quoted one level deeper
    ("> see <URL:http://a.example/a/\n>> b/c> end", "> see <URL:«http://a.example/a/»\n>> «b/c»> end"),
    ("> <http://a.example/a/\n> > b/c>", "> <«http://a.example/a/»\n> > «b/c»>"),
    ("> <URL:http://a.example/a\n> >\n", "> <URL:«http://a.example/a»\n> >\n"),  # the ">" closes
    ("> <URL:http://a.example/a/\n| b/c>", "> <URL:http://a.example/a/\n| b/c>"),  # "|" is URL text
    # D24: the hyphen rule before the bracket
    ("<URL:http://a.example.org/x-\n>", "<URL:«http://a.example.org/x-»\n>"),
]


@pytest.mark.parametrize("profile", BOTH)
@pytest.mark.parametrize(("text", "expected"), CASES)
def test_pictures(text: str, expected: str, profile: str) -> None:
    assert picture(text, profile=profile) == expected
    for match in urlsift.extract(text, profile=profile, invalid=True):
        check_consistent(text, match)


def test_wrappers_vouch_for_any_shape_but_the_modern_grammar_still_judges() -> None:
    # D35 is the scanner's check of naked text only: in a wrapper, the strict profile (generic
    # syntax for these schemes) takes a signature label; the modern profile judges tel: and urn:
    # by RFC 3966 and RFC 8141, which refuse "(416)" (no "+", no phone-context) and "urn:x".
    text = "<tel:(416)> <URL:urn:x>"
    assert picture(text, profile="strict") == "<«tel:(416)»> <URL:«urn:x»>"
    assert picture(text, profile="modern") == text
    assert picture("Tel:(416) 324.8704", profile="strict") == "Tel:(416) 324.8704"


def test_the_hyphen_before_the_bracket_gives_both_readings() -> None:
    for text in ("<URL:http://a.example.org/x-\n>", "> <URL:http://a.example.org/x-\n>   >"):
        (match,) = urlsift.extract(text)
        assert (match.url, match.alternatives) == ("http://a.example.org/x-", ("http://a.example.org/x",))
    (same_line,) = urlsift.extract("<URL:http://a.example.org/x-  >")
    assert same_line.alternatives == ()


def test_phone_labels_are_rejected_with_the_reason() -> None:
    (match,) = urlsift.extract("Tel:(416) 324.8704", invalid=True)
    assert (match.url, match.valid) == ("Tel:(416)", False)
    assert match.verdict.error is not None
    assert match.verdict.error.production == "telephone-subscriber"
    assert "RFC 3966" in match.verdict.error.message
    assert match.verdict.error.reason is urlsift.NotInText.OPAQUE_SHAPE
    (empty,) = urlsift.extract('"https:"', invalid=True)
    assert empty.verdict.error is not None
    assert empty.verdict.error.production == "schemepart"
    assert empty.verdict.error.reason is urlsift.NotInText.EMPTY_SCHEME_PART
    (grammar,) = urlsift.extract("<URL:http://a~b.example/>", invalid=True)
    assert grammar.verdict.error is not None
    assert grammar.verdict.error.reason is None


def test_the_glued_word_is_not_the_scheme() -> None:
    (match,) = urlsift.extract("Seehttps://a.example/x")
    assert (match.verdict.scheme, match.span) == ("https", (3, 22))
    (compound,) = urlsift.extract("git+https://github.com/a/b", profile="modern")
    assert compound.verdict.scheme == "git+https"


def test_the_iana_list_is_the_specs() -> None:
    spec = Path("/work/shared/spec/iana-uri-schemes.txt")
    if not spec.exists():
        pytest.skip("the spec is not beside this checkout")
    lines = spec.read_text().splitlines()
    names = {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}
    assert names == IANA_PERMANENT_SCHEMES


def test_a_sip_identity_in_pipermail_mail_is_no_url(tmp_path: Path) -> None:
    """Issue 29: from ``<Identity>sip:6505550579 at ims...`` in a pipermail archive the strict
    profile reported ``sip:6505550579`` (its shape took a host of digits); now neither profile does."""
    path = tmp_path / "list.mbox"
    path.write_bytes(
        b"From alice at example.org  Mon Feb  3 10:00:00 2003\n"
        b"From: alice at example.org (Alice)\nSubject: IMS\nMessage-ID: <1@example.org>\n\n"
        b"The P-CSCF answers <Identity>sip:6505550579 at ims.mnc001.mcc001.3gppnetwork.org</Identity>\n"
        b"and see sip:alice@atlanta.example for the rest.\n"
    )
    for profile in BOTH:
        command = [sys.executable, "-m", "urlsift", "--invalid", "--format", "jsonl", "--profile", profile]
        done = subprocess.run([*command, str(path)], capture_output=True, text=True, check=False)
        rows = [json.loads(line) for line in done.stdout.splitlines()]
        assert [(row["url"], row["valid"]) for row in rows if row["url"].startswith("sip:")] == [
            ("sip:6505550579", False),
            ("sip:alice@atlanta.example", True),
        ], (profile, done.stderr)
