"""Each kind of bad input: one clear message on standard error naming the file (and member and
message), everything else still scanned, the counts adding up, and exit status 2."""

from __future__ import annotations

import io
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

from urlsift.cli import main
from urlsift.sources import MAX_LINE, MAX_MESSAGE
from urlsift.sources.mbox import HEAD_BYTES, messages

HARD_CASES = Path(__file__).parents[2] / "corpora" / "mail" / "mail-url-hard-cases.mbox"
GOOD = "see <URL:http://good.example/>\n"


def _mbox(*bodies: bytes) -> bytes:
    return b"".join(
        b"From a@b Thu Jan  1 00:00:00 1970\nMessage-ID: <%d@x>\nSubject: s\n\n" % k + body + b"\n\n"
        for k, body in enumerate(bodies)
    )


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], list[str]]:
    status = main(["--stats", *argv])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def _stats(err: list[str]) -> dict[str, list[int]]:
    """The --stats lines as {name: [numbers]}; and they add up."""
    found = {}
    for line in err:
        if line.startswith("urlsift: ") and re.match(r"urlsift: [a-zA-Z]+ +[\d,]+", line):
            name = line.split()[1]
            found[name] = [int(n.replace(",", "")) for n in re.findall(r"[\d,]*\d", line.split(None, 2)[2])]
    seen, scanned, failed = found["files"]
    assert seen == scanned + failed
    seen, scanned, failed = found["messages"]
    assert seen == scanned + failed
    return found


def test_a_truncated_last_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _mbox(b"<URL:http://one.example/>", b"<URL:http://two.example/> and the end is cut: http://thr")
    (tmp_path / "cut.mbox").write_bytes(data.rstrip(b"\n"))
    (tmp_path / "ok.txt").write_text(GOOD)
    status, out, err = _run(["--no-filename", str(tmp_path / "cut.mbox"), str(tmp_path / "ok.txt")], capsys)
    assert status == 2
    assert out == ["http://one.example/", "http://two.example/", "http://thr", "http://good.example/"]
    assert err[0] == f"urlsift: {tmp_path / 'cut.mbox'}#1: truncated: the file ends in the middle of a line"
    assert _stats(err)["messages"] == [2, 2, 0]


def test_binary_junk_is_reported_not_scanned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "junk.bin").write_bytes(b"\x7fELF\x02\x01\x00\x00 http://in.binary/ " + bytes(range(256)))
    (tmp_path / "ok.txt").write_text(GOOD)
    status, out, err = _run(["--no-filename", str(tmp_path / "junk.bin"), str(tmp_path / "ok.txt")], capsys)
    assert status == 2
    assert out == ["http://good.example/"]
    assert (
        err[0]
        == f"urlsift: {tmp_path / 'junk.bin'}: binary: binary data (a NUL byte at offset 6); not scanned"
    )
    assert _stats(err)["files"] == [2, 1, 1]


def test_a_message_over_the_limit_is_skipped_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert MAX_MESSAGE == 100 * 10**6
    big = b"<URL:http://big.example/>\n" + b"x" * 5000
    (tmp_path / "big.mbox").write_bytes(
        _mbox(b"<URL:http://small.example/>", big, b"<URL:http://after.example/>")
    )
    status, out, err = _run(["--max-message", "2000", str(tmp_path / "big.mbox")], capsys)
    assert status == 2
    assert out == ["http://small.example/", "http://after.example/"]
    assert err[0].startswith(f"urlsift: {tmp_path / 'big.mbox'}#1: too-large: a message of 5,")
    assert err[0].endswith("bytes, over the 2,000-byte limit; not scanned")
    assert _stats(err)["messages"] == [3, 2, 1]


def test_a_message_over_the_limit_is_not_held() -> None:
    body = b"y" * (3 * HEAD_BYTES)
    found = list(messages(io.BytesIO(_mbox(body, b"z")), limit=HEAD_BYTES))
    assert [len(m.data) for m in found] == [HEAD_BYTES, len(b"Message-ID: <1@x>\nSubject: s\n\nz\n")]
    assert found[0].size > 3 * HEAD_BYTES
    assert found[0].data.startswith(b"Message-ID: <0@x>")


def test_a_50_megabyte_line_in_a_text_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = b"a" * (50 << 20)
    (tmp_path / "long.txt").write_bytes(b"<URL:http://first/>\n" + line + b" http://end.example/\nlast\n")
    status, out, err = _run(["--format", "csv", str(tmp_path / "long.txt")], capsys)
    assert status == 2
    assert [row.split(",")[:8] for row in out[1:]] == [
        ["http://first/", "", "true", "http", "URL:", "false", "1", "0"],
        ["http://end.example/", "", "true", "http", "", "true", "2", str(len(line) + 1)],
    ]
    assert err[0].startswith(
        f"urlsift: {tmp_path / 'long.txt'}: long-line: line 2 is over {MAX_LINE:,} bytes"
    )


def test_a_long_line_in_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "l.mbox").write_bytes(_mbox(b"b" * (2 * MAX_LINE) + b" http://x.example/"))
    status, out, err = _run([str(tmp_path / "l.mbox")], capsys)
    assert (status, out) == (2, ["http://x.example/"])
    assert err[0].startswith(f"urlsift: {tmp_path / 'l.mbox'}#0: long-line: a line of 2,097,")


def test_a_corrupt_zip_member_is_named_and_the_others_scanned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.txt", "<URL:http://a.example/>\n" * 50)
        archive.writestr("b.txt", "<URL:http://b.example/>\n" * 50)
        archive.writestr("c.txt", GOOD)
        archive.writestr("secret.txt", "x")
    data = bytearray(buffer.getvalue())
    for signature, name_at, flag_at in ((b"PK\x03\x04", 30, 6), (b"PK\x01\x02", 46, 8)):
        header = data.rindex(signature)  # the last member's headers
        assert data[header + name_at : header + name_at + 10] == b"secret.txt"
        data[header + flag_at] |= 1  # "encrypted" (zipfile cannot write such a member itself)
    at = data.index(b"b.txt") + 5 + 10  # into b.txt's compressed data
    data[at] ^= 0xFF
    (tmp_path / "t.zip").write_bytes(bytes(data))
    status, out, err = _run([str(tmp_path / "t.zip")], capsys)
    assert status == 2
    assert out.count("http://a.example/") == 50
    assert out[-1] == "http://good.example/"
    assert err[0].startswith(f"urlsift: {tmp_path / 't.zip'}[b.txt]: corrupt: ")
    assert (
        err[1] == f"urlsift: {tmp_path / 't.zip'}[secret.txt]: unreadable: an encrypted member; not scanned"
    )


def test_a_cut_tar_archive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, text in (("one.txt", GOOD), ("two.txt", "x" * 20000)):
            info = tarfile.TarInfo(name)
            info.size = len(text)
            archive.addfile(info, io.BytesIO(text.encode()))
    (tmp_path / "cut.tar").write_bytes(buffer.getvalue()[:10000])
    status, out, err = _run([str(tmp_path / "cut.tar")], capsys)
    assert (status, out) == (2, ["http://good.example/"])
    assert err[0].startswith(f"urlsift: {tmp_path / 'cut.tar'}")
    assert "corrupt" in err[0]


def test_the_hard_cases_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["--invalid", str(HARD_CASES)], capsys)
    stats = _stats(err)
    assert stats["messages"] == [33, 33, 0]
    valid, _printed, rejected = stats["URLs"]
    assert len(out) == valid + rejected
    assert status == 0
