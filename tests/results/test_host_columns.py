"""The columns issue 30 asked for (D38): ``host`` as each scheme decomposes it, lower-cased, with
IDNA's Unicode form beside; ``registered_domain`` by the Public Suffix List; ``surt``, the Internet
Archive's key; ``date`` in UTC, ISO 8601, with the header's text in ``date_header``; ``wayback``
only for the schemes the Wayback Machine holds. Through every face: jsonl, csv, Parquet, batches,
Dask's frame."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock
from urllib.parse import unquote_to_bytes

import growth
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urlsift
from urlsift import _select, hosts
from urlsift.cli import main
from urlsift.dates import timestamp
from urlsift.hosts import host_columns, surt
from urlsift.rows import FIELDS, Row
from urlsift.validate import validate

pytestmark = pytest.mark.usefixtures("core")
"""Every test under both cores: the native one works out the columns of the hosts it takes."""

MESSAGE = (
    "From a@example.com Tue Jan 23 14:32:20 2024\n"
    "From: a@example.com\n"
    "Date: Tue, 23 Jan 2024 14:32:20 +0100  \n"
    "List-Archive: <https://lists.Example.ORG/pipermail/x/>\n"
    "\n"
    "see http://www.BBC.co.uk/News?b=1&a=2#top and mailto:Joe@Example.COM\n"
    "news:comp.lang.python ftp://ftp.x.org/pub/ http://192.168.0.1:80/x\n"
    "http://someone.github.io/p https://bücher.example/ä\n"
)

# What the ``surt`` package (0.3.1) gives for these, its default options.
SURTS = {
    "http://www.Example.com/Path?b=2&a=1#frag": "com,example)/path?a=1&b=2",
    "https://www2.example.com:443/": "com,example)/",
    "http://example.com:8080/a/": "com,example:8080)/a",
    "ftp://ftp.x.org/a": "org,x,ftp)/a",
    "http://user:pw@www.example.com/": "com,example)/",
    "http://[::1]/": "::1)/",
    "http://a.b.co.uk./x": "uk,co,b,a)/x",
    "http://example.com": "com,example)/",
    "http://example.com/?": "com,example)/",
    "http://example.com/a%7eb/../c": "com,example)/c",
    "http://EXAMPLE.com/A/B/": "com,example)/a/b",
    "https://example.com/foo?": "com,example)/foo",
    "http://xn--bcher-kva.example/": "example,xn--bcher-kva)/",
    # The package leaves the "&" before a session id it drops: keys are matched as it writes them.
    "http://example.com/a?x=1&jsessionid=0123456789abcdef0123456789abcdef": "com,example)/a?&x=1",
    "http://example.com/s?b&a=1&a": "com,example)/s?a&a=1&b",
    # Session ids: ASP.NET's in a path before an .aspx, ColdFusion's pair in a query.
    f"http://example.com/x/(a({'b' * 24}))/page.aspx?q=1": "com,example)/x/page.aspx?q=1",
    f"http://example.com/x/({'b' * 24})/y/Page.ASPX": "com,example)/x/y/page.aspx",
    "http://example.com/a?cfid=1&cftoken=2&z=3": "com,example)/a?z=3",
    "http://example.com/a?x=cfid=cfid=&CFTOKEN=9": "com,example)/a?x=",
}


@pytest.fixture
def mbox(tmp_path: Path) -> Path:
    path = tmp_path / "list.mbox"
    path.write_text(MESSAGE, encoding="utf-8")
    return path


def _jsonl(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    assert main(["--no-progress", "--format", "jsonl", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_host_columns_follow_each_scheme(mbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = {row["url"]: row for row in _jsonl(capsys, "--profile", "modern", str(mbox))}
    columns = ("host", "host_unicode", "registered_domain", "surt")

    def named(url: str) -> tuple[object, ...]:
        return tuple(rows[url][name] for name in columns)

    assert named("https://lists.Example.ORG/pipermail/x/") == (
        *("lists.example.org", "lists.example.org", "example.org"),
        "org,example,lists)/pipermail/x",
    )
    assert named("http://www.BBC.co.uk/News?b=1&a=2#top") == (
        *("www.bbc.co.uk", "www.bbc.co.uk", "bbc.co.uk"),
        "uk,co,bbc)/news?a=2&b=1",
    )
    # A mailto's host is its address's domain; it has no SURT (no Wayback Machine copy).
    assert named("mailto:Joe@Example.COM") == ("example.com", "example.com", "example.com", None)
    assert named("news:comp.lang.python") == (None, None, None, None)  # a group is no host
    assert named("ftp://ftp.x.org/pub/") == ("ftp.x.org", "ftp.x.org", "x.org", "org,x,ftp)/pub")
    assert named("http://192.168.0.1:80/x") == ("192.168.0.1", "192.168.0.1", None, "1,0,168,192)/x")
    # The ICANN section: a github.io page's registered domain is github.io.
    assert named("http://someone.github.io/p")[2] == "github.io"
    assert named("https://bücher.example/ä")[:2] == ("xn--bcher-kva.example", "bücher.example")


def test_date_is_utc_iso_and_the_header_text_is_kept(mbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _jsonl(capsys, str(mbox))
    assert {row["date"] for row in rows} == {"2024-01-23T13:32:20Z"}
    assert {row["date_header"] for row in rows} == {"Tue, 23 Jan 2024 14:32:20 +0100"}
    assert main(["--no-progress", "--format", "csv", str(mbox)]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {row["date"] for row in table} == {"2024-01-23T13:32:20Z"}
    assert list(table[0]) == list(FIELDS)
    assert table[0]["host"] == "lists.example.org"


def test_an_unreadable_date_is_null_and_its_text_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.eml"
    path.write_text("From: a@example.com\nDate: last Tuesday\n\nhttp://a.example/\n")
    (row,) = _jsonl(capsys, "--wayback", str(path))
    assert (row["date"], row["date_header"], row["wayback"]) == (None, "last Tuesday", None)


def test_wayback_only_for_the_schemes_the_archive_holds(
    mbox: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _jsonl(capsys, "--wayback", str(mbox))
    filled = {row["scheme"] for row in rows if row["wayback"]}
    assert filled == {"http", "https", "ftp"}
    assert all(row["wayback"] is None for row in rows if row["scheme"] in {"mailto", "news"})
    first = next(row for row in rows if row["scheme"] == "http")
    assert first["wayback"] == f"https://web.archive.org/web/20240123133220/{first['url']}"


@pytest.mark.parametrize(("url", "key"), sorted(SURTS.items()))
def test_surt_is_the_internet_archives_key(url: str, key: str) -> None:
    assert surt(url) == key


@growth.timing
@pytest.mark.parametrize(
    "piece",
    [f"(a({'b' * 24}))/", f"({'b' * 24})/", "cfid=", "sid=", "/", "&"],
)
def test_surt_costs_linear_time(piece: str) -> None:
    """The package's session-id patterns, as written, were quadratic in a path of ids with no
    .aspx after them, or a query of "cfid=" with no "&": read here in one pass."""
    where = "?" if "=" in piece or piece == "&" else ""
    urls = [f"http://a.example/{where}{piece * n}x" for n in (300, 3000)]
    growth.assert_linear(surt, urls, f"surt of {piece!r} repeated")


@growth.timing
@pytest.mark.parametrize("where", ["", "?q=", "%252e"])
def test_escapes_of_escapes_cost_linear_time(where: str) -> None:
    """ "%252525...41" is undone a round a "25": as rounds of whole passes, quadratic."""
    urls = [f"http://a.example/{where}%{'25' * n}41" for n in (300, 3000)]
    growth.assert_linear(surt, urls, "surt of an escape escaped again and again")


def _unescaped_round_by_round(data: bytes) -> bytes:
    """The package's own way: whole rounds of ``unquote_to_bytes`` till one changes nothing."""
    while (decoded := unquote_to_bytes(data)) != data:
        data = decoded
    return data


