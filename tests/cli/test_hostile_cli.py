"""Issue 17, the command line's part: hostile folders, write errors, ``-j`` processes, output
escaping, accounting, option parsing, Ctrl-C; and the report kinds docs/guide.md lists (issue 18.5).

Every input is built here, in tmp_path. Each test asserts the exit status, what standard error
says (one line per problem, never a traceback), that the later files are read, and the counts.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import fcntl
import gzip
import io
import json
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import time
import unicodedata
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, get_args

import inbox
import pytest
from hypothesis import given
from hypothesis import strategies as st

import urlsift.cli
import urlsift.results
import urlsift.sources.mime
from urlsift import _select
from urlsift._model import DEFECT_KINDS, ERROR_KINDS, WARNING_KINDS, DefectKind, MessageText
from urlsift.cli import main
from urlsift.execute import execute
from urlsift.output import escaped
from urlsift.plan import build
from urlsift.rows import Block, Event, Options, Report, Row, Tally
from urlsift.sources import Counter, read_path

GUIDE = Path(__file__).parents[2] / "docs" / "guide.md"
UNSAFE_CATEGORIES = ("Cc", "Cf", "Cs", "Zl", "Zp")


def run(*args: str | Path, **popen: Any) -> subprocess.CompletedProcess[str]:
    """urlsift with ``args``; a scan prints the URLs alone (``--no-filename``), as these tests read them."""
    popen = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **popen}
    named = [] if args[:1] == ("validate",) else ["--no-filename"]
    return subprocess.run(
        [sys.executable, "-m", "urlsift", *named, *map(str, args)], text=True, timeout=120, **popen
    )


def stats(err: str) -> dict[str, list[int]]:
    """The ``--stats`` lines: their first word, and every number on the line."""
    found = {}
    for line in err.splitlines():
        if m := re.fullmatch(r"urlsift: (files|messages|parts|bytes|URLs|skipped|problems) +(.*)", line):
            found[m.group(1)] = [int(n.replace(",", "")) for n in re.findall(r"[\d,]*\d", m.group(2))]
    return found


def reports(err: str) -> list[str]:
    """The report lines (``urlsift: PLACE: kind: detail``), less the summary."""
    kinds = "|".join(map(re.escape, DEFECT_KINDS))
    return [line for line in err.splitlines() if re.match(rf"urlsift: .*: ({kinds}): ", line)]


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr
    assert "Exception ignored" not in result.stderr


def text_file(path: Path, *urls: str) -> Path:
    path.write_text("".join(f"see {url} here\n" for url in urls))
    return path


def gzipped(path: Path, *urls: str) -> Path:
    """A compressed file is one unit of work however small (``units.plan``)."""
    path.write_bytes(gzip.compress("".join(f"see {url} here\n" for url in urls).encode()))
    return path


def hostile_folder(root: Path) -> Path:
    """A folder with one of each folder problem between good files: a link to itself, a link to
    nothing, a link back up (a loop) and a FIFO."""
    folder = root / "spool"
    (folder / "sub").mkdir(parents=True)
    text_file(folder / "1", "http://first.example/")
    os.symlink("me", folder / "me")  # ln -s me me
    os.symlink("nowhere", folder / "dangling")
    os.symlink("..", folder / "sub" / "up")
    os.mkfifo(folder / "fifo")
    text_file(folder / "sub" / "zz", "http://last.example/")
    return folder


# --- item 4: folder problems are reports, and the later files are read ----------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_folder_problems_are_reported_and_the_walk_goes_on(tmp_path: Path, jobs: str) -> None:
    folder = hostile_folder(tmp_path)
    result = run("--stats", "-j", jobs, folder)
    no_traceback(result)
    assert result.returncode == 2
    assert result.stdout.splitlines() == ["http://first.example/", "http://last.example/"]
    assert sorted(reports(result.stderr)) == [
        f"urlsift: {folder}/dangling: unreadable: a link to nothing (its target does not exist)",
        f"urlsift: {folder}/fifo: unreadable: not a regular file (a FIFO, socket or device): not read",
        f"urlsift: {folder}/me: unreadable: Too many levels of symbolic links",
        f"urlsift: {folder}/sub/up: unreadable: a link loop: this folder was read already",
    ]
    counts = stats(result.stderr)
    assert counts["files"] == [2, 2, 0]
    assert counts["skipped"] == [4]
    assert counts["problems"] == [4, 4, 0]


def test_a_file_gone_between_listing_and_reading_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "spool"
    folder.mkdir()
    for name, url in (("1", "http://a.example/"), ("2", "http://b.example/"), ("3", "http://c.example/")):
        text_file(folder / name, url)

    def delete_after_the_first(
        events: Iterator[Event | Block], counter: Counter, tally: Tally
    ) -> Iterator[Event | Block]:
        yield from events  # (``execute``'s seam that the progress bar watches files through)
        (folder / "2").unlink(missing_ok=True)  # the folder is listed, 1 is read: 2 goes now

    found: list[Event] = []
    total = Tally()
    for _, batches, tally in execute(build([str(folder)], Options()), delete_after_the_first):
        for batch in batches:
            found.extend(batch.events())
        total.add(tally)
    assert [event.url for event in found if isinstance(event, Row)] == [
        "http://a.example/",
        "http://c.example/",
    ]
    assert [event for event in found if isinstance(event, Report)] == [
        Report(f"{folder}/2", "unreadable", "No such file or directory", True)
    ]
    assert (total.files, total.files_failed, total.errors, total.warnings) == (3, 1, 1, 0)


# --- item 14: write errors are one line and exit 2; a closed pipe stays quiet --------------


FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")
@pytest.mark.parametrize(
    "args", [["--format", "text"], ["--format", "jsonl"], ["--format", "csv"], ["--count"], ["-j", "2"]]
)
def test_a_full_disk_is_one_line_and_exit_two(tmp_path: Path, args: list[str]) -> None:
    urls = [f"http://host.example/{n}" for n in range(5000)]  # more than a buffer of output
    many = text_file(tmp_path / "many.txt", *urls)
    with FULL.open("w") as full:
        result = run(*args, many, text_file(tmp_path / "b.txt", *urls), stdout=full, stderr=subprocess.PIPE)
    no_traceback(result)
    assert result.returncode == 2
    assert result.stderr == "urlsift: cannot write the output: standard output: No space left on device\n"


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")
def test_validate_on_a_full_disk_is_one_line_and_exit_two() -> None:
    with FULL.open("w") as full:
        result = run("validate", "http://a.example/", stdout=full, stderr=subprocess.PIPE)
    no_traceback(result)
    assert (result.returncode, result.stderr.count("\n")) == (2, 1)
    assert "No space left on device" in result.stderr


def test_an_unwritable_parquet_folder_is_one_line_and_exit_two(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    source = text_file(tmp_path / "a.txt", "http://a.example/")
    for output in (source / "sub", Path("/proc/urlsift-cannot-be-here")):  # root can write anywhere else
        result = run("--format", "parquet", "--output", output, source)
        no_traceback(result)
        assert result.returncode == 2
        assert result.stderr.startswith(f"urlsift: cannot write the output: {output}: ")
        assert result.stderr.count("\n") == 1


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    many = text_file(tmp_path / "many.txt", *(f"http://host.example/{n}" for n in range(100_000)))
    process = subprocess.Popen(
        [sys.executable, "-m", "urlsift", "--no-filename", many],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    assert process.stdout.readline() == b"http://host.example/0\n"
    process.stdout.close()  # as `| head -1` does
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == b""


# --- item 15: -j starts no more processes than units, and they die with their parent ------


def test_jobs_capped_at_the_units_with_a_warning_above_the_cores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[int] = []
    pool = ProcessPoolExecutor

    def counted(max_workers: int, **kwargs: Any) -> Any:
        started.append(max_workers)
        return pool(max_workers=max_workers, **kwargs)

    monkeypatch.setattr("urlsift.workers.ProcessPoolExecutor", counted)
    monkeypatch.setattr(urlsift.cli, "_cores", lambda: 4)
    files = [str(gzipped(tmp_path / f"{n}.gz", f"http://h{n}.example/")) for n in range(2)]
    assert main(["--no-filename", "-j", "40", "--split-size", "10", *files]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["http://h0.example/", "http://h1.example/"]
    assert started == [2]
    assert err == "urlsift: -j 40: more processes than the 4 cores here\n"
    # Under the cores: no warning; small files: one batch.
    assert main(["--no-filename", "-j", "3", *files]) == 0
    assert capsys.readouterr().err == ""
    assert started == [2, 1]


def _children(pid: int) -> list[int]:
    """The live (not zombie) processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


