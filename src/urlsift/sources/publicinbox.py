"""public-inbox git repositories -> their messages, oldest commit first, each with its commit.

A v2 inbox is a folder whose ``git/0.git``, ``git/1.git`` ... ("epochs") are bare repositories,
read in the order of their numbers; each commit's tree holds the message it added as the blob
``m`` (a deletion's holds ``d``: skipped). A v1 inbox is one bare repository in which every
message stays, at ``xx/yyyy...`` (the SHA-1 of its Message-ID); each commit adds one. Both are read
by what each commit changed (``git log --raw`` on the first-parent line, the messages' blobs then
fetched by ``git cat-file --batch``): the blobs a commit adds or changes at ``m`` or at a v1 path
are its messages. The ``git`` command is used, not a library: on the same repository it read the
most messages a second and lost the fewest to a damaged pack (README, "public-inbox").

A repository is a stranger's: nothing in it may run a program, block, or decide what is read but
its objects and its refs. So git never reads the repository itself: it is given a private folder
(``_View``) whose ``config`` is ours, whose ``objects`` link to the repository's packs and loose
objects that are regular files (a FIFO, a link or a device there is reported, never opened), and
nothing else: no ``config`` and its ``include.path``, hooks, ``info/grafts``, ``shallow``, replace
refs, ``objects/info/alternates`` (a mirror that shares its objects through them is unreadable) or
commit-graph. The refs (``HEAD``, ``refs/heads/*``, ``packed-refs``) are read here, each a regular
file, and the commit they name is handed to git. Every read from git has a time limit
(``GIT_SILENCE``), and what blobs give is spent from the file's ``Budget`` (``packed``).

A commit is numbered by its place in the repository's first-parent history (0: the root), so a
range of commits can be read alone (``-j``, Dask) and the numbers stay as they were when commits
are added. Whatever git cannot read is a Defect: a missing or damaged blob costs its message (the
next one is read; a ``git cat-file`` that dies is started again), a damaged tree ends the
repository where git stopped, and a damaged commit costs the commits after it (those before it
are read: ``_salvaged``).
"""

from __future__ import annotations

import collections
import contextlib
import errno
import io
import json
import os
import re
import select
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, NamedTuple

from .._model import Defect, Provenance
from ..errors import StateError as StateError  # (publicinbox.StateError, as before)
from .kinds import is_repository as is_repository
from .mbox import HEAD_BYTES
from .packed import MAX_EXPAND, Budget

if TYPE_CHECKING:
    import subprocess  # (git's processes: imported where one is started, not by every run)

GIT_MISSING = "reading a git repository needs the git command, which was not found: install git"
GIT_SILENCE = 120.0
"""Seconds a git process may go without saying anything before it is stopped and its repository
reported (a FIFO it opened blocks it for ever); tests lower it."""
NOT_MAIL_HEAD = 4096
"""The first bytes of a blob looked at for a NUL (binary data, no mail)."""
MAX_FAILURES = 64
"""Blobs in a row that ``git cat-file`` cannot give: the repository is given up after this many."""
MAX_SYMREFS = 5
"""Symbolic refs followed from HEAD (git's own limit): more, or a loop, is a damaged repository."""
MAX_STATE = 64 << 20
"""The largest ``--state`` file read (bytes): a few hundred bytes a repository."""
MAX_REPORTED = 16
"""Entries of a repository's ``objects`` that are no regular file reported one by one; then one line."""
MAX_PIECES = 32
"""The most ranges of commits a repository is cut into for ``-j`` and Dask: each range's read
walks the first-parent history from the tip (``--skip``), so the pieces cost their number times
the history, and with a piece a commit planning was quadratic."""
_REF_BYTES = 4096
"""A ref file (HEAD, refs/heads/...) longer than this holds no ref."""
MAX_CHANGES = 64
"""Lines of ``git log --raw`` (changed message paths, and one blank line) a commit read may give
on average, with CHANGES_SLACK more for a repository: public-inbox changes one or two paths a
commit. Past them the repository ends, ``too-large`` (a commit may change 200,000 paths of a
small repository, many times over)."""
CHANGES_SLACK = 4096
_PATH_BYTES = 1 << 12
"""A ``git log`` line longer than this is no commit and no message's path: skipped in pieces."""
_COMMIT = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?\n")  # SHA-1 or SHA-256
_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_V1_PATH = re.compile(rb"[0-9a-f]{2}/[0-9a-f]{38}")
# What git log looks at: the paths of messages (``_message_blob``), as pathspecs, so that git
# never prints, nor descends into, the rest of a tree ("glob": "*" and "?" match no "/").
_PATHSPECS = ("m", "d", ":(glob)" + "[0-9a-f]" * 2 + "/" + "[0-9a-f]" * 38)
# An epoch is named by its number as public-inbox writes it: ASCII digits, no leading zero ("00.git"
# and other scripts' digits, which int() takes, would alias epoch 0 or read a stranger's folder).
_EPOCH = re.compile(r"(0|[1-9][0-9]{0,17})\.git", re.ASCII)
_HEADER = re.compile(rb"(?:[!-9;-~]+:|From )")  # a field name and its colon, or an mbox separator
_REF = re.compile(r"refs/(?:[\w.+@-]+/)*[\w.+@-]+", re.ASCII)
_LOOSE_FOLDER = re.compile(r"[0-9a-f]{2}")
_LOOSE = re.compile(r"[0-9a-f]{38}(?:[0-9a-f]{24})?")
_PACK = re.compile(r"pack-[0-9a-f]{40}(?:[0-9a-f]{24})?\.(?:pack|idx|rev)")
_MACHINE = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOSPC, errno.EAGAIN})
"""What an OSError says of the machine (a process out of file descriptors), not of the repository."""

