"""Hostile public-inbox repositories (issue 28), for the driver ``bench/hostile.py``: each case
builds a bare repository with ``git fast-import`` in the folder it is given and returns urlsift's
arguments (the repository, then a good file). Small variants are tests in
``tests/sources/test_publicinbox.py``; ``tests/cli/test_hostile_cli.py`` has the ``--state`` ones."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

Case = Callable[[Path], tuple[list[str], Path | None]]
GOOD = b"From: a@b\nSubject: s\n\nsee http://good.example/\n"
GIT = "git"


def _epoch(folder: Path, blobs: list[bytes], order: list[int]) -> Path:
    """A bare repository whose commits hold, as ``m``, the blobs of ``order`` (indexes in
    ``blobs``, each blob written once)."""
    repo = folder / "0.git"
    subprocess.run([GIT, "init", "-q", "--bare", "-b", "master", str(repo)], check=True)
    import_ = subprocess.Popen([GIT, f"--git-dir={repo}", "fast-import", "--quiet"], stdin=subprocess.PIPE)
    assert import_.stdin is not None
    for k, blob in enumerate(blobs):
        import_.stdin.write(b"blob\nmark :%d\ndata %d\n" % (k + 1, len(blob)))
        import_.stdin.write(blob)
        import_.stdin.write(b"\n")
    for n, k in enumerate(order):
        import_.stdin.write(b"commit refs/heads/master\nmark :%d\n" % (len(blobs) + n + 1))
        import_.stdin.write(b"committer A <a@b> %d +0000\ndata 0\ndeleteall\n" % (10**9 + n))
        import_.stdin.write(b"M 100644 :%d m\n" % (k + 1))
    import_.stdin.close()
    if import_.wait() != 0:
        raise RuntimeError("git fast-import failed")
    return repo


def _with_good(folder: Path, *arguments: str) -> list[str]:
    (folder / "good.txt").write_bytes(GOOD)
    return ["--quiet", "--stats", *arguments, str(folder / "good.txt")]


def _alternating_gib_blobs(folder: Path) -> tuple[list[str], Path | None]:
    """20 commits alternating two blobs of 1 GiB (a repository of about 2 MB): each over
    --max-message (100M); it streamed 21.5 GB through cat-file."""
    head = b"From: a@b\nSubject: big\n\n"
    blobs = [head + bytes([k]) * (1 << 30) for k in (1, 2)]
    repo = _epoch(folder, blobs, [k % 2 for k in range(20)])
    return _with_good(folder, str(repo)), None


def _fifo_loose_object(folder: Path) -> tuple[list[str], Path | None]:
    """A message's loose object is a FIFO: git cat-file blocked in its open(), for ever."""
    repo = _epoch(folder, [GOOD, GOOD.replace(b"good", b"lost")], [0, 1])
    found = subprocess.run(
        [GIT, f"--git-dir={repo}", "rev-parse", "master:m"], capture_output=True, check=True, text=True
    )
    blob = found.stdout.strip()
    loose = repo / "objects" / blob[:2] / blob[2:]
    if loose.exists():
        loose.unlink()
    loose.parent.mkdir(exist_ok=True)
    os.mkfifo(loose)
    return _with_good(folder, str(repo)), None


def _fifo_include(folder: Path) -> tuple[list[str], Path | None]:
    """The repository's config includes a FIFO: each git call waited out its 600 s timeout."""
    repo = _epoch(folder, [GOOD], [0])
    os.mkfifo(folder / "fifo")
    with (repo / "config").open("a") as config:
        config.write(f"[include]\n\tpath = {folder / 'fifo'}\n")
    return _with_good(folder, str(repo)), None


def _objects_linked_to_usr(folder: Path) -> tuple[list[str], Path | None]:
    """-j 2 on a repository whose objects folder is a link to /usr: sizing it walked /usr."""
    repo = _epoch(folder, [GOOD], [0])
    subprocess.run(["rm", "-rf", str(repo / "objects")], check=True)
    (repo / "objects").symlink_to("/usr")
    return _with_good(folder, "-j", "2", str(repo)), None


def _state_nested(folder: Path) -> tuple[list[str], Path | None]:
    """--state FILE holding 10 MB of nested JSON arrays: a RecursionError traceback."""
    state = folder / "state.json"
    state.write_text("[" * 5_000_000 + "]" * 5_000_000)
    return _with_good(folder, "--state", str(state)), None


def _sparse_pack(repo: Path) -> None:
    """A pack of 1 TB that holds nothing (a hole, no ``.idx``: git never reads it)."""
    with (repo / "objects" / "pack" / f"pack-{'ab' * 20}.pack").open("wb") as pack:
        pack.truncate(1 << 40)


def _sparse_pack_3000_commits(folder: Path) -> tuple[list[str], Path | None]:
    """-j 2 on 3,000 commits beside a sparse 1 TB pack: the planner cut the repository by the
    pack's apparent size, one piece a commit, each walking the history (90 s)."""
    blobs = [GOOD.replace(b"good", b"good%d" % k) for k in range(3000)]
    repo = _epoch(folder, blobs, list(range(3000)))
    _sparse_pack(repo)
    return _with_good(folder, "-j", "2", str(repo)), None


def _sparse_pack_budget(folder: Path) -> tuple[list[str], Path | None]:
    """40 commits alternating two 50 MiB blobs beside a sparse 1 TB pack: the pack lifted the
    blobs' budget (1000 times the repository) to --max-expand, and all 2 GB were read."""
    head = b"From: a@b\nSubject: big\n\nhttp://example.org/big\n"
    blobs = [head + bytes([k]) * (50 << 20) for k in (1, 2)]
    repo = _epoch(folder, blobs, [k % 2 for k in range(40)])
    _sparse_pack(repo)
    return _with_good(folder, str(repo)), None


def _wide_trees(folder: Path) -> tuple[list[str], Path | None]:
    """200 commits alternating two trees of 200,000 paths (a 1.2 MB repository): git log --raw
    printed 40 million changes, none a message (112 s)."""
    repo = folder / "0.git"
    subprocess.run([GIT, "init", "-q", "--bare", "-b", "master", str(repo)], check=True)

    def git(*argv: str, data: bytes = b"") -> str:
        done = subprocess.run([GIT, f"--git-dir={repo}", *argv], input=data, capture_output=True, check=True)
        return done.stdout.decode().strip()

    trees = []
    for k in range(2):
        blob = git("hash-object", "-w", "--stdin", data=GOOD.replace(b"good", b"good%d" % k))
        listing = "".join(f"100644 blob {blob}\tf{n:07d}\n" for n in range(200_000))
        trees.append(git("mktree", data=listing.encode()))
    parent: list[str] = []
    who = ["-c", "user.name=A", "-c", "user.email=a@b"]
    for n in range(200):
        parent = ["-p", git(*who, "commit-tree", trees[n % 2], *parent, "-m", "")]
    git("update-ref", "refs/heads/master", parent[1])
    git("repack", "-adq")
    git("prune")
    return _with_good(folder, str(repo)), None


CASES: dict[str, Case] = {
    "20 commits alternating two 1 GiB blobs": _alternating_gib_blobs,
    "a loose object that is a FIFO": _fifo_loose_object,
    "config include of a FIFO": _fifo_include,
    "-j 2, objects linked to /usr": _objects_linked_to_usr,
    "--state of 10 MB of nested JSON": _state_nested,
    "-j 2, 3,000 commits and a sparse 1 TB pack": _sparse_pack_3000_commits,
    "40 x 50 MiB blobs and a sparse 1 TB pack": _sparse_pack_budget,
    "200 commits of 200,000 paths each": _wide_trees,
}
