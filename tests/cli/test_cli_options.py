"""The command line's options over archives: zip and tar members, -j, --unique, --schemes (and
+LIST), --count, --stats, -0 through xargs -0, --files-from, the hint on a terminal, and the jsonl
writer against json.dumps."""

from __future__ import annotations

import gzip
import io
import json
import os
import pty
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift.batches import batch_of
from urlsift.cli import MAX_LISTED_PATH, _listed, main
from urlsift.output import FORMATS, Format, escaped, writer
from urlsift.rows import FIELDS, Report, Row

CORPORA = Path(__file__).parents[2] / "corpora"
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
    assert out == f"{tmp_path / 'one.txt'}:1\n"  # none.txt's 0 left out, as ripgrep leaves it
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


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("plain", [True, False], ids=["text", "mbox"])
@given(
    # A rejected candidate's row says why, a valid URL's does not.
    found=st.lists(
        rows.map(lambda row: row._replace(error=None if row.valid else row.error or "bad", count=None)),
        max_size=6,
    ),
    before=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**9)),
    cut=st.integers(0, 6),
)
def test_a_pieces_batch_shifted_prints_the_rows_numbered_on(
    fmt: Format, plain: bool, found: list[Row], before: tuple[int, int, int], cut: int
) -> None:
    """A piece of a file is numbered as in the whole file by adding the earlier pieces' counts to
    columns of its batch (``Batch.shifted``: an mbox's message indexes, a plain text's lines and
    offsets), not by rewriting printed text: the batch gives the rows shifted, whatever they hold,
    and the writers print from them what they print from those rows."""
    messages, lines, characters = before
    # (a batch holds no ``naked``: it is ``wrapper`` None)
    found = [row._replace(message=None if plain else row.message, naked=row.wrapper is None) for row in found]
    report = Report("a.mbox#3", "malformed", "x", False, 3)
    events: list[Row | Report] = [*found[:cut], report, *found[cut:]]

    def shifted(row: Row) -> Row:
        if row.message is not None:
            return row._replace(message=row.message + messages)
        if not plain:
            return row
        return row._replace(line=row.line + lines, start=row.start + characters, end=row.end + characters)

    batch = batch_of(events).shifted(messages, lines if plain else 0, characters if plain else 0)
    moved = Report(f"a.mbox#{3 + messages}", "malformed", "x", False, 3 + messages)
    expected = [*map(shifted, found[:cut]), moved, *map(shifted, found[cut:])]
    assert list(batch.events()) == expected
    out, wanted = io.StringIO(), io.StringIO()
    write, write_wanted = writer(fmt, out), writer(fmt, wanted)
    for event in batch.events():
        if isinstance(event, Row):
            write(event)
    for row in expected:
        if isinstance(row, Row):
            write_wanted(row)
    assert out.getvalue() == wanted.getvalue()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_on_a_terminal_and_none_with_no_progress(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for quiet in ([], ["--no-progress"]):
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
        assert "undecodable-bytes: 1 undecodable byte sequence (utf-8)\n" in shown
    capsys.readouterr()


_ARGV_AS_JSON = "import json, sys; print(json.dumps(sys.argv[1:]))"


@pytest.mark.skipif(shutil.which("xargs") is None, reason="no xargs here")
@pytest.mark.parametrize(
    "options",
    [["--invalid"], ["--format", "jsonl", "--invalid"], ["--format", "csv", "--invalid"], ["--count"]],
    ids=["text", "jsonl", "csv", "count"],
)
def test_null_ends_each_row_with_a_nul_that_xargs_0_splits_on(
    options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(HARD_CASES), str(RFC)]
    _, lines, _ = _run([*options, *paths], capsys)
    # Rows with spaces and quotes in them (reasons, headers): what plain xargs would split them at.
    assert any(" " in line and "'" in line for line in lines.splitlines()) or options == ["--count"]
    urlsift = subprocess.Popen(
        [sys.executable, "-m", "urlsift", "-0", *options, *paths],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    # -r: nothing to run if nothing came; the rows go to the command as they came, in batches.
    xargs = subprocess.run(
        ["xargs", "-0", "-r", sys.executable, "-c", _ARGV_AS_JSON],
        stdin=urlsift.stdout,
        capture_output=True,
        text=True,
        check=True,
    )
    assert urlsift.stdout is not None
    urlsift.stdout.close()
    assert urlsift.wait() == 0
    arguments = [row for batch in xargs.stdout.splitlines() for row in json.loads(batch)]
    assert arguments == lines.splitlines()
    assert len(arguments) >= 2


def test_null_with_workers_that_print_their_own_rows(capsys: pytest.CaptureFixture[str]) -> None:
    # Pieces of one mbox printed by workers, their message numbers filled in by the printer.
    argv = ["--format", "jsonl", "--invalid", "--split-size", "64K", str(PIPERMAIL)]
    _, one, _ = _run(argv, capsys)
    status, two, _ = _run(["-0", "-j", "2", *argv], capsys)
    assert status == 0
    assert "\n" not in two
    assert two.split("\0") == [*one.splitlines(), ""]
    assert len({json.loads(row)["message"] for row in one.splitlines()}) > 100


def _listing(tmp_path: Path) -> list[str]:
    """Paths as a list names them: a file, a missing one, a folder, a name with a space in it."""
    (tmp_path / "spool").mkdir()
    (tmp_path / "spool" / "1").write_text("Newsgroups: a.b\nSubject: x\n\nsee <URL:http://one.example/>\n")
    (tmp_path / "with space.txt").write_text("<URL:ftp://two.example/> and http://host/~user/\n")
    names = ["missing", "spool", "with space.txt"]
    return [str(HARD_CASES), *(str(tmp_path / name) for name in names)]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_files_from_reads_the_listed_paths_as_arguments_are_read(
    jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _listing(tmp_path)
    listing = tmp_path / "list"
    # A Windows line end and an empty line, which name no file.
    listing.write_bytes(b"\r\n".join(map(os.fsencode, paths[:2])) + b"\n\n" + "\n".join(paths[2:]).encode())
    argv = ["--format", "jsonl", "--invalid", "--stats", "-j", jobs]
    expected = _run([*argv, str(RFC), *paths], capsys)
    assert expected[0] == 2  # the missing file, reported, the rest scanned
    assert f"urlsift: {tmp_path / 'missing'}: unreadable:" in expected[2]
    assert _run([*argv, "--files-from", str(listing), str(RFC)], capsys) == expected  # the PATHs first


def test_files_from_standard_input_with_nul_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _listing(tmp_path)
    newline = tmp_path / "a\nname"  # only a NUL-separated list can name it
    newline.write_text("<URL:gopher://three.example/>\n")
    paths.append(str(newline))
    expected = _run(["--count", *paths], capsys)
    assert f"{escaped(str(newline))}:1\n" in expected[1]
    listed = b"".join(os.fsencode(path) + b"\0" for path in paths)  # as find -print0 writes them
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(listed)))
    assert _run(["--count", "--null-data", "--files-from", "-"], capsys) == expected


class _Trickle(io.BytesIO):
    """A file that gives at most a few bytes a read, as a pipe may: paths are cut between reads."""

    def __init__(self, data: bytes, most: int) -> None:
        super().__init__(data)
        self.most = most

    def read(self, size: int | None = -1) -> bytes:
        return super().read(self.most if size is None or size < 0 else min(size, self.most))

    def read1(self, size: int | None = -1) -> bytes:
        return self.read(size)


_PATH_BYTES = st.binary(min_size=1, max_size=30).filter(lambda path: path != b"-" and b"\0" not in path)


@given(
    st.lists(_PATH_BYTES, max_size=20),
    st.sampled_from([b"\0", b"\n"]),
    st.booleans(),
    st.integers(1, 40),
)
def test_a_files_from_list_gives_its_paths_however_it_is_read(
    paths: list[bytes], separator: bytes, ended: bool, most: int
) -> None:
    if separator == b"\n":  # no line feed in a path, and no CR before the line's own
        paths = [path.replace(b"\n", b"").rstrip(b"\r") for path in paths]
        paths = [b"x" if path in (b"", b"-") else path for path in paths]
    data = separator.join(paths) + (separator if ended and paths else b"")
    assert list(_listed(_Trickle(data, most), separator, "list")) == [os.fsdecode(path) for path in paths]


def test_a_listed_dash_is_a_file_and_a_crlf_ends_a_line() -> None:
    assert list(_listed(io.BytesIO(b"-\r\na b\r\n\r\nc"), b"\n", "list")) == ["./-", "a b", "c"]
    assert list(_listed(io.BytesIO(b"-\0a\r\0\0"), b"\0", "list")) == ["./-", "a\r"]


def test_files_from_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, said in [
        ([], "required: PATH (or --files-from FILE)"),
        (["--null-data", str(RFC)], "--null-data goes with --files-from"),
        (["--files-from", "-", "-"], "standard input cannot be both"),
    ]:
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 2
        assert said in capsys.readouterr().err
    status, out, err = _run(["--files-from", str(tmp_path / "nowhere"), str(RFC)], capsys)
    assert (status, out) == (2, "")  # nothing read: the list is opened first
    assert err == f"urlsift: {tmp_path / 'nowhere'}: No such file or directory\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_list_that_is_no_list_of_paths_stops_before_any_work(
    jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "list"
    listing.write_bytes(f"{HARD_CASES}\0{RFC}\0".encode())  # find -print0's, read without --null-data
    status, out, err = _run(["-j", jobs, "--no-filename", "--files-from", str(listing), str(RFC)], capsys)
    assert (status, out) == (2, "")
    assert err == f"urlsift: {listing}: a NUL in the list of files (find -print0's?): add --null-data\n"
    _, urls, _ = _run([str(RFC)], capsys)
    # An entry that would be held whole: at the start, nothing is read; later, the run stops there.
    for data, before in [(b"x" * (MAX_LISTED_PATH + 1), ""), (b"a\n" + b"y" * 3 * MAX_LISTED_PATH, urls)]:
        listing.write_bytes(data)
        for options in [[], ["--null-data"]]:
            argv = ["-j", jobs, "--no-filename", *options, "--files-from", str(listing), str(RFC)]
            status, out, err = _run(argv, capsys)
            assert status == 2
            # Whole files before it, or none where -j planned ahead (a NUL-separated list: one entry).
            assert out in {before if options == [] else "", ""}
            assert err.endswith(f"{listing}: not a list of files (an entry longer than 65,536 bytes)\n")


_DOIS = "See doi:10.1000/182 and HDL:4263537/4000 or http://x.example/,\nand doi:10.1/a~b. <URL:doi:10.1/w>\n"


@pytest.mark.parametrize("profile", ["strict", "modern"])
def test_schemes_plus_finds_more_schemes_and_still_prints_every_one(
    profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "dois.txt").write_text(_DOIS)
    argv = ["--format", "jsonl", "--invalid", "--profile", profile, str(tmp_path / "dois.txt")]
    _, out, _ = _run(argv, capsys)
    assert [json.loads(row)["url"] for row in out.splitlines()] == ["http://x.example/", "doi:10.1/w"]
    for jobs in ["1", "2"]:  # the workers scan with the schemes too
        status, out, _ = _run(["--schemes", " +doi, hdl", "-j", jobs, *argv], capsys)
        assert status == 0
        rows = [json.loads(row) for row in out.splitlines()]
        found = [(row["url"], row["scheme"], row["naked"], row["valid"]) for row in rows]
        assert found == [
            ("doi:10.1000/182", "doi", True, True),
            ("HDL:4263537/4000", "hdl", True, True),
            ("http://x.example/", "http", True, True),
            ("doi:10.1/a~b", "doi", True, profile == "modern"),  # '~': unsafe in RFC 1738's generic form
            ("doi:10.1/w", "doi", False, True),
        ]
    assert "(schemepart): '~'" in rows[3]["error"] if profile == "strict" else rows[3]["error"] is None
    # A plain list still only filters: the naked ones are not found.
    _, out, _ = _run(["--schemes", "doi,hdl", *argv], capsys)
    assert [json.loads(row)["url"] for row in out.splitlines()] == ["doi:10.1/w"]


@pytest.mark.parametrize("schemes", ["+", "+1x", "+doi,a b", "http,_x", "+" + "a" * 33, ","])
def test_schemes_that_cannot_be_schemes_are_a_usage_error(
    schemes: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--schemes", schemes, str(RFC)])
    assert stopped.value.code == 2
    assert "argument --schemes: " in capsys.readouterr().err


def _stderr_on_a_terminal(argv: list[str]) -> str:
    """What urlsift writes on standard error when that is a terminal (a pty), its output discarded."""
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "urlsift", *argv], stdout=subprocess.DEVNULL, stderr=follower
    ) as running:
        os.close(follower)
        said = b""
        while True:  # read as it comes (a full pty would stop the writer), up to the end (EIO on Linux)
            try:
                data = os.read(leader, 1 << 16)
            except OSError:
                break
            if not data:
                break
            said += data
        os.close(leader)
        assert running.wait() == 0
    return said.decode().replace("\r\n", "\n")  # the terminal's own line ends


