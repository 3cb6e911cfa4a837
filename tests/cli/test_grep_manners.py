"""grep's and ripgrep's manners (issue 30, items 5, 6 and 10): standard input read when no PATH
is given, -c with zeros left out, -l, -H and --no-filename, --include/--exclude, binary files met
in folders skipped, -s, -q, --color, --output FILE for every format, warnings summed up per file
and kind, and the small things (plurals, the bar's units, CSV booleans, help(Row), Match._asdict,
Ctrl-C's line)."""

from __future__ import annotations

import csv
import io
import json
import pydoc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import urlsift
from urlsift import _select, cli, output
from urlsift.cli import main
from urlsift.execute import execute as executed

CORPORA = Path(__file__).parents[2] / "corpora"
PIPERMAIL = CORPORA / "mail" / "r-devel-2000-May.mbox"
"""A pipermail month whose messages have three undecodable-bytes warnings."""


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _folder(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("<URL:http://a.example/> and http://a2.example/\n")
    (root / "none.txt").write_text("nothing here\n")
    (root / "b.log").write_text("<URL:ftp://b.example/>\n")
    (root / "sub" / "c.txt").write_text("<URL:http://c.example/>\n")
    return root


def _urlsift(*args: str | Path, **popen: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "urlsift", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        **popen,
    )


def test_standard_input_is_read_when_no_path_is_given(tmp_path: Path) -> None:
    piped = _urlsift(input="see <URL:http://piped.example/> here\n")
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, "http://piped.example/\n", "")
    mbox = tmp_path / "a.mbox"
    mbox.write_text("From a@b Mon Jan  1 00:00:00 2001\nSubject: s\n\n<URL:http://file.example/>\n")
    with mbox.open() as redirected:  # urlsift < a.mbox
        done = _urlsift(stdin=redirected)
    assert (done.returncode, done.stdout) == (0, "http://file.example/\n")
    # Neither a pipe nor a file (a terminal; /dev/null, as cron and CI give): the usage error.
    nothing = _urlsift(stdin=subprocess.DEVNULL)
    assert nothing.returncode == 2
    assert "required: PATH" in nothing.stderr


def test_count_leaves_out_files_with_none_and_stats_gives_the_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _folder(tmp_path / "f")
    status, out, err = _run(["-c", "--stats", str(root)], capsys)
    assert status == 0
    assert sorted(out.splitlines()) == [
        f"{root / 'a.txt'}:2",
        f"{root / 'b.log'}:1",
        f"{root / 'sub' / 'c.txt'}:1",
    ]
    assert "urlsift: counted             4 in 3 files (with none: left out)\n" in err
    assert _run(["--count", str(root / "none.txt")], capsys)[:2] == (1, "")  # ripgrep prints nothing
    assert _run(["--count", str(root / "a.txt")], capsys)[:2] == (0, "2\n")  # one file: N alone
    assert _run(["--count", "-H", str(root / "a.txt")], capsys)[:2] == (0, f"{root / 'a.txt'}:2\n")


def test_files_with_matches_names_each_file_with_a_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _folder(tmp_path / "f")
    status, out, _ = _run(["-l", str(root / "none.txt"), str(root / "a.txt"), str(root / "b.log")], capsys)
    assert (status, out) == (0, f"{root / 'a.txt'}\n{root / 'b.log'}\n")
    assert _run(["--files-with-matches", str(root / "none.txt")], capsys)[:2] == (1, "")


def test_several_files_name_each_line_and_no_filename_drops_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _folder(tmp_path / "f")
    a, b = root / "a.txt", root / "b.log"
    _, out, _ = _run([str(a), str(b)], capsys)
    assert out == f"{a}:http://a.example/\n{a}:http://a2.example/\n{b}:ftp://b.example/\n"
    _, out, _ = _run(["--no-filename", str(a), str(b)], capsys)
    assert out == "http://a.example/\nhttp://a2.example/\nftp://b.example/\n"
    _, out, _ = _run([str(a)], capsys)  # one file: the URL alone
    assert out == "http://a.example/\nhttp://a2.example/\n"
    _, out, _ = _run(["-H", str(a)], capsys)
    assert out == f"{a}:http://a.example/\n{a}:http://a2.example/\n"
    _, out, _ = _run([str(root / "sub")], capsys)  # a folder: several files
    assert out == f"{root / 'sub' / 'c.txt'}:http://c.example/\n"
    _, out, _ = _run(["-j", "2", "--split-size", "10", str(a), str(b)], capsys)  # printed by workers
    assert out == f"{a}:http://a.example/\n{a}:http://a2.example/\n{b}:ftp://b.example/\n"
    _, out, _ = _run(["--format", "jsonl", str(a), str(b)], capsys)  # the machine formats have a column
    assert [json.loads(line)["source"] for line in out.splitlines()] == [str(a), str(a), str(b)]


