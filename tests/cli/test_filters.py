"""The filters issue 30 asked for (D38), on the command line and in ``urlsift.scan``: ``--parts``
(header values, body, or all), ``--host`` (a host or one below it), ``--since-date`` and
``--until-date`` (a message's Date, in UTC), ``--max-quote-depth``."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

import urlsift
from urlsift.cli import main
from urlsift.rows import Row

ROOT = Path(__file__).resolve().parents[2]

MBOX = "".join(
    f"From a@example.com {separator}\nFrom: a@example.com\nDate: {date}\n"
    "List-Archive: <https://lists.example.org/archive/>\n\n"
    f"see http://{host}/{k} and mailto:joe@a.example.org\n"
    f"> quoted http://quoted.example/{k}\n>> deeper http://deeper.example/{k}\n\n"
    for k, (separator, date, host) in enumerate(
        [
            ("Mon Dec 31 23:30:00 2001", "Mon, 31 Dec 2001 23:30:00 -0100", "www.example.org"),  # 2002 in UTC
            ("Tue Jun  4 10:00:00 2002", "Tue, 4 Jun 2002 10:00:00 +0000", "badexample.org"),
            ("Wed Jan  1 00:00:00 2003", "Wed, 1 Jan 2003 00:00:00 +0000", "b.example.org"),
            ("Thu Jan  2 00:00:00 2003", "no date at all", "c.example.net"),
        ]
    )
)


@pytest.fixture
def mbox(tmp_path: Path) -> Path:
    path = tmp_path / "list.mbox"
    path.write_text(MBOX)
    return path


def _urls(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    status = main(["--no-progress", *argv])
    out = capsys.readouterr().out.splitlines()
    assert status == (0 if out else 1)
    return out


def test_parts_body_leaves_the_header_values_out(mbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    every = _urls(capsys, str(mbox))
    assert every.count("https://lists.example.org/archive/") == 4  # the default: all
    body = _urls(capsys, "--parts", "body", str(mbox))
    assert body == [url for url in every if url != "https://lists.example.org/archive/"]
    assert _urls(capsys, "--parts", "headers", str(mbox)) == ["https://lists.example.org/archive/"] * 4
    assert _urls(capsys, "--parts", "all", str(mbox)) == every


def test_parts_headers_reads_no_plain_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("http://example.org/\n")
    assert _urls(capsys, "--parts", "headers", str(text)) == []
    assert _urls(capsys, "--parts", "body", str(text)) == ["http://example.org/"]


def test_host_keeps_that_host_and_those_below_it(mbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = _urls(capsys, "--parts", "body", "--host", "Example.ORG", str(mbox))
    assert found == [
        *("http://www.example.org/0", "mailto:joe@a.example.org"),
        *("mailto:joe@a.example.org", "http://b.example.org/2", "mailto:joe@a.example.org"),
        "mailto:joe@a.example.org",
    ]  # not badexample.org
    both = _urls(capsys, "--parts", "body", "--host", "example.net", "--host", "quoted.example", str(mbox))
    assert both == [
        *(f"http://quoted.example/{k}" for k in range(3)),
        "http://c.example.net/3",
        "http://quoted.example/3",
    ]


def test_dates_bound_the_messages_in_utc(mbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def hosts(*argv: str) -> list[str]:
        urls = _urls(capsys, "--parts", "body", "--max-quote-depth", "0", *argv, str(mbox))
        return [url.split("/")[2] for url in urls if url.startswith("http")]

    assert hosts() == ["www.example.org", "badexample.org", "b.example.org", "c.example.net"]
    # The first message is of 2002 in UTC; one with no readable date is in no range.
    assert hosts("--since-date", "2002", "--until-date", "2002") == ["www.example.org", "badexample.org"]
    assert hosts("--since-date", "2002-06") == ["badexample.org", "b.example.org"]
    assert hosts("--until-date", "2002-06-04") == ["www.example.org", "badexample.org"]
    assert hosts("--until-date", "2002-06-04T10:00:00Z") == ["www.example.org"]
    assert hosts("--since-date", "2003-01-01T01:00:00+01:00") == ["b.example.org"]


def test_max_quote_depth(mbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    every = _urls(capsys, "--parts", "body", str(mbox))
    assert _urls(capsys, "--parts", "body", "--max-quote-depth", "1", str(mbox)) == [
        url for url in every if "deeper" not in url
    ]
    assert not any("quoted" in url for url in _urls(capsys, "--max-quote-depth", "0", str(mbox)))


def test_filters_with_jobs_give_what_one_process_gives(
    mbox: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--parts", "body", "--host", "example.org", "--since-date", "2002", str(mbox), str(mbox)]
    assert _urls(capsys, "-j", "2", "--split-size", "200", *argv) == _urls(capsys, *argv)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--since-date", "2002-13"], "--since-date: not a date: '2002-13'"),
        (["--until-date", "yesterday"], "--until-date: not a date: 'yesterday'"),
        (["--since-date", "2003", "--until-date", "2002"], "--until-date must come after --since-date"),
        (["--host", "a/b"], "--host: not a host name: 'a/b'"),
    ],
)
def test_filters_that_cannot_be_read_are_refused(
    mbox: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    assert main(["--no-progress", *argv, str(mbox)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert said in err


def test_the_library_takes_the_same_filters(mbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--parts", "body", "--host", "example.org", "--since-date", "2002-06", "--max-quote-depth", "0"]
    cli = _urls(capsys, *argv, str(mbox))
    found = urlsift.scan(
        mbox, parts="body", hosts="example.org", since_date=datetime.date(2002, 6, 1), max_quote_depth=0
    )
    assert [row.url for row in found if isinstance(row, Row)] == cli
    batches = urlsift.scan_batches(
        mbox, parts="body", hosts=["example.org"], since_date="2002-06", max_quote_depth=0
    )
    assert [row.url for batch in batches for row in batch.to_rows() if isinstance(row, Row)] == cli
    message = MBOX.split("\nFrom a@")[0].encode()
    assert [row.url for row in urlsift.extract_message(message, parts="headers") if isinstance(row, Row)] == [
        "https://lists.example.org/archive/"
    ]
    with pytest.raises(ValueError, match="parts is one of all, headers, body"):
        urlsift.scan(mbox, parts="bodies")
    with pytest.raises(ValueError, match="until_date must come after since_date"):
        urlsift.scan(mbox, since_date="2003", until_date=datetime.datetime(2002, 1, 1))


@pytest.mark.parametrize("until", ["9999", "9999-12", "9999-12-31", datetime.date(9999, 12, 31)])
def test_a_range_that_ends_in_the_last_year_there_is_keeps_all_after_its_start(
    mbox: Path, capsys: pytest.CaptureFixture[str], until: str | datetime.date
) -> None:
    # The end of 9999 is past what a datetime holds: it was an internal error (a day) or "not a
    # date" (a year, a month).
    dated = _urls(capsys, "--since-date", "2001", "--until-date", "2500", str(mbox))
    assert dated
    assert not any("c.example.net" in url for url in dated)
    if isinstance(until, str):
        assert _urls(capsys, "--since-date", "2001", "--until-date", until, str(mbox)) == dated
    rows = urlsift.scan(mbox, since_date="2001", until_date=until)
    assert [row.url for row in rows if isinstance(row, Row)] == dated
