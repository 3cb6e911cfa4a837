"""The command line's options over archives: zip and tar members, -j, --unique, --schemes, --count,
--stats, and the jsonl writer against json.dumps."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift.cli import main
from urlsift.output import FORMATS, Format, Printing, writer
from urlsift.rows import FIELDS, RENUMBERED, Before, Event, Renumbered, Report, Row

CORPORA = Path(__file__).parents[1] / "corpora"
HARD_CASES = CORPORA / "mail" / "mail-url-hard-cases.mbox"
PIPERMAIL = CORPORA / "mail" / "r-devel-2000-May.mbox"
RFC = CORPORA / "rfc" / "rfc1738.txt"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _tar(path: Path, members: dict[str, bytes], compress: bool = False) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    path.write_bytes(gzip.compress(buffer.getvalue()) if compress else buffer.getvalue())


@pytest.mark.parametrize("kind", ["zip", "tar", "tar.gz"])
def test_archive_members_give_what_the_files_give_with_the_member_named(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    members = {"lists/hard.mbox": HARD_CASES.read_bytes(), "rfc/rfc1738.txt": RFC.read_bytes()}
    archive = tmp_path / f"a.{kind}"
    if kind == "zip":
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as packed:
            for name, data in members.items():
                packed.writestr(name, data)
    else:
        _tar(archive, members, compress=kind == "tar.gz")
    _, plain, _ = _run(["--format", "jsonl", str(HARD_CASES), str(RFC)], capsys)
    status, packed_out, _ = _run(["--format", "jsonl", str(archive)], capsys)
    assert status == 0
    rows = [json.loads(line) for line in packed_out.splitlines()]
    expected = [json.loads(line) for line in plain.splitlines()]
    assert len(rows) == len(expected) > 700
    for row, alone in zip(rows, expected, strict=True):
        member = "lists/hard.mbox" if alone["source"] == str(HARD_CASES) else "rfc/rfc1738.txt"
        assert row == {**alone, "source": str(archive), "member": member}


def _files(tmp_path: Path) -> list[str]:
    (tmp_path / "bad.gz").write_bytes(b"\x1f\x8b" + b"\x00" * 40)
    (tmp_path / "one.txt").write_text("<URL:http://one.example/> <URL:ftp://x.example/>\n")
    return [
        str(HARD_CASES),
        str(tmp_path / "bad.gz"),
        str(PIPERMAIL),
        str(tmp_path / "missing"),
        str(tmp_path),
    ]


def test_jobs_give_the_same_output_in_the_same_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _files(tmp_path)
    one = _run(["--format", "jsonl", "--invalid", "--stats", *paths], capsys)
    two = _run(["--format", "jsonl", "--invalid", "--stats", "-j", "2", *paths], capsys)
    assert one == two
    assert one[0] == 2
    assert len(one[1].splitlines()) > 1000


def test_unique_counts_the_spellings_of_one_url_and_canonical_prints_its_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "<URL:HTTP://Host.Example:80/a%7e%41> http://host.example/a%7EA ftp://x.example/\n"
    (tmp_path / "a.txt").write_text(text + "<URL:http://HOST.example/a%7eA>\n")
    status, out, _ = _run(["--unique", str(tmp_path / "a.txt")], capsys)
    assert status == 0
    assert out.splitlines() == ["HTTP://Host.Example:80/a%7e%41", "ftp://x.example/"]
    _, out, _ = _run(["--unique", "--format", "jsonl", str(tmp_path / "a.txt")], capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["url"], r["canonical"], r["count"], r["line"]) for r in rows] == [
        ("HTTP://Host.Example:80/a%7e%41", "http://host.example/a%7EA", 3, 1),
        ("ftp://x.example/", "ftp://x.example/", 1, 1),
    ]
    _, out, _ = _run(["--canonical", str(tmp_path / "a.txt")], capsys)
    assert out.splitlines() == ["http://host.example/a%7EA"] * 2 + [
        "ftp://x.example/",
        "http://host.example/a%7EA",
    ]
    _, out, _ = _run(["--format", "jsonl", str(tmp_path / "a.txt")], capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert {(row["canonical"], row["count"]) for row in rows} == {(None, None)}


def test_unique_schemes_and_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run([str(PIPERMAIL)], capsys)
    every = out.splitlines()
    status, out, _ = _run(["--unique", str(PIPERMAIL)], capsys)
    assert out.splitlines() == list(dict.fromkeys(every))  # no two spellings of one URL in there
    assert len(every) > len(out.splitlines())
    _, out, _ = _run(["--schemes", "FTP,mailto", str(PIPERMAIL)], capsys)
    assert out.splitlines() == [url for url in every if url.lower().startswith(("ftp:", "mailto:"))]
    assert out
    _, out, _ = _run(["--count", str(PIPERMAIL)], capsys)
    assert out == f"{len(every)}\n"
    (tmp_path / "one.txt").write_text("<URL:http://one.example/> <URL:ftp://x.example/>\n")
    (tmp_path / "none.txt").write_text("nothing\n")
    status, out, _ = _run(["--count", "--schemes", "ftp", str(tmp_path)], capsys)
    assert out == f"{tmp_path / 'none.txt'}:0\n{tmp_path / 'one.txt'}:1\n"
    assert status == 0
    assert _run(["--schemes", "gopher", str(tmp_path / "one.txt")], capsys)[0] == 1


def test_stats_add_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, err = _run(["--stats", *_files(tmp_path)], capsys)
    lines = {
        line.split()[1]: line for line in err.splitlines() if line.startswith("urlsift: ") and "  " in line
    }
    assert lines["files"].split(None, 2)[2] == "6 = 3 scanned + 3 failed"  # bad.gz twice, missing
    assert lines["messages"].split(None, 2)[2] == "429 = 429 scanned + 0 failed"
    assert f"{len(out.splitlines()):,} printed" in lines["URLs"]


row_text = st.text(st.characters(codec="utf-8"), max_size=12)
rows = st.builds(
    Row,
    url=row_text,
    alternatives=st.lists(row_text, max_size=2).map(tuple),
    valid=st.booleans(),
    scheme=st.none() | row_text,
    wrapper=st.sampled_from([None, "URL:", "<>", '"']),
    naked=st.booleans(),
    line=st.integers(1, 10**6),
    column=st.integers(0, 10**6),
    source=row_text,
    member=st.none() | row_text,
    message=st.none() | st.integers(0, 10**6),
    offset=st.none() | st.integers(0, 10**9),
    message_id=st.none() | row_text,
    date=st.none() | row_text,
    newsgroups=st.none() | row_text,
    part=st.none() | row_text,
    error=st.none() | row_text,
    canonical=st.none() | row_text,
    count=st.none() | st.integers(1, 10**6),
    start=st.integers(0, 10**9),
    end=st.integers(0, 10**9),
    quote_depth=st.integers(0, 16),
    context=st.none() | row_text,
    wayback=st.none() | row_text,
)


@given(st.lists(rows, max_size=4))
def test_the_jsonl_writer_writes_what_json_dumps_writes(found: list[Row]) -> None:
    # Each match again in another row's message: the writer encodes a repeated match once.
    found += [Row._make((*mine[:8], *other[8:])) for mine, other in zip(found, reversed(found), strict=True)]
    out = io.StringIO()
    write = writer("jsonl", out)
    for row in found:
        write(row)
    expected = "".join(json.dumps(row._asdict(), ensure_ascii=False) + "\n" for row in found)
    assert out.getvalue() == expected
    assert all(list(json.loads(line)) == list(FIELDS) for line in out.getvalue().split("\n")[:-1])


def _shifted(row: Row, renumbered: tuple[Renumbered, ...], before: Before) -> Row:
    if "message" in renumbered and row.message is not None:
        return row._replace(message=row.message + before.messages)
    if "line" in renumbered:
        start, end = row.start + before.characters, row.end + before.characters
        return row._replace(line=row.line + before.lines, start=start, end=end)
    return row


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("renumbered", [(), RENUMBERED["text"], RENUMBERED["mbox"]])
@given(
    # A rejected candidate's row says why, a valid URL's does not.
    found=st.lists(
        rows.map(lambda row: row._replace(error=None if row.valid else row.error or "bad", count=None)),
        max_size=6,
    ),
    before=st.builds(Before, st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**9)),
    cut=st.integers(0, 6),
)
def test_rows_a_worker_prints_are_those_the_printer_prints(
    fmt: Format, renumbered: tuple[Renumbered, ...], found: list[Row], before: Before, cut: int
) -> None:
    """A worker's ``Printing.render`` (a report among the rows, the numbers of ``renumbered`` filled
    in later, shifted on by the file's earlier pieces) prints what the printing process prints from
    the rows: whatever the rows hold, control characters (the slot's own mark) included."""
    report = Report("a.mbox#3", "malformed", "x", False, 3)
    events: list[Event] = [*found[:cut], report, *found[cut:]]
    rendered = Printing(fmt).render(events, renumbered)
    assert [event for event in rendered if isinstance(event, Report)] == [report]
    printed = [event for event in rendered if not isinstance(event, Report | Row)]
    expected = io.StringIO()
    write = writer(fmt, expected, header=False)
    for row in found:
        write(_shifted(row, renumbered, before) if fmt != "text" else row)
    assert "".join(event.renumbered(before).text() for event in printed) == expected.getvalue()
    assert sum(event.rows for event in printed) == len(found)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_on_a_terminal_and_none_with_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for quiet in ([], ["--quiet"]):
        terminal = _Terminal()
        monkeypatch.setattr("sys.stderr", terminal)
        assert main([*quiet, str(PIPERMAIL)]) == 0
        shown = terminal.getvalue()
        if quiet:
            assert "messages" not in shown
        else:
            assert "396 messages" in shown  # the bar's last state: every message of the file
            assert "B" in shown
        # Reports go above the bar, whole lines.
        assert "undecodable-bytes: 1 undecodable byte sequences (utf-8)\n" in shown
    capsys.readouterr()
