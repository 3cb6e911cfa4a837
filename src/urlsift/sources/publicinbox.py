"""public-inbox git repositories -> their messages, oldest commit first, each with its commit.

A v2 inbox is a folder whose ``git/0.git``, ``git/1.git`` ... ("epochs") are bare repositories,
read in the order of their numbers; each commit's tree holds the message it added as the blob
``m`` (a deletion's holds ``d``: skipped). A v1 inbox is one bare repository in which every
message stays, at ``xx/yyyy...`` (the SHA-1 of its Message-ID); each commit adds one. Both are read
by what each commit changed (``git log --raw`` on the first-parent line, the messages' blobs then
fetched by ``git cat-file --batch``): the blobs a commit adds or changes at ``m`` or at a v1 path
are its messages. The ``git`` command is used, not a library: on the same repository it read the
most messages a second and lost the fewest to a damaged pack (README, "public-inbox").

A commit is numbered by its place in the repository's first-parent history (0: the root), so a
range of commits can be read alone (``-j``, Dask) and the numbers stay as they were when commits
are added. Whatever git cannot read is a Defect: a missing or damaged blob costs its message (the
next one is read; a ``git cat-file`` that dies is started again), a damaged commit or tree ends
the repository where git stopped.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, NamedTuple

from .._model import Defect, Provenance
from ..errors import StateError as StateError  # (publicinbox.StateError, as before)

GIT_MISSING = "reading a git repository needs the git command, which was not found: install git"
NOT_MAIL_HEAD = 4096
"""The first bytes of a blob looked at for a NUL (binary data, no mail)."""
MAX_FAILURES = 64
"""Blobs in a row that ``git cat-file`` cannot give: the repository is given up after this many."""
_PATH_BYTES = 1 << 12
"""A ``git log`` line longer than this is no commit and no message's path: skipped in pieces."""
_COMMIT = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?\n")  # SHA-1 or SHA-256
_V1_PATH = re.compile(rb"[0-9a-f]{2}/[0-9a-f]{38}")
_EPOCH = re.compile(r"(\d{1,9})\.git")
_HEADER = re.compile(rb"(?:[!-9;-~]+:|From )")  # a field name and its colon, or an mbox separator


class Blob(NamedTuple):
    """A message's bytes (the first ``limit`` + 1 of them only, when it is larger) and its size."""

    where: Provenance
    data: bytes
    size: int


class GitError(Exception):
    """A git command that failed (the message: what it said last)."""


def is_repository(path: str) -> bool:
    """Whether ``path`` is a bare git repository (a v2 epoch or a v1 inbox)."""
    join = os.path.join
    return (
        os.path.isfile(join(path, "HEAD"))
        and os.path.isdir(join(path, "objects"))
        and (os.path.isdir(join(path, "refs")))
    )


def epochs(folder: str) -> list[str] | None:
    """The epochs of the v2 inbox at ``folder``, in order; None when it is no v2 inbox."""
    inner = os.path.join(folder, "git")
    try:
        names = os.listdir(inner)
    except OSError:
        return None
    numbered = sorted((int(m.group(1)), name) for name in names if (m := _EPOCH.fullmatch(name)))
    repositories = [os.path.join(inner, name) for _, name in numbered]
    found = [path for path in repositories if is_repository(path)]
    return found or None


def size(path: str) -> int:
    """The bytes of a repository's objects (what ``units.plan`` cuts it by)."""
    total = 0
    for folder, _, names in os.walk(os.path.join(path, "objects")):
        for name in names:
            try:
                total += os.stat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


def _git() -> str | None:
    return shutil.which("git")


def _run(git: str, path: str, *argv: str, data: bytes | None = None) -> str:
    done = subprocess.run(
        [git, f"--git-dir={path}", *argv], input=data, capture_output=True, check=False, timeout=600
    )
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {argv[0]}: {said[-1] if said else f'exit status {done.returncode}'}")
    return done.stdout.decode("ascii", "replace")


def held(git: str, path: str, commits: Iterable[str]) -> list[str]:
    """The full ids of those of ``commits`` (ids, or their first digits) this repository holds."""
    asked = [commit for commit in commits if re.fullmatch(r"[0-9a-fA-F]{4,64}", commit)]
    if not asked:
        return []
    asking = "".join(f"{commit}^{{commit}}\n" for commit in asked).encode()
    lines = _run(git, path, "cat-file", "--batch-check", data=asking)
    found = (line.split() for line in lines.splitlines())
    return [parts[0] for parts in found if len(parts) == 3 and parts[1] == "commit"]


