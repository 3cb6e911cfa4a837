"""public-inbox repositories (v2 epochs, v1) built with git from a corpus mbox: the same URLs as
the mbox, each with its commit; ``--since`` and ``--state``; ``-j``; what git cannot give."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import inbox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift._model import Provenance
from urlsift.cli import main
from urlsift.sources import ReadOptions, publicinbox

MBOX = Path(__file__).parents[1] / "corpora" / "mail" / "r-devel-2000-May.mbox"
FIRST_EPOCH = 100
"""The first epoch holds this many messages, the second the rest."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[str]]]:
    """A v2 inbox of the mbox's messages, one commit each, in two epochs; their commit ids."""
    blobs = inbox.mbox_messages(MBOX)
    folder = tmp_path_factory.mktemp("v2") / "inbox"
    return folder, inbox.v2_inbox(folder, [blobs[:FIRST_EPOCH], blobs[FIRST_EPOCH:]])


def _rows(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]], str]:
    status = main(["--format", "jsonl", "-q", *argv])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def test_a_v2_inbox_gives_the_mbox_urls_with_commit_ids(
    built: tuple[Path, list[list[str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, commits = built
    status, plain, _ = _rows([str(MBOX)], capsys)
    status_inbox, rows, err = _rows([str(folder)], capsys)
    assert status == status_inbox == 0
    assert len(rows) == len(plain) > 50
    for mbox_row, row in zip(plain, rows, strict=True):
        number = mbox_row["message"]
        assert isinstance(number, int)
        epoch, index = (0, number) if number < FIRST_EPOCH else (1, number - FIRST_EPOCH)
        assert row["source"] == str(folder / "git" / f"{epoch}.git")
        assert row["member"] == commits[epoch][index]  # the commit that added the message
        assert row["message"] == index  # its place in its epoch
        assert row["offset"] is None
        same = ("url", "line", "column", "message_id", "date", "part")
        assert {key: row[key] for key in same} == {key: mbox_row[key] for key in same}
    # By hand: the first URL of the second epoch.
    later = next(row for row in rows if row["source"].endswith("1.git"))
    assert later["member"] == commits[1][later["message"]]
    assert "undecodable-bytes" in err
    assert "1.git[" in err


def test_a_v1_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blobs = inbox.mbox_messages(MBOX)
    paths = [inbox.v1_path(blob, k) for k, blob in enumerate(blobs)]
    kept = [k for k, path in enumerate(paths) if path not in paths[:k]]  # v1 keeps one per Message-ID
    v1 = inbox.init(tmp_path / "v1.git")
    commits = inbox.commit(v1, [blobs[k] for k in kept], v1=True)
    _, plain, _ = _rows([str(MBOX)], capsys)
    status, rows, _ = _rows([str(v1)], capsys)
    assert status == 0
    expected = [row for row in plain if row["message"] in kept]
    assert [row["url"] for row in rows] == [row["url"] for row in expected]
    assert len(rows) > 20
    assert [commits[kept.index(row["message"])] for row in expected] == [row["member"] for row in rows]


def test_j2_equals_j1(
    built: tuple[Path, list[list[str]]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder, _ = built
    one = main(["--format", "csv", "-q", "--stats", str(folder)]), capsys.readouterr()
    argv = ["--format", "csv", "-q", "--stats", "-j", "2", "--split-size", "40k", str(folder)]
    two = main(argv), capsys.readouterr()
    assert one == two
    assert one[1].out.count("\n") > 50
    from urlsift.results import walk
    from urlsift.sources import ReadOptions
    from urlsift.units import plan

    units = list(plan(walk([str(folder)]), ReadOptions(), 40_000))
    assert len(units) > 4
    assert {unit.kind for unit in units} == {"inbox"}


def test_since_and_state_read_only_new_commits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blobs = inbox.mbox_messages(MBOX)
    folder = tmp_path / "inbox"
    commits = inbox.v2_inbox(folder, [blobs[:50], blobs[50:100]])
    state = tmp_path / "state.json"
    status, first, _ = _rows(["--state", str(state), str(folder)], capsys)
    assert status == 0
    assert first
    recorded = json.loads(state.read_text())
    assert recorded == {os.path.realpath(folder / "git" / f"{k}.git"): commits[k][-1] for k in (0, 1)}
    assert _rows(["--state", str(state), str(folder)], capsys)[:2] == (1, [])  # nothing new
    new = [
        b"From: a@example.org\nSubject: one\nMessage-ID: <n1@x>\n\nsee http://example.org/one\n",
        b"From: a@example.org\nSubject: two\nMessage-ID: <n2@x>\n\nsee http://example.org/two\n",
    ]
    added = inbox.commit(folder / "git" / "1.git", new)
    status, rows, _ = _rows(["--state", str(state), str(folder)], capsys)
    assert status == 0
    assert [(row["url"], row["member"], row["message"]) for row in rows] == [
        ("http://example.org/one", added[0], 50),
        ("http://example.org/two", added[1], 51),
    ]
    assert json.loads(state.read_text())[os.path.realpath(folder / "git" / "1.git")] == added[1]
    # --since: the commits after it in its epoch, and no earlier epoch.
    status, rows, _ = _rows(["--since", added[0][:12], str(folder)], capsys)
    assert [row["url"] for row in rows] == ["http://example.org/two"]
    status, rows, _ = _rows(
        ["--since", commits[0][-1], str(folder), "-j", "2", "--split-size", "10k"], capsys
    )
    assert {row["source"] for row in rows} == {str(folder / "git" / "1.git")}
    assert len(rows) == 2 + sum(1 for row in first if str(row["source"]).endswith("1.git"))
    assert main(["--since", "0123abcd", str(folder)]) == 2
    assert "no public-inbox repository given holds" in capsys.readouterr().err


def test_a_missing_blob_and_blobs_that_are_no_mail_are_reported_and_the_rest_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blobs = inbox.mbox_messages(MBOX)[:20]
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, blobs[:10])
    lost, blob = inbox.loose_commit(epoch, b"From: a@b\nSubject: lost\n\nhttp://example.org/lost\n")
    (epoch / "objects" / blob[:2] / blob[2:]).unlink()  # a missing object
    bad = inbox.commit(epoch, [b"", b"\x00\x01binary\xff" * 50, b"no headers at all\n"])
    gone = inbox.commit(epoch, [b"From: a@b\nSubject: x\n\nhttp://example.org/deleted\n"], deleted=[0])
    later = inbox.commit(epoch, [b"From: a@b\nSubject: y\n\nsee http://example.org/after\n"])
    _, plain, _ = _rows([str(MBOX)], capsys)
    status, rows, err = _rows([str(epoch)], capsys)
    assert status == 2
    urls = [row["url"] for row in rows]
    assert urls == [row["url"] for row in plain if row["message"] < 10] + ["http://example.org/after"]
    assert rows[-1]["member"] == later[0]
    assert rows[-1]["message"] == 15
    assert gone  # the deletion is no message and no problem
    reports = [line.removeprefix("urlsift: ") for line in err.splitlines()]
    assert f"{epoch}[{lost}]#10: corrupt: the blob {blob} is missing from the repository" in reports
    assert f"{epoch}[{bad[0]}]#11: not-mail: an empty message; skipped" in reports
    assert any(line.startswith(f"{epoch}[{bad[1]}]#12: not-mail: binary data") for line in reports)
    assert any(line.startswith(f"{epoch}[{bad[2]}]#13: not-mail: it does not start") for line in reports)
    assert len(reports) == 4


def test_a_message_over_the_limit_is_skipped_unheld(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    big = b"From: a@b\nMessage-ID: <big@x>\n\n" + b"http://example.org/big\n" * 10_000
    inbox.commit(epoch, [big, b"From: a@b\n\nhttp://example.org/small\n"])
    status, rows, err = _rows(["--max-message", "100k", str(epoch)], capsys)
    assert status == 2
    assert [row["url"] for row in rows] == ["http://example.org/small"]
    assert f"#0: too-large: a message of {len(big):,} bytes, over the 100,000-byte limit" in err


def test_a_damaged_repository_is_reported_and_other_files_read(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [b"From: a@b\n\nhttp://example.org/a\n"])
    head = inbox.commit(epoch, [b"From: a@b\n\nhttp://example.org/b\n"])[0]
    (epoch / "objects" / head[:2] / head[2:]).unlink()  # its last commit is gone (few objects: loose)
    text = tmp_path / "notes.txt"
    text.write_text("see http://example.org/text\n")
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", "-q", str(epoch), str(text)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == "http://example.org/text\n"
    assert f"urlsift: {epoch}: corrupt: " in done.stderr
    assert "Traceback" not in done.stderr


def test_without_git_a_clear_error(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [b"From: a@b\n\nhttp://example.org/a\n"])
    env = {**os.environ, "PATH": str(tmp_path / "nowhere")}
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", str(epoch)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 2
    said = "reading a git repository needs the git command, which was not found: install git"
    assert done.stderr == f"urlsift: {epoch}: unreadable: {said}\n"


def test_a_damaged_pack_costs_the_messages_in_the_damage_only(tmp_path: Path) -> None:
    blobs = inbox.mbox_messages(MBOX)
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, blobs)
    git = [inbox.GIT, f"--git-dir={epoch}", "-c", "pack.threads=1"]
    subprocess.run([*git, "repack", "-a", "-d", "-q"], check=True)
    (pack,) = (epoch / "objects" / "pack").glob("*.pack")
    data = bytearray(pack.read_bytes())
    at = len(data) * 2 // 3  # among the blobs (a pack holds its commits and trees first)
    data[at : at + 200] = bytes(200)
    pack.chmod(0o644)
    pack.write_bytes(bytes(data))
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", "-q", "--format", "jsonl", str(epoch)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    lost = [line for line in done.stderr.splitlines() if ": corrupt: the blob " in line]
    assert 0 < len(lost) < len(blobs) // 4  # the blobs in the damage, and those stored as deltas of them
    assert "Traceback" not in done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    read = {row["message"] for row in rows}
    assert max(read) == 395 > len(blobs) - 5  # the last messages were read, after the damage


@settings(max_examples=10, deadline=None)
@given(cuts=st.lists(st.integers(min_value=1, max_value=FIRST_EPOCH - 1), max_size=4, unique=True))
def test_pieces_of_commits_read_as_the_whole(built: tuple[Path, list[list[str]]], cuts: list[int]) -> None:
    folder, _ = built
    epoch = str(folder / "git" / "0.git")
    reading = ReadOptions()

    def commits(start: int, end: int | None) -> list[object]:
        found = publicinbox.read(epoch, Provenance(epoch), 10**9, reading.inbox(), start, end)
        return [
            (item.where.member, item.where.message) for item in found if isinstance(item, publicinbox.Blob)
        ]

    edges = [0, *sorted(cuts), FIRST_EPOCH]
    pieces = [commits(start, end) for start, end in itertools.pairwise(edges)]
    assert [one for piece in pieces for one in piece] == commits(0, None)
    assert all(
        len(piece) == end - start
        for piece, (start, end) in zip(pieces, itertools.pairwise(edges), strict=True)
    )


def test_a_folder_of_inboxes_is_read_as_their_repositories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = b"From: a@b\nSubject: s\n\nsee http://example.org/%d\n"
    mirror = tmp_path / "mirror"
    inbox.v2_inbox(mirror / "list", [[message % 1], [message % 2]])
    (mirror / "list" / "msgmap.sqlite3").write_bytes(b"SQLite format 3\x00 http://example.org/not-read\n")
    inbox.commit(inbox.init(mirror / "old.git"), [message % 3], v1=True)
    status, rows, err = _rows([str(mirror)], capsys)
    assert status == 0
    assert err == ""
    assert [(row["source"], row["url"]) for row in rows] == [
        (str(mirror / "list" / "git" / "0.git"), "http://example.org/1"),
        (str(mirror / "list" / "git" / "1.git"), "http://example.org/2"),
        (str(mirror / "old.git"), "http://example.org/3"),
    ]
