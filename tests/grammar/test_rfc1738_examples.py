"""Every example URL in RFC 1738's text validates, with the parts its prose says it has."""

from __future__ import annotations

import pytest

import urlsift


def parts(url: str) -> dict[str, object]:
    verdict = urlsift.validate(url)
    assert verdict.valid, (url, verdict.error)
    return dict(verdict.parts)


def test_empty_user_and_no_password() -> None:
    # 3.1: "<URL:ftp://@host.com/> has an empty user name and no password"
    p = parts("ftp://@host.com/")
    assert (p["user"], p["password"], p["host"]) == ("", None, "host.com")


def test_no_user_name() -> None:
    # 3.1: "<URL:ftp://host.com/> has no user name"
    p = parts("ftp://host.com/")
    assert (p["user"], p["password"]) == (None, None)


def test_user_foo_and_empty_password() -> None:
    # 3.1: "<URL:ftp://foo:@host.com/> has a user name of "foo" and an empty password"
    p = parts("ftp://foo:@host.com/")
    assert (p["user"], p["password"]) == ("foo", "")


def test_issue_example_with_typecode() -> None:
    v = urlsift.validate("ftp://foo:@host.com/pub;type=d")
    assert v.valid
    assert v.scheme == "ftp"
    assert v.parts["typecode"] == "d"
    assert v.parts["segments"] == ("pub",)


@pytest.mark.parametrize(
    ("url", "segments"),
    [
        # 3.2.2: "CWD /etc" then "RETR motd"
        ("ftp://myname@host.dom/%2Fetc/motd", ("/etc", "motd")),
        # 3.2.2: "CWD etc" then "RETR motd"
        ("ftp://myname@host.dom/etc/motd", ("etc", "motd")),
        # 3.2.2: "CWD " with a null argument, then "CWD etc", then "RETR motd"
        ("ftp://myname@host.dom//etc/motd", ("", "etc", "motd")),
    ],
)
def test_ftp_segments_are_decoded_one_by_one(url: str, segments: tuple[str, ...]) -> None:
    p = parts(url)
    assert p["segments"] == segments
    assert p["user"] == "myname"


def test_news_all_groups() -> None:
    # 3.6: "If <newsgroup-name> is "*" (as in <URL:news:*>)"
    assert parts("news:*")["group"] == "*"


def test_news_group_and_article() -> None:
    assert parts("news:comp.infosystems.www.misc")["group"] == "comp.infosystems.www.misc"
    p = parts("news:unique@full.domain.name")
    assert (p["article"], p["group"]) == ("unique@full.domain.name", None)


def test_prospero_hsoname() -> None:
    # 3.11: "<URL:prospero://host.dom//pros/name> designates a <hsoname> of "/pros/name""
    p = parts("prospero://host.dom//pros/name")
    assert p["path"] == "/pros/name"
    assert p["fields"] == ()


def test_prospero_fields() -> None:
    p = parts("prospero://host.dom//pros/name;OBJECT-VERSION=3;x=")
    assert p["fields"] == (("OBJECT-VERSION", "3"), ("x", ""))


def test_vms_file() -> None:
    # 3.10: the VMS file DISK$USER:[MY.NOTES]NOTE123456.TXT
    p = parts("file://vms.host.edu/disk$user/my/notes/note12345.txt")
    assert p["host"] == "vms.host.edu"
    assert p["segments"] == ("disk$user", "my", "notes", "note12345.txt")


@pytest.mark.parametrize(
    ("gopher_path", "gtype", "selector", "search", "plus"),
    [
        ("", "1", "", None, None),  # 3.4.1: empty path, type defaults to "1"
        ("0about", "0", "about", None, None),
        ("7search%09query", "7", "search", "query", None),  # 3.4.2
        ("1sel%09%09+", "1", "sel", "", "+"),  # 3.4.3/3.4.4: empty search, default view
        ("1sel%09%09?", "1", "sel", "", "?"),  # 3.4.5: electronic form
        ("1sel%09%09!", "1", "sel", "", "!"),  # 3.4.6: all attributes
        ("1sel%09%09$", "1", "sel", "", "$"),  # 3.4.6: directory attributes
        ("1sel%09%09!+ABSTRACT", "1", "sel", "", "!+ABSTRACT"),  # 3.4.7
        ("1sel%09%09!+ABSTRACT%20+SMELL", "1", "sel", "", "!+ABSTRACT +SMELL"),  # 3.4.7
        ("1sel%09%09+application/postscript%20Es_ES", "1", "sel", "", "+application/postscript Es_ES"),
        # 3.4.9: an electronic form filled in
        (
            "1sel%09%09+%091%0D%0A+-1%0D%0Avalue1%0D%0Avalue2%0D%0A.%0D%0A",
            "1",
            "sel",
            "",
            "+\t1\r\n+-1\r\nvalue1\r\nvalue2\r\n.\r\n",
        ),
    ],
)
def test_gopher_plus_forms(
    gopher_path: str, gtype: str, selector: str, search: str | None, plus: str | None
) -> None:
    p = parts(f"gopher://host.dom:70/{gopher_path}")
    assert (p["gtype"], p["selector"], p["search"], p["gopher_plus"]) == (gtype, selector, search, plus)


def test_gopher_without_slash() -> None:
    # 3.4.1: "the delimiting "/" is also optional"
    assert parts("gopher://host.dom")["gtype"] == "1"


@pytest.mark.parametrize(
    "url",
    [
        # the appendix's three examples, rejoined
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://ds.internic.net/rfc",
        "http://ds.internic.net/instructions/overview.html#WARNING",
        # the references
        "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
        "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
        "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z",
        "ftp://quake.think.com/pub/wais/doc/protspec.txt",
        # the proxy-rewritten forms in shared/spec/rfc1738.txt are valid ftp URLs too
        "ftp://meilu.jpshuntong.com/url-687474703a2f2f64732e696e7465726e69632e6e6574/rfc/rfc1630.txt",
        "mailto:joe@host.example",
        "telnet://user:secret@host.example:2323/",
        "wais://quake.think.com/directory-of-servers?music",
        "nntp://news.example/comp.infosystems.www.misc/1234",
    ],
)
def test_reference_urls(url: str) -> None:
    assert urlsift.validate(url).valid, urlsift.validate(url).error


def test_appendix_fragment_is_split_and_reported() -> None:
    v = urlsift.validate("http://ds.internic.net/instructions/overview.html#WARNING")
    assert v.parts["fragment"] == "WARNING"
    assert v.parts["path"] == "instructions/overview.html"