def head(path: str) -> str | None:
    """The commit a repository's HEAD is at; None when it has none, or it cannot be read."""
    git = _git()
    if git is None:
        return None
    try:
        return _run(git, path, "rev-parse", "-q", "--verify", "HEAD^{commit}").strip() or None
    except (GitError, OSError, subprocess.TimeoutExpired):
        return None


class ReadSpan(NamedTuple):
    """Which commits of a repository to read: by number, ``[first, total)``, up to ``tip``."""

    first: int
    total: int
    tip: str


def span(
    git: str, path: str, since: tuple[str, ...], until: tuple[str, ...], siblings: bool
) -> ReadSpan | None:
    """The commits to read: after the one of ``since`` this repository holds, up to the one of
    ``until`` (else HEAD). None when there are none: no HEAD, or (``siblings``) a later epoch
    holds the ``since`` commit."""
    tips = held(git, path, until)
    tip = tips[0] if tips else head(path)
    if tip is None:
        if _run(git, path, "for-each-ref", "--count=1", "--format=%(refname)").strip():
            raise GitError("its HEAD names no commit that can be read")
        return None  # a repository with no commit yet
    first = 0
    after = held(git, path, since)
    if after:
        first = int(_run(git, path, "rev-list", "--first-parent", "--count", after[0]))
    elif since and siblings and _later_epoch_holds(git, path, since):
        return None
    total = int(_run(git, path, "rev-list", "--first-parent", "--count", tip))
    return ReadSpan(first, max(first, total), tip)


def _later_epoch_holds(git: str, path: str, commits: tuple[str, ...]) -> bool:
    found = _EPOCH.fullmatch(os.path.basename(os.path.normpath(path)))
    if found is None:
        return False
    parent = os.path.dirname(os.path.normpath(path))
    number = int(found[1])
    later = [name for name in os.listdir(parent) if (m := _EPOCH.fullmatch(name)) and int(m[1]) > number]
    return any(held(git, os.path.join(parent, name), commits) for name in later)