# Settings given to every git call over its (private) config: each one a way to run a program,
# reach a network or read more than the objects, should a git version look at it anyway.
_SETTINGS = {
    "core.fsmonitor": "false",
    "core.hooksPath": os.devnull,
    "core.sshCommand": "false",
    "core.askPass": "false",
    "core.editor": "false",
    "core.pager": "cat",
    "core.alternateRefsCommand": "false",
    "core.commitGraph": "false",
    "core.multiPackIndex": "false",
    "core.useReplaceRefs": "false",
    "core.attributesFile": os.devnull,
    "gpg.program": "false",
    "gpg.openpgp.program": "false",
    "gpg.x509.program": "false",
    "gpg.ssh.program": "false",
    "log.showSignature": "false",
    "log.mailmap": "false",
    "protocol.allow": "never",
    "credential.helper": "",
    "diff.external": "",
    "gc.auto": "0",
    "maintenance.auto": "false",
}


class Blob(NamedTuple):
    """A message's bytes (its first HEAD_BYTES only, when it is over the limit) and its size."""

    where: Provenance
    data: bytes
    size: int


class GitError(Exception):
    """A git command that failed (the message: what it said last)."""


class Silent(GitError):
    """A git command that said nothing for GIT_SILENCE seconds: it was stopped."""


class Damaged(Exception):
    """A repository whose refs or folders cannot be read as they are (a link, a FIFO, a loop)."""


def epochs(folder: str) -> list[str | tuple[str, str]] | None:
    """The epochs of the v2 inbox at ``folder``, in order, an epoch that is a link to a folder as
    (its path, why it is not read): it would be read twice; None when it is no v2 inbox."""
    inner = os.path.join(folder, "git")
    try:
        names = os.listdir(inner)
    except OSError:
        return None
    numbered = sorted((int(m.group(1)), name) for name in names if (m := _EPOCH.fullmatch(name)))
    found: list[str | tuple[str, str]] = []
    for _, name in numbered:
        path = os.path.join(inner, name)
        if not is_repository(path):
            found.append(
                (path, "an epoch that is no git repository (no HEAD file, objects or refs): not read")
            )
        elif os.path.islink(path):
            found.append(
                (path, "a link to a folder: not followed (an epoch linked is read once, where it is)")
            )
        else:
            found.append(path)
    if not any(isinstance(epoch, str) for epoch in found):
        return None
    epoch_names = {name for _, name in numbered}
    found += [  # nothing in git/ is passed over unsaid: a stranger's inbox could hide an epoch so
        (os.path.join(inner, name), "not an epoch's name (public-inbox's are 0.git, 1.git, ...): not read")
        for name in sorted(names)
        if name not in epoch_names
    ]
    return found


def size(path: str) -> int:
    """The bytes of a repository's objects on disk, what both ``units.plan`` cuts it by and its
    blobs' Budget allows 1000 times (``_survey``, ``_held``): its indexed packs and loose objects
    that are regular files, no link followed."""
    try:
        return _survey(path, None)[0]
    except (OSError, Damaged):
        return 0