def test_include_and_exclude_globs_choose_the_files_of_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _folder(tmp_path / "f")

    def read(*options: str) -> list[str]:
        _, out, _ = _run(["--no-filename", *options, str(root)], capsys)
        return sorted(out.splitlines())

    assert read("--include", "*.txt") == ["http://a.example/", "http://a2.example/", "http://c.example/"]
    assert read("--include", "*.log") == ["ftp://b.example/"]
    assert read("--exclude", "*.txt") == ["ftp://b.example/"]
    assert read("--exclude", "sub/*") == ["ftp://b.example/", "http://a.example/", "http://a2.example/"]
    assert read("--include", "*.txt", "--exclude", "a.*") == ["http://c.example/"]
    # A PATH named is read whatever its name, as ripgrep reads it.
    _, out, _ = _run(["--include", "*.txt", str(root / "b.log")], capsys)
    assert out == "ftp://b.example/\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_binary_file_met_in_a_folder_is_skipped_as_ripgrep_skips_it(
    jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "f"
    root.mkdir()
    (root / "junk.bin").write_bytes(b"\x7fELF\x02\x01\x00\x00 http://in.binary/ " + bytes(range(256)))
    (root / "ok.txt").write_text("<URL:http://good.example/>\n")
    status, out, err = _run(["-j", jobs, "--stats", "--no-filename", str(root)], capsys)
    assert (status, out) == (0, "http://good.example/\n")
    assert "binary" not in err.replace("binary skipped", "")  # no report on it
    assert "urlsift: files               2 = 1 scanned + 0 failed + 1 binary skipped\n" in err
    assert "urlsift: problems            0 = 0 errors + 0 warnings\n" in err
    # Named, it is read and said to be binary: exit 2, as before.
    status, _, err = _run(["-j", jobs, str(root / "junk.bin"), str(root / "ok.txt")], capsys)
    assert status == 2
    assert f"{root / 'junk.bin'}: binary: binary data" in err


def test_no_messages_says_nothing_and_keeps_the_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ok = tmp_path / "ok.txt"
    ok.write_text("<URL:http://ok.example/>\n")
    status, out, err = _run(["-s", "--no-filename", str(tmp_path / "missing"), str(ok)], capsys)
    assert (status, out, err) == (2, "http://ok.example/\n", "")
    assert _run(["--no-messages", str(PIPERMAIL)], capsys)[2] == ""  # warnings too


