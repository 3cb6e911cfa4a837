"""The command line: ``urlsift validate`` and ``python -m urlsift``."""

from __future__ import annotations

import subprocess
import sys

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
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("http://a/\n\nhttp://b/~c\r\n"))
    assert main(["validate", "-"]) == 1
    assert [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()] == ["valid", "invalid"]


def test_usage_errors_exit_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    with pytest.raises(SystemExit) as raised:
        main(["validate"])
    assert raised.value.code == 2
    with pytest.raises(SystemExit) as raised:
        main(["validate", "--profile", "loose", "http://h/"])
    assert raised.value.code == 2


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
