"""Public-inbox repositories built with ``git fast-import`` for the tests and the benchmark: v2
epochs (each commit's tree holds the message as the blob ``m``; a deletion's, as ``d``) and v1
repositories (every message kept at ``xx/yyyy...``, the SHA-1 of its Message-ID)."""

from __future__ import annotations

import hashlib
import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

from urlsift.sources.mbox import messages

GIT = "/usr/bin/git"
_MESSAGE_ID = re.compile(rb"^Message-ID:\s*(\S+)", re.IGNORECASE | re.MULTILINE)


def mbox_messages(mbox: Path) -> list[bytes]:
    """The messages of an mbox, as urlsift splits it (so a repository of them holds the same texts)."""
    with mbox.open("rb") as file:
        return [raw.data for raw in messages(file)]


def _git(repo: Path, *argv: str, data: bytes | None = None) -> str:
    done = subprocess.run([GIT, f"--git-dir={repo}", *argv], input=data, capture_output=True, check=True)
    return done.stdout.decode()


def init(repo: Path) -> Path:
    subprocess.run([GIT, "init", "-q", "--bare", "-b", "master", str(repo)], check=True)
    return repo


def v1_path(message: bytes, number: int) -> str:
    """Where public-inbox v1 keeps a message: the SHA-1 of its Message-ID, as ``xx/yyyy...``."""
    found = _MESSAGE_ID.search(message.split(b"\n\n", 1)[0])
    key = found.group(1) if found else f"<no-id-{number}@test>".encode()
    digest = hashlib.sha1(key).hexdigest()
    return f"{digest[:2]}/{digest[2:]}"


def commit(repo: Path, blobs: Iterable[bytes], *, v1: bool = False, deleted: Iterable[int] = ()) -> list[str]:
    """Add one commit per blob to ``repo`` (a v2 epoch, or a v1 repository) after what it holds,
    and return their ids, oldest first. The indexes in ``deleted`` are deletions (the blob as
    ``d``, v2 only)."""
    gone = set(deleted)
    stream = bytearray()
    has_head = (
        subprocess.run(
            [GIT, f"--git-dir={repo}", "rev-parse", "-q", "--verify", "refs/heads/master"],
            capture_output=True,
        ).returncode
        == 0
    )
    for number, blob in enumerate(blobs):
        stream += b"commit refs/heads/master\nmark :%d\n" % (number + 1)
        stream += b"committer A U Thor <a@example.org> %d +0000\ndata 0\n" % (1_000_000_000 + number)
        if number == 0 and has_head:
            stream += b"from refs/heads/master^0\n"
        if v1:
            stream += b"M 100644 inline %s\n" % v1_path(blob, number).encode()
        else:
            stream += b"deleteall\nM 100644 inline %s\n" % (b"d" if number in gone else b"m")
        stream += b"data %d\n%s\n" % (len(blob), blob)
    marks = repo / "marks.tmp"
    _git(repo, "fast-import", "--quiet", f"--export-marks={marks}", data=bytes(stream))
    ids = dict(line.split() for line in marks.read_text().splitlines())
    marks.unlink()
    return [ids[f":{number + 1}"] for number in range(len(ids))]


def loose_commit(repo: Path, blob: bytes) -> tuple[str, str]:
    """Add one v2 commit made object by object (so its objects are loose files, not packed):
    its id, and its blob's."""
    blob_id = _git(repo, "hash-object", "-w", "--stdin", data=blob).strip()
    tree = _git(repo, "mktree", data=f"100644 blob {blob_id}\tm\n".encode()).strip()
    parent = _git(repo, "rev-parse", "refs/heads/master").strip()
    env_free = ["-c", "user.name=A", "-c", "user.email=a@example.org"]
    made = subprocess.run(
        [GIT, f"--git-dir={repo}", *env_free, "commit-tree", tree, "-p", parent, "-m", ""],
        capture_output=True,
        check=True,
    )
    commit_id = made.stdout.decode().strip()
    _git(repo, "update-ref", "refs/heads/master", commit_id)
    return commit_id, blob_id


def v2_inbox(folder: Path, epochs: Iterable[Iterable[bytes]]) -> list[list[str]]:
    """A v2 inbox at ``folder`` (``git/0.git`` ...), one epoch per list of messages; each epoch's
    commit ids."""
    (folder / "git").mkdir(parents=True)
    return [commit(init(folder / "git" / f"{k}.git"), blobs) for k, blobs in enumerate(epochs)]


def chunks(items: list[bytes], size: int) -> Iterator[list[bytes]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def wide(repo: Path, commits: int, paths: list[str], blobs: tuple[bytes, bytes]) -> None:
    """``commits`` commits on ``repo``, each setting every one of ``paths`` to the other of two
    ``blobs``: each commit changes them all, the repository stays small (two trees)."""
    stream = bytearray()
    for k, blob in enumerate(blobs):
        stream += b"blob\nmark :%d\ndata %d\n%s\n" % (k + 1, len(blob), blob)
    for number in range(commits):
        stream += b"commit refs/heads/master\n"
        stream += b"committer A U Thor <a@example.org> %d +0000\ndata 0\n" % (1_000_000_000 + number)
        stream += b"".join(b"M 100644 :%d %s\n" % (number % 2 + 1, path.encode()) for path in paths)
    _git(repo, "fast-import", "--quiet", data=bytes(stream))


def sparse_pack(repo: Path, size: int = 1 << 40) -> bool:
    """Add to ``repo`` a pack of ``size`` bytes that holds nothing (a hole; no ``.idx``); False
    when the file system stores it whole (it is then removed)."""
    pack = repo / "objects" / "pack" / f"pack-{'ab' * 20}.pack"
    with pack.open("wb") as file:
        file.truncate(size)
    if pack.stat().st_blocks * 512 > 1 << 20:
        pack.unlink()
        return False
    return True