def _what(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a folder" if stat.S_ISDIR(mode) else "not a regular file"


def _held(status: os.stat_result) -> int:
    """The bytes a file holds on disk: a sparse file's holes (``truncate -s 1T``) hold nothing,
    and a stranger's repository is measured by what it holds, not by what it claims."""
    return min(status.st_size, status.st_blocks * 512)


def _survey(path: str, into: str | None) -> tuple[int, list[tuple[str, str]]]:
    """The bytes the repository's objects hold on disk (``_held``: loose objects, and packs that
    have their ``.idx``: git reads no other), and its entries under ``objects`` that are no
    regular file (their paths, what they are); with ``into`` (a private ``objects`` folder), each
    loose-object folder and pack is linked there, none of those entries."""
    objects = os.path.join(path, "objects")
    mode = os.lstat(objects).st_mode
    if not stat.S_ISDIR(mode):
        raise Damaged(f"objects is {_what(mode)}: not followed")
    total, bad = 0, []
    packs: dict[str, int] = {}  # pack-X -> the bytes of its .pack, .idx and .rev
    parts: dict[str, set[str]] = {}  # pack-X -> which of them it has
    with os.scandir(objects) as found:
        folders = [entry for entry in found if entry.name == "pack" or _LOOSE_FOLDER.fullmatch(entry.name)]
    for folder in folders:
        relative = f"objects/{folder.name}"
        if not folder.is_dir(follow_symlinks=False):
            bad.append((relative, _what(folder.stat(follow_symlinks=False).st_mode)))
            continue
        named = _PACK if folder.name == "pack" else _LOOSE
        good: list[str] = []
        with os.scandir(folder.path) as entries:
            for entry in entries:
                status = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(status.st_mode):
                    if named.fullmatch(entry.name):
                        good.append(entry.name)
                        if named is _LOOSE:
                            total += _held(status)
                        else:
                            stem, _, suffix = entry.name.rpartition(".")
                            packs[stem] = packs.get(stem, 0) + _held(status)
                            parts.setdefault(stem, set()).add(suffix)
                else:
                    bad.append((f"{relative}/{entry.name}", _what(status.st_mode)))
        if into is None:
            continue
        target = os.path.join(into, folder.name)
        if folder.name != "pack" and not (bad and bad[-1][0].startswith(f"{relative}/")):
            os.symlink(folder.path, target)  # every entry a regular file: the folder as it is
            continue
        os.mkdir(target)
        for name in good:
            os.symlink(os.path.join(folder.path, name), os.path.join(target, name))
    total += sum(held for stem, held in packs.items() if {"pack", "idx"} <= parts[stem])
    return total, bad


def _read_regular(path: str, relative: str, limit: int) -> bytes | None:
    """The bytes of the regular file ``relative`` in ``path`` (at most ``limit``, else Damaged);
    None when it does not exist. Damaged when it, or a folder on its way, is no regular file or
    folder (a link, a FIFO): nothing of a repository is opened that could block or lead out."""
    here = path
    parts = relative.split("/")
    for k, part in enumerate(parts):
        here = os.path.join(here, part)
        try:
            mode = os.lstat(here).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return None
        last = k == len(parts) - 1
        if not (stat.S_ISREG(mode) if last else stat.S_ISDIR(mode)):
            raise Damaged(f"{'/'.join(parts[: k + 1])} is {_what(mode)}: not read")
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    descriptor = os.open(here, flags)
    with open(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # changed since the lstat
            raise Damaged(f"{relative} is not a regular file: not read")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise Damaged(f"{relative} is over {limit:,} bytes: no ref")
    return data


def _ref(path: str, name: str) -> str | None:
    """What the ref ``name`` holds (an id, or "ref: ..."), from its file or ``packed-refs``."""
    data = _read_regular(path, name, _REF_BYTES)
    if data is not None:
        return data.decode("ascii", "replace").strip()
    if name == "HEAD":
        return None
    for ref, value in _packed_refs(path):
        if ref == name:
            return value
    return None


def _packed_refs(path: str) -> Iterator[tuple[str, str]]:
    """The (name, id) lines of ``packed-refs``."""
    data = _read_regular(path, "packed-refs", MAX_STATE)
    for line in (data or b"").decode("ascii", "replace").splitlines():
        value, _, ref = line.partition(" ")
        if _ID.fullmatch(value) and _REF.fullmatch(ref):
            yield ref, value


def _has_refs(path: str) -> bool:
    if next(_packed_refs(path), None) is not None:
        return True
    # (os.walk follows no link to a folder)
    return any(names for _, _, names in os.walk(os.path.join(path, "refs")))


def tip(path: str) -> str | None:
    """The commit id HEAD names, its symbolic refs followed here (up to MAX_SYMREFS); None when
    the repository has no ref at all yet. Damaged when a ref is no ref, or they go in a loop."""
    chain = ["HEAD"]
    while True:
        value = _ref(path, chain[-1])
        if value is None:
            if chain[-1] == "HEAD" or not _has_refs(path):
                return None
            raise Damaged(f"its HEAD names {chain[-1]}, which does not exist")
        if _ID.fullmatch(value):
            return value
        target = value.removeprefix("ref:").strip()
        if not value.startswith("ref:") or not _REF.fullmatch(target) or "/." in target:
            raise Damaged(f"{chain[-1]} holds no commit id and no ref: {value[:80]!r}")
        if target in chain:
            raise Damaged(f"symbolic refs in a loop: {' -> '.join([*chain, target])}")
        if len(chain) > MAX_SYMREFS:
            raise Damaged(f"more than {MAX_SYMREFS} symbolic refs in a row: {' -> '.join(chain)} ...")
        chain.append(target)


def _git() -> str | None:
    return shutil.which("git")


class _View:
    """A private git folder that sees a repository's objects and nothing else of it: its own
    ``config`` and ``HEAD``, no refs, links to the repository's loose-object folders and packs
    that hold only regular files (the others: ``problems``). git is run in it (``argv``, ``env``),
    with the repository's commit ids given by the caller."""

    def __init__(self, git: str, path: str) -> None:
        self.git, self.path = git, path
        self.tip = tip(path)
        self.folder = tempfile.mkdtemp(prefix="urlsift-git-")
        try:
            objects, home = os.path.join(self.folder, "objects"), os.path.join(self.folder, "home")
            for folder in (objects, home, os.path.join(self.folder, "refs")):
                os.mkdir(folder)
            self.packed, self.problems = _survey(os.path.abspath(path), objects)  # (links from elsewhere)
            sha256 = self.tip is not None and len(self.tip) == 64
            with open(os.path.join(self.folder, "config"), "w", encoding="ascii") as config:
                config.write(f"[core]\n\trepositoryformatversion = {int(sha256)}\n\tbare = true\n")
                if sha256:
                    config.write("[extensions]\n\tobjectformat = sha256\n")
            with open(os.path.join(self.folder, "HEAD"), "w", encoding="ascii") as head_file:
                head_file.write("ref: refs/heads/none\n")
        except BaseException:
            self.close()
            raise
        self.env = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
        self.env.update(
            GIT_DIR=self.folder,
            GIT_CONFIG_NOSYSTEM="1",
            GIT_CONFIG_SYSTEM=os.devnull,
            GIT_CONFIG_GLOBAL=os.devnull,
            HOME=home,
            XDG_CONFIG_HOME=home,
            GIT_NO_REPLACE_OBJECTS="1",
            GIT_NO_LAZY_FETCH="1",
            GIT_TERMINAL_PROMPT="0",
            GIT_OPTIONAL_LOCKS="0",
            GIT_ATTR_NOSYSTEM="1",
            GIT_ALLOW_PROTOCOL="",
            GIT_PROTOCOL_FROM_USER="0",
            GIT_CONFIG_COUNT=str(len(_SETTINGS)),
            LC_ALL="C",
        )
        for k, (key, value) in enumerate(_SETTINGS.items()):
            self.env[f"GIT_CONFIG_KEY_{k}"], self.env[f"GIT_CONFIG_VALUE_{k}"] = key, value

    def __enter__(self) -> _View:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def argv(self, *argv: str) -> list[str]:
        return [self.git, "--no-pager", "--no-replace-objects", *argv]

    def popen(self, argv: list[str], stdin: int | IO[bytes], stderr: IO[bytes]) -> subprocess.Popen[bytes]:
        import subprocess

        return subprocess.Popen(
            argv, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr, env=self.env, cwd=self.folder
        )

    def run(self, *argv: str, data: bytes | None = None) -> str:
        """What ``git ARGV`` prints (given ``data``); GitError when it fails or says nothing for
        GIT_SILENCE seconds."""
        import subprocess

        with tempfile.TemporaryFile() as said:
            process = self.popen(self.argv(*argv), subprocess.PIPE, said)
            try:
                out, _ = process.communicate(data, timeout=GIT_SILENCE)
            except subprocess.TimeoutExpired:
                process.kill()  # (waiting for the pipes to close would wait on what it started)
                process.wait()
                for pipe in (process.stdin, process.stdout):
                    if pipe is not None:
                        pipe.close()
                raise Silent(f"git {argv[0]}: nothing said for {GIT_SILENCE:g} s; stopped") from None
            if process.returncode != 0:
                raise GitError(f"git {argv[0]}: {_last_line(said, process.returncode)}")
        return out.decode("ascii", "replace")


class _Timed(io.RawIOBase):
    """A git process's output, read with a time limit: GIT_SILENCE seconds with nothing to read
    raise Silent (a reader never waits on git for ever)."""

    def __init__(self, stream: IO[bytes], what: str) -> None:
        self._descriptor, self._what = stream.fileno(), what
        self._poll = select.poll()
        self._poll.register(self._descriptor, select.POLLIN)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if not self._poll.poll(GIT_SILENCE * 1000):
            raise Silent(f"git {self._what}: nothing said for {GIT_SILENCE:g} s; stopped")
        data = os.read(self._descriptor, len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _timed(process: subprocess.Popen[bytes], what: str) -> io.BufferedReader:
    assert process.stdout is not None
    return io.BufferedReader(_Timed(process.stdout, what), buffer_size=1 << 16)


def held(view: _View, commits: Iterable[str]) -> list[str]:
    """The full ids of those of ``commits`` (ids, or their first digits) the repository holds."""
    asked = [commit for commit in commits if re.fullmatch(r"[0-9a-fA-F]{4,64}", commit)]
    if not asked:
        return []
    asking = "".join(f"{commit}^{{commit}}\n" for commit in asked).encode()
    lines = view.run("cat-file", "--batch-check", data=asking)
    found = (line.split() for line in lines.splitlines())
    return [parts[0] for parts in found if len(parts) == 3 and parts[1] == "commit"]


class ReadSpan(NamedTuple):
    """Which commits of a repository to read: by number, ``[first, total)``, up to ``tip``."""

    first: int
    total: int
    tip: str


def span(view: _View, since: tuple[str, ...], until: tuple[str, ...], siblings: bool) -> ReadSpan | None:
    """The commits to read: after the one of ``since`` this repository holds, up to the one of
    ``until`` (else HEAD). None when there are none: no HEAD, or (``siblings``) a later epoch
    holds the ``since`` commit."""
    tips = held(view, until)
    if tips:
        last = tips[0]
    elif view.tip is None:
        return None  # a repository with no commit yet
    else:
        found = held(view, [view.tip])
        if not found:
            raise GitError(f"its HEAD names {view.tip}, which is no commit it holds")
        last = found[0]
    first = 0
    after = held(view, since)
    if after:
        first = int(view.run("rev-list", "--first-parent", "--count", after[0]))
    elif since and siblings and _later_epoch_holds(view, since):
        return None
    total = int(view.run("rev-list", "--first-parent", "--count", last))
    return ReadSpan(first, max(first, total), last)


def _later_epoch_holds(view: _View, commits: tuple[str, ...]) -> bool:
    path = view.path
    found = _EPOCH.fullmatch(os.path.basename(os.path.normpath(path)))
    if found is None:
        return False
    parent = os.path.dirname(os.path.normpath(path))
    number = int(found[1])
    later = [name for name in os.listdir(parent) if (m := _EPOCH.fullmatch(name)) and int(m[1]) > number]
    for name in later:
        sibling = os.path.join(parent, name)
        if os.path.islink(sibling) or not is_repository(sibling):
            continue
        try:
            with _View(view.git, sibling) as other:
                if held(other, commits):
                    return True
        except (GitError, OSError, Damaged):
            continue
    return False


def cut_points(
    path: str, since: tuple[str, ...], until: tuple[str, ...], siblings: bool, split: int
) -> list[int]:
    """Where each range of about ``split`` bytes of a repository's commits to read starts
    (counted from the first to read), and their end; [] when it cannot be cut."""
    git = _git()
    if git is None:
        return []
    try:
        with _View(git, path) as view:
            found = span(view, since, until, siblings)
            packed = view.packed
    except (GitError, OSError, ValueError, Damaged):
        return []  # a whole read reports it
    if found is None:
        return []
    commits = found.total - found.first
    pieces = min(commits, -(-packed // split), MAX_PIECES)
    return [k * commits // pieces for k in range(pieces)] + [commits] if pieces > 1 else []


def _failed(error: Exception, where: Provenance, what: str) -> Defect:
    """The report of a repository (or its end) that could not be read: ``unreadable`` for a fault
    of the machine (out of file descriptors: EMFILE) or a git that went silent, else ``corrupt``."""
    if isinstance(error, OSError):
        text = error.strerror or str(error)
        return Defect(
            "unreadable", where, f"{what}: {text}" + (" (the machine's)" if _machine(error) else "")
        )
    text = str(error)
    machine = "Too many open files" in text or "Cannot allocate memory" in text or isinstance(error, Silent)
    return Defect("unreadable" if machine else "corrupt", where, f"{what}: {text}")


def _machine(error: OSError) -> bool:
    return error.errno in _MACHINE


def read(
    path: str,
    where: Provenance,
    limit: int,
    reading: tuple[tuple[str, ...], tuple[str, ...], bool],
    start: int = 0,
    end: int | None = None,
    max_expand: int = MAX_EXPAND,
) -> Iterator[Blob | Defect]:
    """The messages of the repository at ``path``, oldest first: of the commits to read
    (``reading``: since, until, whether a later epoch's ``since`` skips this one; ``span``), the
    ``start``-th to the ``end``-th. A message over ``limit`` bytes comes with its head only; what
    the blobs give is spent from a Budget of ``max_expand`` bytes (and MAX_RATIO times the
    repository's objects)."""
    git = _git()
    if git is None:
        yield Defect("unreadable", where, GIT_MISSING)
        return
    try:
        view = _View(git, path)
    except Damaged as error:
        yield Defect("corrupt", where, f"not read: {error}")
        return
    except OSError as error:
        yield _failed(error, where, "not read")
        return
    with view:
        if start == 0:  # (once, not once a piece)
            yield from _problems(view, where)
        try:
            found = span(view, *reading)
        except (GitError, OSError, ValueError) as error:
            yield _failed(error, where, "not read")
            return
        if found is None:
            return
        low = found.first + start
        high = found.total if end is None else min(found.total, found.first + end)
        if low < high:
            budget = Budget(max_expand, lambda: view.packed)
            yield from _messages(view, where, found, low, high, limit, budget)


def _problems(view: _View, where: Provenance) -> Iterator[Defect]:
    """The entries of the repository's ``objects`` git is not let open: their objects are missing."""
    for relative, what in view.problems[:MAX_REPORTED]:
        yield Defect("corrupt", where._replace(member=relative), f"{what}, not a regular file: not read")
    more = len(view.problems) - MAX_REPORTED
    if more > 0:
        yield Defect("corrupt", where, f"{more:,} more entries of objects are no regular file: not read")


class _Stop(Exception):
    """The end of a repository's read, with its report."""

    def __init__(self, defect: Defect) -> None:
        super().__init__(defect.detail)
        self.defect = defect


def _messages(
    view: _View, where: Provenance, found: ReadSpan, low: int, high: int, limit: int, budget: Budget
) -> Iterator[Blob | Defect]:
    import subprocess

    # Each option says what a configuration could change (log.showRoot, diff.renames ...): the
    # config is ours, but git's defaults change between versions.
    argv = view.argv("log", "--root", "--first-parent", "--reverse", "--no-renames", "--no-ext-diff")
    argv += ["--no-textconv", "--no-show-signature", "--no-mailmap", "--no-decorate"]
    argv += ["--diff-merges=first-parent", "--raw", "--no-abbrev", "--format=%H"]
    # With pathspecs, git shows only the commits that change them: --full-history --sparse shows
    # every commit walked, so that --skip and the numbers count every first-parent commit.
    argv += ["--full-history", "--sparse", f"--skip={found.total - high}", f"--max-count={high - low}"]
    argv += [found.tip, "--", *_PATHSPECS]
    allowed = MAX_CHANGES * (high - low) + CHANGES_SLACK
    with tempfile.TemporaryFile() as said, _CatFile(view) as blobs:
        log = view.popen(argv, subprocess.DEVNULL, said)
        number, commit, changes, lines = low - 1, "", 0, 0
        waiting: collections.deque[Provenance] = collections.deque()  # the messages asked for, in order
        finished = False
        try:
            for line in _lines(_timed(log, "log")):
                if _COMMIT.fullmatch(line):
                    number, commit = number + 1, line[:-1].decode()
                    continue
                lines += 1
                if lines > allowed:  # the messages asked for are given, then the report
                    while waiting:
                        yield _next(blobs, waiting, where, limit, budget)
                    detail = f"git log: more than {allowed:,} changed paths in {high - low:,} commits"
                    detail += " (not a public-inbox repository?); "
                    detail += f"the rest of {commit} and the commits after it are not read"
                    yield Defect("too-large", where, detail)
                    return
                blob = _message_blob(line)
                if blob is None:
                    continue
                changes += 1
                if not blob:
                    continue
                waiting.append(where._replace(member=commit, message=number))
                blobs.ask(blob)
                if blobs.full:
                    yield _next(blobs, waiting, where, limit, budget)
            while waiting:
                yield _next(blobs, waiting, where, limit, budget)
            finished = True
        except _Stop as stop:
            yield stop.defect
            return
        except (GitError, OSError) as error:
            stopped = _failed(error, where, "stopped")
            after = f"; the commits after {commit} are not read" if commit else ""
            yield stopped._replace(detail=stopped.detail + after)
            return
        finally:
            if not finished:  # stopped early: its output is not read to its end, so it might wait for ever
                log.kill()
            log.wait()
            if log.stdout is not None:
                log.stdout.close()
        if log.returncode != 0:
            after = f" after {commit}" if commit else ""
            yield Defect(
                "corrupt",
                where,
                f"git log: {_last_line(said, log.returncode)}; the commits{after} are not read",
            )
        elif changes == 0 and number >= low:
            read = number - low + 1
            detail = f"none of its {read:,} commits read holds a message: not a public-inbox repository?"
            yield Defect("not-mail", where, detail)


def _next(
    blobs: _CatFile, waiting: collections.deque[Provenance], where: Provenance, limit: int, budget: Budget
) -> Blob | Defect:
    """The next message asked for, or why it is none; _Stop when the repository ends here."""
    message = waiting.popleft()
    got = blobs.answer(limit, budget)
    if got is None:
        budget.spend(blobs.over)  # what the blob would give: the Budget says by how much it is over
        later = f"; the messages from commit {message.member} on are not read"
        raise _Stop(Defect("too-large", where, f"blobs: {budget.over()}{later}"))
    if blobs.failures >= MAX_FAILURES:
        raise _Stop(_given_up(where, message))
    return _checked(got, message)


def _given_up(where: Provenance, last: Provenance) -> Defect:
    after = f"the messages after commit {last.member} are not read"
    return Defect("corrupt", where, f"{MAX_FAILURES} blobs in a row could not be read; {after}")


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


def _last_line(file: IO[bytes], status: int | None = None) -> str:
    file.seek(0)
    lines = file.read(1 << 16).decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else "failed" if status is None else f"exit status {status}"


class _CatFile:
    """A ``git cat-file --batch`` process: blobs by id, up to WINDOW asked for ahead of the answers
    (a round trip to git per blob costs more than reading it); started again when it dies on one,
    or when a blob over the limit has given its head (the rest is never read), and asked again
    for those after it."""

    WINDOW = 32
    """Ids written ahead (65 bytes each at most: far less than a pipe holds, so writing one never
    waits for git, which may be waiting for its answers to be read)."""

    def __init__(self, view: _View) -> None:
        self._view = view
        self._argv = view.argv("cat-file", "--batch")
        self._said = tempfile.TemporaryFile()  # noqa: SIM115 (closed by __exit__)
        self._process: subprocess.Popen[bytes] | None = None
        self._out: io.BufferedReader | None = None
        self._asked: collections.deque[bytes] = collections.deque()
        self.failures = 0
        """Blobs in a row that could not be read."""
        self.over = 0
        """The size of the blob that did not fit in the Budget (``answer`` gave None)."""

    def __enter__(self) -> _CatFile:
        return self

    def __exit__(self, *_: object) -> None:
        self._stop()
        self._said.close()

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            for pipe in (self._process.stdin, self._process.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):  # ids never written: git is gone
                        pipe.close()
            self._process = self._out = None

    @property
    def full(self) -> bool:
        return len(self._asked) >= self.WINDOW

    def ask(self, blob: bytes) -> None:
        self._asked.append(blob)
        self._write(blob)

    def _write(self, blob: bytes) -> None:
        import subprocess

        if self._process is None:
            self._said.seek(0)
            self._said.truncate()
            self._process = self._view.popen(self._argv, subprocess.PIPE, self._said)
            self._out = _timed(self._process, "cat-file")
        assert self._process.stdin is not None
        with contextlib.suppress(OSError):  # it died: said when the answer is read
            self._process.stdin.write(blob + b"\n")

    def _again(self) -> None:
        """Stop the process; the blobs still asked for are asked of a new one."""
        self._stop()
        for later in self._asked:
            self._write(later)

    def answer(self, limit: int, budget: Budget) -> tuple[bytes, int] | str | None:
        """The oldest asked blob's bytes (its first HEAD_BYTES only, when it is over ``limit``)
        and size; or why not; None when it would pass ``budget`` (``over``: its size)."""
        blob = self._asked.popleft()
        got = self._answer(blob, limit, budget)
        self.failures = self.failures + 1 if isinstance(got, str) else 0
        if isinstance(got, str) and self._process is None:  # it died: the others are asked again
            self._again()
        return got

    def _answer(self, blob: bytes, limit: int, budget: Budget) -> tuple[bytes, int] | str | None:
        process, out = self._process, self._out
        assert process is not None
        assert process.stdin is not None
        assert out is not None
        with contextlib.suppress(OSError):  # it died before: a broken pipe (what it said is read below)
            process.stdin.flush()
        try:
            header = out.readline(256).split()
        except Silent:
            raise
        except OSError:
            header = []
        if len(header) == 2 and header[1] == b"missing":
            return f"the blob {blob.decode()} is missing from the repository"
        if len(header) != 3 or not header[2].isdigit():
            self._stop()
            return f"the blob {blob.decode()} cannot be read: git cat-file: {_last_line(self._said)}"
        size = int(header[2])
        if header[1] != b"blob":
            self._again()  # (what it is, not what it holds: never read)
            return f"{blob.decode()} is a {header[1].decode()}, not a blob"
        wanted = size if size <= limit else min(size, HEAD_BYTES)
        if wanted > budget.room():
            self.over = size
            self._stop()
            return None
        data = out.read(wanted)
        budget.spend(len(data))
        if len(data) < wanted:
            self._stop()
            return f"the blob {blob.decode()} ends early: git cat-file: {_last_line(self._said)}"
        if wanted < size:  # over the limit: its head is enough, the rest is never read
            self._again()
        elif out.read(1) != b"\n":
            self._stop()
            return f"the blob {blob.decode()} ends early: git cat-file: {_last_line(self._said)}"
        return data, size


class State:
    """``--state FILE``: the last commit read of each repository (JSON: its real path -> the
    commit), so that a run reads only what came after. The heads are taken when the run starts
    (what is added while it reads waits for the next run); a repository's is recorded once it has
    been read with no loss of the whole (``done``), and the file is replaced when the run ends."""

    def __init__(self, file: str, repositories: Iterable[str]) -> None:
        self._file = file
        recorded = _load(file)
        folder = os.path.dirname(file) or "."
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):  # said before any reading
            raise StateError(f"--state {file}: its folder cannot be written, so the state could not be saved")
        if not isinstance(recorded, dict) or not all(isinstance(v, str) for v in recorded.values()):
            raise StateError(f"--state {file}: not a state file (a JSON object of commits)")
        self._recorded: dict[str, str] = recorded
        self._heads: dict[str, str] = {}
        self._paths = list(repositories)
        self.missing: list[tuple[str, str]] = []
        """The repositories whose recorded commit is not in their history now (rewritten, or
        another repository at that path), with that commit: each is read from its start."""
        for path in self._paths:
            commit = recorded.get(os.path.realpath(path))
            found, kept = _head_after(path, commit)
            if found is not None:
                self._heads[path] = found
                if commit is not None and not kept:
                    self.missing.append((path, commit))
        self.unchanged = all(recorded.get(os.path.realpath(path)) == tip for path, tip in self._heads.items())
        """Whether no repository had a commit after the one recorded when the run started."""

    def commits(self) -> tuple[tuple[str, str | None, str | None], ...]:
        """Each repository's own (real path, commit recorded, HEAD when the run started), for
        ``ReadOptions.commits``: one list for all would cut a clone at its origin's HEAD, and read
        a repository that holds another's objects as that one's history."""
        gone = {path for path, _ in self.missing}
        found: dict[str, tuple[str, str | None, str | None]] = {}
        for path in self._paths:
            key = os.path.realpath(path)
            since = None if path in gone else self._recorded.get(key)
            found.setdefault(key, (key, since, self._heads.get(path)))
        return tuple(found.values())

    def done(self, path: str) -> None:
        if path in self._heads:
            self._recorded[os.path.realpath(path)] = self._heads[path]

    def save(self) -> None:
        """Replace the file (written beside it first, so a run stopped while writing loses nothing);
        an OSError naming the file when it cannot be written (a full disk), the file as it was."""
        temporary = f"{self._file}.tmp"
        try:
            with open(temporary, "w", encoding="utf-8") as text:
                json.dump(self._recorded, text, indent=1, sort_keys=True)
                text.write("\n")
            os.replace(temporary, self._file)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            said = f"--state: cannot be saved ({error.strerror or error}); it is left as it was"
            raise OSError(error.errno, said, self._file) from error


def _head_after(path: str, commit: str | None) -> tuple[str | None, bool]:
    """The commit a repository's HEAD is at (None as ``head`` says), and whether ``commit`` (when
    given) is in its history: it, or an ancestor of it. One view of the repository for both."""
    git = _git()
    if git is None:
        return None, True
    try:
        with _View(git, path) as view:
            found = held(view, [view.tip]) if view.tip is not None else []
            if not found or commit is None:
                return (found[0] if found else None), True
            recorded = held(view, [commit])
            try:  # (no common history at all: git says so with a failure)
                kept = bool(recorded) and view.run("merge-base", recorded[0], found[0]).strip() == recorded[0]
            except Silent:
                raise
            except GitError:
                kept = False
            return found[0], kept
    except (GitError, OSError, Damaged):
        return None, True


def _load(file: str) -> object:
    """What a state file holds: only a regular file of at most MAX_STATE bytes is opened (a FIFO
    or a device would block or never end), and JSON nested too deep is refused (RecursionError);
    {} when it does not exist yet; StateError for anything else."""
    try:
        status = os.stat(file)
        if not stat.S_ISREG(status.st_mode):
            raise StateError(f"--state {file}: {_what(status.st_mode)}, not a regular file: not read")
        if status.st_size > MAX_STATE:
            raise StateError(f"--state {file}: over {MAX_STATE:,} bytes: not a state file")
        descriptor = os.open(file, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with open(descriptor, "rb") as opened:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # changed since the stat
                raise StateError(f"--state {file}: not a regular file: not read")
            data = opened.read(MAX_STATE + 1)
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise StateError(f"--state {file}: cannot be read: {error.strerror or error}") from error
    if len(data) > MAX_STATE:
        raise StateError(f"--state {file}: over {MAX_STATE:,} bytes: not a state file")
    try:
        return json.loads(data)
    except RecursionError as error:
        raise StateError(f"--state {file}: JSON nested too deep: not a state file") from error
    except ValueError as error:  # no JSON, or no UTF-8
        raise StateError(f"--state {file}: cannot be read: {error}") from error


def holds(path: str, commit: str) -> bool:
    """Whether the repository at ``path`` holds ``commit`` (False when git cannot tell)."""
    git = _git()
    if git is None:
        return False
    try:
        with _View(git, path) as view:
            return bool(held(view, (commit,)))
    except (GitError, OSError, Damaged):
        return False