@pytest.mark.skipif(not hasattr(pty, "openpty") or sys.platform == "win32", reason="no pty here")
def test_a_hint_on_a_terminal_when_the_modern_profile_would_find_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "a.txt"
    text.write_text(
        "<URL:http://host/~user/> http://a.example/ <URL:http://[::1]/> <URL:http://c.example/>\n"
    )
    _, _, err = _run(["--stats", str(text)], capsys)
    assert " 2 of the rejected are valid by today's rules" in err
    hint = (
        "urlsift: hint: 2 rejected candidates are valid by today's rules (RFC 3986: '~', https, IPv6 ...): "
        "--profile modern finds them\n"
    )
    assert _stderr_on_a_terminal(["--no-progress", str(text)]) == hint
    quiet = "--no-progress"
    assert _stderr_on_a_terminal([quiet, "-j", "2", str(text)]) == hint  # the workers judge again too
    (tmp_path / "b.txt").write_text("<URL:http://a.example/> <URL:http://host/%zz>\n")
    assert _stderr_on_a_terminal([quiet, str(tmp_path / "b.txt")]) == ""  # modern takes no rejected one
    assert _stderr_on_a_terminal(["--no-progress", "--profile", "modern", str(text)]) == ""
    assert hint not in _stderr_on_a_terminal(["--no-progress", "--stats", str(text)])  # the summary says it
    text.write_text("http://host/~user/ http://a.example/\n")
    assert "hint: 1 rejected candidate is valid by today's rules" in _stderr_on_a_terminal([quiet, str(text)])
    # Not a terminal (a log, a pipe, a test's capture): no hint.
    status, _, err = _run([str(text)], capsys)
    assert (status, err) == (0, "")
    piped = subprocess.run([sys.executable, "-m", "urlsift", str(text)], capture_output=True, check=True)
    assert piped.stderr == b""