def test_quiet_prints_nothing_and_ends_at_the_first_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ok, none = tmp_path / "ok.txt", tmp_path / "none.txt"
    ok.write_text("<URL:http://ok.example/>\n")
    none.write_text("nothing\n")
    assert _run(["-q", str(ok)], capsys) == (0, "", "")
    assert _run(["--quiet", str(none)], capsys) == (1, "", "")
    # As grep -q: the files after the first URL are not read (the missing one is never reported) ...
    assert _run(["-q", str(ok), str(tmp_path / "missing")], capsys) == (0, "", "")
    # ... and a URL found means 0, even after an error.
    status, out, err = _run(["-q", str(tmp_path / "missing"), str(ok)], capsys)
    assert (status, out) == (0, "")
    assert "missing: unreadable" in err
    assert _run(["-q", "-j", "2", str(none), str(ok)], capsys) == (0, "", "")
    assert _run(["-q", "--format", "jsonl", "--output", str(tmp_path / "out"), str(ok)], capsys)[:2] == (
        0,
        "",
    )
    assert not (tmp_path / "out").exists()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_on_a_terminal_and_as_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("<URL:http://a.example/> <URL:http://host/%zz>\n")
    b.write_text("<URL:http://b.example/>\n")
    coloured = f"\x1b[35m{a}\x1b[0m:\x1b[1;31mhttp://a.example/\x1b[0m\n"
    _, out, _ = _run(["--color=always", str(a), str(b)], capsys)
    assert out.startswith(coloured)
    _, out, _ = _run(["--color=always", "--invalid", str(a)], capsys)  # a rejected one is no match
    assert out.splitlines()[1].startswith("http://host/%zz\t")
    _, out, _ = _run(["--colour=always", "-c", str(a), str(b)], capsys)
    assert out == f"\x1b[35m{a}\x1b[0m:1\n\x1b[35m{b}\x1b[0m:1\n"
    assert "\x1b" not in _run([str(a), str(b)], capsys)[1]  # auto, and not a terminal
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for environment, expected in [({}, True), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False)]:
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        terminal = _Terminal()
        monkeypatch.setattr("sys.stdout", terminal)
        assert main(["--no-progress", str(a), str(b)]) == 0
        assert terminal.getvalue().startswith(coloured) == expected, environment
        assert ("\x1b" in terminal.getvalue()) == expected
        terminal = _Terminal()
        monkeypatch.setattr("sys.stdout", terminal)
        assert main(["--color=never", str(a), str(b)]) == 0
        assert "\x1b" not in terminal.getvalue()
        for name in environment:
            monkeypatch.delenv(name)
        monkeypatch.setenv("TERM", "xterm")
    capsys.readouterr()


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_output_file_for_every_format(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, expected, _ = _run(["--format", fmt, str(PIPERMAIL)], capsys)
    written = tmp_path / f"urls.{fmt}"
    written.write_text("what was there before\n")
    status, out, _ = _run(["--format", fmt, "--output", str(written), str(PIPERMAIL)], capsys)
    assert (status, out) == (0, "")
    assert written.read_text(encoding="utf-8") == expected
    if fmt == "csv":  # one header, rows as csv reads them
        rows = list(csv.DictReader(io.StringIO(written.read_text(encoding="utf-8"))))
        assert len(rows) == len(expected.splitlines()) - 1 > 50
    status, _, err = _run(
        ["--format", fmt, "--output", str(tmp_path / "no" / "such"), str(PIPERMAIL)], capsys
    )
    assert status == 2
    assert err == f"urlsift: cannot write the output: {tmp_path / 'no' / 'such'}: No such file or directory\n"


def test_a_files_warnings_of_one_kind_are_summed_up_unless_verbose(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, _, err = _run([str(PIPERMAIL)], capsys)
    assert err.splitlines() == [
        f"urlsift: {PIPERMAIL}#104: undecodable-bytes: 1 undecodable byte sequence (utf-8)",
        f"urlsift: {PIPERMAIL}: undecodable-bytes: 2 more warnings of this kind in this file"
        " (--verbose shows each)",
    ]
    _, _, err = _run(["--verbose", str(PIPERMAIL)], capsys)
    assert [line.split(": ")[2] for line in err.splitlines()] == ["undecodable-bytes"] * 3
    _, _, err = _run(["-j", "2", "--split-size", "100K", str(PIPERMAIL)], capsys)  # pieces of one file
    assert len(err.splitlines()) == 2


def test_counts_of_one_are_said_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "a.txt"
    text.write_text("<URL:http://a.example/> <URL:http://host/%zz>\n")
    _, _, err = _run(["--stats", str(text)], capsys)
    assert "(1 printed), 1 candidate rejected\n" in err
    assert "1 text part scanned, and 0 headers\n" in err
    assert "= 0 errors + 0 warnings\n" in err
    mbox = tmp_path / "a.mbox"
    mbox.write_bytes(
        b"From a@b Mon Jan  1 00:00:00 2001\nSubject: s\n\nbad \xff byte <URL:http://a.example/>\n"
    )
    _, _, err = _run([str(mbox)], capsys)
    assert err == f"urlsift: {mbox}#0: undecodable-bytes: 1 undecodable byte sequence (utf-8)\n"


def test_csv_booleans_are_true_and_false(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "a.txt"
    text.write_text("<URL:http://a.example/> http://naked.example/\n")
    _, out, _ = _run(["--format", "csv", str(text)], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(row["valid"], row["naked"]) for row in rows] == [("true", "false"), ("true", "true")]


def test_help_shows_the_types_of_the_columns() -> None:
    for name in ("Row", "Match", "Report", "Candidate", "Reading"):
        shown = pydoc.render_doc(getattr(urlsift, name))
        assert "ForwardRef" not in shown, name
    assert "url: str, alternatives: tuple[str, ...], valid: bool" in pydoc.render_doc(urlsift.Row)


def test_a_match_as_a_dict_is_json_as_a_row_is() -> None:
    found = list(urlsift.extract("see <URL:http://a.example/x> and <URL:http://host/%zz>", invalid=True))
    said = [json.loads(json.dumps(match._asdict())) for match in found]
    assert said[0] == {
        "url": "http://a.example/x",
        "alternatives": [],
        "wrapper": "URL:",
        "span": [4, 28],
        "pieces": [[9, 27]],
        "line": 1,
        "column": 4,
        "verdict": {"valid": True, "profile": "strict", "scheme": "http", "error": None, "warnings": []},
    }
    assert said[1]["verdict"]["valid"] is False
    assert said[1]["verdict"]["error"] == str(found[1].verdict.error)


def test_the_bar_counts_in_powers_of_1000_as_its_m_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "a.txt"
    text.write_bytes(b"<URL:http://a.example/>\n" + (b"x" * 99 + b"\n") * 15_000)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main([str(text)]) == 0
    assert "1.50M" in terminal.getvalue()  # with 1024: 1.43M, mebibytes written as M
    capsys.readouterr()


def _interrupted_at_the_second_file(*args: Any, **kwargs: Any) -> Iterator[Any]:
    """``cli.execute``, with Ctrl-C as the second file's work is asked for."""
    for k, scanned in enumerate(executed(*args, **kwargs)):
        if k == 1:
            raise KeyboardInterrupt
        yield scanned


def test_ctrl_c_says_so_on_a_line_of_its_own_not_after_the_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("<URL:http://a.example/>\n")

    monkeypatch.setattr("urlsift.cli.execute", _interrupted_at_the_second_file)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["--stats", str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]) == cli.INTERRUPTED
    shown = terminal.getvalue()
    assert "messages/s" in shown or "B/s" in shown or "it/s" in shown  # the bar was drawn
    at = shown.index("urlsift: interrupted")
    assert shown[at - 1] in "\r\n", repr(shown[at - 40 : at])
    capsys.readouterr()


def test_ctrl_c_under_unique_counts_none_printed_as_none_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--unique holds its rows to the end: interrupted before it, --stats says none printed."""
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("<URL:http://a.example/>\n<URL:http://b.example/>\n")

    monkeypatch.setattr("urlsift.cli.execute", _interrupted_at_the_second_file)
    arguments = ["--stats", "--unique", "--no-progress", str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    assert main(arguments) == cli.INTERRUPTED
    said = capsys.readouterr()
    assert said.out == ""
    assert "valid (0 printed)" in said.err


def test_standard_input_is_named_alike_by_every_output_that_names_files(tmp_path: Path) -> None:
    # The URL lines said "<stdin>" (the rows' source) where -c said "(standard input)", as grep.
    mbox = b"From a@b Mon Jan  1 00:00:00 2001\nSubject: x\n\nhttp://a.example/\n"
    lines = _urlsift("-H", "--no-progress", "-", input=mbox.decode())
    counted = _urlsift("-H", "-c", "--no-progress", "-", input=mbox.decode())
    assert lines.stdout == "(standard input):http://a.example/\n"
    assert counted.stdout == "(standard input):1\n"


def test_ctrl_c_while_a_row_is_made_leaves_it_uncounted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--stats' "printed" is the rows on standard output when Ctrl-C comes while one is made
    (the Python core's writer a row at a time: it was counted before it was made)."""
    text = tmp_path / "a.txt"
    text.write_text("".join(f"<URL:http://a{k}.example/>\n" for k in range(5)))
    made = output.writer

    def interrupted_at_the_third(*args: Any, **kwargs: Any) -> Any:
        write = made(*args, **kwargs)
        rows = 0

        def third(row: Any) -> None:
            nonlocal rows
            rows += 1
            if rows == 3:
                raise KeyboardInterrupt
            write(row)

        return third

    monkeypatch.setattr(cli, "writer", interrupted_at_the_third)
    with _select.using("python"):
        assert main(["--stats", "--no-progress", "--format", "jsonl", str(text)]) == cli.INTERRUPTED
    said = capsys.readouterr()
    assert len(said.out.splitlines()) == 2
    assert "(2 printed)" in said.err, said.err
