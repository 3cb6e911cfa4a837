"""public-inbox repositories (v2 epochs, v1) built with git from a corpus mbox: the same URLs as
the mbox, each with its commit; ``--since`` and ``--state``; ``-j``; what git cannot give."""

from __future__ import annotations

import errno
import io
import itertools
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import inbox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift._model import Defect, Provenance
from urlsift.cli import main
from urlsift.sources import ReadOptions, publicinbox
from urlsift.units import Unit, plan

MBOX = Path(__file__).parents[2] / "corpora" / "mail" / "r-devel-2000-May.mbox"
FIRST_EPOCH = 100
"""The first epoch holds this many messages, the second the rest."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[str]]]:
    """A v2 inbox of the mbox's messages, one commit each, in two epochs; their commit ids."""
    blobs = inbox.mbox_messages(MBOX)
    folder = tmp_path_factory.mktemp("v2") / "inbox"
    return folder, inbox.v2_inbox(folder, [blobs[:FIRST_EPOCH], blobs[FIRST_EPOCH:]])


def _rows(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]], str]:
    status = main(["--format", "jsonl", "--no-progress", *argv])
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
    one = main(["--format", "csv", "--no-progress", "--stats", str(folder)]), capsys.readouterr()
    argv = ["--format", "csv", "--no-progress", "--stats", "-j", "2", "--split-size", "40k", str(folder)]
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


def test_state_records_the_repositories_of_a_files_from_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29: a repository named in ``--files-from`` is recorded as a PATH is, so the second
    run reads nothing new: exit 1, as grep's, and ``--stats`` says why."""
    blobs = inbox.mbox_messages(MBOX)
    folder = tmp_path / "inbox"
    commits = inbox.v2_inbox(folder, [blobs[:30], blobs[30:60]])
    listing = tmp_path / "list"
    listing.write_text("".join(f"{folder / 'git' / name}\n" for name in ("0.git", "1.git")))
    state = tmp_path / "state.json"
    argv = ["--state", str(state), "--files-from", str(listing)]
    status, first, _ = _rows(argv, capsys)
    assert status == 0
    assert first
    assert json.loads(state.read_text()) == {
        os.path.realpath(folder / "git" / f"{k}.git"): commits[k][-1] for k in (0, 1)
    }
    status, again, err = _rows([*argv, "--stats"], capsys)
    assert (status, again) == (1, [])
    assert "urlsift: state     nothing new since the state" in err.splitlines()
    # From standard input too, with -j 2.
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(listing.read_bytes())))
    status, again, _ = _rows(["--state", str(state), "--files-from", "-", "-j", "2"], capsys)
    assert (status, again) == (1, [])


def test_nothing_new_is_exit_1_and_said_by_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blobs = inbox.mbox_messages(MBOX)
    repository = inbox.init(tmp_path / "0.git")
    inbox.commit(repository, blobs[:20])
    state = tmp_path / "state.json"
    status, rows, err = _rows(["--state", str(state), "--stats", str(repository)], capsys)
    assert status == 0
    assert rows
    assert "nothing new" not in err
    status, rows, err = _rows(["--state", str(state), "--stats", str(repository)], capsys)
    assert (status, rows) == (1, [])
    assert "nothing new since the state" in err
    assert "urlsift: messages            0 = 0 scanned + 0 failed" in err.splitlines()


