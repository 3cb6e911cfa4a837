"""Folders -> the files to read, in a stable order: Maildir (``new`` then ``cur``), MH folders and
news spools (INN tradspool: one article per file, named by its number), or any tree of files. A
public-inbox is read as its repositories (``publicinbox``): a v2 inbox's epochs in order, a bare
repository (a v1 inbox, an epoch) as itself; nothing else in them is read.

Numeric names sort as numbers (article 9 before 10), others by name. Links to folders are
followed, but a folder already visited (a link loop) is reported, not entered again; so are a
folder that cannot be listed, a link to itself or to nothing, and a FIFO, socket or device (reading
one could block for ever), and the walk goes on with the next entry. A file that vanishes after
the listing is reported when it is read.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from .kinds import is_repository


def _order(name: str) -> tuple[int, int, str]:
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


def files(folder: str) -> Iterator[str | tuple[str, str]]:
    """Paths of the files under ``folder``; a (path, reason) pair for a folder not entered."""
    seen: set[tuple[int, int]] = set()
    yield from _walk(folder, seen)


def _walk(folder: str, seen: set[tuple[int, int]]) -> Iterator[str | tuple[str, str]]:
    try:
        status = os.stat(folder)
        entries = sorted(os.scandir(folder), key=lambda entry: _order(entry.name))
    except OSError as error:
        yield folder, error.strerror or str(error)
        return
    if (status.st_dev, status.st_ino) in seen:
        yield folder, "a link loop: this folder was read already"
        return
    seen.add((status.st_dev, status.st_ino))
    if is_repository(folder):
        yield folder
        return
    from . import publicinbox  # (a folder walked: its v2 inbox's epochs)

    inbox = publicinbox.epochs(folder)
    if inbox is not None:
        yield from inbox
        return
    names = {entry.name for entry in entries}
    if {"cur", "new", "tmp"} <= names:  # Maildir: tmp holds messages still being delivered
        entries = [entry for entry in entries if entry.name in ("new", "cur")]
        entries.sort(key=lambda entry: entry.name != "new")
    for entry in entries:
        if entry.name.startswith(".") and entry.name != ".":
            continue  # .mh_sequences, .overview and other bookkeeping
        try:
            folder_entry = entry.is_dir()
            file_entry = not folder_entry and entry.is_file()
            dangling = not folder_entry and not file_entry and entry.is_symlink()
        except OSError as error:  # a link to itself (ELOOP), a name gone since the listing
            yield entry.path, error.strerror or str(error)
            continue
        if folder_entry:
            yield from _walk(entry.path, seen)
        elif file_entry:
            yield entry.path
        elif dangling:
            yield entry.path, "a link to nothing (its target does not exist)"
        else:
            yield entry.path, "not a regular file (a FIFO, socket or device): not read"