@contextlib.contextmanager
def killed_after(process: subprocess.Popen[Any]) -> Iterator[None]:
    """Whatever the test says, the process group it started (a session of its own) is killed
    after it: workers that outlived a failing test must not outlive the test run."""
    try:
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _as_at_a_terminal() -> None:
    """SIGINT as a command typed at a terminal has it: a test run started in the background of a
    script (``pytest ... &``) ignores SIGINT, its children inherit that, and Python then installs
    no KeyboardInterrupt handler: Ctrl-C would not reach urlsift at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _ignores_sigint(pid: int) -> bool:
    ignored = re.search(r"^SigIgn:\s*([0-9a-f]+)$", Path(f"/proc/{pid}/status").read_text(), re.MULTILINE)
    assert ignored is not None
    return bool(int(ignored.group(1), 16) >> (signal.SIGINT - 1) & 1)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_workers_die_with_their_parent_killed(tmp_path: Path) -> None:
    files = [gzipped(tmp_path / f"{n}.gz", "http://a.example/") for n in range(2)]
    # Standard input, read by the main process, last: it waits there, its workers idle.
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "urlsift",
            "--no-filename",
            "-j",
            "2",
            "--split-size",
            "10",
            *map(str, files),
            "-",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    with killed_after(process):
        deadline = time.monotonic() + 30
        while len(workers := _children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) == 2
        process.kill()
        process.wait()
        deadline = time.monotonic() + 5
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(_alive, workers))


# --- item 16: nothing that acts on a terminal or a spreadsheet comes out ------------------


HOSTILE = "\x1b[2J\x07\u202e\u200b\x9b"  # clear screen, bell, right-to-left override, zero width, CSI


def unsafe(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in UNSAFE_CATEGORIES]


def unsafe_in_output(out: str) -> list[str]:
    """What ``unsafe`` finds in lines of output, less their line breaks and tab separators."""
    return unsafe(out.replace("\n", "").replace("\t", ""))


@given(st.text())
def test_escaped_leaves_no_control_or_format_character(text: str) -> None:
    assert unsafe(escaped(text)) == []
    if not unsafe(text):
        assert escaped(text) == text  # what is safe is left alone


def test_escaped_spells_each_character_as_python_does() -> None:
    assert escaped("a\x1bb\x07\u202ec\U000e0001") == "a\\x1bb\\x07\\u202ec\\U000e0001"


def test_validate_escapes_what_its_arguments_hold(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", f"http://host/{HOSTILE}", f"<URL:http://a{HOSTILE}>"]) == 1
    out = capsys.readouterr().out
    assert unsafe_in_output(out) == []
    assert "http://host/\\x1b[2J\\x07\\u202e\\u200b\\x9b\t" in out


def test_text_and_csv_escape_jsonl_stays_raw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "a.txt"
    # A rejected candidate with every kind, and an IRI the modern profile takes with U+200B in it.
    source.write_text(f"<URL:http://host/{HOSTILE}>\nhttp://host.example/a\u200bb\n")
    for fmt in ("text", "csv"):
        main(["--invalid", "--profile", "modern", "--format", fmt, str(source)])
        out = capsys.readouterr().out
        assert unsafe_in_output(out) == []
        assert "\\u202e" in out
        assert "a\\u200bb" in out
    main(["--invalid", "--profile", "modern", "--format", "jsonl", str(source)])
    out = capsys.readouterr().out
    assert "\u202e" in out  # JSON is for programs: the value as it is
    assert "a\u200bb" in out


def test_csv_cells_that_would_be_formulas_are_quoted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "a.eml"
    source.write_bytes(
        b'From: a@example.com\nMessage-ID: =HYPERLINK("http://evil.example/")\n'
        b"Date: +1+cmd|' /C calc'!A0\nNewsgroups: @SUM(1+1)\nSubject: x\n\n"
        b"see <URL:-2+3> and <URL:=1+1> and http://fine.example/\n"
    )
    main(["--invalid", "--format", "csv", str(source)])
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["url"] for row in rows] == ["http://evil.example/", "'-2+3", "'=1+1", "http://fine.example/"]
    assert rows[-1]["message_id"] == '\'=HYPERLINK("http://evil.example/")'
    assert rows[-1]["date"] == ""  # no date can be read in it: its text is date_header's (D38)
    assert rows[-1]["date_header"] == "'+1+cmd|' /C calc'!A0"
    assert rows[-1]["newsgroups"] == "'@SUM(1+1)"
    assert not any(cell.startswith(tuple("=+-@\t\r")) for row in rows for cell in row.values())


# --- item 17: --stats counts every report, and the counts add up -------------------------


def test_every_problem_is_counted_and_the_sums_add_up(tmp_path: Path) -> None:
    folder = hostile_folder(tmp_path)
    (folder / "2.gz").write_bytes(gzip.compress(b"see http://cut.example/ here\n" * 2000)[:-200])  # corrupt
    (folder / "3.bin").write_bytes(b"\0binary http://not.example/\n")  # binary
    (folder / "4.mbox").write_bytes(  # too-large, unknown-charset, and a message read
        b"From a@b Mon Jan  1 00:00:00 2024\nSubject: big\n\n" + b"x" * 3000 + b"\n\n"
        b"From a@b Mon Jan  1 00:00:00 2024\nSubject: ok\nContent-Type: text/plain; charset=x-nope\n\n"
        b"http://kept.example/\n"
    )
    result = run("--stats", "--max-message", "2k", folder)
    no_traceback(result)
    assert result.returncode == 2
    assert "http://last.example/" in result.stdout
    assert "http://kept.example/" in result.stdout
    said = reports(result.stderr)
    kinds = sorted(re.match(r"urlsift: .*?: ([a-z-]+): ", line).group(1) for line in said)  # type: ignore[union-attr]
    # 3.bin, met in the folder, is skipped as ripgrep skips it (D37): no report, no failure.
    assert kinds == ["corrupt", "too-large", "unknown-charset"] + ["unreadable"] * 4
    counts = stats(result.stderr)
    files, scanned, failed, binary = counts["files"]
    assert (files, scanned + failed + binary, failed, binary) == (5, files, 1, 1)  # 2.gz failed
    messages, scanned, failed = counts["messages"]
    assert (messages, scanned + failed, failed) == (2, messages, 1)
    problems, errors, warnings = counts["problems"]
    assert (problems, errors + warnings) == (len(said), problems)
    assert (errors, warnings) == (6, 1)
    assert counts["skipped"] == [4]


def _mbox(path: Path, count: int) -> Path:
    path.write_bytes(
        b"".join(
            b"From a@b Mon Jan  1 00:00:00 2024\nSubject: %d\n\nhttp://m%d.example/\n\n" % (n, n)
            for n in range(count)
        )
    )
    return path


def _messages_in_python(patch: pytest.MonkeyPatch) -> None:
    """Every message read into Python (``MessageText``), where the faults below are put: under the
    Rust core an mbox's messages are the core's (its faults: tests/results/test_native_mail.py)."""
    patch.setattr(urlsift.results, "_read_options", lambda options: options.read)


def test_an_internal_error_in_one_message_loses_that_message_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _messages_in_python(monkeypatch)
    real = urlsift.results._message

    def failing(message: MessageText, *args: Any) -> Iterator[Any]:
        if message.provenance.message == 1:
            raise RuntimeError("a bug")
        return real(message, *args)

    monkeypatch.setattr(urlsift.results, "_message", failing)
    mbox = _mbox(tmp_path / "a.mbox", 3)
    assert (
        main(["--no-filename", "--stats", str(mbox), str(text_file(tmp_path / "b.txt", "http://b.example/"))])
        == 2
    )
    out, err = capsys.readouterr()
    assert out.splitlines() == ["http://m0.example/", "http://m2.example/", "http://b.example/"]
    assert reports(err) == [
        f"urlsift: {mbox}#1: internal: internal error, please report it: RuntimeError: a bug"
    ]
    assert stats(err)["messages"] == [3, 2, 1]
    assert stats(err)["files"] == [2, 2, 0]
    assert stats(err)["problems"] == [1, 1, 0]


def test_the_message_a_reader_fails_on_is_counted_and_the_next_file_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _messages_in_python(monkeypatch)
    real = read_path

    def failing(path: str, *args: Any) -> Iterator[Any]:
        for item in real(path, *args):
            if isinstance(item, MessageText) and item.provenance.message == 1:
                raise RuntimeError("a bug in the reader")
            yield item

    monkeypatch.setattr("urlsift.results.read_path", failing)
    mbox = _mbox(tmp_path / "a.mbox", 3)
    assert (
        main(["--no-filename", "--stats", str(mbox), str(text_file(tmp_path / "b.txt", "http://b.example/"))])
        == 2
    )
    out, err = capsys.readouterr()
    assert out.splitlines() == ["http://m0.example/", "http://b.example/"]
    [said] = reports(err)
    assert said.startswith(f"urlsift: {mbox}: internal: internal error, please report it: RuntimeError: ")
    assert re.search(r"; the rest of the file is not read \(after [\d,]+ bytes\)$", said)
    assert stats(err)["messages"] == [2, 1, 1]  # message 0 read; message 1, which failed
    assert stats(err)["files"] == [2, 1, 1]
    assert stats(err)["problems"] == [1, 1, 0]


# --- item 18: sizes, Ctrl-C, Dask's closed pipe ------------------------------------------


@pytest.mark.parametrize("size", ["infG", "inf", "nan", "-5", "-1G", "1e3", "²", "1.2.3", ""])
def test_a_bad_size_is_a_usage_error(size: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main([f"--max-expand={size}", "x"])
    assert raised.value.code == 2
    assert f"argument --max-expand: not a size: {size!r}" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("size", "expected"), [("20G", 20 * 10**9), ("1.1G", 1_100_000_000), (".5k", 500), ("7", 7)]
)
def test_sizes_as_people_write_them(size: str, expected: int) -> None:
    assert urlsift.cli._size(size) == expected


@pytest.mark.parametrize("jobs", ["²", "0", "-1", "1e2"])
def test_a_bad_number_of_processes_is_a_usage_error(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main([f"--jobs={jobs}", "x"])
    assert raised.value.code == 2
    assert "not a number of processes" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("how", "workers_started"), [(["-j", "1"], 0), (["-j", "2"], 2), (["--scheduler", "local:2"], 2)]
)
def test_ctrl_c_prints_the_summary_so_far_and_exits_130(
    tmp_path: Path, how: list[str], workers_started: int
) -> None:
    if "--scheduler" in how:
        pytest.importorskip("dask")  # local:N needs Dask only, not distributed
    # Two units (compressed files, tiny batches), so that -j 2 starts two workers.
    files = [gzipped(tmp_path / f"{n}.gz", *(f"http://a.example/{k}" for k in range(500))) for n in range(2)]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "urlsift",
            "--no-filename",
            "--stats",
            *how,
            "--split-size",
            "10",
            *map(str, files),
            "-",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a shell's job
        preexec_fn=_as_at_a_terminal,
    )
    with killed_after(process):
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write("http://stdin.example/ waits here\n")
        process.stdin.flush()
        for _ in range(1000):  # the files are printed: urlsift now waits on standard input
            assert process.stdout.readline().startswith("http://a.example/")
        workers = _children(process.pid)
        assert len(workers) == workers_started
        # Ctrl-C is the parent's to handle: a worker that took it would print a traceback of its own
        # (it does, now and then, when the parent is slow to stop it); see that it cannot.
        assert all(map(_ignores_sigint, workers))
        os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C does: to the whole group, the workers too
        # Standard input stays open until urlsift ends (communicate() would close it, and on a
        # loaded machine urlsift could read its end before it sees the signal, and exit 0).
        process.wait(timeout=120)
        assert process.stderr is not None
        err = process.stderr.read()
        assert process.returncode == 130
        assert "Traceback" not in err
        assert err.splitlines()[0].startswith("urlsift: interrupted")
        counts = stats(err)
        assert counts["URLs"][:2] == [1000, 1000]
        assert sum(counts["files"][1:]) == counts["files"][0] >= 2
        time.sleep(0.5)
        assert not any(map(_alive, workers))


@pytest.mark.parametrize("how", [["-j", "2"], ["--scheduler", "local:2"]], ids=["j2", "local2"])
def test_ctrl_c_stops_a_worker_in_the_middle_of_its_unit(tmp_path: Path, how: list[str]) -> None:
    """Ctrl-C ends the run at once (``local:N``: the threads that wait for Dask's results are not
    waited for), exit 130. One FIFO: two could take both workers before the file to print first."""
    if "--scheduler" in how:
        pytest.importorskip("dask")
    fifo = tmp_path / "fifo"  # given by name, it is read (as <(command) is): nobody writes, it blocks
    os.mkfifo(fifo)
    first = gzipped(tmp_path / "a.gz", "http://a.example/")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "urlsift",
            "--no-filename",
            "--stats",
            *how,
            "--split-size",
            "10",
            str(first),
            str(fifo),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_at_a_terminal,
    )
    with killed_after(process):
        assert process.stdout is not None
        assert process.stdout.readline() == "http://a.example/\n"
        deadline = time.monotonic() + 60
        # Both workers started and ignoring SIGINT (a worker still starting would die of it).
        while time.monotonic() < deadline and not (
            len(workers := _children(process.pid)) == 2 and all(map(_ignores_sigint, workers))
        ):
            time.sleep(0.05)
        time.sleep(0.5)  # the second worker in the fifo's open()
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=120)  # not waiting for the unit that never ends
        assert process.returncode == 130
        assert "Traceback" not in err
        assert stats(err)["URLs"][:2] == [1, 1]
        time.sleep(0.5)
        assert not any(map(_alive, workers))


def _many_urls(path: Path, kind: str, count: int) -> Path:
    """``count`` valid URLs: 10 to a message of an mbox, or one to a line of a plain text."""
    if kind == "text":
        return text_file(path, *(f"http://t.example/{k}" for k in range(count)))
    head = b"From a@b Mon Jan  1 00:00:00 2024\nSubject: %d\n\n"
    urls = b"".join(b"http://m%%d.example/%d\n" % k for k in range(10))
    path.write_bytes(b"".join(head % n + urls % ((n,) * 10) + b"\n" for n in range(count // 10)))
    return path


def _held_in_a_write(process: subprocess.Popen[str]) -> None:
    """Wait until ``process`` can go no further: its standard output (a pipe this process does not
    read) is full, and it sleeps (in the write, or in waiting for a worker's next piece)."""
    assert process.stdout is not None
    out = process.stdout.fileno()
    size = fcntl.fcntl(out, fcntl.F_GETPIPE_SZ)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        held = struct.unpack("i", fcntl.ioctl(out, termios.FIONREAD, b"\0" * 4))[0]
        state = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        if held >= size - 4096 and state == "S":
            return
        time.sleep(0.01)
    raise AssertionError("urlsift did not stop at a full pipe")


@pytest.mark.parametrize("kind", ["mbox", "text"])
@pytest.mark.parametrize(
    "how", [["-j", "2"], ["-j", "2", "--split-size", "200k"], ["-j", "1"]], ids=["j2", "j2-split", "j1"]
)
def test_ctrl_c_mid_file_counts_what_was_printed(tmp_path: Path, kind: str, how: list[str]) -> None:
    """Review M3: with -j N a file's counts came with its last piece, so Ctrl-C in the middle of a
    file said ``files 0 = 0 scanned + 0 failed`` and ``URLs 0 valid (365,000 printed)``; with -j 1
    the bytes of the file being read were not counted. Output not read blocks urlsift in a write
    in the middle of the file (a pipe holds far less than the file's rows) when Ctrl-C comes."""
    total = 200_000
    path = _many_urls(tmp_path / f"a.{kind}", kind, total)
    process = subprocess.Popen(
        [sys.executable, "-m", "urlsift", "--no-filename", "--stats", *how, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_at_a_terminal,
    )
    with killed_after(process):
        assert process.stdout is not None
        for _ in range(5_000):
            assert process.stdout.readline().startswith("http://")
        # Not between counting a row and printing it (Ctrl-C there is off by the rows in between).
        _held_in_a_write(process)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=120)
    assert process.returncode == 130
    assert "Traceback" not in err
    assert err.splitlines()[0] == f"urlsift: interrupted while reading {path}"
    counts = stats(err)
    valid, printed = counts["URLs"][:2]
    assert 5_000 <= valid == printed < total
    assert counts["files"] == [1, 0, 1]  # the file being read: seen, and failed
    if kind == "mbox":
        assert counts["messages"][0] >= valid // 10
    assert counts["bytes"][0] > 0


def test_a_closed_pipe_with_a_local_dask_cluster_ends_quietly(tmp_path: Path) -> None:
    pytest.importorskip("dask")
    urls = [f"http://h.example/{k}" for k in range(20_000)]
    files = " ".join(str(text_file(tmp_path / f"{n}.txt", *urls)) for n in range(6))
    for _ in range(2):  # the warnings came on some runs, not all
        result = subprocess.run(
            f"{sys.executable} -m urlsift --no-filename --scheduler local:2 --split-size 100k "
            f"{files} | head -1",
            shell=True,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.stdout == "http://h.example/0\n"
        assert result.stderr == ""


# --- issue 18.5: the kinds are a closed set, and the guide lists exactly them ----------------


def test_every_kind_is_an_error_or_a_warning() -> None:
    assert ERROR_KINDS | WARNING_KINDS == DEFECT_KINDS == set(get_args(DefectKind))
    assert not ERROR_KINDS & WARNING_KINDS
    assert {"internal", "lost"} <= ERROR_KINDS


def test_the_guide_lists_exactly_the_kinds_that_exist() -> None:
    text = GUIDE.read_text()
    table = text[text.index("| kind | | exit |") :]
    table = table[: table.index("\n\n")]
    listed: dict[str, str] = {}
    for row in table.splitlines()[2:]:
        names, _, exit_status = (cell.strip() for cell in row.strip("|").split("|"))
        for name in re.findall(r"`([a-z-]+)`", names):
            listed[name] = exit_status
    assert set(listed) == DEFECT_KINDS
    assert {name for name, status in listed.items() if status == "2"} == ERROR_KINDS


# --- issue 29.7: one error family -----------------------------------------------------------


def test_a_missing_extra_is_one_line_and_exit_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # None: "not installed" to the import system
    monkeypatch.delitem(sys.modules, "urlsift.parquet", raising=False)
    text = text_file(tmp_path / "a.txt", "http://a.example/")
    assert main(["--format", "parquet", "--output", str(tmp_path / "out"), str(text)]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("urlsift: Parquet output needs pyarrow (")
    assert line.endswith(": pip install 'urlsift[parquet]'")


def test_an_import_error_that_is_a_bug_is_said_as_one_not_as_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not every ImportError is an extra not installed: a module of urlsift itself that cannot be
    imported (a broken install, a bug) is an internal error, not a line that blames the options."""
    monkeypatch.setitem(sys.modules, "urlsift.workers", None)  # what -j 2 imports when it starts
    files = [str(gzipped(tmp_path / f"{n}.txt.gz", f"http://{n}.example/")) for n in "ab"]
    assert main(["--no-filename", "-j", "2", *files]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "urlsift: internal error, please report it: ModuleNotFoundError: import of urlsift.workers halted; "
        "None in sys.modules"
    ]


# --- issue 28.12: --state FILE is read with a guard, saved with a named error ---------------


def _state_run(tmp_path: Path, state: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    repository = tmp_path / "0.git"  # --state reads repositories only (issue 29)
    if not repository.exists():
        inbox.commit(inbox.init(repository), [b"Subject: s\n\nsee http://a.example/ here\n"])
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "urlsift",
            "--no-filename",
            "--no-progress",
            "--state",
            str(state),
            str(repository),
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "nested", "folder"])
def test_a_state_file_that_is_no_state_is_one_line_exit_2(tmp_path: Path, kind: str) -> None:
    state = tmp_path / "state.json"
    if kind == "fifo":
        os.mkfifo(state)  # it was: blocked for ever in open()
    elif kind == "/dev/zero":
        state.symlink_to("/dev/zero")  # it was: 3 GB in 2.4 s, growing
    elif kind == "nested":
        state.write_text("[" * 200_000 + "]" * 200_000)  # it was: a RecursionError traceback
    else:
        state.mkdir()
    started = time.monotonic()
    done = _state_run(tmp_path, state)
    assert time.monotonic() - started < 30
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(f"urlsift: --state {state}: ")
    said = {"fifo": "a FIFO, not a regular file", "/dev/zero": "a device, not a regular file"}
    said |= {"nested": "JSON nested too deep", "folder": "a folder, not a regular file"}
    assert said[kind] in done.stderr


def test_a_state_file_that_cannot_be_saved_is_named_and_its_temporary_removed(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text("{}\n")
    (tmp_path / "state.json.tmp").symlink_to("/dev/full")  # a full disk under the temporary file
    done = _state_run(tmp_path, state)
    assert done.returncode == 2
    assert done.stdout == "http://a.example/\n"
    assert done.stderr == (
        f"urlsift: {state}: --state: cannot be saved (No space left on device); it is left as it was\n"
    )  # it was: "urlsift: No space left on device", and an empty .tmp
    assert not (tmp_path / "state.json.tmp").exists()
    assert state.read_text() == "{}\n"


# --- issue 28: what the environment does never ends the run silently ------------------------

_WARNED = (  # three messages, each with a warning: reports on standard error, exit 0
    b"".join(
        b"From a@b Mon Jan  1 00:00:00 2024\nContent-Type: text/plain; charset=x-nope\n\nhttp://m%d.example/\n\n"
        % n
        for n in range(3)
    )
)


@pytest.mark.parametrize("stderr", ["2>/dev/full", "2>&-"], ids=["full", "closed"])
@pytest.mark.parametrize("stats_option", [[], ["--stats"]], ids=["plain", "stats"])
def test_an_unwritable_standard_error_changes_neither_output_nor_status(
    tmp_path: Path, stderr: str, stats_option: list[str]
) -> None:
    # Issue 28.8: the first report's print raised, the handler's print again, exit 1 with 1 of 3
    # URLs; with standard error closed, the reports went to standard output.
    mbox = tmp_path / "warned.mbox"
    mbox.write_bytes(_WARNED)
    command = " ".join([sys.executable, "-m", "urlsift", *stats_option, str(mbox), stderr])
    result = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120)
    assert result.stdout.splitlines() == [f"http://m{n}.example/" for n in range(3)]
    assert result.returncode == 0
    assert result.stderr == ""


def test_a_closed_standard_output_is_a_write_error_of_one_line(tmp_path: Path) -> None:
    # Issue 28.8: an AttributeError traceback, exit 1.
    path = text_file(tmp_path / "a.txt", "http://a.example/")
    result = subprocess.run(
        f"{sys.executable} -m urlsift {path} >&-", shell=True, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2
    assert result.stderr == "urlsift: cannot write the output: standard output: Bad file descriptor\n"


_SURROGATES = (
    b'{"id": "a\\ud800b", "t": "see http://a.example/ and x\\udc00y <URL:http://b.example/%zz>"}\n'
    b'{"id": "ok", "t": "http://c.example/"}\n'
)
_JSONL = ["--input-format", "jsonl", "--text-field", "t", "--id-field", "id", "--invalid", "--context", "8"]


@pytest.mark.parametrize("fmt", ["text", "csv", "jsonl"])
def test_a_lone_surrogate_is_written_as_its_escape_in_every_format(tmp_path: Path, fmt: str) -> None:
    # Issue 28.9: a traceback from the jsonl writer, rc 1, no row after it.
    path = tmp_path / "s.jsonl"
    path.write_bytes(_SURROGATES)
    result = run(*_JSONL, "--format", fmt, path)
    no_traceback(result)
    assert result.returncode == 0
    assert "http://c.example/" in result.stdout
    if fmt == "jsonl":
        rows = [json.loads(line) for line in result.stdout.splitlines()]
        assert [row["message_id"] for row in rows] == ["a\ud800b", "a\ud800b", "ok"]  # read back as found
        assert "\\ud800" in result.stdout
    elif fmt == "csv":
        assert "a\\ud800b" in result.stdout
        assert "x\\udc00y" in result.stdout


def test_a_lone_surrogate_in_a_file_name_is_written_as_its_escape(tmp_path: Path) -> None:
    path = text_file(tmp_path / os.fsdecode(b"\xff.txt"), "http://a.example/")
    result = run("--format", "jsonl", path)
    no_traceback(result)
    assert result.returncode == 0
    assert json.loads(result.stdout)["source"] == str(path)  # \udcff, JSON's escape of it


def test_a_lone_surrogate_is_written_as_its_escape_in_parquet(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "s.jsonl"
    path.write_bytes(_SURROGATES)
    result = run(*_JSONL, "--format", "parquet", "--output", tmp_path / "out", path)
    no_traceback(result)
    assert result.returncode == 0
    rows = pq.read_table(tmp_path / "out").to_pylist()
    assert [row["message_id"] for row in rows] == ["a\\ud800b", "a\\ud800b", "ok"]  # the six characters


def test_validate_skips_a_line_over_the_bound_without_holding_it(tmp_path: Path) -> None:
    # Issue 28.17: the line was held whole (1 GiB took 4.2 GB); here 300 MB of one line (sparse).
    lines = tmp_path / "urls"
    with lines.open("wb") as file:
        file.write(b"http://a.example/\n")
        file.truncate(300 << 20)
        file.seek(0, os.SEEK_END)
        file.write(b"\nhttp://b.example/\r\n\n" + b"x" * ((1 << 20) + 1) + b"\nhttp://c.example/")
    peak = tmp_path / "peak"
    measured = (
        "import atexit, runpy, sys\n"
        "peak_file = sys.argv[1]\n"
        "def peak():\n"
        "    with open('/proc/self/status') as status, open(peak_file, 'w') as out:\n"
        "        out.write(next(line.split()[1] for line in status if line.startswith('VmHWM:')))\n"
        "atexit.register(peak)\n"
        "sys.argv[1:] = ['validate', '-']\n"
        "runpy.run_module('urlsift', run_name='__main__', alter_sys=True)\n"
    )
    with lines.open("rb") as stdin:
        result = subprocess.run(
            [sys.executable, "-c", measured, str(peak)],
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.stdout.splitlines() == [f"valid\thttp://{host}.example/" for host in "abc"]
    assert result.stderr.splitlines() == [
        f"urlsift: standard input, line {n}: over 1,048,576 bytes, no URL; not judged" for n in (2, 5)
    ]
    assert result.returncode == 1  # not every line was a valid URL
    assert int(peak.read_text()) < 80 << 10  # KiB


def test_an_internal_error_in_one_message_counts_it_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 28.19: counted as scanned (messages 3 = 3 scanned + 0 failed).
    mbox = _mbox(tmp_path / "a.mbox", 3)

    def failing(*args: Any) -> Any:
        raise RuntimeError("a bug")

    # The Python reader's walk (under the Rust core the core's reader never calls it: its faults
    # are tests/results/test_native_mail.py's).
    with pytest.MonkeyPatch.context() as patch, _select.using("python"):
        patch.setattr("urlsift.sources.mime._walk", failing)
        assert main(["--stats", str(mbox)]) == 2
    _, err = capsys.readouterr()
    assert reports(err) == [
        f"urlsift: {mbox}#{n}: internal: internal error, please report it: RuntimeError: a bug"
        for n in range(3)
    ]
    assert stats(err)["messages"] == [3, 0, 3]


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (MemoryError(), "out of memory (MemoryError)"),
        (OSError(errno.EMFILE, "Too many open files"), "too many open files in this process (EMFILE)"),
        (OSError(errno.ENOSPC, "No space left on device"), "no space left on a device (ENOSPC)"),
    ],
    ids=["MemoryError", "EMFILE", "ENOSPC"],
)
def test_a_machine_fault_in_one_message_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], error: BaseException, said: str
) -> None:
    # Issue 28.18: MemoryError was `internal: ... please report it`, as a bug would be.
    mbox = _mbox(tmp_path / "a.mbox", 3)
    real = urlsift.sources.mime.read

    def failing(data: bytes, *args: Any) -> Any:
        if b"Subject: 1\n" in data:
            raise error
        return real(data, *args)

    with pytest.MonkeyPatch.context() as patch:
        _messages_in_python(patch)
        patch.setattr("urlsift.sources.mime.read", failing)
        assert main(["--stats", str(mbox)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == ["http://m0.example/", "http://m2.example/"]
    assert reports(err) == [
        f"urlsift: {mbox}#1: unreadable: {said} (the machine's limit, not the input's); not read"
    ]
    assert stats(err)["messages"] == [3, 2, 1]