def test_state_refuses_what_has_no_commits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An mbox, a Maildir, a spool or a plain file grows with no commit to record: ``--state``
    refuses it in one line, exit 2, before anything is read (the state file is not written)."""
    repository = inbox.init(tmp_path / "0.git")
    inbox.commit(repository, inbox.mbox_messages(MBOX)[:5])
    maildir = tmp_path / "Maildir"
    for name in ("cur", "new", "tmp"):
        (maildir / name).mkdir(parents=True)
    (maildir / "new" / "1").write_bytes(b"Subject: s\n\nhttp://example.org/\n")
    state = tmp_path / "state.json"
    for named in ([str(MBOX)], [str(repository), str(maildir)], ["-"]):
        assert main(["--no-progress", "--state", str(state), *named]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert len(err.splitlines()) == 1, err
        assert err.startswith("urlsift: --state reads public-inbox repositories only: "), err
        assert "Traceback" not in err
        assert not state.exists()


def test_a_state_file_that_could_not_be_saved_is_refused_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A state in a folder that does not exist was found out after the whole run, at the save."""
    repository = inbox.init(tmp_path / "0.git")
    inbox.commit(repository, inbox.mbox_messages(MBOX)[:5])
    assert main(["--no-progress", "--state", str(tmp_path / "no" / "state.json"), str(repository)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    said = f"urlsift: --state {tmp_path / 'no' / 'state.json'}: its folder cannot be written"
    assert err == said + ", so the state could not be saved\n"


def test_a_recorded_commit_no_longer_in_the_history_is_warned_and_read_from_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A repository rewritten (its old commits still there, unreachable) or replaced: the commit
    recorded is named on standard error, and the repository is read from its start."""
    blobs = inbox.mbox_messages(MBOX)
    repository = inbox.init(tmp_path / "0.git")
    commits = inbox.commit(repository, blobs[:30])
    state = tmp_path / "state.json"
    assert _rows(["--state", str(state), str(repository)], capsys)[0] == 0
    assert json.loads(state.read_text()) == {os.path.realpath(repository): commits[-1]}
    subprocess.run(
        [inbox.GIT, f"--git-dir={repository}", "update-ref", "refs/heads/master", commits[9]], check=True
    )
    inbox.commit(repository, blobs[40:45])
    _, whole, _ = _rows([str(repository)], capsys)
    status, rows, err = _rows(["--state", str(state), str(repository)], capsys)
    assert status == 0
    assert rows == whole
    assert err.splitlines() == [
        f"urlsift: {repository}: --state: the commit recorded, {commits[-1]}, is not in its history"
        " (rewritten, or another repository): read from its start"
    ]
    state.write_text(json.dumps({os.path.realpath(repository): "0123abcd" * 5}))
    status, rows, err = _rows(["--state", str(state), str(repository)], capsys)
    assert (status, rows) == (0, whole)
    assert f"the commit recorded, {'0123abcd' * 5}, is not in its history" in err


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
        [sys.executable, "-m", "urlsift", "--no-progress", "--no-filename", str(epoch), str(text)],
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
        [sys.executable, "-m", "urlsift", "--no-progress", "--format", "jsonl", str(epoch)],
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


# --- issue 28: a repository is a stranger's: nothing in it runs, blocks, or decides what is read --

GOOD = b"From: a@b\nSubject: s\n\nsee http://example.org/%d\n"


def _marker_script(folder: Path) -> tuple[Path, Path]:
    """A program that leaves a marker file when it runs (and fails), and the marker."""
    marker = folder / "it-ran"
    script = folder / "run.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    script.chmod(0o755)
    return script, marker


def _signed(epoch: Path) -> str:
    """A commit on top of the branch with a ``gpgsig`` header (any signature: git asks gpg.program)."""
    git = [inbox.GIT, f"--git-dir={epoch}"]
    parent = subprocess.run([*git, "rev-parse", "refs/heads/master"], capture_output=True, text=True).stdout
    tree = subprocess.run([*git, "rev-parse", "refs/heads/master^{tree}"], capture_output=True, text=True)
    body = (
        f"tree {tree.stdout.strip()}\nparent {parent.strip()}\n"
        "author A <a@example.org> 1000000000 +0000\ncommitter A <a@example.org> 1000000000 +0000\n"
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\nsigned\n"
    )
    made = subprocess.run(
        [*git, "hash-object", "-t", "commit", "-w", "--stdin"], input=body.encode(), capture_output=True
    )
    commit = made.stdout.decode().strip()
    subprocess.run([*git, "update-ref", "refs/heads/master", commit], check=True)
    return commit


def _hostile_epoch(tmp_path: Path) -> Path:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % k for k in range(3)])
    _signed(epoch)
    return epoch


# Each: the lines added to the repository's config (RUN: the program), and what more it needs.
EXECUTING = {
    "gpg.program with log.showSignature": "[log]\n\tshowSignature = true\n[gpg]\n\tprogram = RUN\n",
    "gpg.ssh.program": '[log]\n\tshowSignature = true\n[gpg]\n\tformat = ssh\n[gpg "ssh"]\n\tprogram = RUN\n',
    "core.fsmonitor": "[core]\n\tfsmonitor = RUN\n",
    "diff.external": "[diff]\n\texternal = RUN\n",
    "core.pager": "[core]\n\tpager = RUN\n[pager]\n\tlog = RUN\n",
    "diff textconv": '[diff "x"]\n\ttextconv = RUN\n',
    "core.hooksPath": "[core]\n\thooksPath = HOOKS\n",
    "include.path": "[include]\n\tpath = INCLUDED\n",
    "includeIf": '[includeIf "gitdir:/"]\n\tpath = INCLUDED\n',
    "partial clone fetching a missing blob over ext::": (
        "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tpartialClone = origin\n"
        '[remote "origin"]\n\turl = ext::RUN %S\n\tpromisor = true\n[protocol "ext"]\n\tallow = always\n'
    ),
    "partial clone fetching over ssh (core.sshCommand)": (
        "[core]\n\trepositoryformatversion = 1\n\tsshCommand = RUN\n[extensions]\n\tpartialClone = origin\n"
        '[remote "origin"]\n\turl = ssh://example.org/x\n\tpromisor = true\n'
    ),
}


@pytest.mark.parametrize("name", sorted(EXECUTING))
def test_no_setting_of_the_repository_runs_a_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    epoch = _hostile_epoch(tmp_path)
    lost, blob = inbox.loose_commit(epoch, GOOD % 3)
    (epoch / "objects" / blob[:2] / blob[2:]).unlink()  # a missing blob: a partial clone would fetch it
    script, marker = _marker_script(tmp_path)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in (
        "pre-commit",
        "post-checkout",
        "reference-transaction",
        "fsmonitor-watchman",
        "post-index-change",
    ):
        (hooks / hook).symlink_to(script)
        (epoch / "hooks" / hook).symlink_to(script)
    (epoch / "info" / "attributes").write_text("* diff=x\n")
    included = tmp_path / "included"
    included.write_text(
        f"[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {script}\n[core]\n\tfsmonitor = {script}\n"
    )
    setting = EXECUTING[name].replace("RUN", str(script)).replace("HOOKS", str(hooks))
    with (epoch / "config").open("a") as config:
        config.write(setting.replace("INCLUDED", str(included)))
    status, rows, err = _rows([str(epoch)], capsys)
    assert not marker.exists()
    assert [row["url"] for row in rows] == [f"http://example.org/{k}" for k in range(3)]
    assert status == 2  # the missing blob
    assert f"[{lost}]#4: corrupt: the blob {blob} is missing from the repository" in err


def _run(argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "urlsift", "--no-progress", "--no-filename", "--stats", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_a_fifo_as_a_loose_object_is_reported_not_opened(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])
    lost, blob = inbox.loose_commit(epoch, GOOD % 1)
    inbox.loose_commit(epoch, GOOD % 2)
    loose = epoch / "objects" / blob[:2] / blob[2:]
    loose.unlink()
    os.mkfifo(loose)
    started = time.monotonic()
    done = _run([str(epoch)])
    assert time.monotonic() - started < 30  # it was: no end (git cat-file in the FIFO's open())
    assert done.stdout.splitlines() == ["http://example.org/0", "http://example.org/2"]
    assert (
        f"urlsift: {epoch}[objects/{blob[:2]}/{blob[2:]}]: corrupt: a FIFO, not a regular file: not read"
        in done.stderr
    )
    assert (
        f"urlsift: {epoch}[{lost}]#1: corrupt: the blob {blob} is missing from the repository" in done.stderr
    )
    assert "messages            3 = 2 scanned + 1 failed" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_fifo_included_by_the_config_is_never_opened(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])
    os.mkfifo(tmp_path / "fifo")
    with (epoch / "config").open("a") as config:
        config.write(f"[include]\n\tpath = {tmp_path / 'fifo'}\n")
    started = time.monotonic()
    done = _run([str(epoch)])
    assert time.monotonic() - started < 30  # it was: 600 s for each git call
    assert (done.returncode, done.stdout) == (0, "http://example.org/0\n")


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "link out"])
def test_a_ref_that_is_no_regular_file_is_reported_not_opened(tmp_path: Path, kind: str) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])
    ref = epoch / "refs" / "heads" / "master"
    outside = tmp_path / "elsewhere"
    outside.write_text(ref.read_text())
    ref.unlink()
    if kind == "fifo":
        os.mkfifo(ref)
    else:
        ref.symlink_to("/dev/zero" if kind == "link to /dev/zero" else outside)
    done = _run([str(epoch)])
    what = "a FIFO" if kind == "fifo" else "a link"
    assert done.returncode == 2
    assert f"urlsift: {epoch}: corrupt: not read: refs/heads/master is {what}: not read\n" in done.stderr


def test_a_loop_of_symbolic_refs_is_a_damaged_repository(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])
    (epoch / "HEAD").write_text("ref: refs/heads/a\n")
    (epoch / "refs" / "heads" / "a").write_text("ref: refs/heads/b\n")
    (epoch / "refs" / "heads" / "b").write_text("ref: refs/heads/a\n")
    (epoch / "refs" / "heads" / "master").unlink()  # the loop is all there is
    done = _run([str(epoch)])
    assert done.returncode == 2  # it was 1: an empty repository, no report
    loop = "HEAD -> refs/heads/a -> refs/heads/b -> refs/heads/a"
    assert f"urlsift: {epoch}: corrupt: not read: symbolic refs in a loop: {loop}\n" in done.stderr


def test_symbolic_refs_are_followed_as_git_follows_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0, GOOD % 1])
    subprocess.run([inbox.GIT, f"--git-dir={epoch}", "pack-refs", "--all"], check=True)
    (epoch / "HEAD").write_text("ref: refs/heads/main\n")
    (epoch / "refs" / "heads" / "main").write_text("ref: refs/heads/master\n")  # packed: in packed-refs
    status, rows, _ = _rows([str(epoch)], capsys)
    assert (status, [row["url"] for row in rows]) == (0, ["http://example.org/0", "http://example.org/1"])


def test_an_epoch_linked_to_another_is_read_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "list"
    inbox.v2_inbox(folder, [[GOOD % 0]])
    (folder / "git" / "1.git").symlink_to(folder / "git" / "0.git")
    status, rows, err = _rows([str(folder)], capsys)
    assert [row["url"] for row in rows] == ["http://example.org/0"]  # it was read twice
    assert status == 2
    assert f"{folder / 'git' / '1.git'}: unreadable: a link to a folder: not followed" in err


def test_blobs_spend_from_the_decompression_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    head = b"From: a@b\nSubject: big\n\nhttp://example.org/big\n"
    big = [head + bytes([k]) * (5 << 20) for k in (1, 2)]  # two blobs of 5 MiB of one byte, alternating
    inbox.commit(epoch, [big[k % 2] for k in range(20)])
    status, rows, err = _rows(["--max-message", "10M", "--max-expand", "22M", str(epoch)], capsys)
    assert status == 2
    assert len(rows) == 4  # it was 20: 100 MiB out of a repository of a few KB
    assert "corrupt" not in err
    assert re.search(
        r": too-large: blobs: expands past 22,000,000 bytes .*; the messages from commit \w+ on", err
    )


def test_a_blob_over_max_message_is_not_read_past_its_head(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    big = b"From: a@b\nMessage-ID: <big@x>\n\n" + b"x" * (60 << 20)
    inbox.commit(epoch, [big, GOOD % 0])
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            # VmHWM: this process's own peak (ru_maxrss would keep the forking test's)
            "import re, sys; from urlsift.cli import main; s = main(sys.argv[1:]); "
            "peak = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read())[1]; "
            "print(peak, file=sys.stderr); sys.exit(s)",
            "--no-progress",
            "--max-message",
            "50M",
            str(epoch),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout == "http://example.org/0\n"
    assert f"#0: too-large: a message of {len(big):,} bytes" in done.stderr
    assert int(done.stderr.splitlines()[-1]) < 45_000  # KB: it held 50 MB of it


def test_messages_lost_to_missing_blobs_are_counted(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])
    _, blob = inbox.loose_commit(epoch, GOOD % 1)
    (epoch / "objects" / blob[:2] / blob[2:]).unlink()
    inbox.commit(epoch, [b"", GOOD % 2])
    done = _run([str(epoch)])
    assert "messages            4 = 2 scanned + 2 failed" in done.stderr  # it was 2 = 2 + 0


def test_out_of_file_descriptors_is_the_machines_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])

    def emfile(*_: object, **__: object) -> None:
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    monkeypatch.setattr(subprocess, "Popen", emfile)
    status, _, err = _rows([str(epoch)], capsys)
    assert status == 2
    assert f"{epoch}: unreadable: not read: Too many open files (the machine's)" in err  # it was internal


@pytest.mark.parametrize("silent", ["log", "cat-file"])
def test_a_git_that_says_nothing_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, silent: str
) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])
    fake = tmp_path / "git"
    # git SILENT never answers; the others (cat-file --batch-check: which commits it holds) do.
    cases = f'case " $* " in *" --batch-check "*) ;; *" {silent} "*) exec sleep 60;; esac'
    fake.write_text(f'#!/bin/sh\n{cases}\nexec {inbox.GIT} "$@"\n')
    fake.chmod(0o755)
    monkeypatch.setattr(publicinbox, "_git", lambda: str(fake))
    monkeypatch.setattr(publicinbox, "GIT_SILENCE", 0.5)
    started = time.monotonic()
    found = list(publicinbox.read(str(epoch), Provenance(str(epoch)), 10**9, ReadOptions().inbox()))
    assert time.monotonic() - started < 20
    assert [item.kind for item in found if isinstance(item, Defect)] == ["unreadable"]
    (defect,) = [item for item in found if isinstance(item, Defect)]
    assert f"git {silent}: nothing said for 0.5 s; stopped" in defect.detail


def test_a_symlinked_objects_folder_is_not_followed_nor_sized(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])
    (epoch / "objects").rename(tmp_path / "objects")
    (epoch / "objects").symlink_to(tmp_path / "objects")
    assert publicinbox.size(str(epoch)) == 0  # -j sized it by walking wherever the link led
    done = _run([str(epoch)])
    assert done.returncode == 2
    assert f"urlsift: {epoch}: corrupt: not read: objects is a link: not followed\n" in done.stderr


def _sparse_epoch(tmp_path: Path, blobs: list[bytes]) -> Path:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, blobs)
    if not inbox.sparse_pack(epoch):
        pytest.skip("this file system stores a sparse file whole")
    return epoch


def test_a_sparse_pack_does_not_cut_a_repository_into_its_commits(tmp_path: Path) -> None:
    epoch = _sparse_epoch(tmp_path, [GOOD % k for k in range(50)])
    units = list(plan([str(epoch)], ReadOptions()))
    assert units == [Unit("files", str(epoch), names=(str(epoch),))]  # it was 50, one per commit


def test_a_repository_is_cut_into_a_bounded_number_of_pieces(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % k for k in range(200)])
    units = list(plan([str(epoch)], ReadOptions(), split=1, batch=1))
    assert all(isinstance(unit, Unit) and unit.kind == "inbox" for unit in units)
    assert 1 < len(units) <= 64  # it was 200: each piece walks the history, so planning was quadratic
    reading = ReadOptions().inbox()
    found = [
        item.where.message
        for unit in units
        if isinstance(unit, Unit)
        for item in publicinbox.read(str(epoch), Provenance(str(epoch)), 10**9, reading, unit.start, unit.end)
        if isinstance(item, publicinbox.Blob)
    ]
    assert found == list(range(200))


def test_a_sparse_pack_does_not_lift_the_blob_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = b"From: a@b\nSubject: big\n\nhttp://example.org/big\n"
    big = [head + bytes([k]) * (5 << 20) for k in (1, 2)]
    epoch = _sparse_epoch(tmp_path, [big[k % 2] for k in range(20)])
    status, rows, err = _rows(["--max-message", "10M", str(epoch)], capsys)
    assert status == 2
    assert len(rows) < 10  # it was 20: 1000 times a terabyte of holes
    assert re.search(
        r": too-large: blobs: expands past [\d,]+ bytes, 1000 times its [\d,]{1,7} packed bytes", err
    )


def test_commits_that_change_many_paths_are_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repository = inbox.init(tmp_path / "v1.git")
    paths = [inbox.v1_path(b"Message-ID: <%d@x>\n" % k, k) for k in range(20_000)]
    inbox.wide(repository, 5, paths, (GOOD % 0, GOOD % 1))
    status, rows, err = _rows([str(repository)], capsys)
    assert status == 2
    assert len(rows) < 20_000  # it was 100,000: every path of every commit a message
    assert re.search(r": too-large: git log: more than [\d,]+ changed paths in 5 commits", err)
    assert "Traceback" not in err


def test_an_epoch_is_named_by_its_number_in_ascii(tmp_path: Path) -> None:
    folder = tmp_path / "inbox"
    inbox.v2_inbox(folder, [[GOOD % 0]])
    for name in ("00.git", "\u0661.git", "01.git"):  # ("\u0661": ARABIC-INDIC DIGIT ONE)
        inbox.commit(inbox.init(folder / "git" / name), [GOOD % 1])
    found = publicinbox.epochs(str(folder))
    assert found is not None
    assert found[0] == str(folder / "git" / "0.git")  # each was an epoch
    assert sorted(entry[0] for entry in found[1:] if isinstance(entry, tuple)) == sorted(  # said
        str(folder / "git" / name) for name in ("00.git", "\u0661.git", "01.git")
    )


def test_an_epoch_that_cannot_be_read_is_reported_not_passed_over(tmp_path: Path) -> None:
    """An epoch without its HEAD, a file named like one, a big epoch number: each used to vanish
    with its messages, the run saying every file scanned."""
    folder = tmp_path / "inbox"
    inbox.v2_inbox(folder, [[GOOD % 0], [GOOD % 1], [GOOD % 2]])
    (folder / "git" / "1.git" / "HEAD").unlink()
    (folder / "git" / "2.git").rename(folder / "git" / "1000000000.git")
    (folder / "git" / "3.git").write_bytes(b"")
    run = _run([str(folder)])
    assert run.stdout.split() == ["http://example.org/0", "http://example.org/2"]
    said = [line for line in run.stderr.splitlines() if ": unreadable: " in line]
    assert [line.split(": unreadable: ")[0] for line in said] == [
        f"urlsift: {folder / 'git' / '1.git'}",
        f"urlsift: {folder / 'git' / '3.git'}",
    ]


def test_a_commit_that_changes_no_message_still_counts(tmp_path: Path) -> None:
    epoch = inbox.init(tmp_path / "0.git")
    inbox.commit(epoch, [GOOD % 0])
    who = ["-c", "user.name=A", "-c", "user.email=a@example.org"]
    git = [inbox.GIT, f"--git-dir={epoch}"]
    same = subprocess.run(
        [*git, *who, "commit-tree", "master^{tree}", "-p", "master", "-m", ""],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.strip()
    subprocess.run([*git, "update-ref", "refs/heads/master", same], check=True)
    inbox.commit(epoch, [GOOD % 2])
    reading = ReadOptions().inbox()

    def numbers(start: int, end: int | None) -> list[int | None]:
        found = publicinbox.read(str(epoch), Provenance(str(epoch)), 10**9, reading, start, end)
        return [item.where.message for item in found if isinstance(item, publicinbox.Blob)]

    assert numbers(0, None) == [0, 2]
    assert numbers(0, 2) == [0]
    assert numbers(2, 3) == [2]


# --- review of --state: each repository its own commits; a cut read is failed; walked folders --


def _by_source(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for row in rows:
        found.setdefault(Path(str(row["source"])).name, []).append(str(row["url"]))
    return found


@pytest.mark.parametrize("jobs", [[], ["-j", "2", "--split-size", "1"]])
def test_state_keeps_each_repository_its_own_commits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: list[str]
) -> None:
    """B, a clone of A with 2 commits more, is read whole: it was cut at A's HEAD (the commits
    recorded were one list for all repositories), its 2 new messages lost and its HEAD recorded."""
    a = inbox.init(tmp_path / "A.git")
    inbox.commit(a, [GOOD % k for k in range(5)])
    b = tmp_path / "B.git"
    subprocess.run([inbox.GIT, "clone", "-q", "--bare", "--no-local", str(a), str(b)], check=True)
    inbox.commit(b, [GOOD % k for k in (100, 101)])
    state = tmp_path / "state.json"
    argv = ["--state", str(state), *jobs, str(a), str(b)]
    status, rows, _ = _rows(argv, capsys)
    assert status == 0
    found = _by_source(rows)
    assert len(found["A.git"]) == 5
    assert found["B.git"][-2:] == ["http://example.org/100", "http://example.org/101"]
    assert len(found["B.git"]) == 7
    assert _rows(argv, capsys)[:2] == (1, [])  # nothing new, nothing read twice
    inbox.commit(a, [GOOD % 7])
    inbox.commit(b, [GOOD % 102])
    status, rows, _ = _rows(argv, capsys)
    assert (status, _by_source(rows)) == (
        0,
        {"A.git": ["http://example.org/7"], "B.git": ["http://example.org/102"]},
    )


def test_a_repository_holding_anothers_objects_is_read_as_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """B holds A's objects (copied in, no ref to them): it was read as A's history, its own 8
    messages never."""
    a = inbox.init(tmp_path / "A.git")
    inbox.commit(a, [GOOD % k for k in range(5)])
    b = inbox.init(tmp_path / "B.git")
    inbox.commit(b, [GOOD % k for k in range(100, 108)])
    for entry in (a / "objects").rglob("*"):
        if entry.is_file():
            target = b / "objects" / entry.relative_to(a / "objects")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(entry.read_bytes())
    state = tmp_path / "state.json"
    argv = ["--state", str(state), str(a), str(b)]
    status, rows, _ = _rows(argv, capsys)
    assert status == 0
    found = _by_source(rows)
    assert found["A.git"] == [f"http://example.org/{k}" for k in range(5)]
    assert found["B.git"] == [f"http://example.org/{k}" for k in range(100, 108)]
    assert _rows(argv, capsys)[:2] == (1, [])


def test_a_repository_cut_by_the_path_budget_is_failed_and_not_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commits after the budget are not read: the repository counts as failed and its HEAD is
    not recorded (it was: the next run said nothing new, the rest never read)."""
    repository = inbox.init(tmp_path / "v1.git")
    paths = [inbox.v1_path(b"Message-ID: <%d@x>\n" % k, k) for k in range(20_000)]
    inbox.wide(repository, 5, paths, (GOOD % 0, GOOD % 1))
    state = tmp_path / "state.json"
    argv = ["--state", str(state), "--stats", str(repository)]
    status, _, err = _rows(argv, capsys)
    assert status == 2
    assert "too-large: git log: more than" in err
    assert "urlsift: files               1 = 0 scanned + 1 failed" in err.splitlines()
    assert os.path.realpath(repository) not in json.loads(state.read_text())
    status, _, err = _rows(argv, capsys)
    assert status == 2  # read again, not "nothing new"
    assert "nothing new" not in err


def test_state_walks_a_folder_holding_the_state_file_and_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--state lore/state.json lore``: the state file (and its .tmp) is never input, and a
    file met while walking that is no repository (grokmirror's manifest.js.gz) is skipped with a
    warning naming it; the second run was refused ("lore/state.json is not one", exit 2)."""
    lore = tmp_path / "lore"
    inbox.v2_inbox(lore / "list", [[GOOD % 0, GOOD % 1]])
    manifest = lore / "manifest.js.gz"
    manifest.write_bytes(b"\x1f\x8b not really")
    state = lore / "state.json"
    (lore / "state.json.tmp").write_text("{}")
    argv = ["--state", str(state), str(lore)]
    status, rows, err = _rows(argv, capsys)
    assert status == 0
    assert [row["url"] for row in rows] == ["http://example.org/0", "http://example.org/1"]
    warned = [line for line in err.splitlines() if "manifest.js.gz" in line]
    assert len(warned) == 1, err
    assert "state.json" not in err
    status, rows, err = _rows(argv, capsys)
    assert (status, rows) == (1, [])
    assert len([line for line in err.splitlines() if "manifest.js.gz" in line]) == 1
    # A PATH named that is no repository is still refused, the state file itself too.
    for named in (manifest, state):
        assert main(["--no-progress", "--state", str(state), str(lore), str(named)]) == 2
        assert "--state reads public-inbox repositories only" in capsys.readouterr().err