def cut_points(
    path: str, since: tuple[str, ...], until: tuple[str, ...], siblings: bool, split: int
) -> list[int]:
    """Where each range of about ``split`` bytes of a repository's commits to read starts
    (counted from the first to read), and their end; [] when it cannot be cut."""
    git = _git()
    if git is None:
        return []
    try:
        found = span(git, path, since, until, siblings)
    except (GitError, OSError, ValueError, subprocess.TimeoutExpired):
        return []  # a whole read reports it
    if found is None:
        return []
    commits = found.total - found.first
    pieces = min(commits, -(-size(path) // split))
    return [k * commits // pieces for k in range(pieces)] + [commits] if pieces > 1 else []


def read(
    path: str,
    where: Provenance,
    limit: int,
    reading: tuple[tuple[str, ...], tuple[str, ...], bool],
    start: int = 0,
    end: int | None = None,
) -> Iterator[Blob | Defect]:
    """The messages of the repository at ``path``, oldest first: of the commits to read
    (``reading``: since, until, whether a later epoch's ``since`` skips this one; ``span``), the
    ``start``-th to the ``end``-th. A message over ``limit`` bytes comes with its head only."""
    git = _git()
    if git is None:
        yield Defect("unreadable", where, GIT_MISSING)
        return
    try:
        found = span(git, path, *reading)
    except (GitError, OSError, ValueError, subprocess.TimeoutExpired) as error:
        yield Defect("corrupt", where, f"not read: {error}")
        return
    if found is None:
        return
    low = found.first + start
    high = found.total if end is None else min(found.total, found.first + end)
    if low < high:
        yield from _messages(git, path, where, found, low, high, limit)


def _messages(
    git: str, path: str, where: Provenance, found: ReadSpan, low: int, high: int, limit: int
) -> Iterator[Blob | Defect]:
    # Each option says what a user's configuration could change: log.showRoot, diff.renames ...
    argv = [git, f"--git-dir={path}", "--no-replace-objects", "log", "--root", "--first-parent", "--reverse"]
    argv += ["--no-renames"]
    argv += ["--diff-merges=first-parent", "--raw", "--no-abbrev", "--format=%H"]
    argv += [f"--skip={found.total - high}", f"--max-count={high - low}", found.tip, "--"]
    with tempfile.TemporaryFile() as said, _CatFile(git, path) as blobs:
        log = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=said)
        assert log.stdout is not None
        number, commit, changes = low - 1, "", 0
        waiting: collections.deque[Provenance] = collections.deque()  # the messages asked for, in order
        finished = False
        try:
            for line in _lines(log.stdout):
                if _COMMIT.fullmatch(line):
                    number, commit = number + 1, line[:-1].decode()
                    continue
                blob = _message_blob(line)
                if blob is None:
                    continue
                changes += 1
                if not blob:
                    continue
                waiting.append(where._replace(member=commit, message=number))
                blobs.ask(blob)
                if blobs.full:
                    yield _checked(blobs.answer(limit), waiting.popleft())
                if blobs.failures >= MAX_FAILURES:
                    yield _given_up(where, waiting[0] if waiting else None)
                    return
            while waiting:
                yield _checked(blobs.answer(limit), waiting.popleft())
                if blobs.failures >= MAX_FAILURES:
                    yield _given_up(where, waiting[0] if waiting else None)
                    return
            finished = True
        finally:
            if not finished:  # stopped early: its output is not read to its end, so it might wait for ever
                log.kill()
            log.wait()
        if log.returncode != 0:
            after = f" after {commit}" if commit else ""
            yield Defect("corrupt", where, f"git log: {_last_line(said)}; the commits{after} are not read")
        elif changes == 0 and number >= low:
            read = number - low + 1
            detail = f"none of its {read:,} commits read holds a message: not a public-inbox repository?"
            yield Defect("not-mail", where, detail)


def _given_up(where: Provenance, next_one: Provenance | None) -> Defect:
    after = "" if next_one is None else f"; the messages from commit {next_one.member} on are not read"
    return Defect("corrupt", where, f"{MAX_FAILURES} blobs in a row could not be read{after}")


def _lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``stream``; a line longer than _PATH_BYTES as pieces (none of them a line)."""
    while line := stream.readline(_PATH_BYTES):
        yield line


def _message_blob(line: bytes) -> bytes | None:
    """From a ``--raw`` line: the blob a commit adds or changes at a message's path (``m``, v1's
    ``xx/yyyy...``); b"" for a deletion's (``d``) or a message removed; None for anything else."""
    if not line.startswith(b":") or b"\t" not in line:
        return None
    fields, _, name = line.rstrip(b"\n").partition(b"\t")
    parts = fields.split()
    if len(parts) != 5:
        return None
    message = name == b"m" or _V1_PATH.fullmatch(name) is not None
    if name == b"d" or (message and parts[4][:1] == b"D"):
        return b""
    if not message:
        return None
    return parts[3] if parts[4][:1] in (b"A", b"M", b"T") else b""


def _checked(got: tuple[bytes, int] | str, where: Provenance) -> Blob | Defect:
    """A blob as a message, or why it is none."""
    if isinstance(got, str):
        return Defect("corrupt", where, got)
    data, size = got
    if size == 0:
        return Defect("not-mail", where, "an empty message; skipped")
    nul = data.find(b"\x00", 0, NOT_MAIL_HEAD)
    if nul >= 0:
        return Defect("not-mail", where, f"binary data (a NUL byte at offset {nul}), not mail; skipped")
    if not _HEADER.match(data):
        return Defect("not-mail", where, "it does not start with a mail header; skipped")
    return Blob(where, data, size)


def _last_line(file: IO[bytes]) -> str:
    file.seek(0)
    lines = file.read(1 << 16).decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else "failed"


class _CatFile:
    """A ``git cat-file --batch`` process: blobs by id, up to WINDOW asked for ahead of the answers
    (a round trip to git per blob costs more than reading it); started again when it dies on one,
    and asked again for those after it."""

    WINDOW = 32
    """Ids written ahead (65 bytes each at most: far less than a pipe holds, so writing one never
    waits for git, which may be waiting for its answers to be read)."""

    def __init__(self, git: str, path: str) -> None:
        self._argv = [git, f"--git-dir={path}", "cat-file", "--batch"]
        self._said = tempfile.TemporaryFile()  # noqa: SIM115 (closed by __exit__)
        self._process: subprocess.Popen[bytes] | None = None
        self._asked: collections.deque[bytes] = collections.deque()
        self.failures = 0
        """Blobs in a row that could not be read."""

    def __enter__(self) -> _CatFile:
        return self

    def __exit__(self, *_: object) -> None:
        self._stop()
        self._said.close()

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    @property
    def full(self) -> bool:
        return len(self._asked) >= self.WINDOW

    def ask(self, blob: bytes) -> None:
        self._asked.append(blob)
        self._write(blob)

    def _write(self, blob: bytes) -> None:
        if self._process is None:
            self._said.seek(0)
            self._said.truncate()
            self._process = subprocess.Popen(
                self._argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._said
            )
        assert self._process.stdin is not None
        with contextlib.suppress(OSError):  # it died: said when the answer is read
            self._process.stdin.write(blob + b"\n")

    def answer(self, limit: int) -> tuple[bytes, int] | str:
        """The oldest asked blob's bytes (its first ``limit`` + 1 only, when it is larger) and
        size; or why not."""
        blob = self._asked.popleft()
        got = self._answer(blob, limit)
        self.failures = self.failures + 1 if isinstance(got, str) else 0
        if isinstance(got, str) and self._process is None:  # it died: the others are asked again
            for later in self._asked:
                self._write(later)
        return got

    def _answer(self, blob: bytes, limit: int) -> tuple[bytes, int] | str:
        process = self._process
        assert process is not None
        assert process.stdin is not None
        assert process.stdout is not None
        try:
            process.stdin.flush()
            header = process.stdout.readline(256).split()
        except OSError:  # it died before: a broken pipe
            header = []
        if len(header) == 2 and header[1] == b"missing":
            return f"the blob {blob.decode()} is missing from the repository"
        if len(header) != 3 or not header[2].isdigit():
            self._stop()
            return f"the blob {blob.decode()} cannot be read: git cat-file: {_last_line(self._said)}"
        size = int(header[2])
        if header[1] != b"blob":
            self._skip(process.stdout, size + 1)
            return f"{blob.decode()} is a {header[1].decode()}, not a blob"
        data = process.stdout.read(min(size, limit + 1))
        rest = size + 1 - len(data)
        if self._skip(process.stdout, rest) < rest or len(data) < min(size, limit + 1):
            self._stop()
            return f"the blob {blob.decode()} ends early: git cat-file: {_last_line(self._said)}"
        return data, size

    @staticmethod
    def _skip(stream: IO[bytes], count: int) -> int:
        """Read and drop ``count`` bytes (a message over the limit is not held); how many there were."""
        left = count
        while left and (piece := stream.read(min(left, 1 << 20))):
            left -= len(piece)
        return count - left


class State:
    """``--state FILE``: the last commit read of each repository (JSON: its real path -> the
    commit), so that a run reads only what came after. The heads are taken when the run starts
    (what is added while it reads waits for the next run); a repository's is recorded once it has
    been read with no loss of the whole (``done``), and the file is replaced when the run ends."""

    def __init__(self, file: str, repositories: Iterable[str]) -> None:
        self._file = file
        try:
            with open(file, encoding="utf-8") as text:
                recorded = json.load(text)
        except FileNotFoundError:
            recorded = {}
        except (OSError, ValueError) as error:  # a state file that is unreadable or no JSON
            raise StateError(f"--state {file}: cannot be read: {error}") from error
        if not isinstance(recorded, dict) or not all(isinstance(v, str) for v in recorded.values()):
            raise StateError(f"--state {file}: not a state file (a JSON object of commits)")
        self._recorded: dict[str, str] = recorded
        self._heads = {path: found for path in repositories if (found := head(path)) is not None}

    def since(self) -> tuple[str, ...]:
        return tuple(
            self._recorded[key] for path in self._heads if (key := os.path.realpath(path)) in self._recorded
        )

    def until(self) -> tuple[str, ...]:
        return tuple(self._heads.values())

    def done(self, path: str) -> None:
        if path in self._heads:
            self._recorded[os.path.realpath(path)] = self._heads[path]

    def save(self) -> None:
        """Replace the file (written beside it first, so a run stopped while writing loses nothing)."""
        temporary = f"{self._file}.tmp"
        with open(temporary, "w", encoding="utf-8") as text:
            json.dump(self._recorded, text, indent=1, sort_keys=True)
            text.write("\n")
        os.replace(temporary, self._file)


def holds(path: str, commit: str) -> bool:
    """Whether the repository at ``path`` holds ``commit`` (False when git cannot tell)."""
    git = _git()
    try:
        return git is not None and bool(held(git, path, (commit,)))
    except (GitError, OSError, subprocess.TimeoutExpired):
        return False