_ESCAPE_PIECES = ["%", "%25", "%2", "5", "2", "4", "1", "a", "F", "g", "/", "\u00e9"]


@given(st.lists(st.sampled_from(_ESCAPE_PIECES), max_size=30))
def test_escapes_of_escapes_are_undone_as_round_by_round(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert hosts._unescaped(text) == _unescaped_round_by_round(text.encode("utf-8", "surrogateescape"))


def test_surt_agrees_with_the_surt_package() -> None:
    package = pytest.importorskip("surt")
    for url in SURTS:
        assert surt(url) == package.surt(url), url


def test_text_output_shows_none_of_the_new_columns(mbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-progress", str(mbox)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[:2] == ["https://lists.Example.ORG/pipermail/x/", "http://www.BBC.co.uk/News?b=1&a=2#top"]


def test_library_rows_and_batches_carry_the_columns(mbox: Path) -> None:
    rows = [row for row in urlsift.scan(mbox) if isinstance(row, Row)]
    assert rows[0].host == "lists.example.org"
    assert rows[0].date == "2024-01-23T13:32:20Z"
    (batch,) = urlsift.scan_batches(mbox)
    assert batch.to_rows() == rows
    assert batch.matches.surt[0] == "org,example,lists)/pipermail/x"
    assert set(batch.matches.date_header) == {"Tue, 23 Jan 2024 14:32:20 +0100"}


def test_parquet_date_is_a_timestamp_duckdb_reads_without_pytz(
    mbox: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    duckdb = pytest.importorskip("duckdb")
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "out"
    assert main(["--no-progress", "--format", "parquet", "--output", str(out), str(mbox)]) == 0
    assert str(pq.read_schema(next(out.glob("*.parquet"))).field("date").type) == "timestamp[us]"
    monkeypatch.setitem(sys.modules, "pytz", None)  # as in a venv with only urlsift[parquet] and duckdb
    found = duckdb.sql(f"select date, host, date_header from '{out}/*.parquet' limit 1").fetchall()
    assert found == [
        (datetime(2024, 1, 23, 13, 32, 20), "lists.example.org", "Tue, 23 Jan 2024 14:32:20 +0100")
    ]


def test_dasks_frame_has_the_columns() -> None:
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    from urlsift.parquet import meta

    frame = meta()
    assert list(frame.columns) == list(FIELDS)
    assert str(frame["date"].dtype).startswith("timestamp[us]")
    assert str(frame["host"].dtype).startswith("string")


@settings(max_examples=300, deadline=None)
@given(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.integers(-23 * 60 - 59, 23 * 60 + 59),
    st.sampled_from(["", "Tue, ", "mon,", " "]),
    st.sampled_from(["", " (CET)", "  "]),
    st.booleans(),
)
def test_usual_dates_read_as_the_email_package_reads_them(
    when: datetime, zone: int, weekday: str, comment: str, seconds: bool
) -> None:
    import email.utils

    sign, minutes = ("-" if zone < 0 else "+"), abs(zone)
    month = when.strftime("%b")
    written = (
        f"{weekday}{when.day} {month} {when.year:04} {when:%H:%M}{when.strftime(':%S') if seconds else ''} "
        f"{sign}{minutes // 60:02}{minutes % 60:02}{comment}"
    )
    try:
        expected = email.utils.parsedate_to_datetime(written).astimezone(UTC)
    except (ValueError, OverflowError):
        expected = None
    assert timestamp(written) == expected, written


@pytest.mark.parametrize(
    ("url", "host", "key"),
    [
        ("http://[v1.x]/", "v1.x", "[v1.x])/"),
        ("http://[::1]:80/a", "::1", "[::1])/a"),
        ("http://[2001:DB8::1]:8080/p?b=2&a=1", "2001:db8::1", "[2001:db8::1]:8080)/p?a=1&b=2"),
    ],
)
def test_an_ip_literal_has_no_domain_and_a_key_not_reversed(url: str, host: str, key: str) -> None:
    # IPvFuture's "v1.x" was keyed "x,v1)/" and given the registered domain "v1.x", as a name.
    rows = [
        found for found in urlsift.scan(io.BytesIO(url.encode()), profile="modern") if isinstance(found, Row)
    ]
    assert [(row.host, row.registered_domain, row.surt) for row in rows] == [(host, None, key)]


def test_a_strict_mailto_host_ends_at_its_query() -> None:
    # RFC 1738's address takes "?" as an xchar, so the strict part holds the query too (D38).
    verdict = validate("mailto:help@Lists.Ettus.com?subject=help")
    assert verdict.valid
    assert "?" in str(verdict.parts["address"])
    host, host_unicode, domain, _ = host_columns(verdict.url, "mailto", verdict.parts)
    assert (host, host_unicode, domain) == ("lists.ettus.com", "lists.ettus.com", "ettus.com")


# The Public Suffix List's look-up reads the ICANN section's ASCII rules alone for a host that is
# ASCII with no "xn--" label (start-up, issues 31 and 32), or, under the rust core, asks the core's
# parse of the same file (rust/core/src/hosts.rs' Suffixes): held to the whole list's answers (the
# package's own parse of its file) on every rule of the file made a host, the corpora's host names
# and made-up hosts (IDN, wildcards like "*.ck", exceptions like "!www.ck", the private section,
# trailing dots, case).


def _by_the_whole_list(host: str) -> str | None:
    # Under either core: the rust one answers a plain host from its own parse of the file.
    with _select.using("python"), mock.patch.object(hosts, "_ascii_suffixes", hosts._suffixes):
        return hosts.registered_domain.__wrapped__(host)


def _rules() -> list[str]:
    from publicsuffixlist import PSLFILE

    lines = Path(PSLFILE).read_text(encoding="utf-8").splitlines()
    return [line.split()[0] for line in lines if line.strip() and not line.startswith("//")]


def _hosts_of(rule: str) -> Iterator[str]:
    name = rule.removeprefix("!").replace("*", "x")
    for host in (name, f"a.{name}", f"a.b.{name}", f"A.B.{name.upper()}", f"a.{name}."):
        yield host
        with contextlib.suppress(UnicodeError):
            yield host.encode("idna").decode("ascii")


def test_the_ascii_rules_decide_as_the_whole_list_on_every_rule() -> None:
    rules = _rules()
    assert {"*.ck", "!www.ck", "github.io", "рф"} <= set(rules)  # both sections, IDN rules
    plain = 0
    for host in (host for rule in rules for host in _hosts_of(rule)):
        assert hosts.registered_domain.__wrapped__(host) == _by_the_whole_list(host), host
        plain += host.isascii() and "xn--" not in host.lower()
    assert plain > 20_000  # (most of them go to the ASCII rules)


def test_the_ascii_rules_decide_as_the_whole_list_on_the_corpora() -> None:
    found = set()
    for path in (Path(__file__).parents[2] / "corpora").rglob("*"):
        if path.is_file():
            found |= set(re.findall(r"(?:[\w-]+\.)+[\w-]+\.?", path.read_text("utf-8", "replace")))
    assert len(found) > 3_000
    for host in found:
        assert hosts.registered_domain.__wrapped__(host) == _by_the_whole_list(host), host


_PLAIN_LABELS = ("www", "a", "ck", "city", "kobe", "jp", "co", "uk", "github", "io", "com", "blogspot")
_OTHER_LABELS = (
    "xn--p1ai",
    "XN--P1AI",
    "рф",
    "xn--bcher-kva",
    "bücher",
    "k",
    "\u212a",
    "Ck",
    "",
    "*",
    "!www",
)
_LABELS = st.sampled_from((*_PLAIN_LABELS, *_OTHER_LABELS))


@given(st.lists(_LABELS, min_size=1, max_size=6), st.booleans())
def test_the_ascii_rules_decide_as_the_whole_list_on_made_up_hosts(labels: list[str], dot: bool) -> None:
    host = ".".join(labels) + ("." if dot else "")
    assert hosts.registered_domain.__wrapped__(host) == _by_the_whole_list(host)
