"""The command line: ``urlsift validate`` and ``python -m urlsift``."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from urlsift.cli import main


def test_valid_and_invalid_lines_and_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["validate", "ftp://foo:@host.com/pub;type=d", "http://user:pw@host/"])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    assert lines[0].split("\t") == ["valid", "ftp://foo:@host.com/pub;type=d"]
    fields = lines[1].split("\t")
    assert fields[:2] == ["invalid", "http://user:pw@host/"]
    assert fields[2].startswith("at 14 (hostport): http URLs take no user name or password")


def test_all_valid_exits_zero_and_shows_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "telnet://u:secret@host:2323/"]) == 0
    out = capsys.readouterr().out
    assert "warning at 23 (non-default-port)" in out
    assert "warning at 11 (password)" in out


def test_one_pasted_wrapper_is_stripped_and_said(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "<URL: ftp://host/x>", "URL:news:*"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["valid\tftp://host/x\t(wrapper stripped)", "valid\tnews:*\t(wrapper stripped)"]


def test_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("http://a/\n\nhttp://b/~c\r\n"))
    assert main(["validate", "-"]) == 1
    assert [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()] == ["valid", "invalid"]


@pytest.mark.parametrize(
    "argv", [[], ["validate"], ["validate", "--profile", "loose", "http://h/"], ["--format", "x", "f"]]
)
def test_usage_errors_exit_two(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert "usage: urlsift" in capsys.readouterr().err


APPENDIX = """Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
   type=d> but you can probably pick it up from <URL:ftp://ds.in
   ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.
   net/instructions/overview.html#WARNING>.  Or see http://host/~me/ (strict says no).
"""


def test_scanning_files_prints_the_valid_urls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.txt").write_text(APPENDIX, encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"bad \xff bytes <http://b/>\n")
    assert main([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]) == 0
    # Several files: each line names its file, as grep's and ripgrep's do.
    assert capsys.readouterr().out.splitlines() == [
        f"{tmp_path / 'a.txt'}:ftp://info.cern.ch/pub/www/doc;type=d",
        f"{tmp_path / 'a.txt'}:ftp://ds.internic.net/rfc",
        f"{tmp_path / 'a.txt'}:http://ds.internic.net/instructions/overview.html#WARNING",
        f"{tmp_path / 'b.txt'}:http://b/",
    ]


def test_scanning_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.txt"
    path.write_text(APPENDIX + "naked http://n/ here\n", encoding="utf-8")
    assert main(["--no-naked", str(path)]) == 0
    assert "http://n/" not in capsys.readouterr().out
    assert main(["--invalid", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[3].startswith("http://host/~me/\tat 12 (hsegment): '~' (U+007E) is unsafe")
    assert lines[4] == "http://n/"


def test_unreadable_files_are_reported_and_the_rest_scanned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ok.txt").write_text("<URL:http://ok/>", encoding="utf-8")
    status = main([str(tmp_path / "missing.txt"), str(tmp_path / "ok.txt")])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == f"{tmp_path / 'ok.txt'}:http://ok/\n"
    assert err == f"urlsift: {tmp_path / 'missing.txt'}: unreadable: No such file or directory\n"


def test_no_url_found_exits_one(tmp_path: Path) -> None:
    (tmp_path / "none.txt").write_text("Note: nothing here <b>", encoding="utf-8")
    assert main([str(tmp_path / "none.txt")]) == 1


def test_scanning_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"> <URL:http://a/\n> b>\n")))
    assert main(["-"]) == 0
    assert capsys.readouterr().out == "http://a/b\n"


def test_python_dash_m_and_a_closed_pipe() -> None:
    urls = "\n".join(f"http://host{i}.example/" for i in range(20000))
    proc = subprocess.run(
        f"{sys.executable} -m urlsift validate - | head -n 1",
        shell=True,
        input=urls,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout == "valid\thttp://host0.example/\n"
    assert "Traceback" not in proc.stderr
    assert "BrokenPipe" not in proc.stderr
